package ataxxab

import (
	"math/bits"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/internal/splitmix"
)

// Scores are hundredths of a piece from the side to move's point of view. A finished game
// scores winScore - plyStep*ply + margin for the winner (faster wins first, then larger
// margins), its negation for the loser, and 0 for a draw.
const (
	winScore int32 = 30000
	plyStep  int32 = 50 // > the largest margin (49)
	winBound int32 = 12000
)

// WinScore and PlyStep are the scoring of finished games (see above), for other Ataxx searches.
const (
	WinScore = winScore
	PlyStep  = plyStep
)

var turnKeys [ataxx.MaxTurns + 2]uint64

func init() {
	s := uint64(0x7475726E6B657973) // "turnkeys"
	for i := range turnKeys {
		turnKeys[i] = splitmix.Next(&s)
	}
}

// ttKey mixes the turn count into the position hash: the 400-turn cap makes the value of a
// position depend on it, so entries from different turns must not be confused.
func ttKey(p *ataxx.Position) uint64 { return p.Hash() ^ turnKeys[p.Turns()] }

// Rules are the hooks of engine/alphabeta that every Bacteria War search shares (this
// engine's and nnab's): the finished game's score, the static move order, the stuck side's
// known result. An engine's hooks embed them and add the table key and the evaluation.
type Rules struct {
	ab.Plain[ataxx.Position, ataxx.Move]
	// QuietLeap is taken off the ordering value of a leap that captures nothing, so that
	// those moves sort after every other (0: none).
	QuietLeap int32
}

// hooks are the classical engine's part of the generic search (engine/alphabeta): the
// evaluation weights.
type hooks struct {
	Rules
	w *Weights
}

// reductions: Ataxx has a large branching factor and the ordering by gain is good, so late
// moves are reduced early and deeply (measured in self-play against a milder table: 60% of 60
// games at equal nodes).
var reductions = Reductions

// Reductions is Bacteria War's late-move reduction table, by depth and move index.
var Reductions = func() *ab.LMR {
	var t ab.LMR
	for d := range 64 {
		for i := range 64 {
			r := 0
			if d >= 3 && i >= 2 {
				r = 1
				if i >= 6 && d >= 4 {
					r = 2
				}
				if i >= 16 && d >= 6 {
					r = 3
				}
			}
			t[d][i] = int8(r)
		}
	}
	return &t
}()

// Enter scores a finished game; Bacteria War has no extensions.
func (Rules) Enter(p ataxx.Position, ply, depth int, alpha, beta int32) (int32, bool, int, int32, int32) {
	if p.Terminal() {
		return terminalScore(&p, ply), true, depth, alpha, beta
	}
	return 0, false, depth, alpha, beta
}

// Key is the table key: the hash with the turn count.
func (h *hooks) Key(p ataxx.Position) uint64 { return ttKey(&p) }

// Leaf is the value of p at the search horizon: a stuck side's proven result, else the static
// evaluation.
func (h *hooks) Leaf(p ataxx.Position, ply int) int32 {
	if v, ok := BlockedScore(&p, ply); ok {
		return v
	}
	return h.w.evaluate(&p)
}

// BlockedScore is the known result of a side to move that reaches no empty cell within two
// steps (so cannot move), when stuckScore knows it: the leaf rule of every Ataxx search.
func BlockedScore(p *ataxx.Position, ply int) (int32, bool) {
	if p.HasMove() {
		return 0, false
	}
	return stuckScore(p, ply)
}

// Moves generates the moves in the static order's values: the swing in piece difference
// (captures count twice, a division adds one), a leap penalised for the hole it leaves next
// to own pieces.
func (r Rules) Moves(p ataxx.Position, moves []ataxx.Move, o *ab.Order[ataxx.Move]) ([]ataxx.Move, int) {
	moves = p.LegalMoves(moves)
	side := p.ToMove()
	if len(moves) == 0 || moves[0] == ataxx.Pass {
		return moves, side
	}
	us := p.Pieces(side)
	o.Side(side)
	keys := o.Keys[:len(moves)]
	for i, m := range moves {
		v := orderKey(&p, m, us)
		if v < 0 && r.QuietLeap != 0 && p.Captures(m) == 0 {
			v -= r.QuietLeap
		}
		keys[i] = o.Key(m, v)
	}
	return moves, side
}

// Stuck scores the side to move's forced pass when the rest of the game is known.
func (Rules) Stuck(p ataxx.Position, ply int) (int32, bool) { return stuckScore(&p, ply) }

// TerminalScore scores a finished game at distance ply from the root, for the side to move
// (the convention every Ataxx alpha-beta shares: nnab uses it too).
func TerminalScore(p *ataxx.Position, ply int) int32 { return terminalScore(p, ply) }

// StuckScore is stuckScore for other Ataxx searches (nnab).
func StuckScore(p *ataxx.Position, ply int) (int32, bool) { return stuckScore(p, ply) }

// terminalScore scores a finished game at distance ply from the root.
func terminalScore(p *ataxx.Position, ply int) int32 {
	side := p.ToMove()
	diff := int32(p.Count(side) - p.Count(side^1))
	switch {
	case diff > 0:
		return winScore - plyStep*int32(ply) + diff
	case diff < 0:
		return -winScore + plyStep*int32(ply) + diff
	}
	return 0
}

// stuckScore scores a position whose side to move has no division or leap. The opponent can
// then divide into every empty cell (none touches the stuck side, so nothing can free it) while
// the stuck side passes. When every empty cell is reachable by a chain of divisions and the
// turn cap leaves time for them all, the game's end is known: ok is true and the score exact.
func stuckScore(p *ataxx.Position, ply int) (int32, bool) {
	side := p.ToMove()
	opp := p.Pieces(side ^ 1)
	empty := p.Empty()
	reach := ataxx.Dilate(opp) & empty
	for {
		n := ataxx.Dilate(reach) & empty
		if n == reach {
			break
		}
		reach = n
	}
	if reach != empty {
		return 0, false
	}
	ne := bits.OnesCount64(empty)
	if (ataxx.MaxTurns-p.Turns())/2 < ne {
		return 0, false
	}
	diff := int32(p.Count(side) - p.Count(side^1) - ne)
	endPly := int32(ply + 2*ne)
	switch {
	case diff > 0:
		return winScore - plyStep*endPly + diff, true
	case diff < 0:
		return -winScore + plyStep*endPly + diff, true
	}
	return 0, true
}

// orderKey is the static ordering value of m (see Order).
func orderKey(p *ataxx.Position, m ataxx.Move, us uint64) int32 {
	to := m.To()
	capt := int32(p.Captures(m))
	k := 2000 * capt
	if m.IsClone() {
		k += 1000
	} else {
		k -= 700 + 250*int32(bits.OnesCount64(ataxx.Neighbours(m.From())&us&^(1<<to)))
	}
	return k
}
