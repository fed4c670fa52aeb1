package bots

import (
	"cmp"
	"math/bits"
	"time"

	"colony/engine"
	"colony/game/slime"
)

// Paranoid is Colony's search for Slime: iterative-deepening alpha-beta in which the three
// opponents are taken to play together against the player to move at the root (the paranoid
// assumption: they minimise its score), or, with BestReply set, a best-reply search (Schadd
// and Winands): between two of the root player's moves only the single most harmful move of
// any one opponent is played, which looks twice as many of its own moves ahead for the
// same work. Leaves are scored by Eval. A transposition table keeps bounds and best moves
// between iterations.
//
// Moves searched: every legal move except merges that fill no cell (a pure loss of one
// cell) while the mover has anything else; ordered by the table's move, then by immediate
// gain.
type Paranoid struct {
	// BestReply selects best-reply search instead of paranoid.
	BestReply bool
	// MaxDepth caps the iterative deepening in plies (0: 64).
	MaxDepth int
	// Weights of the evaluation (EvalWeights; zero value: DefaultWeights).
	W EvalWeights
	// Beam, when positive, searches only the Beam best-ordered moves of every node below the
	// root (forward pruning: the moves of least immediate gain are left out); OppBeam, when
	// positive, replaces it at the opponents' nodes. (Against three greedy players at 45-50 ms
	// a move, 72 games each: OppBeam 1, 2 and 3 scored 29-32, 33 and 29 cells, Beam 6
	// throughout 33-37; ordering the opponents' moves by the root player's cells they take,
	// rather than by their own gain, 26-29.)
	Beam, OppBeam int

	name     string
	tt       []ttEntry
	bufs     [][]slime.Move
	keys     [][]int32
	me       int
	nodes    int64
	deadline time.Time
	stopped  bool
	// LastDepth and LastScore describe the last search (depth completed, its score).
	LastDepth int
	LastScore int
	LastNodes int64
}

// EvalWeights weigh the terms of the evaluation, in hundredths of a cell.
type EvalWeights struct {
	// Threat: the most cells of the root player that one move of the opponent to move at the
	// leaf converts (subtracted), or, with the root player to move, the most enemy cells one
	// of its own moves converts (added); scaled by this weight.
	Threat int
	// Exposed: own cells next to an empty cell that some opponent reaches in one move.
	Exposed int
	// Frontier: empty cells the root player can spread to.
	Frontier int
}

// DefaultWeights are the evaluation weights the engine plays with.
var DefaultWeights = EvalWeights{Threat: 60, Exposed: 8, Frontier: 20}

var _ engine.Engine[slime.Position, slime.Move] = (*Paranoid)(nil)

const (
	ttBits   = 16
	infinity = 1 << 30
	cellUnit = 100
)

type ttEntry struct {
	key   uint64
	move  slime.Move
	score int32
	depth int8
	flag  int8 // exact, lower or upper bound
}

const (
	ttExact = iota + 1
	ttLower
	ttUpper
)

// DefaultBeam is the forward-pruning width the engines play with (measured against three
// greedy players at 50 ms a move: beam 3, 4, 6, 8, 12 and none scored about 28, 27, 32, 27,
// 24 and 24 cells over 48 games each, a noisy ranking in which pruning clearly helps).
const DefaultBeam = 6

// NewParanoid returns the paranoid search engine.
func NewParanoid() *Paranoid { return &Paranoid{name: "paranoid", Beam: DefaultBeam} }

// NewBestReply returns the best-reply search engine.
func NewBestReply() *Paranoid {
	return &Paranoid{name: "bestreply", BestReply: true, Beam: DefaultBeam}
}

// Name returns "paranoid" or "bestreply".
func (e *Paranoid) Name() string {
	if e.name == "" {
		return "paranoid"
	}
	return e.name
}

// NewGame clears the transposition table.
func (e *Paranoid) NewGame() { clear(e.tt) }

// DefaultMoveTime is the search time of a move when the limits give neither a move time nor a
// clock nor a depth.
const DefaultMoveTime = 50 * time.Millisecond

// BestMove searches p within lim: lim.MoveTime, else a share of lim.MyTime, else lim.Depth
// plies, else DefaultMoveTime.
func (e *Paranoid) BestMove(p slime.Position, lim engine.Limits) slime.Move {
	if e.tt == nil {
		e.tt = make([]ttEntry, 1<<ttBits)
	}
	if e.W == (EvalWeights{}) {
		e.W = DefaultWeights
	}
	root := e.movesAt(p, 0, slime.Pass)
	if len(root) == 0 {
		return slime.Pass
	}
	if len(root) == 1 {
		return root[0]
	}
	start := time.Now()
	maxDepth := e.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 64
	}
	budget := time.Duration(0)
	switch {
	case lim.MoveTime > 0:
		budget = lim.MoveTime
	case lim.MyTime > 0:
		left, ok := engine.Spendable(lim.MyTime, p.OwnTurnsLeft())
		if !ok {
			return root[0]
		}
		budget = left / time.Duration(p.MovesLeft())
	case lim.Depth > 0:
		maxDepth = lim.Depth
	default:
		budget = DefaultMoveTime
	}
	e.deadline = time.Time{}
	if budget > 0 {
		e.deadline = start.Add(budget)
	}
	e.me = p.ToMove()
	e.nodes = 0
	e.stopped = false
	best := root[0]
	e.LastDepth, e.LastScore = 0, 0
	for depth := 1; depth <= maxDepth; depth++ {
		score, m := e.searchRoot(p, depth, best)
		if e.stopped {
			break
		}
		best = m
		e.LastDepth, e.LastScore = depth, score
		if score >= infinity/2 || score <= -infinity/2 || p.EmptyCount() == 0 {
			break
		}
		// An iteration costs several times the last: do not start one that cannot finish.
		if budget > 0 && time.Since(start)*3 > budget {
			break
		}
	}
	e.LastNodes = e.nodes
	return best
}

// searchRoot searches the root moves, the previous best first, and returns the best score
// and move (the move is meaningful only if the search was not stopped).
func (e *Paranoid) searchRoot(p slime.Position, depth int, prev slime.Move) (int, slime.Move) {
	moves := e.movesAt(p, 0, prev)
	alpha := -infinity
	best := moves[0]
	for _, m := range moves {
		s := e.search(e.child(p, m), depth-1, alpha, infinity, 1)
		if e.stopped {
			break
		}
		if s > alpha {
			alpha, best = s, m
		}
	}
	return alpha, best
}

// child is the position after m; in best-reply search, after an opponent's move the root
// player is to move again.
func (e *Paranoid) child(p slime.Position, m slime.Move) slime.Position {
	c := p.Apply(m)
	if e.BestReply && p.ToMove() != e.me {
		c = c.WithToMove(e.me)
	}
	return c
}

func (e *Paranoid) search(p slime.Position, depth, alpha, beta, ply int) int {
	if p.Terminal() {
		return cellUnit * p.Count(e.me)
	}
	if depth <= 0 {
		return e.Eval(p)
	}
	if e.tick() {
		return 0
	}
	slot := &e.tt[p.Hash()&(1<<ttBits-1)]
	ttMove := slime.Pass
	if slot.key == p.Hash() {
		ttMove = slot.move
		if int(slot.depth) >= depth {
			s := int(slot.score)
			switch {
			case slot.flag == ttExact,
				slot.flag == ttLower && s >= beta,
				slot.flag == ttUpper && s <= alpha:
				return s
			}
		}
	}
	a0, b0 := alpha, beta
	var best int
	bestMove := slime.Pass
	if p.ToMove() == e.me {
		moves := e.movesAt(p, ply, ttMove)
		if e.Beam > 0 && len(moves) > e.Beam {
			moves = moves[:e.Beam]
		}
		best = -infinity
		for _, m := range moves {
			s := e.search(e.child(p, m), depth-1, alpha, beta, ply+1)
			if s > best {
				best, bestMove = s, m
			}
			alpha = max(alpha, s)
			if alpha >= beta || e.stopped {
				break
			}
		}
	} else {
		best = infinity
		for q := range slime.NumPlayers {
			pq := p
			if e.BestReply {
				if q == e.me {
					continue
				}
				pq = p.WithToMove(q)
			} else if q != p.ToMove() {
				continue
			}
			moves := e.movesAt(pq, ply, ttMove)
			if beam := cmp.Or(e.OppBeam, e.Beam); beam > 0 && len(moves) > beam {
				moves = moves[:beam]
			}
			for _, m := range moves {
				s := e.search(e.child(pq, m), depth-1, alpha, beta, ply+1)
				if s < best {
					best, bestMove = s, m
				}
				beta = min(beta, s)
				if alpha >= beta || e.stopped {
					break
				}
			}
			if alpha >= beta || e.stopped {
				break
			}
		}
	}
	if e.stopped {
		return best
	}
	flag := int8(ttExact)
	switch {
	case best <= a0:
		flag = ttUpper
	case best >= b0:
		flag = ttLower
	}
	*slot = ttEntry{key: p.Hash(), move: bestMove, score: int32(best), depth: int8(depth), flag: flag}
	return best
}

// movesAt returns the moves searched in p, in the buffer of ply, ordered: first (when it is
// among them), then by immediate gain, highest first, a spread before a jump of the same
// gain. Merges that fill no cell (a pure loss) are left out while anything else is left.
func (e *Paranoid) movesAt(p slime.Position, ply int, first slime.Move) []slime.Move {
	for len(e.bufs) <= ply {
		e.bufs = append(e.bufs, make([]slime.Move, 0, slime.MaxMovesOf(slime.MaxSize)))
		e.keys = append(e.keys, make([]int32, 0, slime.MaxMovesOf(slime.MaxSize)))
	}
	all := p.LegalMoves(e.bufs[ply])
	e.bufs[ply] = all
	n := p.Size()
	occ := p.Occupied()
	enemies := andNot(occ, p.Cells(p.ToMove()))
	empty := andNot(slime.Full(n), occ)
	kept := all[:0]
	keys := e.keys[ply][:0]
	for _, m := range all {
		var k int32
		switch {
		case m == slime.Pass:
		case m.IsMerge():
			fill := count(and(slime.Neighbours(n, m.To()), empty))
			if fill == 0 {
				continue
			}
			k = int32(fill-1) * 4
		case m.IsSpread():
			k = int32(1+count(and(slime.Neighbours(n, m.To()), enemies)))*4 + 2
		default:
			k = int32(count(and(slime.Neighbours(n, m.To()), enemies))) * 4
		}
		if m == first {
			k = 1 << 20
		}
		kept = append(kept, m)
		keys = append(keys, k)
	}
	if len(kept) == 0 {
		return all[:1] // a merge that fills nothing, or Pass
	}
	// Insertion sort: the lists are short and often nearly sorted by the generator.
	for i := 1; i < len(kept); i++ {
		m, k := kept[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			kept[j], keys[j] = kept[j-1], keys[j-1]
		}
		kept[j], keys[j] = m, k
	}
	e.keys[ply] = keys
	return kept
}

// Eval scores a position for the root player, in hundredths of a cell: its cells, less the
// largest conversion of its cells that the player to move can make if that is an opponent
// (or plus the largest conversion of enemy cells it can make if it is the root player), less
// its cells exposed to any opponent's next move, plus the empty cells it can spread to.
func (e *Paranoid) Eval(p slime.Position) int {
	e.tick()
	n := p.Size()
	if n <= 8 {
		return e.eval64(p)
	}
	me := e.me
	mine := p.Cells(me)
	var enemies slime.Bitboard
	for q := range slime.NumPlayers {
		if q != me {
			c := p.Cells(q)
			for w := range enemies {
				enemies[w] |= c[w]
			}
		}
	}
	empty := p.Empty()
	score := cellUnit * count(mine)
	myReach := and(slime.Dilate(n, mine), empty)
	score += e.W.Frontier * count(myReach)
	enemyReach := and(slime.Dilate(n, slime.Dilate(n, enemies)), empty)
	exposed := and(slime.Dilate(n, enemyReach), mine)
	score -= e.W.Exposed * count(exposed)
	// The side to move's best conversion next.
	mover := p.ToMove()
	if mover == me {
		score += e.W.Threat * bestHit(n, and(slime.Dilate(n, slime.Dilate(n, mine)), empty), enemies)
	} else if own := p.Cells(mover); !isZero(own) {
		score -= e.W.Threat * bestHit(n, and(slime.Dilate(n, slime.Dilate(n, own)), empty), mine)
	}
	return score
}

// bestHit is the most cells of victims next to one cell of reach (the empty cells a player
// reaches by a spread or a jump).
func bestHit(n int, reach, victims slime.Bitboard) int {
	best := 0
	for w := range reach {
		for b := reach[w]; b != 0; b &= b - 1 {
			sq := w<<6 | bits.TrailingZeros64(b)
			if h := count(and(slime.Neighbours(n, sq), victims)); h > best {
				best = h
			}
		}
	}
	return best
}

func count(a slime.Bitboard) int {
	return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3])
}

func and(a, b slime.Bitboard) slime.Bitboard {
	return slime.Bitboard{a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]}
}

func andNot(a, b slime.Bitboard) slime.Bitboard {
	return slime.Bitboard{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}

func isZero(a slime.Bitboard) bool { return a[0]|a[1]|a[2]|a[3] == 0 }

// tick counts a node and checks the clock every 256 nodes; it reports whether the search
// must stop.
func (e *Paranoid) tick() bool {
	e.nodes++
	if e.nodes&255 == 0 && !e.deadline.IsZero() && time.Now().After(e.deadline) {
		e.stopped = true
	}
	return e.stopped
}

// eval64 is Eval for boards of up to 8x8.
func (e *Paranoid) eval64(p slime.Position) int {
	n := p.Size()
	me := e.me
	mine := p.Cells(me)[0]
	var enemies uint64
	for q := range slime.NumPlayers {
		if q != me {
			enemies |= p.Cells(q)[0]
		}
	}
	empty := slime.Full(n)[0] &^ (mine | enemies)
	score := cellUnit * bits.OnesCount64(mine)
	near := slime.Dilate64(n, mine)
	score += e.W.Frontier * bits.OnesCount64(near&empty)
	enemyReach := slime.Dilate64(n, slime.Dilate64(n, enemies)) & empty
	score -= e.W.Exposed * bits.OnesCount64(slime.Dilate64(n, enemyReach)&mine)
	mover := p.ToMove()
	if mover == me {
		score += e.W.Threat * bestHit64(n, slime.Dilate64(n, near)&empty, enemies)
	} else if own := p.Cells(mover)[0]; own != 0 {
		score -= e.W.Threat * bestHit64(n, slime.Dilate64(n, slime.Dilate64(n, own))&empty, mine)
	}
	return score
}

func bestHit64(n int, reach, victims uint64) int {
	best := 0
	for b := reach; b != 0; b &= b - 1 {
		if h := bits.OnesCount64(slime.Neighbours64(n, bits.TrailingZeros64(b)) & victims); h > best {
			best = h
		}
	}
	return best
}
