package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

// perturb gives a model non-trivial BatchNorm parameters and statistics and dense layers of
// ordinary scale, so that a parity test exercises every term (NewRandom's identity BatchNorm
// and tiny dense weights would hide a wrong folding or a wrong flatten order).
func perturb(m *nn.Model, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	u := func(lo, hi float64) float32 { return float32(lo + (hi-lo)*rng.Float64()) }
	convs := []*nn.Conv{&m.Weights.Stem, &m.Weights.PolicyConv, &m.Weights.ValueConv}
	for b := range m.Weights.Blocks {
		convs = append(convs, &m.Weights.Blocks[b][0], &m.Weights.Blocks[b][1])
	}
	for _, c := range convs {
		for i := range c.Out {
			c.Gamma[i], c.Beta[i] = u(0.5, 1.5), u(-0.2, 0.8) // mostly active ReLUs
			c.Mean[i], c.Var[i] = u(-0.5, 0.5), u(0.5, 2)
		}
	}
	for _, d := range []*nn.Dense{&m.Weights.PolicyFC, &m.Weights.ValueFC1, &m.Weights.ValueFC2} {
		std := 2 / math.Sqrt(float64(d.In))
		for i := range d.W {
			d.W[i] = float32(rng.NormFloat64() * std)
		}
		for i := range d.B {
			d.B[i] = u(-0.3, 0.3)
		}
	}
}

// encodePositions encodes n random positions.
func encodePositions(n int, seed uint64) []float32 {
	in := make([]float32, n*ataxx.InputSize)
	for i, p := range randomPositions(n, seed) {
		p.Encode(in[i*ataxx.InputSize:])
	}
	return in
}

// checkParity compares the trainer's eval-mode graph with nn.Net on batches 1..8.
func checkParity(t *testing.T, m *nn.Model, tol float64) {
	t.Helper()
	a := m.Arch
	const maxB = 8
	ev, err := NewEvaluator(m, maxB)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	net, err := nn.NewNet(m, maxB)
	if err != nil {
		t.Fatal(err)
	}
	in := encodePositions(maxB, 5)
	var worstP, worstV, spread float64
	for b := 1; b <= maxB; b++ {
		gp, gv := make([]float32, b*a.PolicySize), make([]float32, b*a.NumPlayers)
		np, nv := make([]float32, b*a.PolicySize), make([]float32, b*a.NumPlayers)
		if err := ev.Forward(in, b, gp, gv); err != nil {
			t.Fatal(err)
		}
		if err := net.Forward(in, b, np, nv); err != nil {
			t.Fatal(err)
		}
		dp, dv := maxAbsDiff(gp, np), maxAbsDiff(gv, nv)
		worstP, worstV = max(worstP, dp), max(worstV, dv)
		if dp > tol || dv > tol {
			t.Errorf("batch %d: policy logits differ by %.3g, values by %.3g (tolerance %g)", b, dp, dv, tol)
		}
		for _, x := range gp {
			spread = max(spread, math.Abs(float64(x)))
		}
	}
	t.Logf("max |gorgonia - nn|: policy %.3g, value %.3g; max |logit| %.3g; nn backend %s", worstP, worstV, spread, net.Backend())
	if spread < 0.5 {
		t.Errorf("logits are all below %.3g in magnitude: the parity check would not catch much", spread)
	}
}

func TestParityWithNN(t *testing.T) {
	for _, tc := range []struct {
		name            string
		blocks, channel int
	}{{"1x8", 1, 8}, {"2x16", 2, 16}, {"4x32", 4, 32}} {
		t.Run(tc.name, func(t *testing.T) {
			m := nn.NewRandom(nn.ArchFor(ataxx.Info, tc.blocks, tc.channel), 3)
			perturb(m, 4)
			checkParity(t, m, 1e-4)
		})
	}
}

// TestParityAfterTraining checks parity on weights and running statistics the trainer itself
// produced (its export path), not only on weights it was given.
func TestParityAfterTraining(t *testing.T) {
	m := nn.NewRandom(tinyArch(), 8)
	perturb(m, 9)
	tr, err := NewTrainer(m, Config{Batch: 8, LR: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b := &cycler{d: syntheticData(64, 2)}
	for range 10 {
		if _, err := tr.Step(b); err != nil {
			t.Fatal(err)
		}
	}
	out := tr.Model()
	moved := 0
	for i, v := range out.Weights.Stem.Var {
		if v != m.Weights.Stem.Var[i] {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("training left the stem's running variance unchanged")
	}
	checkParity(t, out, 1e-4)
}
