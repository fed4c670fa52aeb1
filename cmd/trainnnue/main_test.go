package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/agentdef"
	"colony/arena"
	"colony/engine"
	"colony/nn/nnue"
	"colony/registry"
	"colony/selfplay"
)

// TestTrainAndEval: a short run writes a loadable model; -eval reads it back; bad flags exit 2.
func TestTrainAndEval(t *testing.T) {
	dir, shards := newShards(t, 10)
	out := filepath.Join(dir, "m.nnue")
	var log bytes.Buffer
	if code := run(context.Background(), []string{"-shards", shards, "-out", out, "-hidden", "16", "-steps", "20", "-batch", "32"}, &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	m, err := nnue.Load(out)
	if err != nil || m.Step != 20 || m.Arch.Hidden != 16 {
		t.Fatalf("trained model: %v (%+v)", err, m)
	}
	sq := filepath.Join(dir, "sq.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", sq, "-hidden", "16", "-steps", "5", "-batch", "32", "-activation", "screlu"}, &log); code != 0 {
		t.Fatalf("train screlu: exit %d\n%s", code, log.String())
	}
	if m, err := nnue.Load(sq); err != nil || m.Arch.Activation != nnue.SCReLU {
		t.Fatalf("-activation screlu: %v (%+v)", err, m)
	}
	log.Reset()
	if code := run(context.Background(), []string{"-model", out, "-eval", shards}, &log); code != 0 || !strings.Contains(log.String(), "value MSE") {
		t.Fatalf("-eval: exit %d\n%s", code, log.String())
	}
	for _, args := range [][]string{{"-out", out}, {"-shards", shards}, {"-shards", shards, "-out", out, "-game", "nope"}, {"-shards", shards, "-out", out, "-activation", "gelu"}} {
		if code := run(context.Background(), args, &log); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// newShards makes a temporary folder and writes the shards of games games (writeShards) into
// its subfolder "shards"; it returns both paths.
func newShards(t *testing.T, games int) (dir, shards string) {
	t.Helper()
	dir = t.TempDir()
	shards = filepath.Join(dir, "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	writeShards(t, shards, games)
	return dir, shards
}

// writeShards writes the shards of a few games of Bacteria War's random engine into dir,
// through the registry (a command reaches no game package directly).
func writeShards(t *testing.T, dir string, games int) { t.Helper(); writeShardsSeed(t, dir, games, 1) }

// writeShardsSeed is writeShards from seed (the shard's name and games differ by seed).
func writeShardsSeed(t *testing.T, dir string, games int, seed uint64) {
	t.Helper()
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	bc := selfplay.BootstrapConfig{Workers: 1, Games: games, Limits: engine.Limits{Depth: 1}, Seed: seed}
	if _, err := g.Bootstrap(context.Background(), bc, "random", agentdef.EngineOptions{}, dir); err != nil {
		t.Fatal(err)
	}
}

// TestWindowInput: -input windows trains a window-input net; continuing from it without the
// flag keeps window input; an unknown -input exits 2.
func TestWindowInput(t *testing.T) {
	dir, shards := newShards(t, 6)
	out := filepath.Join(dir, "w.nnue")
	var log bytes.Buffer
	if code := run(context.Background(), []string{"-shards", shards, "-out", out, "-hidden", "16", "-steps", "6", "-batch", "16", "-input", "windows"}, &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	m, err := nnue.Load(out)
	if err != nil || m.Arch.Input != nnue.WindowInput || m.Arch.Width != 7 || m.Arch.Features() != 2916 {
		t.Fatalf("-input windows: %v (%+v)", err, m)
	}
	more := filepath.Join(dir, "w2.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-model", out, "-out", more, "-steps", "3", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("warm start: exit %d\n%s", code, log.String())
	}
	if m2, err := nnue.Load(more); err != nil || m2.Arch != m.Arch || m2.Step != 9 {
		t.Fatalf("warm start: %v (%+v)", err, m2)
	}
	if code := run(context.Background(), []string{"-shards", shards, "-out", out, "-input", "hexes"}, &log); code != 2 {
		t.Errorf("-input hexes: exit %d, want 2", code)
	}
	// -to-windows moves a cell-input start net to window input before training; a window net
	// cannot be moved again.
	cells := filepath.Join(dir, "c.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", cells, "-hidden", "16", "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("cell net: exit %d\n%s", code, log.String())
	}
	moved := filepath.Join(dir, "m.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-model", cells, "-to-windows", "-out", moved, "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("-to-windows: exit %d\n%s", code, log.String())
	}
	for _, f := range []string{moved + ".windows", moved} {
		if m3, err := nnue.Load(f); err != nil || m3.Arch.Input != nnue.WindowInput || m3.Arch.Width != 7 {
			t.Fatalf("-to-windows %s: %v (%+v)", f, err, m3)
		}
	}
	if code := run(context.Background(), []string{"-shards", shards, "-model", moved, "-to-windows", "-out", filepath.Join(dir, "again.nnue")}, &log); code != 2 {
		t.Errorf("-to-windows on a window net: exit %d, want 2", code)
	}
	if code := run(context.Background(), []string{"-shards", shards, "-to-windows", "-out", filepath.Join(dir, "none.nnue")}, &log); code != 2 {
		t.Errorf("-to-windows without -model: exit %d, want 2", code)
	}
}

// TestValidationFlags: with two shards and -val-frac 0.5 one is held out; -val-every 4 over 12
// steps validates at steps 0, 4, 8 and 12 (OUT.epochs.csv); the curves go to OUT.loss.svg;
// -best-val keeps the last model as OUT.last; -plot none draws nothing; a bad schedule fails.
func TestValidationFlags(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	for i, seed := range []uint64{1, 2} {
		sub := filepath.Join(dir, fmt.Sprint(i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		writeShardsSeed(t, sub, 4, seed)
		if i == 0 {
			if err := os.Rename(sub, shards); err != nil {
				t.Fatal(err)
			}
			continue
		}
		ents, err := os.ReadDir(sub)
		if err != nil || len(ents) != 1 {
			t.Fatalf("bootstrap wrote %v (%v)", ents, err)
		}
		if err := os.Rename(filepath.Join(sub, ents[0].Name()), filepath.Join(shards, "second-"+ents[0].Name())); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "v.nnue")
	var log bytes.Buffer
	args := []string{"-shards", shards, "-out", out, "-hidden", "16", "-steps", "12", "-batch", "16", "-val-frac", "0.5",
		"-val-every", "4", "-best-val", "-lr-schedule", "step", "-lr-drop-every", "5", "-warmup", "2"}
	if code := run(context.Background(), args, &log); code != 0 {
		t.Fatalf("exit %d\n%s", code, log.String())
	}
	for _, want := range []string{"validation split: 1 of 2 shards held out", "learning rate: step 0.002, x0.3 every 5 steps, warm-up 2 steps",
		"step 12: validation mse"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	csv, err := os.ReadFile(out + ".epochs.csv")
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, line := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
		steps = append(steps, strings.Split(line, ",")[0])
	}
	if strings.Join(steps, " ") != "0 4 8 12" {
		t.Errorf("validated at steps %v, want 0 4 8 12", steps)
	}
	for _, f := range []string{out, out + ".last", out + ".loss.svg"} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	quiet := filepath.Join(dir, "q.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", quiet, "-hidden", "16", "-steps", "2", "-batch", "16", "-plot", "none", "-val-frac", "0"}, &log); code != 0 {
		t.Fatalf("-plot none: exit %d", code)
	}
	for _, f := range []string{quiet + ".loss.svg", quiet + ".epochs.csv"} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s: %v, want none", f, err)
		}
	}
	log.Reset()
	if code := run(context.Background(), []string{"-shards", shards, "-out", quiet, "-lr-schedule", "linear"}, &log); code == 0 || !strings.Contains(log.String(), "unknown learning-rate schedule") {
		t.Errorf("-lr-schedule linear: exit %d\n%s", code, log.String())
	}
}

// TestPerspectives: -perspectives 1 trains a fresh net whose output reads the side to move's
// accumulator only; with -model it first cuts a two-perspective start net to one (OUT.stm);
// -perspectives 2 on a one-perspective start net and -perspectives 3 exit 2.
func TestPerspectives(t *testing.T) {
	dir, shards := newShards(t, 6)
	var log bytes.Buffer
	one := filepath.Join(dir, "one.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", one, "-hidden", "16", "-steps", "4", "-batch", "16", "-input", "windows", "-activation", "screlu", "-perspectives", "1"}, &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	if m, err := nnue.Load(one); err != nil || !m.Arch.STMOnly || m.Arch.Input != nnue.WindowInput || len(m.Weights.OutW) != 16 {
		t.Fatalf("-perspectives 1: %v (%+v)", err, m)
	}
	two := filepath.Join(dir, "two.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", two, "-hidden", "16", "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	if m, err := nnue.Load(two); err != nil || m.Arch.STMOnly {
		t.Fatalf("default perspectives: %v (%+v)", err, m)
	}
	cut := filepath.Join(dir, "cut.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-model", two, "-perspectives", "1", "-out", cut, "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("-perspectives 1 -model: exit %d\n%s", code, log.String())
	}
	for _, f := range []string{cut + ".stm", cut} {
		if m, err := nnue.Load(f); err != nil || !m.Arch.STMOnly {
			t.Fatalf("-perspectives 1 -model %s: %v (%+v)", f, err, m)
		}
	}
	for _, args := range [][]string{
		{"-shards", shards, "-model", one, "-perspectives", "2", "-out", filepath.Join(dir, "x.nnue")},
		{"-shards", shards, "-model", one, "-perspectives", "1", "-out", filepath.Join(dir, "y.nnue")},
		{"-shards", shards, "-perspectives", "3", "-out", filepath.Join(dir, "z.nnue")},
	} {
		if code := run(context.Background(), args, &log); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestBuckets: -buckets starts a fresh bucketed net; with -model it copies an unbucketed start
// net into the buckets first (the same function: the converted file's logits equal the start
// net's) and continues a start net that has that many; a bucket count out of range or one
// that differs from the start net's exits 2.
func TestBuckets(t *testing.T) {
	dir, shards := newShards(t, 6)
	var log bytes.Buffer
	fresh := filepath.Join(dir, "fresh.nnue")
	trainBucketed(t, shards, fresh, &log)
	if m, err := nnue.Load(fresh); err != nil || m.Arch.Buckets != 4 || len(m.Weights.OutW) != 4*2*16 || len(m.Weights.OutB) != 4 {
		t.Fatalf("-buckets 4: %v (%+v)", err, m)
	}
	plain := filepath.Join(dir, "plain.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-out", plain, "-hidden", "16", "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	warm := filepath.Join(dir, "warm.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-model", plain, "-buckets", "8", "-out", warm, "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("-buckets 8 -model: exit %d\n%s", code, log.String())
	}
	start, err := nnue.Load(plain)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := nnue.Load(warm + ".buckets")
	if err != nil || conv.Arch.Buckets != 8 {
		t.Fatalf("converted start: %v (%+v)", err, conv)
	}
	sameLogits(t, start, conv, 0)
	if m, err := nnue.Load(warm); err != nil || m.Arch.Buckets != 8 {
		t.Fatalf("-buckets 8 -model: %v (%+v)", err, m)
	}
	again := filepath.Join(dir, "again.nnue")
	if code := run(context.Background(), []string{"-shards", shards, "-model", warm, "-buckets", "8", "-out", again, "-steps", "2", "-batch", "16"}, &log); code != 0 {
		t.Fatalf("continuing a bucketed net: exit %d\n%s", code, log.String())
	}
	if _, err := os.Stat(again + ".buckets"); err == nil {
		t.Fatal("a start net that has the buckets was converted again")
	}
	for _, args := range [][]string{
		{"-shards", shards, "-model", warm, "-buckets", "4", "-out", filepath.Join(dir, "x.nnue")},
		{"-shards", shards, "-buckets", "1", "-out", filepath.Join(dir, "y.nnue")},
		{"-shards", shards, "-buckets", "17", "-out", filepath.Join(dir, "z.nnue")},
		{"-shards", shards, "-model", plain, "-buckets", "40", "-out", filepath.Join(dir, "w.nnue")},
	} {
		if code := run(context.Background(), args, &log); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestResume: -resume goes on to the end of the stopped run's schedule (steps unset), writes
// the checkpoint beside each model, and is refused without -model, without a checkpoint or with
// a conversion of the start model.
func TestResume(t *testing.T) {
	dir, shards := newShards(t, 10)
	out := filepath.Join(dir, "r.nnue")
	var log bytes.Buffer
	common := []string{"-shards", shards, "-hidden", "16", "-batch", "32", "-val-frac", "0", "-plot", "none"}
	if code := run(context.Background(), append(common, "-out", out, "-steps", "8", "-every", "4"), &log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
	if _, err := os.Stat(out + ".ckpt"); err != nil {
		t.Fatalf("no checkpoint beside the model: %v", err)
	}
	log.Reset()
	if code := run(context.Background(), append(common, "-model", out, "-resume", "-out", out), &log); code != 1 || !strings.Contains(log.String(), "give the steps") {
		t.Fatalf("-resume of a finished run without -steps: exit %d, want 1\n%s", code, log.String())
	}
	log.Reset()
	if code := run(context.Background(), append(common, "-model", out, "-resume", "-steps", "4", "-out", out), &log); code != 0 || !strings.Contains(log.String(), "resume:") {
		t.Fatalf("-resume -steps 4: exit %d\n%s", code, log.String())
	}
	m, err := nnue.Load(out)
	if err != nil || m.Step != 12 {
		t.Fatalf("resumed model: %v (%+v)", err, m)
	}
	bare := filepath.Join(dir, "bare.nnue")
	if err := nnue.NewRandom(m.Arch, 1).Save(bare); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-resume", "-out", out}, 2, "-resume needs -model"},
		{[]string{"-resume", "-model", out, "-widen", "32", "-out", out}, 2, "no conversion"},
		{[]string{"-resume", "-model", bare, "-out", bare + ".2"}, 1, "no checkpoint"},
	} {
		log.Reset()
		if code := run(context.Background(), append(common, c.args...), &log); code != c.code || !strings.Contains(log.String(), c.msg) {
			t.Errorf("%q: exit %d, want %d with %q\n%s", c.args, code, c.code, c.msg, log.String())
		}
	}
}

// TestSplit: -widen to twice the lanes with -split starts from the split net (written as
// OUT.widened: its logits equal the start's without a nudge) and trains it; -split without
// -widen, with a width other than twice the start's, or with a nudge out of range exits 2.
func TestSplit(t *testing.T) {
	dir, shards := newShards(t, 6)
	var log bytes.Buffer
	plain := filepath.Join(dir, "plain.nnue")
	trainBucketed(t, shards, plain, &log)
	split := filepath.Join(dir, "split.nnue")
	conv, m := trainConverted(t, shards, plain, split, "widened", &log, "-widen", "32", "-split", "0")
	if conv.Arch.Hidden != 32 || conv.Meta["split_from"] == "" {
		t.Fatalf("split start: %+v", conv)
	}
	if m.Arch.Hidden != 32 {
		t.Fatalf("-split: %+v", m)
	}
	for _, args := range [][]string{
		{"-shards", shards, "-model", plain, "-split", "0.05", "-out", filepath.Join(dir, "x.nnue")},
		{"-shards", shards, "-model", plain, "-widen", "48", "-split", "0.05", "-out", filepath.Join(dir, "y.nnue")},
		{"-shards", shards, "-model", plain, "-widen", "32", "-split", "3", "-out", filepath.Join(dir, "z.nnue")},
	} {
		if code := run(context.Background(), args, &log); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// trainBucketed trains a fresh 16-lane window net with 4 output buckets for two steps into out.
func trainBucketed(t *testing.T, shards, out string, log *bytes.Buffer) {
	t.Helper()
	if code := run(context.Background(), []string{"-shards", shards, "-out", out, "-hidden", "16", "-steps", "2", "-batch", "16", "-input", "windows", "-buckets", "4"}, log); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log.String())
	}
}

// trainConverted trains start for two steps into out with the conversion flags conv, and
// returns the converted start net (written as out.suffix), after checking that it computes
// start's function, and the trained net.
func trainConverted(t *testing.T, shards, start, out, suffix string, log *bytes.Buffer, conv ...string) (converted, trained *nnue.Model) {
	t.Helper()
	args := append([]string{"-shards", shards, "-model", start, "-out", out, "-steps", "2", "-batch", "16"}, conv...)
	if code := run(context.Background(), args, log); code != 0 {
		t.Fatalf("%v: exit %d\n%s", conv, code, log.String())
	}
	s, err := nnue.Load(start)
	if err != nil {
		t.Fatal(err)
	}
	if converted, err = nnue.Load(out + "." + suffix); err != nil {
		t.Fatalf("%v: converted start: %v", conv, err)
	}
	sameLogits(t, s, converted, 1e-5)
	if trained, err = nnue.Load(out); err != nil {
		t.Fatalf("%v: %v", conv, err)
	}
	return converted, trained
}

// sameLogits fails unless conv's logits are within tol of start's on three fixed positions (no
// cell held by both sides), either side to move (a converted start net computes the same
// function).
func sameLogits(t *testing.T, start, conv *nnue.Model, tol float64) {
	t.Helper()
	for _, pieces := range [][2]uint64{{0b11, 0b1100}, {1<<49 - 1 - 0xFF, 0x0F}, {0x1F0F0F0F, 0xE0E0F0F0F0}} {
		for stm := range 2 {
			if x, y := start.Forward(pieces, stm), conv.Forward(pieces, stm); math.Abs(float64(x-y)) > tol {
				t.Fatalf("%x, side %d to move: converted logit %v, start %v", pieces, stm, y, x)
			}
		}
	}
}

// TestUntie: -untie starts from the untied net (written as OUT.untied: one perspective, twice
// the lanes, the start's logits) and trains it; with -widen or -perspectives, or on a start
// that reads one perspective already, it exits 2.
func TestUntie(t *testing.T) {
	dir, shards := newShards(t, 6)
	var log bytes.Buffer
	plain := filepath.Join(dir, "plain.nnue")
	trainBucketed(t, shards, plain, &log)
	out := filepath.Join(dir, "untied.nnue")
	conv, m := trainConverted(t, shards, plain, out, "untied", &log, "-untie")
	if conv.Arch.Hidden != 32 || !conv.Arch.STMOnly || conv.Meta["untied_from"] == "" {
		t.Fatalf("untied start: %+v", conv)
	}
	if m.Arch.Hidden != 32 || !m.Arch.STMOnly {
		t.Fatalf("-untie: %+v", m)
	}
	for _, args := range [][]string{
		{"-shards", shards, "-model", plain, "-untie", "-widen", "32", "-out", filepath.Join(dir, "x.nnue")},
		{"-shards", shards, "-model", plain, "-untie", "-perspectives", "1", "-out", filepath.Join(dir, "y.nnue")},
		{"-shards", shards, "-model", out, "-untie", "-out", filepath.Join(dir, "z.nnue")},
	} {
		if code := run(context.Background(), args, &log); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestScreen: -screen scores each net on the recorded games' positions, pairs each with the
// first (a net against itself differs by exactly nothing), leaves out and counts a game that
// did not end on the board, and refuses bad flags and folders.
func TestScreen(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	recs := filepath.Join(dir, "games")
	if err := os.Mkdir(recs, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 6 {
		s := g.Rules().Start()
		r := arena.Record{Format: arena.RecordFormat, Version: arena.RecordVersion, Game: "bacteria-war", Index: i, Start: s.String()}
		for !s.Terminal() && (i > 0 || len(r.Moves) < 20) { // game 0 stops early: no result
			c := s.RandomMove(rng)
			r.Moves = append(r.Moves, arena.MoveRecord{Move: c})
			if s, err = s.Play(c); err != nil {
				t.Fatal(err)
			}
		}
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(recs, fmt.Sprintf("game-%05d.json", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := g.NNUEArch(16, 0)
	if err != nil {
		t.Fatal(err)
	}
	n1, n2 := filepath.Join(dir, "a.nnue"), filepath.Join(dir, "b.nnue")
	for i, p := range []string{n1, n2} {
		if err := nnue.NewRandom(a, uint64(i+1)).Save(p); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	if code := run(context.Background(), []string{"-model", n1 + "," + n2 + "," + n1, "-screen", recs, "-screen-plies", "2-30"}, &log); code != 0 {
		t.Fatalf("-screen: exit %d\n%s", code, log.String())
	}
	out := log.String()
	for _, want := range []string{"145 positions (plies 2-30) of 5 games", "(1 games not ended on the board left out)", "a.nnue: MSE ", "b.nnue: MSE ", "+0.0000 ± 0.0000 against"} {
		if !strings.Contains(out, want) {
			t.Errorf("-screen output lacks %q:\n%s", want, out)
		}
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-model", n1, "-screen", recs, "-screen-plies", "30-2"}, 2},
		{[]string{"-model", n1, "-screen", recs, "-screen-plies", "x"}, 2},
		{[]string{"-screen", recs}, 2},
		{[]string{"-model", n1, "-screen", dir}, 1},
		{[]string{"-model", filepath.Join(dir, "none.nnue"), "-screen", recs}, 1},
	} {
		log.Reset()
		if code := run(context.Background(), c.args, &log); code != c.code {
			t.Errorf("%q: exit %d, want %d\n%s", c.args, code, c.code, log.String())
		}
	}
}

// TestAverage: -average writes the weight-wise mean of the nets and refuses nets of two
// shapes, of another game, and a missing -out.
func TestAverage(t *testing.T) {
	dir, shards := newShards(t, 6)
	var log bytes.Buffer
	nets := make([]string, 3)
	for i := range nets {
		nets[i] = filepath.Join(dir, fmt.Sprintf("n%d.nnue", i))
		hidden := "16"
		if i == 2 {
			hidden = "32"
		}
		args := []string{"-shards", shards, "-out", nets[i], "-hidden", hidden, "-steps", "10", "-batch", "32", "-seed", fmt.Sprint(i + 1), "-val-frac", "0"}
		if code := run(context.Background(), args, &log); code != 0 {
			t.Fatalf("train %d: exit %d\n%s", i, code, log.String())
		}
	}
	out := filepath.Join(dir, "avg.nnue")
	if code := run(context.Background(), []string{"-average", nets[0] + "," + nets[1], "-out", out}, &log); code != 0 {
		t.Fatalf("-average: exit %d\n%s", code, log.String())
	}
	avg, err := nnue.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := nnue.Load(nets[0])
	b, _ := nnue.Load(nets[1])
	for j, x := range avg.Weights.FT {
		if want := (a.Weights.FT[j] + b.Weights.FT[j]) / 2; math.Abs(float64(x-want)) > 1e-6 {
			t.Fatalf("feature weight %d: %v, want %v", j, x, want)
		}
	}
	if avg.Meta["averaged_from"] != a.SHA256()+","+b.SHA256() {
		t.Fatalf("averaged_from %q", avg.Meta["averaged_from"])
	}
	for _, args := range [][]string{
		{"-average", nets[0] + "," + nets[2], "-out", filepath.Join(dir, "x.nnue")},
		{"-average", nets[0] + "," + nets[1], "-game", "catch-the-mouse", "-out", filepath.Join(dir, "y.nnue")},
		{"-average", nets[0] + "," + nets[1]},
		{"-average", nets[0] + "," + filepath.Join(dir, "missing.nnue"), "-out", filepath.Join(dir, "z.nnue")},
	} {
		if code := run(context.Background(), args, &log); code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
	}
	for _, p := range []string{"x.nnue", "y.nnue", "z.nnue"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s written by a refused -average", p)
		}
	}
}
