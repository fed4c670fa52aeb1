package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/data"
	"colony/game/ataxx"
	"colony/nn"
	"colony/nn/onnx"
)

// writeShards writes two small shards of random positions with random-move policies and
// material-based values into a new directory and returns it.
func writeShards(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shards")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var moves []ataxx.Move
	for s := range 2 {
		var exs []data.Example
		for g := range 30 {
			p := ataxx.Start()
			for ply := 0; ply < 20 && !p.Terminal(); ply++ {
				moves = p.LegalMoves(moves[:0])
				in := make([]float32, ataxx.InputSize)
				p.Encode(in)
				m := moves[rng.IntN(len(moves))]
				v := float32(math.Tanh(float64(p.Count(0)-p.Count(1)) / 8))
				exs = append(exs, data.Example{
					Input:  in,
					Policy: []data.PolicyEntry{{Index: int32(m.PolicyIndex()), Prob: 1}},
					Values: [4]float32{v, -v}, GameID: uint64(s*100 + g), Ply: ply,
				})
				p = p.Apply(m)
			}
		}
		if err := data.WriteShard(filepath.Join(dir, fmt.Sprintf("s%d.shard", s)), data.MetaFor(ataxx.Info), exs); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runConfig is a tiny run: a fresh 1x8 net, batch 4, 8 steps, checkpoint every 2 steps.
func runConfig(dir, shards string) RunConfig {
	return RunConfig{
		Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Blocks: 1, Channels: 8,
		Shards: shards, Window: 1000, Refresh: 3, Steps: 8, Seed: 7,
		Train:      Config{Batch: 4, LR: 2e-3, Optimizer: Adam, Schedule: Cosine},
		Checkpoint: filepath.Join(dir, "run.ckpt"), Every: 2,
		Out: filepath.Join(dir, "out.model"), CSV: filepath.Join(dir, "loss.csv"),
	}
}

func flatWeights(m *nn.Model) []float32 {
	var out []float32
	w := &m.Weights
	convs := []nn.Conv{w.Stem, w.PolicyConv, w.ValueConv}
	for _, b := range w.Blocks {
		convs = append(convs, b[0], b[1])
	}
	for _, c := range convs {
		for _, s := range [][]float32{c.W, c.Gamma, c.Beta, c.Mean, c.Var} {
			out = append(out, s...)
		}
	}
	for _, d := range []nn.Dense{w.PolicyFC, w.ValueFC1, w.ValueFC2} {
		out = append(out, d.W...)
		out = append(out, d.B...)
	}
	return out
}

func sameWeights(t *testing.T, what string, a, b *nn.Model) {
	t.Helper()
	if a.Step != b.Step {
		t.Fatalf("%s: step %d vs %d", what, a.Step, b.Step)
	}
	if d := maxAbsDiff(flatWeights(a), flatWeights(b)); d > 1e-5 {
		t.Fatalf("%s: weights differ by %g", what, d)
	}
}

func mustRun(t *testing.T, cfg RunConfig) *RunResult {
	t.Helper()
	res, err := Run(context.Background(), cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// testLog sends a run's log lines to the test log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestRunInterruptedResumes cancels a run after step 3, runs it again with the same
// configuration and checks that the result equals an uninterrupted run's, with one CSV row
// per step; the interrupted run writes no model.
func TestRunInterruptedResumes(t *testing.T) {
	shards := writeShards(t)
	ref := runConfig(t.TempDir(), shards)
	ref.ONNX = filepath.Join(filepath.Dir(ref.Out), "sub", "out.onnx")
	want := mustRun(t, ref).Model
	if want.Step != 8 || want.Meta["train.batch"] != "4" {
		t.Fatalf("reference model step %d meta %v", want.Step, want.Meta)
	}
	f, err := os.Open(ref.ONNX)
	if err != nil {
		t.Fatal(err)
	}
	_, err = onnx.Import(f, want.Arch)
	f.Close()
	if err != nil {
		t.Fatalf("the ONNX export does not read back: %v", err)
	}

	dir := t.TempDir()
	o := runConfig(dir, shards)
	ctx, cancel := context.WithCancel(context.Background())
	o.AfterStep = func(step int64) {
		if step == 3 {
			cancel()
		}
	}
	_, err = Run(ctx, o, testLog{t})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("interrupted run returned %v", err)
	}
	if _, err := os.Stat(o.Out); err == nil {
		t.Fatal("an interrupted run wrote the output model")
	}
	info, err := ReadCheckpointInfo(o.Checkpoint)
	if err != nil || info.Step != 3 {
		t.Fatalf("checkpoint after interrupt: step %d, %v", info.Step, err)
	}
	o2 := runConfig(dir, shards)
	o2.Plot = filepath.Join(dir, "loss.png")
	res := mustRun(t, o2)
	if !res.Resumed || res.Steps != 5 || res.Start != 0 || res.Target != 8 {
		t.Fatalf("resumed run: %+v", res)
	}
	if st, err := os.Stat(o2.Plot); PlotsEnabled && (err != nil || st.Size() == 0) {
		t.Errorf("loss plot not written: %v", err)
	}
	got, err := nn.Load(o2.Out)
	if err != nil {
		t.Fatal(err)
	}
	sameWeights(t, "interrupted vs reference run", got, want)
	rows, err := ReadLossCSV(o.CSV)
	if err != nil {
		t.Fatal(err)
	}
	refRows, err := ReadLossCSV(ref.CSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 || len(refRows) != 8 {
		t.Fatalf("%d / %d CSV rows, want 8", len(rows), len(refRows))
	}
	for i := range rows {
		if rows[i].Step != int64(i+1) || math.Abs(rows[i].Total-refRows[i].Total) > 1e-5 {
			t.Errorf("row %d: %+v, reference %+v", i, rows[i], refRows[i])
		}
	}
}

// TestRunChangedSteps: a finished run started again with more steps continues from its
// checkpoint to the new total (the same weights as one run of that many steps at a constant
// learning rate); fewer steps than the checkpoint's step are refused and leave the model as
// it was; fewer steps than the checkpoint aimed for, but not fewer than it has done, stop there.
func TestRunChangedSteps(t *testing.T) {
	shards := writeShards(t)
	constant := func(dir string, steps int64) RunConfig {
		c := runConfig(dir, shards)
		c.Steps, c.Train.Schedule = steps, Constant
		return c
	}
	want := mustRun(t, constant(t.TempDir(), 8)).Model

	dir := t.TempDir()
	if m := mustRun(t, constant(dir, 4)).Model; m.Step != 4 {
		t.Fatalf("first run stopped at step %d", m.Step)
	}
	res := mustRun(t, constant(dir, 8))
	if !res.Resumed || res.Steps != 4 || res.Model.Step != 8 {
		t.Fatalf("continued run: resumed %v, %d steps, model step %d", res.Resumed, res.Steps, res.Model.Step)
	}
	sameWeights(t, "4 + 4 steps vs 8 steps", res.Model, want)
	if rows, err := ReadLossCSV(filepath.Join(dir, "loss.csv")); err != nil || len(rows) != 8 {
		t.Fatalf("%d CSV rows (%v), want 8", len(rows), err)
	}

	before, err := os.ReadFile(filepath.Join(dir, "out.model"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), constant(dir, 5), testLog{t})
	if !errors.Is(err, ErrCheckpointMismatch) || !strings.Contains(err.Error(), "step 8") {
		t.Fatalf("5 steps after a checkpoint at step 8: %v", err)
	}
	t.Log(err)
	after, _ := os.ReadFile(filepath.Join(dir, "out.model"))
	if !bytes.Equal(before, after) {
		t.Fatal("a refused run rewrote the model")
	}

	// Interrupted at step 3 of 8, then asked for 6: it stops at 6.
	dir = t.TempDir()
	c := constant(dir, 8)
	ctx, cancel := context.WithCancel(context.Background())
	c.AfterStep = func(step int64) {
		if step == 3 {
			cancel()
		}
	}
	if _, err := Run(ctx, c, testLog{t}); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	if res := mustRun(t, constant(dir, 6)); res.Model.Step != 6 || res.Steps != 3 {
		t.Fatalf("interrupted at 3, asked for 6: model step %d after %d steps", res.Model.Step, res.Steps)
	}
}

// TestRunRefusesOtherCheckpoint: a checkpoint of another architecture, start model or game is
// refused with an error naming what differs, and no model is written.
func TestRunRefusesOtherCheckpoint(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	base := runConfig(dir, shards)
	base.Steps = 2
	mustRun(t, base)
	if err := os.Remove(base.Out); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.model")
	if err := nn.NewRandom(nn.ArchFor(ataxx.Info, 1, 8), 99).Save(other); err != nil {
		t.Fatal(err)
	}
	otherGame := ataxx.Info
	otherGame.Name = "not-ataxx"
	for _, tc := range []struct {
		name   string
		change func(c *RunConfig)
		want   string
	}{
		{"architecture", func(c *RunConfig) { c.Channels = 4 }, "1x8 net, this run starts from a fresh 1x4"},
		{"fresh seed", func(c *RunConfig) { c.Seed = 8 }, "started from a fresh 1x8 net (seed 7)"},
		{"start model", func(c *RunConfig) { c.Model = other }, "this run from " + other},
		{"game", func(c *RunConfig) { c.Game = otherGame }, "not for this game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			tc.change(&c)
			_, err := Run(context.Background(), c, testLog{t})
			if !errors.Is(err, ErrCheckpointMismatch) || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "delete the checkpoint") {
				t.Fatalf("got %v, want a checkpoint mismatch naming %q", err, tc.want)
			}
			t.Log(err)
			if _, err := os.Stat(c.Out); err == nil {
				t.Fatal("a refused run wrote a model")
			}
		})
	}
}

func TestRunRejectsBadConfigs(t *testing.T) {
	for _, c := range []RunConfig{
		{Game: ataxx.Info, Out: "x"},
		{Game: ataxx.Info, Shards: "x"},
		{Game: ataxx.Info, Shards: "x", Out: "y", Plot: "p.png"},
		{Shards: "x", Out: "y"},
		{Game: ataxx.Info, Shards: "x", Out: "y", Steps: -1},
		{Game: ataxx.Info, Shards: "x", Out: "y", PolicyChannels: -1},
	} {
		if _, err := Run(context.Background(), c, nil); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
}

// TestRunPolicyChannels: a fresh net gets the policy head width asked for, and trains.
func TestRunPolicyChannels(t *testing.T) {
	dir := t.TempDir()
	cfg := runConfig(dir, writeShards(t))
	cfg.Checkpoint, cfg.Steps, cfg.PolicyChannels = "", 2, 1
	mustRun(t, cfg)
	m, err := nn.Load(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Arch.PolicyChannels != 1 || m.Weights.PolicyFC.In != m.Arch.Height*m.Arch.Width {
		t.Errorf("policy head %d channels, dense layer in %d; want 1 and %d", m.Arch.PolicyChannels, m.Weights.PolicyFC.In, m.Arch.Height*m.Arch.Width)
	}
}
