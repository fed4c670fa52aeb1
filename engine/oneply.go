package engine

import (
	"math"
	"math/rand/v2"
)

// OnePly is a one-ply engine for any game: it plays the legal move with the highest score, ties
// broken uniformly at random (reservoir sampling: the k-th tie replaces the choice with
// probability 1/k). It ignores the limits, keeps no game state and does not allocate after
// construction. The games' greedy baselines are OnePly engines with their own score.
type OnePly[P interface{ LegalMoves(dst []M) []M }, M comparable] struct {
	name  string
	rng   *rand.Rand
	buf   []M
	none  M
	score func(pos P, m M) int
}

// NewOnePly returns a one-ply engine called name that scores move m of pos by score, whose
// tie-breaks are determined by seed, with a move buffer of maxMoves; it plays none when pos
// has no legal move.
func NewOnePly[P interface{ LegalMoves(dst []M) []M }, M comparable](name string, seed uint64, maxMoves int, none M, score func(pos P, m M) int) *OnePly[P, M] {
	return &OnePly[P, M]{
		name:  name,
		rng:   rand.New(rand.NewPCG(seed, 0x6772_6565_6479)), // second word: "greedy"
		buf:   make([]M, 0, maxMoves),
		none:  none,
		score: score,
	}
}

// Name returns the engine's name.
func (e *OnePly[P, M]) Name() string { return e.name }

// NewGame does nothing: the engine keeps no game state (the tie-break stream goes on).
func (e *OnePly[P, M]) NewGame() {}

// BestMove returns a legal move of pos with the highest score, chosen uniformly among the
// ties; the engine's none move when there is no legal move.
func (e *OnePly[P, M]) BestMove(pos P, _ Limits) M {
	e.buf = pos.LegalMoves(e.buf)
	best, ties := e.none, 0
	bestScore := math.MinInt
	for _, m := range e.buf {
		s := e.score(pos, m)
		switch {
		case s > bestScore:
			best, bestScore, ties = m, s, 1
		case s == bestScore:
			ties++
			if e.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}
