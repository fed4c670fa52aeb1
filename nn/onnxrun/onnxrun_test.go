package onnxrun

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
	"colony/nn/onnx"
)

// TestExportMatchesNet exports random models (BatchNorm statistics perturbed), runs them with
// onnx-go and compares with the pure-Go forward pass.
func TestExportMatchesNet(t *testing.T) {
	for _, a := range []nn.Arch{nn.ArchFor(ataxx.Info, 2, 8), nn.ArchFor(ataxx.Info, 1, 6)} {
		m := nn.NewRandom(a, 7)
		rng := rand.New(rand.NewPCG(1, 2))
		convs := []*nn.Conv{&m.Weights.Stem, &m.Weights.PolicyConv, &m.Weights.ValueConv}
		for b := range m.Weights.Blocks {
			convs = append(convs, &m.Weights.Blocks[b][0], &m.Weights.Blocks[b][1])
		}
		for _, c := range convs {
			for o := range c.Out {
				c.Gamma[o] = float32(0.5 + rng.Float64())
				c.Beta[o] = float32(rng.NormFloat64() * 0.2)
				c.Mean[o] = float32(rng.NormFloat64() * 0.2)
				c.Var[o] = float32(0.5 + rng.Float64())
			}
		}
		for _, d := range []*nn.Dense{&m.Weights.PolicyFC, &m.Weights.ValueFC1, &m.Weights.ValueFC2} {
			for i := range d.B {
				d.B[i] = float32(rng.NormFloat64() * 0.1)
			}
		}
		for i := range m.Weights.ValueFC2.W {
			m.Weights.ValueFC2.W[i] *= 10
		}
		const batch = 3
		var buf bytes.Buffer
		if err := onnx.ExportBatch(m, &buf, batch); err != nil {
			t.Fatal(err)
		}
		r, err := Load(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		size := a.Planes * a.Height * a.Width
		in := make([]float32, batch*size)
		for i := range in {
			in[i] = rng.Float32()
		}
		outs, err := r.Run(in)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 2 {
			t.Fatalf("%d outputs, want 2", len(outs))
		}
		net, err := nn.NewNet(m, batch)
		if err != nil {
			t.Fatal(err)
		}
		pol := make([]float32, batch*a.PolicySize)
		val := make([]float32, batch*a.NumPlayers)
		if err := net.Forward(in, batch, pol, val); err != nil {
			t.Fatal(err)
		}
		compare(t, "policy", outs[0], pol)
		compare(t, "value", outs[1], val)

		// The comparison can fail: a model differing in one bias gives another policy.
		m.Weights.PolicyFC.B[5] += 0.5
		net2, err := nn.NewNet(m, batch)
		if err != nil {
			t.Fatal(err)
		}
		if err := net2.Forward(in, batch, pol, val); err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(pol[5]-outs[0][5])) < 0.4 {
			t.Fatalf("changed bias not visible: %g vs %g", pol[5], outs[0][5])
		}
	}
}

func compare(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: onnx-go gives %d values, want %d", what, len(got), len(want))
	}
	spread := 0.0
	for i := range got {
		d := math.Abs(float64(got[i]-want[i])) / max(1, math.Abs(float64(want[i])))
		if d > 1e-4 || math.IsNaN(d) {
			t.Fatalf("%s[%d]: onnx-go %g, pure Go %g", what, i, got[i], want[i])
		}
		spread = max(spread, math.Abs(float64(want[i]-want[0])))
	}
	if spread == 0 {
		t.Fatalf("%s: all outputs equal, comparison is vacuous", what)
	}
}
