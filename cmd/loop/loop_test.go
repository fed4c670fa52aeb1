package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLoopRunsAndResumes builds the binaries, runs one tiny generation (self-play, training,
// gating), checks the state and the files it leaves, then gates a model trained elsewhere.
func TestLoopRunsAndResumes(t *testing.T) {
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+"/", "colony/cmd/agent", "colony/cmd/arena", "colony/cmd/selfplay",
		"colony/cmd/train")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	run := filepath.Join(t.TempDir(), "run")
	models := filepath.Join(t.TempDir(), "models")
	args := []string{"-run", run, "-bin", bin, "-models", models, "-init", "random:1x8", "-generations", "1",
		"-selfplay-games", "2", "-playouts", "8", "-fast-playouts", "0", "-workers", "1", "-train-steps", "3",
		"-batch", "8", "-gate-games", "2", "-gate-clock", "2s", "-promote", "0"}
	if err := runLoop(args); err != nil {
		t.Fatal(err)
	}
	st, err := loadState(run)
	if err != nil {
		t.Fatal(err)
	}
	if st.Generation != 2 || st.Stage != "selfplay" || len(st.History) != 1 || !st.History[0].Promoted {
		t.Fatalf("after one generation: %+v", st)
	}
	for _, f := range []string{"gen-0001/candidate.model", "gen-0001/loss.csv", "gen-0001/selfplay.log",
		"gen-0001/gate.log", "config.json"} {
		if _, err := os.Stat(filepath.Join(run, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	for _, f := range []string{"000001.model", "elo.png"} {
		if _, err := os.Stat(filepath.Join(models, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	// Gate an outside model as generation 2 (resumes the same run and its configuration).
	if err := runLoop([]string{"-run", run, "-gate-only", filepath.Join(run, "gen-0001", "candidate.model")}); err != nil {
		t.Fatal(err)
	}
	if st, _ = loadState(run); st.Generation != 3 || len(st.History) != 2 {
		t.Fatalf("after -gate-only: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(models, "000002.model")); err != nil {
		t.Errorf("gate-only candidate not promoted: %v", err)
	}
}
