package arena

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test of H0 "A is Elo0 stronger than B" against H1
// "A is Elo1 stronger", with error rates Alpha (accepting H1 when H0 holds) and Beta
// (accepting H0 when H1 holds). A match run under it stops as soon as the log-likelihood
// ratio leaves (LowerBound, UpperBound), so a change is accepted or rejected after as few
// games as the data allow.
//
// The likelihood ratio is the generalized (normal) approximation on the game results: with
// n games of mean score m and per-game variance v, and s0, s1 the expected scores of the two
// hypotheses under the logistic Elo model, LLR = n (s1 - s0) (2m - s0 - s1) / (2v). Draws
// enter through the variance, so no draw model is needed.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "elo0,elo1[,alpha,beta]" (alpha and beta default to 0.05).
func ParseSPRT(s string) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", s)
	}
	v := make([]float64, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return SPRT{}, fmt.Errorf("sprt %q: %w", s, err)
		}
		v[i] = f
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: 0.05, Beta: 0.05}
	if len(v) == 4 {
		t.Alpha, t.Beta = v[2], v[3]
	}
	if t.Elo1 <= t.Elo0 || t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0 < elo1 and 0 < alpha, beta < 0.5", s)
	}
	return t, nil
}

// LowerBound is the LLR at or below which H0 is accepted.
func (t SPRT) LowerBound() float64 { return math.Log(t.Beta / (1 - t.Alpha)) }

// UpperBound is the LLR at or above which H1 is accepted.
func (t SPRT) UpperBound() float64 { return math.Log((1 - t.Beta) / t.Alpha) }

// ExpectedScore is the score that an Elo difference predicts (logistic model).
func ExpectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// LLR is the log-likelihood ratio of H1 over H0 after wins, draws and losses of A. While A
// has scored every point (or none) the variance is estimated with half a game moved to the
// other result, as Estimate does, so that a clean sweep also ends the test.
func (t SPRT) LLR(wins, draws, losses int) float64 {
	return t.llr([]float64{1, 0.5, 0}, []int{wins, draws, losses})
}

// PairScores are the scores per game of a pair of games (same opening, colours swapped)
// in which A scored 0, ½, 1, 1½ or 2 points: the index of PairLLR's counts.
var PairScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// PairLLR is the log-likelihood ratio of H1 over H0 after pairs of games, pairs[k] counting
// the pairs in which A scored k/2 points (pentanomial): the same approximation as LLR with a
// pair as the trial, its score per game PairScores[k] and the variance of the pairs' scores,
// so that the correlation of a pair's two games (one opening) is accounted for.
func (t SPRT) PairLLR(pairs [5]int) float64 { return t.llr(PairScores[:], pairs[:]) }

// llr is the generalized SPRT's LLR of trials whose score per game is vals[i] in counts[i]
// of them: n (s1 - s0) (2m - s0 - s1) / (2v) with m their mean score and v its per-trial
// variance. When every trial has the same score, ½ gives 0 (no information on the spread
// yet) and another score moves half a trial to the mirrored score 1 - x.
func (t SPRT) llr(vals []float64, counts []int) float64 {
	c := make([]float64, len(counts))
	n, only := 0.0, -1
	for i, k := range counts {
		c[i] = float64(k)
		n += c[i]
		if k > 0 {
			if only == -1 {
				only = i
			} else {
				only = -2
			}
		}
	}
	if n == 0 {
		return 0
	}
	if only >= 0 {
		if vals[only] == 0.5 {
			return 0
		}
		mirror := slices.Index(vals, 1-vals[only])
		c[only], c[mirror] = c[only]-0.5, c[mirror]+0.5
	}
	m, v := meanVar(vals, c, n)
	s0, s1 := ExpectedScore(t.Elo0), ExpectedScore(t.Elo1)
	return n * (s1 - s0) * (2*m - s0 - s1) / (2 * v)
}

// meanVar is the mean score and the per-trial variance of n trials, counts[i] of them
// scoring vals[i].
func meanVar(vals, counts []float64, n float64) (m, v float64) {
	for i := range counts {
		m += counts[i] * vals[i]
	}
	m /= n
	for i := range counts {
		v += counts[i] * (vals[i] - m) * (vals[i] - m)
	}
	return m, v / n
}

// Verdict says where the test stands: "H1" (accept: A is at least Elo1 better), "H0"
// (reject: A is at most Elo0 better) or "" (go on).
func (t SPRT) Verdict(wins, draws, losses int) string { return t.verdict(t.LLR(wins, draws, losses)) }

func (t SPRT) verdict(llr float64) string {
	switch {
	case llr >= t.UpperBound():
		return "H1"
	case llr <= t.LowerBound():
		return "H0"
	}
	return ""
}

// SPRTResult is the test's state in a match summary.
type SPRTResult struct {
	Elo0    float64 `json:"elo0"`
	Elo1    float64 `json:"elo1"`
	Alpha   float64 `json:"alpha"`
	Beta    float64 `json:"beta"`
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict string  `json:"verdict"` // "H1", "H0", or "" when the games ran out first
	// DecidedLLR and DecidedAt are the LLR when the test decided and the games (or pairs)
	// counted then. The games still being played at that moment count in LLR afterwards, so
	// LLR may end inside the bounds while the verdict stands.
	DecidedLLR float64 `json:"decided_llr,omitempty"`
	DecidedAt  int     `json:"decided_at,omitempty"`
}

// Result is the test's state after wins, draws and losses.
func (t SPRT) Result(wins, draws, losses int) SPRTResult {
	return t.result(t.LLR(wins, draws, losses))
}

// PairResult is the test's state after pairs (see PairLLR).
func (t SPRT) PairResult(pairs [5]int) SPRTResult { return t.result(t.PairLLR(pairs)) }

func (t SPRT) result(llr float64) SPRTResult {
	return SPRTResult{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta,
		LLR: llr, Lower: t.LowerBound(), Upper: t.UpperBound(), Verdict: t.verdict(llr)}
}

// Update is the test's state after wins, draws and losses, given the state before (nil:
// none): once decided, a test keeps its verdict; the games that were still being played when
// it decided count in the score and the LLR, not against the verdict.
func (t SPRT) Update(prev *SPRTResult, wins, draws, losses int) SPRTResult {
	r := t.Result(wins, draws, losses)
	switch {
	case prev != nil && prev.Verdict != "":
		r.Verdict, r.DecidedLLR, r.DecidedAt = prev.Verdict, prev.DecidedLLR, prev.DecidedAt
	case r.Verdict != "":
		r.DecidedLLR, r.DecidedAt = r.LLR, wins+draws+losses
	}
	return r
}
