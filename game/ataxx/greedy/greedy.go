// Package greedy is a one-ply Bacteria War engine: it plays the move after which it owns the
// most pieces. It is the baseline every search must beat.
package greedy

import (
	"math/rand/v2"

	"colony/engine"
	"colony/game/ataxx"
)

// Engine plays the move that leaves the most own pieces: a division adds one piece plus its
// captures, a leap adds only its captures. Ties are broken uniformly at random.
type Engine struct {
	rng *rand.Rand
	buf []ataxx.Move
}

var _ engine.Engine[ataxx.Position, ataxx.Move] = (*Engine)(nil)

// New returns a greedy engine whose tie-breaks are determined by seed.
func New(seed uint64) *Engine {
	return &Engine{
		rng: rand.New(rand.NewPCG(seed, 0x6772_6565_6479)), // second word: "greedy"
		buf: make([]ataxx.Move, 0, ataxx.MaxMoves),
	}
}

// Name returns "greedy".
func (e *Engine) Name() string { return "greedy" }

// NewGame does nothing: the engine keeps no game state (the tie-break stream goes on).
func (e *Engine) NewGame() {}

// Gain returns how many pieces the side to move gains with m in pos: 1 + captures for a
// division, the captures for a leap, 0 for a pass.
func Gain(pos ataxx.Position, m ataxx.Move) int {
	switch {
	case m.IsClone():
		return 1 + pos.Captures(m)
	case m.IsJump():
		return pos.Captures(m)
	}
	return 0
}

// BestMove returns a legal move of pos with the largest Gain, chosen uniformly among the
// ties; ataxx.Pass when the side to move is stuck or the game is over. It ignores the limits
// and never allocates.
func (e *Engine) BestMove(pos ataxx.Position, _ engine.Limits) ataxx.Move {
	e.buf = pos.LegalMoves(e.buf)
	best, ties := ataxx.Pass, 0
	bestGain := -1
	for _, m := range e.buf {
		g := Gain(pos, m)
		switch {
		case g > bestGain:
			best, bestGain, ties = m, g, 1
		case g == bestGain:
			// Reservoir sampling: the k-th tie replaces the choice with probability 1/k.
			ties++
			if e.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}
