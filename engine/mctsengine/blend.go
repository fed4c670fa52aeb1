package mctsengine

import (
	"fmt"
	"math"

	"colony/mcts"
)

// ValueBlend wraps an evaluator of the two-player game: the priors are the inner evaluator's,
// and the value of every leaf becomes (1-Weight)*inner + Weight*Score, where Score is a second
// opinion (for example a shallow alpha-beta search) from the side to move's point of view, in
// [-1, 1]. A network trained on little data has sharp priors but a noisy value; a short
// tactical search is the opposite, and the blend takes the best of both.
type ValueBlend struct {
	Inner  mcts.Evaluator[pos, move]
	Score  func(p *pos) float32
	Weight float32
}

// Evaluate evaluates the batch with the inner evaluator, then blends in Score.
func (b *ValueBlend) Evaluate(batch []mcts.Request[pos, move]) error {
	if err := b.Inner.Evaluate(batch); err != nil {
		return err
	}
	w := b.Weight
	for i := range batch {
		r := &batch[i]
		s := b.Score(&r.Pos)
		if s != s || s < -1 || s > 1 {
			return fmt.Errorf("mctsengine: value blend: score %v outside [-1, 1] for %s", s, r.Pos)
		}
		me := r.Pos.ToMove()
		r.Value[me] = (1-w)*r.Value[me] + w*s
		r.Value[1-me] = (1-w)*r.Value[1-me] - w*s
	}
	return nil
}

// Squash maps a score in hundredths of a piece (side to move) to [-1, 1]: tanh(score/scale).
// Scores beyond ±winBound (proven results of an alpha-beta search) map to ±1.
func Squash(score int32, scale float64, winBound int32) float32 {
	switch {
	case score >= winBound:
		return 1
	case score <= -winBound:
		return -1
	}
	return float32(math.Tanh(float64(score) / scale))
}
