package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/agentdef"
	"colony/engine"
	"colony/nn/nnue"
	"colony/registry"
	"colony/selfplay"
)

// TestTrainAndEval: a short run writes a loadable model; -eval reads it back; bad flags exit 2.
func TestTrainAndEval(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	writeShards(t, shards, 10)
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

// writeShards writes the shards of a few games of Bacteria War's random engine into dir,
// through the registry (a command reaches no game package directly).
func writeShards(t *testing.T, dir string, games int) {
	t.Helper()
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	bc := selfplay.BootstrapConfig{Workers: 1, Games: games, Limits: engine.Limits{Depth: 1}, Seed: 1}
	if _, err := g.Bootstrap(context.Background(), bc, "random", agentdef.EngineOptions{}, dir); err != nil {
		t.Fatal(err)
	}
}

// TestWindowInput: -input windows trains a window-input net; continuing from it without the
// flag keeps window input; an unknown -input exits 2.
func TestWindowInput(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	writeShards(t, shards, 6)
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

// TestPerspectives: -perspectives 1 trains a fresh net whose output reads the side to move's
// accumulator only; with -model it first cuts a two-perspective start net to one (OUT.stm);
// -perspectives 2 on a one-perspective start net and -perspectives 3 exit 2.
func TestPerspectives(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	writeShards(t, shards, 6)
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
