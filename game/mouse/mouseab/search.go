package mouseab

import (
	"math/bits"

	ab "colony/engine/alphabeta"
	"colony/game/mouse"
)

// Scores are hundredths of a mouse from the side to move's point of view. A finished game
// scores winScore - ply for the winner (faster wins first) and its negation for the loser.
const (
	winScore int32 = 30000
	winBound int32 = 20000
)

// hooks are Catch The Mouse's part of the generic search (engine/alphabeta).
type hooks struct {
	ab.Plain[mouse.Position, mouse.Move]

	miceRole bool // the engine plays the mice: their evaluation profile

	// evals caches leaf evaluations by hash (the evaluation is most of a search's time and
	// the same leaves come back through transpositions: the cats' moves commute); nil: none.
	evals []evalEntry
}

type evalEntry struct {
	key uint64
	v   int32
}

// evalCacheBits sizes the evaluation cache: 1<<16 entries, 1 MB.
const evalCacheBits = 16

// profileKey tells the two evaluation profiles apart in the cache.
const profileKey = 0x6D696365726F6C65 // "micerole"

// row5Mice are the inner cells of row 6 (0-based 5), the last before row 7.
const row5Mice = uint64(mouse.RowFull) << (4 * mouse.Cols)

// Enter scores a finished game, prunes by mate distance (nothing here can beat a win found
// nearer the root) and answers a mouse on row 6: with the mice to move it wins at once; with
// the team to move only Nadori's capture answers it, so the node is searched a ply deeper.
func (h *hooks) Enter(p mouse.Position, ply, depth int, alpha, beta int32) (int32, bool, int, int32, int32) {
	if p.Terminal() {
		return terminalScore(&p, ply), true, depth, alpha, beta
	}
	alpha = max(alpha, -winScore+int32(ply))
	beta = min(beta, winScore-int32(ply+1))
	if alpha >= beta {
		return alpha, true, depth, alpha, beta
	}
	if p.InnerMice()&row5Mice != 0 {
		if p.ToMove() == mouse.Mice {
			return winScore - int32(ply+1), true, depth, alpha, beta
		}
		depth++
	}
	return 0, false, depth, alpha, beta
}

// Leaf is the race evaluation, in the profile of the engine's role.
func (h *hooks) Leaf(p mouse.Position, ply int) int32 {
	mice := h.miceRole
	if h.evals == nil {
		return evaluate(&p, mice)
	}
	key := p.Hash()
	if mice {
		key ^= profileKey
	}
	e := &h.evals[key&(1<<evalCacheBits-1)]
	if e.key != key {
		e.key, e.v = key, evaluate(&p, mice)
	}
	return e.v
}

// Key is the position hash: the game has no turn count and no repetition (the mice only walk
// forward), so the hash is the whole key.
func (h *hooks) Key(p mouse.Position) uint64 { return p.Hash() }

// Stuck: a team that must pass is searched on.
func (h *hooks) Stuck(p mouse.Position, ply int) (int32, bool) { return 0, false }

// Moves generates the moves with the orderer's static values.
func (h *hooks) Moves(p mouse.Position, moves []mouse.Move, o *ab.Order[mouse.Move]) ([]mouse.Move, int) {
	moves = p.LegalMoves(moves)
	if len(moves) == 0 || moves[0] == mouse.Pass {
		return moves, p.ToMove()
	}
	ord := newOrderer(&p)
	o.Side(ord.side)
	for i, m := range moves {
		o.Keys[i] = o.Key(m, ord.key(m))
	}
	return moves, ord.side
}

// reductions: late quiet moves of the team (from the seventh on, below the ordering value of
// a move onto a free mouse's path: Config.ReduceBelow) are searched one ply less first, two
// from the 21st at depth 6 and more; the mice are never reduced (Config.ReduceSides).
var reductions = func() *ab.LMR {
	var t ab.LMR
	for d := 3; d < 64; d++ {
		for i := 6; i < 64; i++ {
			t[d][i] = 1
			if d >= 6 && i >= 20 {
				t[d][i] = 2
			}
		}
	}
	return &t
}()

// terminalScore scores a finished game at distance ply from the root.
func terminalScore(p *mouse.Position, ply int) int32 {
	if p.Winner() == p.ToMove() {
		return winScore - int32(ply)
	}
	return -winScore + int32(ply)
}

// orderer scores the moves of one node before killers and the table move.
type orderer struct {
	side  int
	rows  [mouse.Cols]int8 // mouse row per column, -1 for none
	free  uint16           // columns whose mouse has a free path
	mice  uint64
	nad   uint64
	reach uint64 // inner cells next to Nadori
}

func newOrderer(p *mouse.Position) orderer {
	o := orderer{side: p.ToMove(), rows: p.MouseRows(), mice: p.InnerMice(), nad: p.Nadori()}
	if o.nad != 0 {
		o.reach = mouse.KingAttacks(bits.TrailingZeros64(o.nad))
	}
	o.free = p.FreeMice()
	return o
}

// key is the static ordering value of m: for the team, captures (of the most advanced mice
// first), then moves onto the path of a free mouse (the most advanced first, right below it
// best); for the mice, the winning step, then steps of free mice, the furthest down first, and
// last the steps into Nadori's reach.
func (o *orderer) key(m mouse.Move) int32 {
	from, to := m.From(), m.To()
	tr, tc := to/mouse.Cols, to%mouse.Cols
	if o.side == mouse.Team {
		ti := to - mouse.Cols
		if o.mice>>ti&1 != 0 {
			return 100000 + 1000*int32(tr)
		}
		var k int32
		if r := int(o.rows[tc]); r >= 0 && r < tr && o.free>>tc&1 != 0 {
			k = 2000 + 700*int32(r) - 150*int32(tr-r-1)
		}
		if o.nad>>(from-mouse.Cols)&1 != 0 {
			k += 50
		}
		return k
	}
	if tr == mouse.Rows-1 {
		return 1 << 20
	}
	k := 100 * int32(tr)
	if o.free>>tc&1 != 0 {
		k += 400 + 150*int32(tr)
	}
	if o.reach>>(to-mouse.Cols)&1 != 0 {
		k -= 3000
	}
	return k
}
