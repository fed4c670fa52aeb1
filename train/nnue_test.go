package train

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"colony/data"
	"colony/game/ataxx"
	"colony/nn/nnue"
)

// nnueArch reads the Ataxx encoding (planes 0/1 pieces, 3 = O to move).
func nnueArch(hidden, l1 int) nnue.Arch {
	return nnue.Arch{Game: ataxx.Info.Name, EncoderVersion: ataxx.EncoderVersion, Cells: ataxx.NumSquares,
		Planes: ataxx.NumPlanes, PiecePlanes: [2]int{0, 1}, ToMovePlane: 3, Hidden: hidden, L1: l1}
}

// windowArch is nnueArch with window input.
func windowArch(hidden, l1 int) nnue.Arch {
	a := nnueArch(hidden, l1)
	a.Input, a.Width = nnue.WindowInput, ataxx.Size
	return a
}

// fillNNUE writes positions ps (from their encodings) into the trainer's batch buffers with
// target tanh(material/8) for the side to move, and returns the positions' pieces and sides.
func fillNNUE(t testing.TB, tr *NNUETrainer, a nnue.Arch, ps []ataxx.Position) ([][2]uint64, []int) {
	in := make([]float32, ataxx.InputSize)
	var pieces [][2]uint64
	var stms []int
	for i, p := range ps {
		p.Encode(in)
		pc, stm, err := a.Pieces(in)
		if err != nil {
			t.Fatal(err)
		}
		tr.SetExample(i, pc, stm, float32(math.Tanh(float64(p.Count(stm)-p.Count(stm^1))/8)))
		pieces, stms = append(pieces, pc), append(stms, stm)
	}
	return pieces, stms
}

// TestNNUETrainerMatchesFloatForward: the trainer's graph computes the same logits as
// nnue.Model.Forward on the same weights (before and after some training), output buckets
// included (the batch spans several buckets).
func TestNNUETrainerMatchesFloatForward(t *testing.T) {
	sc := func(a nnue.Arch) nnue.Arch { a.Activation = nnue.SCReLU; return a }
	stm := func(a nnue.Arch) nnue.Arch { a.STMOnly = true; return a }
	bk := func(a nnue.Arch, b int) nnue.Arch { a.Buckets = b; return a }
	for _, a := range []nnue.Arch{nnueArch(32, 0), nnueArch(32, 16), sc(nnueArch(32, 0)), sc(nnueArch(32, 16)),
		windowArch(32, 0), sc(windowArch(32, 0)), windowArch(32, 16),
		stm(nnueArch(32, 0)), stm(sc(nnueArch(32, 16))), stm(sc(windowArch(32, 0))), stm(windowArch(32, 16)),
		bk(nnueArch(32, 0), 4), bk(sc(windowArch(32, 0)), 8), bk(stm(sc(windowArch(32, 0))), 8)} {
		const B = 32
		tr, err := NewNNUETrainer(nnue.NewRandom(a, 3), Config{Batch: B, LR: 1e-2})
		if err != nil {
			t.Fatal(err)
		}
		ps := randomPositions(B, 5)
		for round := range 2 {
			pieces, stms := fillNNUE(t, tr, a, ps)
			got, err := tr.Logits()
			if err != nil {
				t.Fatal(err)
			}
			m := tr.Model()
			var worst float64
			buckets := map[int]bool{}
			for i := range B {
				buckets[a.Bucket(pieces[i])] = true
				want := m.Forward(pieces[i], stms[i])
				worst = max(worst, math.Abs(float64(got[i]-want)))
			}
			if worst > 1e-4 {
				t.Fatalf("%s round %d: trainer logits differ from nnue.Forward by %g", a, round, worst)
			}
			if a.Buckets > 1 && len(buckets) < 2 {
				t.Fatalf("%s: the batch spans %d buckets", a, len(buckets))
			}
			for range 20 {
				if _, err := tr.Step(); err != nil {
					t.Fatal(err)
				}
			}
		}
		tr.Close()
	}
}

// TestNNUETrainerLearns: on a fixed batch the value MSE falls well below its start.
func TestNNUETrainerLearns(t *testing.T) {
	a := nnueArch(32, 0)
	const B = 64
	tr, err := NewNNUETrainer(nnue.NewRandom(a, 4), Config{Batch: B, LR: 3e-3})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	fillNNUE(t, tr, a, randomPositions(B, 9))
	first, _ := tr.Step()
	var last float64
	for range 300 {
		if last, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("mse %.4f -> %.4f", first, last)
	if !(last < first/4) {
		t.Fatalf("value MSE went from %.4f to %.4f", first, last)
	}
}

// TestRunNNUE trains on shards, writes a loadable model, and continues from it.
func TestRunNNUE(t *testing.T) {
	shards := writeShards(t)
	out := filepath.Join(t.TempDir(), "n.nnue")
	cfg := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: nnueArch(32, 0), Shards: shards,
		Steps: 30, Batch: 32, Out: out, Every: 10, Seed: 1, ScoreScale: 250}
	m, err := RunNNUE(context.Background(), cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	back, err := nnue.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Step != 30 || back.SHA256() != m.SHA256() || back.Meta["score_scale"] != "250" {
		t.Fatalf("saved model: step %d meta %v", back.Step, back.Meta)
	}
	cfg.Model, cfg.Steps = out, 10
	m2, err := RunNNUE(context.Background(), cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Step != 40 {
		t.Fatalf("continued run ends at step %d, want 40", m2.Step)
	}
	// Another game's model is refused.
	other := nnue.NewRandom(nnueArch(32, 0), 1)
	other.Arch.Game = "slime"
	p := filepath.Join(t.TempDir(), "o.nnue")
	if err := other.Save(p); err != nil {
		t.Fatal(err)
	}
	cfg.Model = p
	if _, err := RunNNUE(context.Background(), cfg, testLog{t}); err == nil {
		t.Fatal("a model of another game was accepted")
	}
}

// TestEvalNNUE: the held-out MSE equals a direct computation over the shards' examples.
func TestEvalNNUE(t *testing.T) {
	shards := writeShards(t)
	m := nnue.NewRandom(nnueArch(32, 0), 2)
	mse, n, err := EvalNNUE(m, ataxx.Info, shards)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	var count int
	files, _ := filepath.Glob(filepath.Join(shards, "*.shard"))
	for _, f := range files {
		_, exs, err := data.ReadShard(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range exs {
			l, stm, err := m.ForwardInput(ex.Input)
			if err != nil {
				t.Fatal(err)
			}
			d := math.Tanh(float64(l)) - float64(ex.Values[stm])
			sum += d * d
			count++
		}
	}
	if n != count || math.Abs(mse-sum/float64(count)) > 1e-9 || count == 0 {
		t.Fatalf("EvalNNUE: mse %v over %d examples, direct: %v over %d", mse, n, sum/float64(count), count)
	}
	m.Arch.Game = "other"
	if _, _, err := EvalNNUE(m, ataxx.Info, shards); err == nil {
		t.Fatal("a model of another game was evaluated")
	}
}

// The blended target: outcome only for unscored examples or w = 0, the mix otherwise.
func TestTargetBlend(t *testing.T) {
	ex := data.Example{Values: [4]float32{1, -1}, Scores: [4]float32{0.5, -0.5}}
	if got := Target(&ex, 0, 0.5); got != 1 {
		t.Errorf("unscored example: target %v, want the value 1", got)
	}
	ex.Scored = true
	for _, c := range []struct {
		stm  int
		w    float64
		want float32
	}{{0, 0, 1}, {0, 0.5, 0.75}, {1, 0.5, -0.75}, {1, 1, -0.5}, {0, 0.25, 0.875}} {
		if got := Target(&ex, c.stm, c.w); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("stm %d w %v: target %v, want %v", c.stm, c.w, got, c.want)
		}
	}
}
