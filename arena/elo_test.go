package arena

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEloFromScore(t *testing.T) {
	for _, c := range []struct{ p, elo float64 }{
		{0.5, 0},
		{0.75, 400 * math.Log10(3)}, // 190.85: odds 3:1
		{0.25, -400 * math.Log10(3)},
		{10.0 / 11, 400}, // odds 10:1 is exactly 400 Elo
		{1.0 / 11, -400},
	} {
		if got := EloFromScore(c.p); !near(got, c.elo, 1e-9) {
			t.Errorf("EloFromScore(%v) = %v, want %v", c.p, got, c.elo)
		}
	}
}

func TestEstimate(t *testing.T) {
	for _, c := range []struct {
		name         string
		w, d, l      int
		score, elo   float64
		err          float64
		bound        string
		errTolerance float64
	}{
		// 50 wins 50 losses: se = 0.05, interval [0.402, 0.598]: half-width Elo(0.598).
		{"even", 50, 0, 50, 0.5, 0, 400 * math.Log10(0.598/0.402), "", 1e-9},
		{"all draws", 0, 10, 0, 0.5, 0, 0, "", 0},
		// 60-20-20: s = 0.7, per-game variance 0.19, se = sqrt(0.0019).
		{"mixed", 60, 20, 20, 0.7, 400 * math.Log10(7.0/3), 66.0146, "", 1e-3},
		{"mixed mirrored", 20, 20, 60, 0.3, -400 * math.Log10(7.0/3), 66.0146, "", 1e-3},
		// 200-0-0: bound at 199.5/200 = odds 399:1; delta-method error there.
		{"all wins", 200, 0, 0, 1, 400 * math.Log10(399), 482.124, "lower", 1e-3},
		{"all losses", 0, 0, 200, 0, -400 * math.Log10(399), 482.124, "upper", 1e-3},
		{"no losses is not 100%", 5, 5, 0, 0.75, 400 * math.Log10(3), 0, "", -1},
		{"no games", 0, 0, 0, 0.5, 0, 0, "", 0},
	} {
		e := Estimate(c.w, c.d, c.l)
		if !near(e.Score, c.score, 1e-12) || !near(e.Elo, c.elo, 1e-6) || e.Bound != c.bound {
			t.Errorf("%s: Estimate(%d,%d,%d) = %+v, want score %v elo %v bound %q", c.name, c.w, c.d, c.l, e, c.score, c.elo, c.bound)
		}
		if c.errTolerance >= 0 && !near(e.Err, c.err, c.errTolerance) {
			t.Errorf("%s: error %v, want %v", c.name, e.Err, c.err)
		}
		if math.IsNaN(e.Err) || math.IsInf(e.Err, 0) || math.IsInf(e.Elo, 0) || e.Err < 0 {
			t.Errorf("%s: non-finite or negative estimate %+v", c.name, e)
		}
	}
}

func TestEstimateErrorShrinksWithGames(t *testing.T) {
	small, large := Estimate(6, 2, 2), Estimate(600, 200, 200)
	if !near(small.Elo, large.Elo, 1e-9) {
		t.Fatalf("same score, different Elo: %v %v", small.Elo, large.Elo)
	}
	if !(large.Err < small.Err/5) {
		t.Errorf("100x the games should cut the error 10x: %v vs %v", large.Err, small.Err)
	}
	// Draws carry less variance than the same score from wins and losses.
	if d, wl := Estimate(0, 100, 0+0), Estimate(50, 0, 50); d.Err != 0 || wl.Err <= 0 {
		t.Errorf("all draws err %v, wins/losses err %v", d.Err, wl.Err)
	}
	if a, b := Estimate(30, 40, 30), Estimate(50, 0, 50); !(a.Err < b.Err) {
		t.Errorf("draws should shrink the error: %v vs %v", a.Err, b.Err)
	}
}

// TestPairEstimate: the score per game over pairs, its Elo, an error from the pairs' spread
// (none when every pair scored the same) and a clamped sweep.
func TestPairEstimate(t *testing.T) {
	e := PairEstimate([5]int{0, 0, 2, 0, 2}) // two 1-1 pairs, two 2-0 pairs
	if e.Score != 0.75 || e.Elo != EloFromScore(0.75) || !(e.Err > 0) {
		t.Errorf("PairEstimate(0,0,2,0,2) = %+v", e)
	}
	if e := PairEstimate([5]int{0, 0, 3, 0, 0}); e.Score != 0.5 || e.Elo != 0 || e.Err != 0 {
		t.Errorf("three even pairs: %+v", e)
	}
	if e := PairEstimate([5]int{0, 0, 0, 0, 4}); e.Score != 1 || e.Elo != EloFromScore(1-0.25/4) {
		t.Errorf("a sweep of four pairs: %+v", e)
	}
	if e := PairEstimate([5]int{}); e.Score != 0.5 || e.Elo != 0 {
		t.Errorf("no pairs: %+v", e)
	}
}
