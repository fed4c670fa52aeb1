package train

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"colony/game/ataxx"
	"colony/nn/nnue"
)

// TestNNUETrainerThreads: a batch split between replicas run side by side gives one graph's
// logits, gradient, losses, validation and weights, step after step, up to the order of the
// float sums; a split that does not divide the batch is refused.
func TestNNUETrainerThreads(t *testing.T) {
	sc := windowArch(32, 0)
	sc.Activation, sc.Buckets = nnue.SCReLU, 8
	for _, c := range []struct {
		a     nnue.Arch
		dense bool
	}{{sc, false}, {nnueArch(32, 16), true}} {
		const B, K = 48, 3
		mk := func(threads int) *NNUETrainer {
			tr, err := newNNUETrainer(nnue.NewRandom(c.a, 7), Config{Batch: B, LR: 1e-2}, c.dense, threads)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { tr.Close() })
			return tr
		}
		one, many := mk(1), mk(K)
		if len(many.peers) != K-1 || many.rows != B/K {
			t.Fatalf("%s: %d peers of %d rows, want %d of %d", c.a, len(many.peers), many.rows, K-1, B/K)
		}
		// Logits and the gradient of one batch.
		ps := randomPositions(B, 11)
		fillNNUE(t, one, c.a, ps)
		fillNNUE(t, many, c.a, ps)
		l1, err := one.Logits()
		if err != nil {
			t.Fatal(err)
		}
		lk, err := many.Logits()
		if err != nil {
			t.Fatal(err)
		}
		if len(lk) != B || maxAbsDiff(l1, lk) > 1e-5 {
			t.Fatalf("%s: %d logits from %d threads, %g from one thread's", c.a, len(lk), K, maxAbsDiff(l1, lk))
		}
		if _, err := one.run(); err != nil {
			t.Fatal(err)
		}
		if _, err := many.run(); err != nil {
			t.Fatal(err)
		}
		for i := range one.gs {
			var scale float64
			for _, g := range one.gs[i] {
				scale = max(scale, math.Abs(float64(g)))
			}
			if d := maxAbsDiff(one.gs[i], many.gs[i]); scale == 0 || d > 1e-5*scale {
				t.Fatalf("%s: gradient of %s: %d threads differ by %g (largest %g)", c.a, one.net.learnables[i].Name(), K, d, scale)
			}
		}
		// Steps on changing batches: the peers must follow the first replica's updates.
		for s := range 12 {
			ps := randomPositions(B, 20+uint64(s))
			fillNNUE(t, one, c.a, ps)
			fillNNUE(t, many, c.a, ps)
			a, err := one.Step()
			if err != nil {
				t.Fatal(err)
			}
			b, err := many.Step()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(a-b) > 1e-4*a {
				t.Fatalf("%s step %d: loss %.6f with one thread, %.6f with %d", c.a, s, a, b, K)
			}
		}
		if d := maxAbsDiff(one.Model().Weights.FT, many.Model().Weights.FT); d > 1e-4 {
			t.Fatalf("%s: first-layer weights differ by %g after 12 steps", c.a, d)
		}
		// Validation over a set that is not a whole number of batches.
		vs := randomPositions(2*B+5, 31)
		v := &valSet{}
		in := make([]float32, ataxx.InputSize)
		for i, p := range vs {
			p.Encode(in)
			pc, stm, err := c.a.Pieces(in)
			if err != nil {
				t.Fatal(err)
			}
			v.pieces, v.stm = append(v.pieces, pc), append(v.stm, uint8(stm))
			v.target = append(v.target, float32(i%3-1)/2)
			v.result = append(v.result, float32(i%2*2-1))
		}
		b1, r1, err := one.validate(v)
		if err != nil {
			t.Fatal(err)
		}
		bk, rk, err := many.validate(v)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(b1-bk) > 1e-5 || math.Abs(r1-rk) > 1e-5 {
			t.Fatalf("%s: validation %.6f/%.6f with one thread, %.6f/%.6f with %d", c.a, b1, r1, bk, rk, K)
		}
	}
	for _, k := range []int{0, 5, 48} {
		if tr, err := newNNUETrainer(nnue.NewRandom(sc, 1), Config{Batch: 48}, false, k); err == nil {
			tr.Close()
			t.Fatalf("a batch of 48 split between %d threads was accepted", k)
		}
	}
}

// TestRunNNUEThreads: a run with its batches split between two graphs ends at the one-graph
// run's weights (the same samples in the same order; only the sums' order differs), and a
// split that does not divide the batch is an error before training.
func TestRunNNUEThreads(t *testing.T) {
	shards := writeShards(t)
	run := func(threads int) (*nnue.Model, error) {
		cfg := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: nnueArch(32, 0), Shards: shards,
			Steps: 20, Batch: 32, Threads: threads, Out: filepath.Join(t.TempDir(), "n.nnue"), Seed: 3}
		return RunNNUE(context.Background(), cfg, testLog{t})
	}
	one, err := run(1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := run(2)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(one.Weights.FT, two.Weights.FT); d > 1e-4 || two.Step != 20 {
		t.Fatalf("two threads: step %d, first layer %g from one thread's", two.Step, d)
	}
	if d := maxAbsDiff(one.Weights.OutW, two.Weights.OutW); d > 1e-4 {
		t.Fatalf("two threads: output weights %g from one thread's", d)
	}
	if _, err := run(3); err == nil {
		t.Fatal("a batch of 32 split between 3 threads was accepted")
	}
}
