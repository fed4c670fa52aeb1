// Package random is the weakest Bacteria War engine: a uniformly random legal move. It is a
// baseline for matches and a fast stand-in in tests.
package random

import (
	"math/rand/v2"

	"colony/engine"
	"colony/game/ataxx"
)

// Engine picks a legal move uniformly at random. Its choices depend only on the seed and the
// sequence of positions it is asked about.
type Engine struct {
	rng *rand.Rand
	buf []ataxx.Move
}

var _ engine.Engine[ataxx.Position, ataxx.Move] = (*Engine)(nil)

// New returns a random engine whose choices are determined by seed.
func New(seed uint64) *Engine {
	return &Engine{
		rng: rand.New(rand.NewPCG(seed, 0x7261_6e64_6f6d)), // second word: "random"
		buf: make([]ataxx.Move, 0, ataxx.MaxMoves),
	}
}

// Name returns "random".
func (e *Engine) Name() string { return "random" }

// NewGame does nothing: the engine keeps no game state. The random stream goes on, so two
// games in a row differ while the whole sequence stays reproducible from the seed.
func (e *Engine) NewGame() {}

// BestMove returns a uniformly random legal move of pos, ataxx.Pass when the side to move is
// stuck, and ataxx.Pass for a finished game (which has no legal move at all). It ignores
// the limits and never allocates.
func (e *Engine) BestMove(pos ataxx.Position, _ engine.Limits) ataxx.Move {
	e.buf = pos.LegalMoves(e.buf)
	if len(e.buf) == 0 {
		return ataxx.Pass
	}
	return e.buf[e.rng.IntN(len(e.buf))]
}
