// Package solve proves Catch The Mouse results: whether a side can force a win within a
// number of plies, by a depth-bounded AND/OR search with a transposition table.
//
// The game has no draws: the mice step every turn and only forward, so it ends within
// 2*MouseStepsLeft+1 plies, and a search to that depth decides the position exactly. Short of
// that, "the mice win within d plies", "the team wins within d plies" or "neither can force a
// win within d plies" are the three answers.
//
// The search for one attacker is a boolean depth-first search: at the attacker's nodes one
// winning move suffices (OR), at the defender's every move must lose (AND). Sound cut-offs do
// most of the work:
//   - the mice need at least 2*need-1 plies (mice to move) or 2*need (team to move) to win,
//     need being the fewest steps any mouse is from row 7;
//   - the team wins only by taking every mouse or leaving the mice without a move; a mouse is
//     stuck only with a piece of the team right below it, one piece per column, so with n mice
//     at least n-5 must be taken first, one a team move;
//   - a mouse on row 6 with the team to move wins at once unless Nadori takes it: only those
//     captures need searching, and two such mice win outright.
//
// The table keeps per position and attacker the smallest depth proven a win and the largest
// depth proven not to be one, so iterative deepening over the depth reuses everything, and the
// first depth that proves a win is the exact distance to the fastest forced win.
package solve

import (
	"math/bits"
	"time"

	"colony/game/mouse"
)

// Result is what Solve learned about a position.
type Result struct {
	// Winner is mouse.Mice or mouse.Team when that side forces a win within Depth plies
	// (then Depth is the exact length of the fastest forced win), -1 when neither can force
	// a win within Depth plies.
	Winner int
	Depth  int
	// Exact: the result is the game's value (a win found, or Depth reaches the end of every
	// line, which cannot happen without a win: the game has no draws).
	Exact bool
	// Move is a winning move of the side to move (its first move of a fastest win), or
	// mouse.NoMove when the side to move has no proven win.
	Move mouse.Move
	// Complete is false when the node or time budget ran out first: Depth is then the last
	// depth fully searched.
	Complete bool
	Nodes    int64
	Elapsed  time.Duration
}

// Solver is a prover with its transposition table; it is not safe for concurrent use.
type Solver struct {
	tt    []entry
	mask  uint64
	nodes int64
	att   int

	nodeLimit int64
	deadline  time.Time
	stop      bool

	moves [MaxPly][mouse.MaxMoves]mouse.Move
	keys  [MaxPly][mouse.MaxMoves]int32
}

// MaxPly bounds a proof's plies from its root.
const MaxPly = 140

// entry: for one position and attacker, win is the smallest depth proven a win (0: none;
// terminal positions are not stored), fail the largest depth proven not to be one (0: none
// known beyond the trivial), move the winning move or the defender's refutation.
type entry struct {
	key  uint64
	move mouse.Move
	win  uint8
	fail uint8
	_    [4]byte
}

const bucket = 4

// TTMinDepth: nodes this close to the horizon neither probe nor store (cheaper to search
// than a cache miss).
const TTMinDepth = 2

// attSalt tells the two attackers' entries apart.
var attSalt = [2]uint64{0, 0x9E3779B97F4A7C15}

// New returns a solver with a transposition table of about mb megabytes.
func New(mb int) *Solver {
	mb = max(mb, 1)
	n := uint64(1)
	for n*2*bucket*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &Solver{tt: make([]entry, n*bucket), mask: n - 1}
}

// Clear empties the table.
func (s *Solver) Clear() { clear(s.tt) }

// Nodes is the number of nodes searched since the last Solve or Wins began.
func (s *Solver) Nodes() int64 { return s.nodes }

func (s *Solver) probe(key uint64) *entry {
	b := s.tt[(key&s.mask)*bucket:][:bucket]
	for i := range b {
		if b[i].key == key {
			return &b[i]
		}
	}
	return nil
}

// slot returns the entry of key, else the one to replace: an empty one, else the shallowest.
func (s *Solver) slot(key uint64) *entry {
	b := s.tt[(key&s.mask)*bucket:][:bucket]
	victim, worst := 0, 1<<30
	for i := range b {
		e := &b[i]
		if e.key == key {
			return e
		}
		if e.key == 0 && e.win == 0 && e.fail == 0 {
			*e = entry{key: key}
			return e
		}
		if v := int(max(e.win, e.fail)); v < worst {
			worst, victim = v, i
		}
	}
	b[victim] = entry{key: key}
	return &b[victim]
}

// row5 is the inner row 6 (0-based 5): a mouse there steps to row 7 next.
const row5 = uint64(mouse.RowFull) << (4 * mouse.Cols)

// minNeed returns the fewest steps any mouse is from row 7 (99 without mice).
func minNeed(p *mouse.Position) int {
	if m := p.InnerMice(); m != 0 {
		return 6 - (63-bits.LeadingZeros64(m))/mouse.Cols - 1
	}
	if p.TopMice() != 0 {
		return 6
	}
	return 99
}

// lowerBound is the fewest plies in which att can still win from p (not terminal).
func lowerBound(p *mouse.Position, att int) int {
	teamToMove := p.ToMove() == mouse.Team
	if att == mouse.Mice {
		if teamToMove {
			return 2 * minNeed(p)
		}
		// With the mice to move, a mouse with a piece right below it cannot step now: it
		// needs one step more in the count (another mouse moves first).
		occ := p.Occupied()
		inner, top := p.InnerMice(), uint64(p.TopMice())
		stuck := inner & (occ >> mouse.Cols)
		n := 99
		if free := inner &^ stuck; free != 0 {
			n = 6 - (63-bits.LeadingZeros64(free))/mouse.Cols - 1
		}
		if stuck != 0 {
			n = min(n, 6-(63-bits.LeadingZeros64(stuck))/mouse.Cols-1+1)
		}
		if top != 0 {
			need := 6
			if top&^occ == 0 {
				need = 7
			}
			n = min(n, need)
		}
		return 2*n - 1
	}
	k := p.NumMice() - bits.OnesCount64(p.Cats()|p.Nadori())
	if k <= 0 {
		if teamToMove {
			return 1 // a team move, then the mice have none
		}
		return 2 // the mice step (p is not over), a team move, then they have none
	}
	// k captures first, one a team move, and only once Nadori stands next to a mouse: each
	// ply brings Nadori and the nearest mouse at most one step closer.
	if p.Nadori() == 0 {
		return 1 << 10
	}
	ni := bits.TrailingZeros64(p.Nadori())
	nr, nc := ni/mouse.Cols+1, ni%mouse.Cols
	dist := 99
	for c, r := range p.MouseRows() {
		if r >= 0 {
			dist = min(dist, max(abs(int(r)-nr), abs(c-nc)))
		}
	}
	if !teamToMove {
		dist = max(dist-1, 1)
	}
	first := (dist-1+1)/2 + 1 // the team move that can take the first mouse
	lb := 2*(first+k-1) - 1
	if !teamToMove {
		lb++
	}
	return lb
}

func abs(x int) int { return max(x, -x) }

// Wins reports whether att forces a win within d plies of p. ok is false when the budget ran
// out (the answer is then false and means nothing).
func (s *Solver) Wins(p mouse.Position, att, d int) (win, ok bool) {
	s.att = att
	s.stop = false
	w := s.search(p, d, 0)
	return w && !s.stop, !s.stop
}

// SetLimits bounds the next searches: a node count and a deadline (zero: none). Solve sets
// them itself.
func (s *Solver) SetLimits(nodes int64, deadline time.Time) {
	s.nodes, s.nodeLimit, s.deadline, s.stop = 0, nodes, deadline, false
}

func (s *Solver) search(p mouse.Position, d, ply int) bool {
	s.nodes++
	if s.nodes&1023 == 0 && !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stop = true
	}
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stop = true
	}
	if s.stop {
		return false
	}
	if p.Terminal() {
		return p.Winner() == s.att
	}
	att := s.att
	side := p.ToMove()
	if d <= 0 || ply >= MaxPly-1 || lowerBound(&p, att) > d {
		return false
	}
	if side == mouse.Mice && p.InnerMice()&row5 != 0 {
		return att == mouse.Mice // a step to row 7
	}
	key := p.Hash() ^ attSalt[att]
	if key == 0 {
		key = 1
	}
	hint := mouse.NoMove
	useTT := d >= TTMinDepth
	if !useTT {
	} else if e := s.probe(key); e != nil {
		if e.win != 0 && int(e.win) <= d {
			return true
		}
		if int(e.fail) >= d {
			return false
		}
		hint = e.move
	}

	// The table's move decides most nodes on its own: try it before generating the rest.
	tried := false
	if hint != mouse.NoMove && hintLegal(&p, hint) {
		tried = true
		w := s.search(p.Apply(hint), d-1, ply+1)
		if s.stop {
			return false
		}
		if w == (side == att) {
			s.record(key, d, w, side == att, hint)
			return w
		}
	}

	moves := p.LegalMoves(s.moves[ply][:0])
	// A mouse on row 6 with the team to move: only Nadori taking it stops the win.
	if side == mouse.Team {
		if r5 := p.InnerMice() & row5; r5 != 0 {
			if bits.OnesCount64(r5) > 1 {
				return att == mouse.Mice
			}
			n := 0
			for _, m := range moves {
				if m != mouse.Pass && uint64(1)<<(m.To()-mouse.Cols) == r5 {
					moves[n] = m
					n++
				}
			}
			moves = moves[:n]
			if n == 0 {
				return att == mouse.Mice
			}
		}
	}
	keys := s.order(&p, moves, hint, side == att, ply)

	result := side != att // AND node: true unless a move refutes; OR node: false unless one wins
	best := mouse.NoMove
	for i := range keys {
		// Selection: the first moves decide most nodes, a full sort is wasted.
		bi := i
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[bi] {
				bi = j
			}
		}
		keys[i], keys[bi] = keys[bi], keys[i]
		m := moves[keys[i]&0xFF]
		if m == hint && tried {
			continue // searched above
		}
		w := s.search(p.Apply(m), d-1, ply+1)
		if s.stop {
			return false
		}
		if side == att && w {
			result, best = true, m
			break
		}
		if side != att && !w {
			result, best = false, m
			break
		}
	}
	if useTT {
		s.record(key, d, result, side == att, best)
	}
	return result
}

// record stores a node's result: a win within d, or none within d, with the move that
// decided it (the attacker's win or the defender's refutation).
func (s *Solver) record(key uint64, d int, win, attToMove bool, m mouse.Move) {
	e := s.slot(key)
	if win {
		if e.win == 0 || int(e.win) > d {
			e.win = uint8(min(d, 255))
		}
		if attToMove {
			e.move = m
		}
	} else {
		e.fail = uint8(min(max(int(e.fail), d), 255))
		if !attToMove {
			e.move = m
		}
	}
}

// hintLegal checks a table move cheaply: the key matched, so only a collision makes it
// illegal.
func hintLegal(p *mouse.Position, m mouse.Move) bool {
	if m == mouse.Pass || m >= mouse.NoMove || m.IsTeam() != (p.ToMove() == mouse.Team) {
		return false
	}
	from, to := m.From(), m.To()
	occ := p.Occupied()
	if !m.IsTeam() {
		if to != from+mouse.Cols || to >= mouse.NumCells {
			return false
		}
		if from < mouse.Cols {
			return p.TopMice()>>from&1 != 0 && occ>>(to-mouse.Cols)&1 == 0
		}
		fi := from - mouse.Cols
		return p.InnerMice()>>fi&1 != 0 && (to >= 6*mouse.Cols || occ>>(to-mouse.Cols)&1 == 0)
	}
	if from < mouse.Cols || to < mouse.Cols || from >= 6*mouse.Cols || to >= 6*mouse.Cols {
		return false
	}
	fi, ti := from-mouse.Cols, to-mouse.Cols
	switch {
	case p.Cats()>>fi&1 != 0:
		return (mouse.QueenAttacks(fi, occ)&^occ)>>ti&1 != 0
	case p.Nadori()>>fi&1 != 0:
		return (mouse.KingAttacks(fi)&^(p.Cats()|p.Nadori()))>>ti&1 != 0
	}
	return false
}

// order sorts moves for the search and returns their indexes (low byte) with sort keys: the
// table's move first, then the attacker's most forcing moves or the defender's likeliest
// refutations.
func (s *Solver) order(p *mouse.Position, moves []mouse.Move, hint mouse.Move, attacking bool, ply int) []int32 {
	keys := s.keys[ply][:len(moves)]
	rows := p.MouseRows()
	// Free columns: a mouse with nothing below it to row 6.
	free := p.FreeMice()
	var freeRow [mouse.Cols]int
	for c, r := range rows {
		freeRow[c] = -1
		if free>>c&1 != 0 {
			freeRow[c] = int(r)
		}
	}
	mice := p.InnerMice()
	for i, m := range moves {
		var k int32
		switch {
		case m == hint:
			k = 1 << 20
		case m == mouse.Pass:
		case !m.IsTeam():
			tr, tc := m.To()/mouse.Cols, m.To()%mouse.Cols
			k = 10 * int32(tr)
			if freeRow[tc] >= 0 {
				k += 100 + 10*int32(tr)
			}
		default:
			to := m.To()
			tr, tc := to/mouse.Cols, to%mouse.Cols
			if mice>>(to-mouse.Cols)&1 != 0 {
				k = 5000 + 100*int32(tr)
			} else if r := freeRow[tc]; r >= 0 && r < tr {
				// Onto the path of a free mouse: nearer the mouse and the further down it
				// is, the better.
				k = 1000 + 100*int32(r) - 10*int32(tr-r-1)
			} else if r := rows[tc]; r >= 0 && int(r) == tr-1 {
				k = 500 // right below a mouse: it is stuck
			}
		}
		keys[i] = -k<<8 | int32(i)
	}
	return keys
}

// Limits bound a Solve: the deepest depth, a node budget and a time budget (zero: none).
type Limits struct {
	Depth int
	Nodes int64
	Time  time.Duration
	// MeOnly searches only for wins of the side to move (an engine looking for a move).
	MeOnly bool
}

// Solve deepens from depth 1 to lim.Depth (default: the end of the game) and stops at the
// first depth where a side forces a win, or when the budget runs out.
func (s *Solver) Solve(p mouse.Position, lim Limits) Result {
	start := time.Now()
	var deadline time.Time
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	s.SetLimits(lim.Nodes, deadline)
	full := 2*p.MouseStepsLeft() + 1 // no game lasts longer
	maxD := full
	if lim.Depth > 0 {
		maxD = min(lim.Depth, full)
	}
	res := Result{Winner: -1, Move: mouse.NoMove, Complete: true}
	if p.Terminal() {
		res.Winner, res.Exact = p.Winner(), true
		res.Nodes, res.Elapsed = 1, time.Since(start)
		return res
	}
	me := p.ToMove()
	for d := 1; d <= maxD; d++ {
		for i, att := range [2]int{me, 1 - me} {
			if i == 1 && lim.MeOnly {
				break
			}
			w, ok := s.Wins(p, att, d)
			if !ok {
				res.Complete = false
				res.Nodes, res.Elapsed = s.nodes, time.Since(start)
				return res
			}
			if w {
				res.Winner, res.Depth, res.Exact = att, d, true
				if att == me {
					res.Move = s.rootMove(p, d)
				}
				res.Nodes, res.Elapsed = s.nodes, time.Since(start)
				return res
			}
		}
		res.Depth = d
	}
	res.Exact = res.Depth >= full // cannot happen: some side always wins by then
	res.Nodes, res.Elapsed = s.nodes, time.Since(start)
	return res
}

// rootMove returns a move of the side to move that wins within d plies (d proven).
func (s *Solver) rootMove(p mouse.Position, d int) mouse.Move {
	s.att = p.ToMove()
	key := p.Hash() ^ attSalt[s.att]
	if key == 0 {
		key = 1
	}
	if e := s.probe(key); e != nil && e.move != mouse.NoMove && e.move != 0 && p.IsLegal(e.move) {
		if w, _ := s.winsAfter(p, e.move, d); w {
			return e.move
		}
	}
	var buf [mouse.MaxMoves]mouse.Move
	n0 := s.nodes
	for _, m := range p.LegalMoves(buf[:0]) {
		if w, _ := s.winsAfter(p, m, d); w {
			return m
		}
		if s.nodes-n0 > 3*RootMoveNodes {
			break // the table lost the proof: no move rather than a long search
		}
	}
	return mouse.NoMove
}

func (s *Solver) winsAfter(p mouse.Position, m mouse.Move, d int) (bool, bool) {
	// The proof is in the table: re-reading it is cheap. A bound keeps an overwritten entry
	// from costing more than a moment.
	lim, dl, n0 := s.nodeLimit, s.deadline, s.nodes
	s.nodeLimit, s.deadline = s.nodes+RootMoveNodes, time.Time{}
	defer func() { s.nodeLimit, s.deadline, s.nodes = lim, dl, n0+min(s.nodes-n0, RootMoveNodes) }()
	c := p.Apply(m)
	if c.Terminal() {
		return c.Winner() == s.att, true
	}
	s.stop = false
	w := s.search(c, d-1, 1)
	return w && !s.stop, !s.stop
}

// RootMoveNodes bounds the search that confirms one winning move.
const RootMoveNodes = 100_000
