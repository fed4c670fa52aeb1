package mcts

import (
	"math"

	"colony/internal/splitmix"
)

// Rand is a small, fast, seeded pseudo-random generator (SplitMix64). Its zero value is usable;
// equal seeds give equal streams on every platform and Go version, which is what makes a
// search reproducible. It never allocates.
type Rand struct {
	state uint64
}

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) Rand { return Rand{state: seed} }

// Seed restarts the stream from seed.
func (r *Rand) Seed(seed uint64) { r.state = seed }

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return splitmix.Next(&r.state) }

// IntN returns a number in [0, n) for 0 < n < 2^32 (multiply-shift; the bias is below 2^-32·n).
func (r *Rand) IntN(n int) int {
	return int((r.Uint64() >> 32) * uint64(n) >> 32)
}

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) * (1.0 / (1 << 53))
}

// Norm returns a standard normal deviate (Marsaglia's polar method, one of the pair kept out of
// simplicity: the state stays a single word).
func (r *Rand) Norm() float64 {
	for {
		u := 2*r.Float64() - 1
		v := 2*r.Float64() - 1
		s := u*u + v*v
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*math.Log(s)/s)
		}
	}
}

// Gamma returns a Gamma(alpha, 1) deviate for alpha > 0 (Marsaglia and Tsang's squeeze method;
// for alpha < 1 a Gamma(alpha+1) deviate is scaled by U^(1/alpha)).
func (r *Rand) Gamma(alpha float64) float64 {
	if alpha <= 0 {
		return 0
	}
	scale := 1.0
	if alpha < 1 {
		u := r.Float64()
		for u == 0 {
			u = r.Float64()
		}
		scale = math.Pow(u, 1/alpha)
		alpha++
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.Norm()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || (u > 0 && math.Log(u) < 0.5*x2+d*(1-v+math.Log(v))) {
			return scale * d * v
		}
	}
}

// Dirichlet fills dst with a sample of the symmetric Dirichlet(alpha) distribution over
// len(dst) outcomes (the entries are non-negative and sum to 1).
func (r *Rand) Dirichlet(alpha float64, dst []float64) {
	sum := 0.0
	for i := range dst {
		g := r.Gamma(alpha)
		dst[i] = g
		sum += g
	}
	if sum <= 0 || math.IsInf(sum, 0) || math.IsNaN(sum) {
		// Every draw underflowed (tiny alpha): the limit distribution puts all mass on one
		// outcome.
		for i := range dst {
			dst[i] = 0
		}
		if len(dst) > 0 {
			dst[r.IntN(len(dst))] = 1
		}
		return
	}
	for i := range dst {
		dst[i] /= sum
	}
}
