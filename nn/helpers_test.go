package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"colony/game/ataxx"
)

// perturbBN gives every BatchNorm non-trivial statistics and every bias a non-zero value, so
// that folding and biases are exercised.
func perturbBN(m *Model, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	convs := append([]*Conv{&m.Weights.Stem, &m.Weights.PolicyConv, &m.Weights.ValueConv}, blockConvs(&m.Weights)...)
	for _, c := range convs {
		for o := range c.Out {
			c.Gamma[o] = float32(0.5 + rng.Float64())
			c.Beta[o] = float32(rng.NormFloat64() * 0.2)
			c.Mean[o] = float32(rng.NormFloat64() * 0.2)
			c.Var[o] = float32(0.5 + rng.Float64())
		}
	}
	for _, d := range []*Dense{&m.Weights.PolicyFC, &m.Weights.ValueFC1, &m.Weights.ValueFC2} {
		for i := range d.B {
			d.B[i] = float32(rng.NormFloat64() * 0.1)
		}
	}
	// Scale the value head up so tanh is not flat near zero.
	for i := range m.Weights.ValueFC2.W {
		m.Weights.ValueFC2.W[i] *= 10
	}
}

func testModel(a Arch, seed uint64) *Model {
	m := NewRandom(a, seed)
	perturbBN(m, seed)
	return m
}

func randomInput(n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := make([]float32, n)
	for i := range x {
		x[i] = rng.Float32()
	}
	return x
}

// randomPositions plays random games from the start and returns non-terminal positions.
func randomPositions(n int, seed uint64) []ataxx.Position {
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []ataxx.Position
	moves := make([]ataxx.Move, 0, ataxx.MaxMoves)
	p := ataxx.Start()
	for len(out) < n {
		if p.Terminal() {
			p = ataxx.Start()
			continue
		}
		if rng.IntN(3) == 0 {
			out = append(out, p)
		}
		moves = p.LegalMoves(moves)
		p = p.Apply(moves[rng.IntN(len(moves))])
	}
	return out
}

// refForward is a plain-loop, float64 forward pass with BatchNorm unfolded, straight from the
// Arch description. It is the specification the fast path is tested against.
func refForward(m *Model, input []float32, batch int) (policy, value []float32) {
	a := m.Arch
	H, W, hw := a.Height, a.Width, a.Height*a.Width
	conv := func(c *Conv, x []float64) []float64 {
		y := make([]float64, c.Out*hw)
		p := c.K / 2
		for o := range c.Out {
			for r := range H {
				for col := range W {
					s := 0.0
					for i := range c.In {
						for ky := range c.K {
							for kx := range c.K {
								rr, cc := r+ky-p, col+kx-p
								if rr < 0 || rr >= H || cc < 0 || cc >= W {
									continue
								}
								s += float64(c.W[((o*c.In+i)*c.K+ky)*c.K+kx]) * x[(i*H+rr)*W+cc]
							}
						}
					}
					y[o*hw+r*W+col] = float64(c.Gamma[o])*(s-float64(c.Mean[o]))/math.Sqrt(float64(c.Var[o])+BNEps) + float64(c.Beta[o])
				}
			}
		}
		return y
	}
	relu := func(x []float64) []float64 {
		for i := range x {
			x[i] = max(x[i], 0)
		}
		return x
	}
	dense := func(d *Dense, x []float64) []float64 {
		y := make([]float64, d.Out)
		for j := range d.Out {
			s := float64(d.B[j])
			for i := range d.In {
				s += x[i] * float64(d.W[i*d.Out+j])
			}
			y[j] = s
		}
		return y
	}
	for b := range batch {
		x := make([]float64, a.Planes*hw)
		for i := range x {
			x[i] = float64(input[b*a.Planes*hw+i])
		}
		x = relu(conv(&m.Weights.Stem, x))
		for _, blk := range m.Weights.Blocks {
			h := relu(conv(&blk[0], x))
			y := conv(&blk[1], h)
			for i := range y {
				y[i] = max(y[i]+x[i], 0)
			}
			x = y
		}
		pl := dense(&m.Weights.PolicyFC, relu(conv(&m.Weights.PolicyConv, x)))
		for _, v := range pl {
			policy = append(policy, float32(v))
		}
		vh := relu(dense(&m.Weights.ValueFC1, relu(conv(&m.Weights.ValueConv, x))))
		for _, v := range dense(&m.Weights.ValueFC2, vh) {
			value = append(value, float32(math.Tanh(v)))
		}
	}
	return policy, value
}

// assertClose fails when got and want differ by more than tol*max(1, |want|) anywhere.
func assertClose(t *testing.T, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	worst, at := 0.0, -1
	for i := range got {
		d := math.Abs(float64(got[i]-want[i])) / max(1, math.Abs(float64(want[i])))
		if !(d <= worst) {
			worst, at = d, i
		}
	}
	if worst > tol || math.IsNaN(worst) {
		t.Fatalf("%s: value %d is %g, want %g (relative error %g > %g)", what, at, got[at], want[at], worst, tol)
	}
}
