package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/nn"
	"colony/pipeline"
	"colony/registry"
)

func runArgs(args ...string) (int, string) {
	var out strings.Builder
	code := run(context.Background(), args, &out)
	return code, out.String()
}

// The cycle itself is tested in package pipeline; these check the command's flags and errors.
func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "-gate-only"},
		{[]string{"-no-such-flag"}, 2, "not defined"},
		{[]string{"-run", t.TempDir(), "extra"}, 2, "unexpected arguments"},
		{[]string{"-game", "no-such-game", "-run", t.TempDir()}, 2, "unknown game"},
		{[]string{"-run", t.TempDir(), "-init", "random:x"}, 1, "random:BLOCKSxCHANNELS"},
		{[]string{"-run", t.TempDir(), "-models", t.TempDir()}, 1, "none in"},
		{[]string{"-nnue", "-run", filepath.Join(t.TempDir(), "r"), "-models", "../../models/bacteria-war/nnue", "-ref", "bin/agent -engine greedy", "-ref-games", "1"},
			1, "a reference gate needs at least 2 games"},
		{[]string{"-nnue", "-run", filepath.Join(t.TempDir(), "r"), "-models", "../../models/bacteria-war/nnue", "-teacher-weight", "1"},
			1, "teacher weight 1: want 0 (none) or in (0, 1)"},
	} {
		if code, out := runArgs(tc.args...); code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%q: exit %d (want %d), output lacks %q:\n%s", tc.args, code, tc.code, tc.want, out)
		}
	}
}

// TestGateOnlyNeedsAgent: gating without the agent binary fails at once with a message that
// says so, and leaves the run in its gate stage with the models directory not created.
func TestGateOnlyNeedsAgent(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cand := filepath.Join(dir, "cand.model")
	if err := nn.NewRandom(nn.ArchFor(g.Info(), 1, 4), 3).Save(cand); err != nil {
		t.Fatal(err)
	}
	models := filepath.Join(dir, "models")
	code, out := runArgs("-run", filepath.Join(dir, "run"), "-init", "random:1x4", "-models", models,
		"-agent", filepath.Join(dir, "no-agent"), "-gate-only", cand)
	if code != 1 || !strings.Contains(out, "the gate needs the agent binary") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(models); err == nil {
		t.Fatal("the models directory was created without a promotion")
	}
	code, out = runArgs("-run", filepath.Join(dir, "run"), "-gate-only", cand)
	if code != 1 || !strings.Contains(out, "gate stage: finish it first") {
		t.Fatalf("second gate-only: exit %d:\n%s", code, out)
	}
}

// TestReport: -report writes the shipped nets' report without -run, and refuses a -run that
// is not a run directory.
func TestReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.html")
	if code, msg := runArgs("-game", "bacteria-war", "-models", "../../models/bacteria-war/nnue", "-report", out); code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "colony-training-report v1") {
		t.Fatalf("the report: %v", err)
	}
	if code, msg := runArgs("-run", t.TempDir(), "-report", out); code != 1 || !strings.Contains(msg, "not a run directory") {
		t.Errorf("a folder that is no run: exit %d, %s", code, msg)
	}
}

// TestNNUEDefaults: with -nnue the training and promotion settings that the command line
// leaves out are the NNUE recipe's (a convnet run keeps its own), and one given is kept.
func TestNNUEDefaults(t *testing.T) {
	read := func(dir string) pipeline.Config {
		t.Helper()
		var c pipeline.Config
		b, err := os.ReadFile(filepath.Join(dir, "config.json"))
		if err == nil {
			err = json.Unmarshal(b, &c)
		}
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	models := "../../models/bacteria-war/nnue"
	dir := filepath.Join(t.TempDir(), "run")
	if code, out := runArgs("-nnue", "-run", dir, "-models", models, "-generations", "0", "-batch", "512"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	got, want := read(dir), pipeline.DefaultNNUEConfig()
	if got.Batch != 512 || got.TrainSteps != want.TrainSteps || got.LR != want.LR || got.Window != want.Window ||
		got.Promote != want.Promote || got.NNUE == nil {
		t.Errorf("-nnue -batch 512: steps %d batch %d lr %g window %d promote %g, want %d 512 %g %d %g",
			got.TrainSteps, got.Batch, got.LR, got.Window, got.Promote, want.TrainSteps, want.LR, want.Window, want.Promote)
	}
	if want.Batch == pipeline.DefaultConfig().Batch || want.Window == pipeline.DefaultConfig().Window {
		t.Errorf("the NNUE recipe's batch %d and window %d are the convnet's", want.Batch, want.Window)
	}
	dir = filepath.Join(t.TempDir(), "run")
	if code, out := runArgs("-run", dir, "-init", "random:1x4", "-generations", "0"); code != 0 {
		t.Fatalf("convnet run: exit %d:\n%s", code, out)
	}
	if got, want := read(dir), pipeline.DefaultConfig(); got.Batch != want.Batch || got.Window != want.Window ||
		got.TrainSteps != want.TrainSteps || got.Promote != want.Promote {
		t.Errorf("a convnet run took %+v", got)
	}
}
