package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/agentdef"
	"colony/engine"
	"colony/nn"
	"colony/nn/onnx"
	"colony/registry"
	"colony/selfplay"
)

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

func runArgs(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out strings.Builder
	code := runCtx(context.Background(), args, &out)
	return code, out.String()
}

func TestFlags(t *testing.T) {
	if code, out := runArgs(t, "-h"); code != 0 || !strings.Contains(out, "-onnx") {
		t.Errorf("-h: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{},
		{"-out", "x"},
		{"-shards", "x"},
		{"-shards", "x", "-out", "y", "-plot", "p.png"},
		{"-shards", "x", "-out", "y", "-steps", "-1"},
		{"-shards", "x", "-out", "y", "extra"},
		{"-onnx", "x.onnx", "-out", "y"},
		{"-game", "no-such-game", "-shards", "x", "-out", "y"},
	} {
		if code, out := runArgs(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
}

// TestTrainAndConvert trains a tiny net through the command (with an ONNX copy), refuses to
// resume its checkpoint with another architecture, and converts a model file and the embedded
// best model to ONNX without training.
func TestTrainAndConvert(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.MkdirAll(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	writeShards(t, shards, 10)
	out := filepath.Join(dir, "m.model")
	args := []string{"-game", "bacteria-war", "-shards", shards, "-blocks", "1", "-channels", "4", "-batch", "4",
		"-steps", "3", "-checkpoint", filepath.Join(dir, "m.ckpt"), "-out", out, "-onnx", filepath.Join(dir, "m.onnx"), "-log", "1"}
	if code, log := runArgs(t, args...); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, log)
	}
	m, err := nn.Load(out)
	if err != nil || m.Step != 3 || m.Arch.Channels != 4 {
		t.Fatalf("trained model: %v (%v)", m, err)
	}
	checkONNX(t, filepath.Join(dir, "m.onnx"), m.Arch)

	args[7] = "8" // -channels 8 against a 1x4 checkpoint
	if code, log := runArgs(t, args...); code != 1 || !strings.Contains(log, "1x4 net, this run starts from a fresh 1x8") {
		t.Fatalf("changed architecture: exit %d\n%s", code, log)
	}

	conv := filepath.Join(dir, "conv", "m.onnx")
	if code, log := runArgs(t, "-onnx", conv, "-model", out); code != 0 {
		t.Fatalf("convert: exit %d\n%s", code, log)
	}
	checkONNX(t, conv, m.Arch)
	shipped := filepath.Join(dir, "shipped.onnx")
	code, log := runArgs(t, "-onnx", shipped)
	if code != 0 || !strings.Contains(log, "embedded bacteria-war/") {
		t.Fatalf("convert the embedded model: exit %d\n%s", code, log)
	}
	if code, log := runArgs(t, "-onnx", shipped, "-model", filepath.Join(dir, "missing.model")); code != 1 {
		t.Fatalf("convert a missing file: exit %d\n%s", code, log)
	}
}

func checkONNX(t *testing.T, path string, a nn.Arch) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := onnx.Import(f, a); err != nil {
		t.Fatal(fmt.Errorf("%s does not read back: %w", path, err))
	}
}
