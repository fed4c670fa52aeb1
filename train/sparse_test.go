package train

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"colony/game/ataxx"
	"colony/nn/nnue"
)

// TestSparseFirstLayerMatchesDense: for a window-input net the sparse first layer (gatherRows,
// scatterRows) gives the dense product's logits, loss and gradients of every tensor, and the
// two trainers stay together over some Adam steps.
func TestSparseFirstLayerMatchesDense(t *testing.T) {
	bucketed := windowArch(32, 0)
	bucketed.Buckets = 8
	for _, a := range []nnue.Arch{windowArch(32, 0), windowArch(16, 8), bucketed} {
		const B = 24
		m := nnue.NewRandom(a, 6)
		cfg := Config{Batch: B, LR: 3e-3}
		sparse, err := newNNUETrainer(m, cfg, false, 1)
		if err != nil {
			t.Fatal(err)
		}
		dense, err := newNNUETrainer(m, cfg, true, 1)
		if err != nil {
			t.Fatal(err)
		}
		if sparse.sparse == nil || dense.sparse != nil {
			t.Fatal("trainers do not have the asked first layers")
		}
		ps := randomPositions(B, 8)
		fillNNUE(t, sparse, a, ps)
		fillNNUE(t, dense, a, ps)
		for step := range 10 {
			ls, err := sparse.run()
			if err != nil {
				t.Fatal(err)
			}
			ld, err := dense.run()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(ls-ld) > 1e-6*max(1, math.Abs(ld)) {
				t.Fatalf("%s step %d: loss %v sparse, %v dense", a, step, ls, ld)
			}
			nonzero := 0
			for i := range sparse.gs {
				gs, gd := sparse.gs[i], dense.gs[i]
				if len(gs) != len(gd) {
					t.Fatalf("%s: gradient %d has %d values sparse, %d dense", a, i, len(gs), len(gd))
				}
				var scale float64
				for _, v := range gd {
					scale = max(scale, math.Abs(float64(v)))
				}
				for j := range gs {
					if d := math.Abs(float64(gs[j] - gd[j])); d > 1e-5*max(scale, 1e-3) {
						t.Fatalf("%s step %d: gradient of tensor %d [%d]: sparse %g, dense %g", a, step, i, j, gs[j], gd[j])
					}
					if gs[j] != 0 {
						nonzero++
					}
				}
			}
			if nonzero == 0 {
				t.Fatalf("%s: all gradients are zero", a)
			}
			// One Adam step each on the gradients just compared.
			for _, tr := range []*NNUETrainer{sparse, dense} {
				addL2(tr.cfg.l2(), tr.ws, tr.gs, tr.net.decay)
				tr.opt.step(&tr.cfg, tr.cfg.LRAt(tr.step), tr.ws, tr.gs)
				tr.step++
			}
		}
		ms, md := sparse.Model(), dense.Model()
		for i := range ms.Weights.FT {
			if math.Abs(float64(ms.Weights.FT[i]-md.Weights.FT[i])) > 1e-4 {
				t.Fatalf("%s: after 10 steps FT[%d] is %v sparse, %v dense", a, i, ms.Weights.FT[i], md.Weights.FT[i])
			}
		}
		sparse.Close()
		dense.Close()
	}
}

// TestSparseGradientFiniteDifference: the sparse layer's FT gradient matches central finite
// differences of the loss on a few entries of active rows.
func TestSparseGradientFiniteDifference(t *testing.T) {
	a := windowArch(16, 0)
	const B = 8
	m := nnue.NewRandom(a, 2)
	tr, err := newNNUETrainer(m, Config{Batch: B, LR: 1e-3}, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	fillNNUE(t, tr, a, randomPositions(B, 3))
	if _, err := tr.run(); err != nil {
		t.Fatal(err)
	}
	ft := tr.ws[0]
	grad := append([]float32(nil), tr.gs[0]...)
	checked := 0
	for _, f := range tr.sparse.us[:6] {
		for _, j := range []int{0, 5, 11} {
			i := int(f)*a.Hidden + j
			old := ft[i]
			const h = 2e-3 // small enough to cross no CReLU kink, large enough for float32 losses
			ft[i] = old + h
			lp, err := tr.run()
			if err != nil {
				t.Fatal(err)
			}
			ft[i] = old - h
			lm, err := tr.run()
			if err != nil {
				t.Fatal(err)
			}
			ft[i] = old
			fd := (lp - lm) / (2 * h)
			if math.Abs(fd-float64(grad[i])) > 0.05*math.Abs(fd)+1e-5 {
				t.Errorf("FT[%d][%d]: gradient %g, finite difference %g", f, j, grad[i], fd)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// TestRunNNUEWindows: a fresh window-input run writes a window-input model, and a warm start
// from it keeps its input kind even when the config's Arch asks for cells.
func TestRunNNUEWindows(t *testing.T) {
	shards := writeShards(t)
	out := filepath.Join(t.TempDir(), "w.nnue")
	cfg := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: windowArch(32, 0), Shards: shards,
		Steps: 20, Batch: 32, Out: out, Every: 10, Seed: 1}
	m, runErr := RunNNUE(context.Background(), cfg, testLog{t})
	back, loadErr := nnue.Load(out)
	if runErr != nil || loadErr != nil {
		t.Fatalf("run: %v; load: %v", runErr, loadErr)
	}
	if back.Arch.Input != nnue.WindowInput || back.Arch != m.Arch || back.Step != 20 {
		t.Fatalf("saved model: %s step %d", back.Arch, back.Step)
	}
	cfg.Model, cfg.Arch, cfg.Steps = out, nnueArch(32, 0), 5
	m2, err := RunNNUE(context.Background(), cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Arch != back.Arch || m2.Step != 25 {
		t.Fatalf("warm start: %s step %d, want %s step 25", m2.Arch, m2.Step, back.Arch)
	}
}
