package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

// lossAndGrads runs the training graph on the batch in the trainer's buffers and returns the
// total loss (L2 included) and a copy of the gradients, without updating anything.
func lossAndGrads(t *testing.T, tr *Trainer) (float64, [][]float32) {
	t.Helper()
	p, v, err := tr.forwardBackward()
	if err != nil {
		t.Fatal(err)
	}
	gs := make([][]float32, len(tr.gs))
	for i, g := range tr.gs {
		gs[i] = append([]float32(nil), g...)
	}
	l2 := addL2(tr.cfg.l2(), tr.ws, gs, tr.net.decay)
	return p + tr.cfg.ValueWeight*v + l2, gs
}

// TestGradientFiniteDifference compares the analytic gradient of the total loss with central
// differences for the largest-gradient entry and one random entry of every learnable tensor.
func TestGradientFiniteDifference(t *testing.T) {
	m := nn.NewRandom(nn.ArchFor(ataxx.Info, 1, 4), 11)
	perturb(m, 12)
	cfg := Config{Batch: 4, WeightDecay: 1e-2, ValueWeight: 2}
	tr, err := NewTrainer(m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	d := syntheticData(4, 13)
	if err := (&cycler{d: d}).NextBatch(tr.in, tr.pol, tr.val); err != nil {
		t.Fatal(err)
	}
	_, grads := lossAndGrads(t, tr)
	// A second run must give the same gradients (they must not accumulate).
	_, again := lossAndGrads(t, tr)
	for i := range grads {
		if d := maxAbsDiff(grads[i], again[i]); d > 1e-6 {
			t.Fatalf("gradients of %s changed between two identical runs by %g", tr.net.learnables[i].Name(), d)
		}
	}

	// The loss is only piecewise smooth (ReLU kinks: a tiny net and batch have many
	// pre-activations near zero), so a central difference can straddle a kink. An entry passes
	// when the difference quotient agrees for at least one of a few step sizes; a wrong
	// analytic gradient agrees for none.
	rng := rand.New(rand.NewPCG(1, 2))
	steps := []float64{2e-3, 1e-3, 5e-4}
	checked, bad := 0, 0
	for i, node := range tr.net.learnables {
		g := grads[i]
		big := 0
		for j := range g {
			if math.Abs(float64(g[j])) > math.Abs(float64(g[big])) {
				big = j
			}
		}
		for _, j := range []int{big, rng.IntN(len(g))} {
			w := tr.ws[i]
			orig := w[j]
			an := float64(g[j])
			best := math.Inf(1)
			var bestFD float64
			for _, h := range steps {
				w[j] = orig + float32(h)
				lp, _ := lossAndGrads(t, tr)
				w[j] = orig - float32(h)
				lm, _ := lossAndGrads(t, tr)
				w[j] = orig
				fd := (lp - lm) / (2 * h)
				if e := math.Abs(fd - an); e < best {
					best, bestFD = e, fd
				}
			}
			checked++
			if best > 1e-3+0.02*math.Abs(an) {
				bad++
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", node.Name(), j, an, bestFD)
			} else if j == big {
				t.Logf("%-18s[%5d]: analytic %+.6f  fd %+.6f", node.Name(), j, an, bestFD)
			}
		}
	}
	if checked < 2*len(tr.net.learnables) || bad > 0 {
		t.Fatalf("%d of %d gradient entries disagree", bad, checked)
	}
}
