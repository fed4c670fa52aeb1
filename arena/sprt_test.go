package arena

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSPRTBoundsAndParse(t *testing.T) {
	s, err := ParseSPRT("0,10")
	if err != nil {
		t.Fatal(err)
	}
	// alpha = beta = 0.05: bounds +-ln(19).
	if math.Abs(s.UpperBound()-math.Log(19)) > 1e-12 || math.Abs(s.LowerBound()+math.Log(19)) > 1e-12 {
		t.Fatalf("bounds %v %v", s.LowerBound(), s.UpperBound())
	}
	for _, bad := range []string{"10,0", "0", "0,10,0.6,0.05", "a,b", "0,10,0.05"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q) accepted", bad)
		}
	}
	if math.Abs(ExpectedScore(0)-0.5) > 1e-12 || math.Abs(ExpectedScore(400)-10.0/11) > 1e-12 {
		t.Fatal("ExpectedScore")
	}
}

// TestSPRTLLR: the LLR is zero at the midpoint score, its sign follows the score, and it
// grows linearly with the games at a fixed score distribution.
func TestSPRTLLR(t *testing.T) {
	s := SPRT{Elo0: -20, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	if l := s.LLR(30, 40, 30); math.Abs(l) > 1e-9 { // 50% is the midpoint of -20 and +20
		t.Fatalf("LLR at 50%% = %v", l)
	}
	if s.LLR(40, 20, 30) <= 0 || s.LLR(30, 20, 40) >= 0 {
		t.Fatal("LLR sign")
	}
	if a, b := s.LLR(40, 20, 30), s.LLR(80, 40, 60); math.Abs(b-2*a) > 1e-9 {
		t.Fatalf("LLR not linear in n: %v %v", a, b)
	}
	if s.LLR(0, 10, 0) != 0 {
		t.Fatal("LLR after draws only should wait")
	}
	// A clean sweep decides too, and a longer one more surely.
	if s.Verdict(3, 0, 0) != "" || s.Verdict(30, 0, 0) != "H1" || s.Verdict(0, 0, 30) != "H0" {
		t.Fatalf("sweeps: LLR(3-0-0) %v, LLR(30-0-0) %v, LLR(0-0-30) %v", s.LLR(3, 0, 0), s.LLR(30, 0, 0), s.LLR(0, 0, 30))
	}
	if s.LLR(20, 0, 0) <= s.LLR(10, 0, 0) {
		t.Fatal("a longer sweep should weigh more")
	}
}

// TestSPRTDecides: simulated matches where A is clearly stronger end in H1, clearly weaker in
// H0, with error rates near alpha and beta at the hypotheses themselves.
func TestSPRTDecides(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}
	play := func(elo float64, r *rand.Rand) (string, int) {
		p := ExpectedScore(elo)
		draw := 0.3
		var w, d, l int
		for n := 1; n <= 100000; n++ {
			x := r.Float64()
			switch {
			case x < draw:
				d++
			case x < draw+(p-draw/2):
				w++
			default:
				l++
			}
			if v := s.Verdict(w, d, l); v != "" {
				return v, n
			}
		}
		return "", 0
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		elo  float64
		want string
	}{{150, "H1"}, {-100, "H0"}} {
		v, n := play(c.elo, r)
		if v != c.want {
			t.Errorf("elo %v: %q after %d games, want %s", c.elo, v, n, c.want)
		}
	}
	if testing.Short() {
		return
	}
	// At the hypotheses: wrong verdicts at about alpha (H0 true) and beta (H1 true).
	for _, c := range []struct {
		elo   float64
		wrong string
	}{{0, "H1"}, {40, "H0"}} {
		bad := 0
		const runs = 400
		for range runs {
			if v, _ := play(c.elo, r); v == c.wrong {
				bad++
			}
		}
		f := float64(bad) / runs
		t.Logf("elo %v: wrong verdict (%s) in %.1f%% of %d runs", c.elo, c.wrong, 100*f, runs)
		if f > 0.10 {
			t.Errorf("elo %v: wrong verdict in %.1f%% of runs", c.elo, 100*f)
		}
	}
}

// TestSPRTVerdictSticks: a decided test keeps its verdict when the games still in flight
// bring the LLR back inside the bounds (they count in the LLR), and an undecided one follows
// the LLR.
func TestSPRTVerdictSticks(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	w, l := 111, 34
	for s.Verdict(w, 0, l) != "H1" {
		w++
	}
	r := s.Update(nil, w, 0, l)
	if r.Verdict != "H1" {
		t.Fatalf("%d-0-%d: %+v", w, l, r)
	}
	after := s.Update(&r, w, 0, l+1)
	if s.Verdict(w, 0, l+1) != "" {
		t.Fatalf("%d-0-%d already decides on its own", w, l+1)
	}
	if after.Verdict != "H1" || after.LLR >= r.LLR {
		t.Errorf("after a loss in flight: %+v (before %+v)", after, r)
	}
	// The moment of the decision is kept: the LLR and the games counted then.
	if r.DecidedLLR != r.LLR || r.DecidedAt != w+l || r.DecidedLLR < r.Upper {
		t.Errorf("at the decision: %+v", r)
	}
	if after.DecidedLLR != r.LLR || after.DecidedAt != w+l || after.LLR >= after.Upper {
		t.Errorf("after a loss in flight the decision's LLR and games are lost: %+v", after)
	}
	if u := s.Update(nil, w, 0, l+1); u.Verdict != "" || u.DecidedAt != 0 || u.DecidedLLR != 0 {
		t.Errorf("an undecided test took a verdict: %+v", u)
	}
}

// TestPairLLR: the pentanomial LLR against the formula worked by hand, E[x²] - m² for the
// variance (the code sums squared deviations), and a value computed apart (Python, the same
// formula): pairs 1,2,3,4,5 under SPRT(0,40) give 1.2203425.
func TestPairLLR(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}
	pairs := [5]int{1, 2, 3, 4, 5}
	x := []float64{0, 0.25, 0.5, 0.75, 1}
	var n, sx, sxx float64
	for k, c := range pairs {
		n += float64(c)
		sx += float64(c) * x[k]
		sxx += float64(c) * x[k] * x[k]
	}
	m := sx / n
	v := sxx/n - m*m
	s0, s1 := 0.5, 1/(1+math.Pow(10, -0.1))
	want := n * (s1 - s0) * (2*m - s0 - s1) / (2 * v)
	if got := s.PairLLR(pairs); math.Abs(got-want) > 1e-9 || math.Abs(got-1.2203425) > 1e-6 {
		t.Fatalf("PairLLR = %.9f, want %.9f (1.2203425)", got, want)
	}
	// Symmetric around 50% under symmetric hypotheses; sign follows the score.
	sym := SPRT{Elo0: -20, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	if l := sym.PairLLR([5]int{3, 5, 10, 5, 3}); math.Abs(l) > 1e-9 {
		t.Fatalf("PairLLR at 50%% = %v", l)
	}
	if sym.PairLLR([5]int{1, 2, 3, 4, 5}) <= 0 || sym.PairLLR([5]int{5, 4, 3, 2, 1}) >= 0 {
		t.Fatal("PairLLR sign")
	}
	// Only drawn pairs: no information; a sweep of won pairs decides H1 (half a pair moved
	// to the mirrored score), as LLR's sweeps do.
	if s.PairLLR([5]int{0, 0, 7, 0, 0}) != 0 {
		t.Fatal("PairLLR after drawn pairs only should wait")
	}
	if r := s.PairResult([5]int{0, 0, 0, 0, 40}); r.Verdict != "H1" || r.LLR < r.Upper {
		t.Fatalf("a sweep of 40 won pairs: %+v", r)
	}
	if r := s.PairResult([5]int{40, 0, 0, 0, 0}); r.Verdict != "H0" {
		t.Fatalf("a sweep of 40 lost pairs: %+v", r)
	}
	// The trinomial LLR is the same function with one game as the trial.
	if a, b := s.LLR(7, 5, 3), s.llr([]float64{0, 0.5, 1}, []int{3, 5, 7}); math.Abs(a-b) > 1e-12 {
		t.Fatalf("LLR %v, llr with the values reordered %v", a, b)
	}
}
