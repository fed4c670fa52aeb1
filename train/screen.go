package train

import (
	"fmt"
	"math"

	"colony/nn/nnue"
)

// GamePosition is a position of a played game: its pieces and side to move as an nnue net
// reads them, and the game's result for that side (1 a win, -1 a loss, 0 a draw).
type GamePosition struct {
	Pieces [2]uint64
	STM    int
	Result float32
}

// Screen is a net's error on the positions of played games: the mean squared error of
// tanh(logit) against the results, and its difference from the first net's, paired game by
// game (the mean over games of the difference of their summed errors, per position), with
// the standard error of that difference over games.
type Screen struct {
	MSE, Diff, DiffSE float64
}

// ScreenNNUE scores each model on games (the positions of each game together: a game is the
// unit of the pairing, its positions being correlated). It needs at least one position.
func ScreenNNUE(models []*nnue.Model, games [][]GamePosition) ([]Screen, error) {
	n := 0
	for _, g := range games {
		n += len(g)
	}
	if n == 0 || len(models) == 0 {
		return nil, fmt.Errorf("train: screen: %d models, %d positions: nothing to score", len(models), n)
	}
	sums := make([][]float64, len(models)) // per model, per game
	out := make([]Screen, len(models))
	for k, m := range models {
		sums[k] = make([]float64, len(games))
		total := 0.0
		for i, g := range games {
			for _, p := range g {
				e := math.Tanh(float64(m.Forward(p.Pieces, p.STM))) - float64(p.Result)
				sums[k][i] += e * e
			}
			total += sums[k][i]
		}
		out[k].MSE = total / float64(n)
		if k == 0 {
			continue
		}
		// d_i = (S_k,i - S_0,i) * G/N: its mean is the difference of the two MSEs.
		G := float64(len(games))
		var s, s2 float64
		for i := range games {
			d := (sums[k][i] - sums[0][i]) * G / float64(n)
			s += d
			s2 += d * d
		}
		mean := s / G
		out[k].Diff = mean
		if G > 1 {
			out[k].DiffSE = math.Sqrt(max(s2/G-mean*mean, 0) / (G - 1))
		}
	}
	return out, nil
}
