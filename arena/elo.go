package arena

import "math"

// EloFromScore is the Elo difference that predicts the expected score p (0 < p < 1).
func EloFromScore(p float64) float64 { return -400 * math.Log10(1/p-1) }

// EloEstimate is A's Elo difference over B from a match result.
type EloEstimate struct {
	Score float64 // (wins + draws/2) / games, 0..1
	Elo   float64
	Err   float64 // half-width of the 95% interval, in Elo
	// Bound is "" normally; "lower" when A won every point (Elo is a lower bound: the Elo of
	// the score with half a game given to B) and "upper" when A scored nothing.
	Bound string
}

// Estimate computes A's Elo difference and its 95% error from wins, draws and losses.
//
// The score's standard error comes from the per-game variance of the observed results
// (trinomial, so draws shrink it): se = sqrt(sum (x_i - s)^2 / n) / sqrt(n). The error is
// half the width of the interval [Elo(s - 1.96 se), Elo(s + 1.96 se)], each end kept inside
// [0.5/n, 1 - 0.5/n]. At a 0% or 100% score the Elo is infinite: the estimate then uses the
// score with half a game moved to the other side and flags it as a bound, with the error from
// the binomial variance there (delta method).
func Estimate(wins, draws, losses int) EloEstimate {
	n := float64(wins + draws + losses)
	if n == 0 {
		return EloEstimate{Score: 0.5}
	}
	s := (float64(wins) + float64(draws)/2) / n
	eps := 0.5 / n
	if wins+draws == 0 || draws+losses == 0 {
		e := EloEstimate{Score: s, Bound: "lower"}
		pc := 1 - eps
		if wins+draws == 0 {
			e.Bound, pc = "upper", eps
		}
		if wins+losses == 0 { // all draws: 50%, no variance information
			return EloEstimate{Score: s}
		}
		e.Elo = EloFromScore(pc)
		se := math.Sqrt(pc * (1 - pc) / n)
		e.Err = 1.96 * se * 400 / (math.Ln10 * pc * (1 - pc))
		return e
	}
	v := (float64(wins)*(1-s)*(1-s) + float64(draws)*(0.5-s)*(0.5-s) + float64(losses)*s*s) / n
	se := math.Sqrt(v / n)
	lo := math.Max(s-1.96*se, eps)
	hi := math.Min(s+1.96*se, 1-eps)
	return EloEstimate{Score: s, Elo: EloFromScore(s), Err: (EloFromScore(hi) - EloFromScore(lo)) / 2}
}

// PairEstimate is A's score per game, Elo difference and 95% error over pairs of games
// (pairs[k] counts the pairs in which A scored k/2 points, PairLLR's index), the standard
// error from the pairs' variance, so that the two games of one opening count as correlated.
// The score and the interval's ends are kept inside [0.25/n, 1 - 0.25/n] for n pairs.
func PairEstimate(pairs [5]int) EloEstimate {
	c := make([]float64, len(pairs))
	n := 0.0
	for k, p := range pairs {
		c[k] = float64(p)
		n += c[k]
	}
	if n == 0 {
		return EloEstimate{Score: 0.5}
	}
	s, v := meanVar(PairScores[:], c, n)
	se := math.Sqrt(v / n)
	eps := 0.25 / n
	clamp := func(x float64) float64 { return math.Min(math.Max(x, eps), 1-eps) }
	lo, hi := clamp(s-1.96*se), clamp(s+1.96*se)
	return EloEstimate{Score: s, Elo: EloFromScore(clamp(s)), Err: (EloFromScore(hi) - EloFromScore(lo)) / 2}
}
