package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"colony/data"
	"colony/game/ataxx"
	"colony/nn"
	"colony/train"
)

// writeShards writes two small shards of random positions with random-move policies and
// material-based values.
func writeShards(t *testing.T, dir string) {
	t.Helper()
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
		meta := data.AtaxxMeta()
		if err := data.WriteShard(filepath.Join(dir, fmt.Sprintf("s%d.shard", s)), meta, exs); err != nil {
			t.Fatal(err)
		}
	}
}

func testOptions(dir string) options {
	return options{
		shards: filepath.Join(dir, "shards"), out: filepath.Join(dir, "out.model"),
		checkpoint: filepath.Join(dir, "run.ckpt"), csv: filepath.Join(dir, "loss.csv"),
		blocks: 1, channels: 8, batch: 4, window: 1000, steps: 8, every: 2, refresh: 3,
		lr: 2e-3, optimizer: train.Adam, schedule: train.Cosine, wd: 1e-4, valueWeight: 1, seed: 7,
	}
}

// TestKilledRunResumes interrupts a run mid-way, reruns the same command and checks that the
// result equals an uninterrupted run's, with one CSV row per step.
func TestKilledRunResumes(t *testing.T) {
	shards := filepath.Join(t.TempDir(), "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	writeShards(t, shards)

	// Uninterrupted reference run.
	refDir := t.TempDir()
	ref := testOptions(refDir)
	ref.shards = shards
	if err := run(&ref); err != nil {
		t.Fatal(err)
	}
	want, err := nn.Load(ref.out)
	if err != nil {
		t.Fatal(err)
	}
	if want.Step != 8 || want.Meta["train.batch"] != "4" {
		t.Fatalf("reference model step %d meta %v", want.Step, want.Meta)
	}

	// Interrupted run: SIGINT after step 3, then the same command again.
	dir := t.TempDir()
	o := testOptions(dir)
	o.shards = shards
	afterStep = func(step int64) {
		if step == 3 {
			syscall.Kill(os.Getpid(), syscall.SIGINT)
			time.Sleep(200 * time.Millisecond) // let the signal land before the next step
		}
	}
	err = run(&o)
	afterStep = nil
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("interrupted run returned %v", err)
	}
	if _, err := os.Stat(o.out); err == nil {
		t.Fatal("an interrupted run wrote the output model")
	}
	info, err := train.ReadCheckpointInfo(o.checkpoint)
	if err != nil || info.Step != 3 {
		t.Fatalf("checkpoint after interrupt: step %d, %v", info.Step, err)
	}
	o2 := testOptions(dir)
	o2.shards = shards
	if train.PlotsEnabled {
		o2.plot = filepath.Join(dir, "loss.png")
	}
	if err := run(&o2); err != nil {
		t.Fatal(err)
	}
	if o2.plot != "" {
		if st, err := os.Stat(o2.plot); err != nil || st.Size() == 0 {
			t.Errorf("loss plot not written: %v", err)
		}
	}
	got, err := nn.Load(o2.out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Step != want.Step {
		t.Fatalf("resumed model at step %d, want %d", got.Step, want.Step)
	}
	net1, net2 := flat(want), flat(got)
	for i := range net1 {
		if d := math.Abs(float64(net1[i] - net2[i])); d > 1e-5 {
			t.Fatalf("weight %d differs by %g between the interrupted and the reference run", i, d)
		}
	}
	rows, err := train.ReadLossCSV(o.csv)
	if err != nil {
		t.Fatal(err)
	}
	refRows, err := train.ReadLossCSV(ref.csv)
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

func flat(m *nn.Model) []float32 {
	var out []float32
	w := &m.Weights
	convs := []nn.Conv{w.Stem, w.PolicyConv, w.ValueConv}
	for _, b := range w.Blocks {
		convs = append(convs, b[0], b[1])
	}
	for _, c := range convs {
		out = append(out, c.W...)
		out = append(out, c.Gamma...)
		out = append(out, c.Beta...)
		out = append(out, c.Mean...)
		out = append(out, c.Var...)
	}
	for _, d := range []nn.Dense{w.PolicyFC, w.ValueFC1, w.ValueFC2} {
		out = append(out, d.W...)
		out = append(out, d.B...)
	}
	return out
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, o := range []options{
		{out: "x"},
		{shards: "x"},
		{shards: "x", out: "y", plot: "p.png"},
	} {
		if err := run(&o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}
