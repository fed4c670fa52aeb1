package train

import (
	"context"
	"errors"
	"math"
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
	half := base
	half.Out = filepath.Join(dir, "half.nnue")
	runStoppedAt(t, half, 12)
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
	plain.Model, plain.Steps, plain.Out = saved, 12, filepath.Join(dir, "plain.nnue")
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

// TestRunNNUEResumeKeepsTheCurve: a resumed run's epoch CSV goes on as the run's own: the
// validations fall on the same steps with the same epochs, rates and losses as the run done in
// one go (the first row after the stop averages fewer training steps), no extra row at the
// resume, and the seconds go on from the stopped part's.
func TestRunNNUEResumeKeepsTheCurve(t *testing.T) {
	shards := writeShards(t)
	dir := t.TempDir()
	base := NNUEConfig{Game: ataxx.Info, Symmetries: ataxx.Symmetries{}, Arch: nnueArch(32, 0), Shards: shards,
		Steps: 24, Batch: 32, Every: 6, Seed: 7, ScoreScale: 250, Warmup: 4, Checkpoints: true,
		ValFrac: 0.5, ValEvery: 5}
	whole := base
	whole.Out, whole.EpochCSV = filepath.Join(dir, "whole.nnue"), filepath.Join(dir, "whole.csv")
	if _, err := RunNNUE(context.Background(), whole, testLog{t}); err != nil {
		t.Fatal(err)
	}
	half := base
	half.Out, half.EpochCSV = filepath.Join(dir, "half.nnue"), filepath.Join(dir, "half.csv")
	runStoppedAt(t, half, 12)
	stopped, err := ReadEpochCSV(half.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := readNNUECkpt(CkptPath(half.Out))
	if err != nil {
		t.Fatal(err)
	}
	// The CSV keeps tenths of a second.
	if last := stopped[len(stopped)-1].Seconds; ck.Seconds < last-0.05 {
		t.Errorf("checkpoint at %.3f s, before the stopped run's last row (%.3f s)", ck.Seconds, last)
	}
	res := half
	res.Model, res.Resume, res.Steps = half.Out, true, 0
	if _, err := RunNNUE(context.Background(), res, testLog{t}); err != nil {
		t.Fatal(err)
	}
	want, err := ReadEpochCSV(whole.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadEpochCSV(half.EpochCSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("resumed curve has %d rows, the whole run's %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.Step != w.Step || g.Epoch != w.Epoch || g.LR != w.LR || g.Val != w.Val || g.ValResult != w.ValResult {
			t.Errorf("row %d: resumed %+v, whole %+v", i, g, w)
		}
		if g.Step != 15 && !(math.IsNaN(g.Train) && math.IsNaN(w.Train)) && g.Train != w.Train {
			t.Errorf("row %d (step %d): training mse %v, whole run %v", i, g.Step, g.Train, w.Train)
		}
		if i > 0 && g.Seconds < got[i-1].Seconds {
			t.Errorf("row %d: seconds %.3f after %.3f", i, g.Seconds, got[i-1].Seconds)
		}
	}
	if got[3].Seconds < ck.Seconds-0.05 {
		t.Errorf("the first row after the resume at %.3f s, before the checkpoint's %.3f s", got[3].Seconds, ck.Seconds)
	}
}

// runStoppedAt runs cfg cancelled after its save at step (the run a resume goes on from).
func runStoppedAt(t *testing.T, cfg NNUEConfig, step int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.AfterSave = func(s int64) {
		if s == step {
			cancel()
		}
	}
	if _, err := RunNNUE(ctx, cfg, testLog{t}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("the cancelled run: %v", err)
	}
}
