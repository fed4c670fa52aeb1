package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/nn"
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
