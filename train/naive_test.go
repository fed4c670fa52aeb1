package train

import (
	"math"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

// naiveForward is a direct, unoptimised float64 reading of the nn.Arch definition (BatchNorm not
// folded): the reference both the gorgonia graph and nn.Net are held to.
func naiveForward(m *nn.Model, input []float32, batch int, policy, value []float32) {
	a, w := m.Arch, &m.Weights
	H, W := a.Height, a.Width
	hw := H * W
	conv := func(c *nn.Conv, x []float64, relu bool) []float64 {
		y := make([]float64, c.Out*hw)
		p := c.K / 2
		for o := range c.Out {
			for r := range H {
				for col := range W {
					var s float64
					for i := range c.In {
						for kr := range c.K {
							for kc := range c.K {
								rr, cc := r+kr-p, col+kc-p
								if rr < 0 || rr >= H || cc < 0 || cc >= W {
									continue
								}
								s += float64(c.W[((o*c.In+i)*c.K+kr)*c.K+kc]) * x[i*hw+rr*W+cc]
							}
						}
					}
					v := (s-float64(c.Mean[o]))/math.Sqrt(float64(c.Var[o])+nn.BNEps)*float64(c.Gamma[o]) + float64(c.Beta[o])
					if relu {
						v = max(v, 0)
					}
					y[o*hw+r*W+col] = v
				}
			}
		}
		return y
	}
	dense := func(d *nn.Dense, x []float64) []float64 {
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
	in := inputSize(a)
	for b := range batch {
		x := make([]float64, in)
		for i := range x {
			x[i] = float64(input[b*in+i])
		}
		h := conv(&w.Stem, x, true)
		for _, blk := range w.Blocks {
			r := conv(&blk[0], h, true)
			r = conv(&blk[1], r, false)
			for i := range r {
				h[i] = max(r[i]+h[i], 0)
			}
		}
		pl := dense(&w.PolicyFC, conv(&w.PolicyConv, h, true))
		for i, v := range pl {
			policy[b*a.PolicySize+i] = float32(v)
		}
		vh := dense(&w.ValueFC1, conv(&w.ValueConv, h, true))
		for i := range vh {
			vh[i] = max(vh[i], 0)
		}
		for i, v := range dense(&w.ValueFC2, vh) {
			value[b*a.NumPlayers+i] = float32(math.Tanh(v))
		}
	}
}

// TestGraphMatchesNaive holds the eval-mode gorgonia graph to the float64 reference.
func TestGraphMatchesNaive(t *testing.T) {
	m := nn.NewRandom(nn.ArchFor(ataxx.Info, 2, 8), 3)
	perturb(m, 4)
	a := m.Arch
	const B = 5
	in := encodePositions(B, 6)
	ev, err := NewEvaluator(m, B)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	gp, gv := make([]float32, B*a.PolicySize), make([]float32, B*a.NumPlayers)
	rp, rv := make([]float32, B*a.PolicySize), make([]float32, B*a.NumPlayers)
	if err := ev.Forward(in, B, gp, gv); err != nil {
		t.Fatal(err)
	}
	naiveForward(m, in, B, rp, rv)
	dp, dv := maxAbsDiff(gp, rp), maxAbsDiff(gv, rv)
	t.Logf("gorgonia vs float64 reference: policy %.3g, value %.3g", dp, dv)
	if dp > 1e-4 || dv > 1e-4 {
		t.Errorf("gorgonia eval graph differs from the reference: policy %.3g, value %.3g", dp, dv)
	}
	// And nn.Net against the same reference, to tell which side a parity failure is on.
	net, err := nn.NewNet(m, B)
	if err != nil {
		t.Fatal(err)
	}
	np, nv := make([]float32, B*a.PolicySize), make([]float32, B*a.NumPlayers)
	if err := net.Forward(in, B, np, nv); err != nil {
		t.Fatal(err)
	}
	t.Logf("nn.Net vs float64 reference: policy %.3g, value %.3g", maxAbsDiff(np, rp), maxAbsDiff(nv, rv))
}
