package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/nn/nnue"
)

// TestRunNNUEResume: a run stopped halfway and resumed from its checkpoint ends with exactly the
// weights of the same run done in one go (schedule, Adam and sampling all continued); a plain
// continuation from the same model does not; bad checkpoints are refused with their reasons.
func TestRunNNUEResume(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	base := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: nnueArch(32, 0), Shards: shards,
		Steps: 24, Batch: 32, Every: 6, Seed: 3, ScoreScale: 250, Warmup: 4, Checkpoints: true}

	whole := base
	whole.Out = filepath.Join(dir, "whole.nnue")
	want, err := RunNNUE(context.Background(), whole, testLog{t})
	if err != nil {
		t.Fatal(err)
	}

	// The same run, cancelled after its save at step 12.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	half := base
	half.Out = filepath.Join(dir, "half.nnue")
	half.AfterSave = func(step int64) {
		if step == 12 {
			cancel()
		}
	}
	if _, err := RunNNUE(ctx, half, testLog{t}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("the cancelled run: %v", err)
	}
	stopped, err := nnue.Load(half.Out)
	if err != nil {
		t.Fatal(err)
	}
	if stopped.Step != 12 {
		t.Fatalf("the cancelled run saved step %d, want 12", stopped.Step)
	}
	saved := filepath.Join(dir, "stopped.nnue")
	copyFileT(t, half.Out, saved)
	copyFileT(t, CkptPath(half.Out), CkptPath(saved))

	// A plain continuation restarts the schedule and Adam: other weights.
	plain := base
	plain.Model, plain.Steps, plain.Out, plain.AfterSave = saved, 12, filepath.Join(dir, "plain.nnue"), nil
	got, err := RunNNUE(context.Background(), plain, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if got.Step != 24 || got.SHA256() == want.SHA256() {
		t.Fatalf("plain continuation: step %d, same weights as the whole run: %v", got.Step, got.SHA256() == want.SHA256())
	}

	// Resumed: the schedule's flags are not read (a wrong rate changes nothing), and Steps 0
	// runs to the stopped run's end.
	res := plain
	res.Resume, res.Steps, res.LR, res.Out = true, 0, 0.5, half.Out
	got, err = RunNNUE(context.Background(), res, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if got.Step != 24 || got.SHA256() != want.SHA256() {
		t.Fatalf("resumed run: step %d, sha %.12s; the whole run: step %d, sha %.12s", got.Step, got.SHA256(), want.Step, want.SHA256())
	}

	refuse := func(name string, cfg NNUEConfig, msg string) {
		t.Helper()
		_, err := RunNNUE(context.Background(), cfg, testLog{t})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want an error with %q", name, err, msg)
		}
	}
	// No checkpoint beside the model.
	bare := filepath.Join(dir, "bare.nnue")
	copyFileT(t, saved, bare)
	r := res
	r.Model = bare
	refuse("no checkpoint", r, "no checkpoint")
	// A checkpoint of another state of the run (the whole run's last, step 24).
	copyFileT(t, CkptPath(whole.Out), CkptPath(bare))
	refuse("another step's checkpoint", r, "goes with the model of step 24")
	// A damaged checkpoint.
	b, err := os.ReadFile(CkptPath(saved))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(CkptPath(bare), b, 0o644); err != nil {
		t.Fatal(err)
	}
	refuse("a damaged checkpoint", r, "checksum")
	if err := os.WriteFile(CkptPath(bare), []byte("CLNYTRCK and more bytes than the header"), 0o644); err != nil {
		t.Fatal(err)
	}
	refuse("another file", r, "bad magic")
	// The run is over: resuming needs steps past its end.
	r = res
	r.Model = whole.Out
	refuse("a finished run", r, "give the steps")
	r.Steps = 3
	if got, err = RunNNUE(context.Background(), r, testLog{t}); err != nil || got.Step != 27 {
		t.Fatalf("resumed past the end: step %v, %v", got, err)
	}
	// No model, no resume.
	r = res
	r.Model = ""
	refuse("no model", r, "needs the start model")
}

// TestRunNNUECheckpointsBestVal: with BestVal, Out is the best model (no checkpoint of its own)
// and the last model's checkpoint sits beside OUT.last, from which the run resumes.
func TestRunNNUECheckpointsBestVal(t *testing.T) {
	shards := writeShards(t)
	out := filepath.Join(t.TempDir(), "b.nnue")
	cfg := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: nnueArch(32, 0), Shards: shards,
		Steps: 12, Batch: 32, Every: 4, Seed: 5, ScoreScale: 250, Checkpoints: true, Out: out,
		ValFrac: 0.5, ValEvery: 4, BestVal: true}
	if _, err := RunNNUE(context.Background(), cfg, testLog{t}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(CkptPath(out)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s: %v, want none beside the best model", CkptPath(out), err)
	}
	cfg.Model, cfg.Resume, cfg.Steps, cfg.Out = out+".last", true, 4, filepath.Join(t.TempDir(), "c.nnue")
	m, err := RunNNUE(context.Background(), cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if m.Step < 12 {
		t.Fatalf("resumed from OUT.last: step %d", m.Step)
	}
	// Without Checkpoints nothing is written beside the model.
	plain := filepath.Join(t.TempDir(), "p.nnue")
	cfg.Model, cfg.Resume, cfg.Checkpoints, cfg.BestVal, cfg.Out = "", false, false, false, plain
	if _, err := RunNNUE(context.Background(), cfg, testLog{t}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(CkptPath(plain)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s written without Checkpoints: %v", CkptPath(plain), err)
	}
}

func copyFileT(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
