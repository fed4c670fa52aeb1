// Package random is the weakest engine of every game: a uniformly random legal move. It is a
// baseline for matches and a fast stand-in in tests.
package random

import (
	"math/rand/v2"

	"colony/engine"
)

// Position is what the engine needs from a game.
type Position[M any] interface {
	LegalMoves(dst []M) []M
}

// Engine picks a legal move uniformly at random. Its choices depend only on the seed and the
// sequence of positions it is asked about.
type Engine[P Position[M], M any] struct {
	rng *rand.Rand
	buf []M
}

// New returns a random engine whose choices are determined by seed.
func New[P Position[M], M any](seed uint64) *Engine[P, M] {
	return &Engine[P, M]{
		rng: rand.New(rand.NewPCG(seed, 0x7261_6e64_6f6d)), // second word: "random"
	}
}

// Name returns "random".
func (e *Engine[P, M]) Name() string { return "random" }

// NewGame does nothing: the engine keeps no game state. The random stream goes on, so two
// games in a row differ while the whole sequence stays reproducible from the seed.
func (e *Engine[P, M]) NewGame() {}

// BestMove returns a uniformly random legal move of pos (a forced pass is a legal move), and
// the zero move for a finished game, which has none. It ignores the limits and allocates only
// while its move buffer grows.
func (e *Engine[P, M]) BestMove(pos P, _ engine.Limits) M {
	e.buf = pos.LegalMoves(e.buf)
	if len(e.buf) == 0 {
		var zero M
		return zero
	}
	return e.buf[e.rng.IntN(len(e.buf))]
}
