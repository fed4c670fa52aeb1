package mcts

import (
	"math"
	"testing"
)

func TestGammaMoments(t *testing.T) {
	r := NewRand(42)
	const n = 100000
	for _, alpha := range []float64{0.03, 0.3, 1, 2.5, 10} {
		var sum, sum2 float64
		for range n {
			g := r.Gamma(alpha)
			if g < 0 || math.IsNaN(g) || math.IsInf(g, 0) {
				t.Fatalf("Gamma(%v) = %v", alpha, g)
			}
			sum += g
			sum2 += g * g
		}
		mean := sum / n
		variance := sum2/n - mean*mean
		// Gamma(alpha, 1) has mean and variance alpha; allow 5 standard errors.
		se := math.Sqrt(alpha / n)
		if math.Abs(mean-alpha) > 5*se {
			t.Errorf("Gamma(%v): mean %v", alpha, mean)
		}
		if math.Abs(variance-alpha)/alpha > 0.1 {
			t.Errorf("Gamma(%v): variance %v", alpha, variance)
		}
	}
}

func TestDirichlet(t *testing.T) {
	r := NewRand(1)
	dst := make([]float64, 30)
	var first float64
	const draws = 20000
	for range draws {
		r.Dirichlet(0.3, dst)
		sum := 0.0
		for _, x := range dst {
			if x < 0 {
				t.Fatalf("negative component %v", x)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("components sum to %v", sum)
		}
		first += dst[0]
	}
	if m := first / draws; math.Abs(m-1.0/30) > 0.004 {
		t.Errorf("mean of a component %v, want 1/30", m)
	}
	// An alpha so small that every draw underflows still gives a distribution.
	r.Dirichlet(1e-300, dst)
	sum := 0.0
	for _, x := range dst {
		sum += x
	}
	if sum != 1 {
		t.Errorf("tiny alpha: sum %v", sum)
	}
}

func TestRandDeterministicAndUniform(t *testing.T) {
	a, b := NewRand(9), NewRand(9)
	for range 100 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("equal seeds, different streams")
		}
	}
	var counts [7]int
	for range 70000 {
		k := a.IntN(7)
		if k < 0 || k >= 7 {
			t.Fatalf("IntN(7) = %d", k)
		}
		counts[k]++
	}
	for k, c := range counts {
		if c < 9500 || c > 10500 {
			t.Errorf("IntN(7) gave %d %d times of 70000", k, c)
		}
	}
	for range 1000 {
		if f := a.Float64(); f < 0 || f >= 1 {
			t.Fatalf("Float64 = %v", f)
		}
	}
}
