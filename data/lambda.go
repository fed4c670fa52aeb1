package data

import (
	"fmt"
	"slices"
)

// lambdaScores replaces the search score of every example of a scored shard by the λ-return
// of its game's later scores: with the game's recorded positions t, t+1, ..., t+n-1 from this
// one to its last (in ply order) and the game's outcome z,
//
//	G_t = (1-λ)·Σ_{k<n} λ^k·score_{t+k} + λ^n·z
//
// per absolute seat, so a position's score target also reads what the searches of the
// positions after it found (the played line is the search's own, so a later score is a
// deeper look along it). A game is never split between shards (Writer.AddGame) and its
// examples are contiguous; they are sorted by ply first. Unscored shards are left as they are.
func (s *shardContent) lambdaScores(lambda float32) {
	if s.scores == nil || lambda == 0 {
		return
	}
	var idx []int
	for lo := 0; lo < len(s.gameIDs); {
		hi := lo + 1
		for hi < len(s.gameIDs) && s.gameIDs[hi] == s.gameIDs[lo] {
			hi++
		}
		idx = idx[:0]
		for i := lo; i < hi; i++ {
			idx = append(idx, i)
		}
		slices.SortStableFunc(idx, func(a, b int) int { return int(s.plies[a] - s.plies[b]) })
		g := s.values[idx[len(idx)-1]] // the outcome, the same for every example of the game
		for k := len(idx) - 1; k >= 0; k-- {
			sc := &s.scores[idx[k]]
			for j := range sc {
				g[j] = (1-lambda)*sc[j] + lambda*g[j]
				sc[j] = g[j]
			}
		}
		lo = hi
	}
}

// CheckScoreLambda refuses a λ outside [0, 1) (WindowOptions.ScoreLambda).
func CheckScoreLambda(lambda float64) error {
	if lambda < 0 || lambda >= 1 {
		return fmt.Errorf("data: score lambda %v, want 0 <= lambda < 1", lambda)
	}
	return nil
}
