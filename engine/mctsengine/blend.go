package mctsengine

import (
	"fmt"
	"math"

	"colony/mcts"
)

// ValueBlend wraps an evaluator: the priors are the inner evaluator's, and the value of every
// leaf becomes (1-Weight)*inner + Weight*Score, per player, where Score is a second opinion
// (for example a shallow alpha-beta search) in [-1, 1] for each player. A network trained on
// little data has sharp priors but a noisy value; a short tactical search is the opposite,
// and the blend takes the best of both.
type ValueBlend[P mcts.Position[P, M], M comparable] struct {
	Inner  mcts.Evaluator[P, M]
	Score  func(p *P) mcts.Values
	Weight float32
}

// Evaluate evaluates the batch with the inner evaluator, then blends in Score.
func (b *ValueBlend[P, M]) Evaluate(batch []mcts.Request[P, M]) error {
	if err := b.Inner.Evaluate(batch); err != nil {
		return err
	}
	w := b.Weight
	for i := range batch {
		r := &batch[i]
		s := b.Score(&r.Pos)
		for pl := range r.Pos.NumPlayers() {
			if v := s[pl]; v != v || v < -1 || v > 1 {
				return fmt.Errorf("mctsengine: value blend: score %v outside [-1, 1] for player %d", v, pl)
			}
			r.Value[pl] = (1-w)*r.Value[pl] + w*s[pl]
		}
	}
	return nil
}

// Squash maps a score (hundredths of a piece, say) to [-1, 1]: tanh(score/scale). Scores
// beyond ±winBound (proven results of an alpha-beta search) map to ±1.
func Squash(score int32, scale float64, winBound int32) float32 {
	switch {
	case score >= winBound:
		return 1
	case score <= -winBound:
		return -1
	}
	return float32(math.Tanh(float64(score) / scale))
}

// TwoPlayer spreads a score s of the side to move of p over the two players: s for the mover,
// -s for the other.
func TwoPlayer(toMove int, s float32) mcts.Values {
	var v mcts.Values
	v[toMove], v[1-toMove] = s, -s
	return v
}
