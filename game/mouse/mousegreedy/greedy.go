// Package mousegreedy is a one-ply Catch The Mouse engine for either side: it plays the move whose
// resulting position scores best by a simple rule of thumb for its role. It is the baseline
// every search must beat, and the agent's fallback.
//
// The mice win at once when a mouse can step onto row 7; otherwise they advance the mouse that
// is furthest down with a free path, never into Nadori's reach when another move exists, and
// keep as many mice able to move as they can. Nadori's team captures when it can (the most
// advanced mouse first); otherwise it blocks the free mice, the most advanced first (a piece
// right below a mouse stops it), and brings Nadori toward the mice.
package mousegreedy

import (
	"math/bits"

	"colony/engine"
	"colony/game/mouse"
)

// Engine is the greedy engine: the move whose result scores best for the side to move
// (Score), ties broken uniformly at random.
type Engine = engine.OnePly[mouse.Position, mouse.Move]

var _ engine.Engine[mouse.Position, mouse.Move] = (*Engine)(nil)

// New returns a greedy engine whose tie-breaks are determined by seed. It plays mouse.NoMove
// in a finished game and ignores the limits.
func New(seed uint64) *Engine {
	return engine.NewOnePly("greedy", seed, mouse.MaxMoves, mouse.NoMove, scoreMove)
}

// scoreMove is the Score of m's result for the side to move of pos.
func scoreMove(pos mouse.Position, m mouse.Move) int { return Score(pos.Apply(m), pos.ToMove()) }

// advance weighs a free mouse on 0-based row r: every row nearer row 7 counts much more.
var advance = [mouse.Rows]int{0, 1, 3, 9, 27, 81, 0}

// Score is the rule-of-thumb value for player side of q, the position after side's move.
func Score(q mouse.Position, side int) int {
	if q.Terminal() {
		if q.Winner() == side {
			return 1 << 20
		}
		return -(1 << 20)
	}
	occ := q.Occupied()
	rows := q.MouseRows()
	nadSq := -1
	if n := q.Nadori(); n != 0 {
		nadSq = bits.TrailingZeros64(n)
	}
	var reach uint64
	if nadSq >= 0 {
		reach = mouse.KingAttacks(nadSq)
	}
	freeAdv, blocked, mice := 0, 0, 0
	nearest := 99
	for c, r8 := range rows {
		r := int(r8)
		if r < 0 {
			continue
		}
		mice++
		if occ&mouse.PathBelow(r, c) == 0 {
			freeAdv += advance[r]
		} else if r < 5 && occ>>(r*mouse.Cols+c)&1 != 0 {
			blocked++
		}
		if nadSq >= 0 && r >= 1 {
			dr, dc := r-1-nadSq/mouse.Cols, c-nadSq%mouse.Cols
			nearest = min(nearest, max(dr, -dr, dc, -dc))
		}
	}
	inReach := bits.OnesCount64(reach & q.InnerMice())
	mobility := bits.OnesCount64(uint64(q.TopMice())&^occ) + bits.OnesCount64(q.InnerMice()&^(occ>>mouse.Cols))
	if side == mouse.Mice {
		// The team moves next: a mouse in Nadori's reach is lost.
		return 10*freeAdv - 500*inReach + 3*mobility - 5*blocked + 1000*mice
	}
	// The mice move next.
	s := -1000*mice - 10*freeAdv + 5*blocked - 4*mobility
	if nearest < 99 {
		s -= 2 * nearest
	}
	return s
}
