package pipeline

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/agentdef"
	"colony/engine"
	"colony/registry"
	"colony/selfplay"
	"colony/train"
)

// TestNNUETrainResumesExactly: a generation's training killed part-way goes on from the
// candidate and the checkpoint beside it as the same run, ending with exactly the weights of an
// uninterrupted training; without the checkpoint (a run of an older build) it goes on as a new
// run from the candidate, to the same step but other weights.
func TestNNUETrainResumesExactly(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	bc := selfplay.BootstrapConfig{Workers: 1, Games: 4, Seed: 2, Limits: engine.Limits{Depth: 1}}
	if _, err := g.Bootstrap(context.Background(), bc, "alphabeta", agentdef.EngineOptions{HashMB: 1}, shards); err != nil {
		t.Fatal(err)
	}
	best := filepath.Join(nnueModels(t), "000004.nnue")
	base := mustLoad(t, best).Step
	tr := func(out string) nnueTraining {
		return nnueTraining{Game: g, Best: best, Out: out, Shards: shards, Steps: 8, Window: 10_000, Batch: 16,
			LR: 1e-3, Seed: 9, ScoreWeight: 0.5, TeacherWeight: 0.3}
	}
	whole := tr(filepath.Join(dir, "whole.nnue"))
	if err := trainNNUE(context.Background(), io.Discard, whole); err != nil {
		t.Fatal(err)
	}
	want := mustLoad(t, whole.Out)

	killed := func(out string) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		k := tr(out)
		k.AfterSave = func(step int64) {
			if step == base+4 {
				cancel()
			}
		}
		if err := trainNNUE(ctx, io.Discard, k); !errors.Is(err, train.ErrInterrupted) {
			t.Fatalf("killed training: %v", err)
		}
		if m := mustLoad(t, out); m.Step != base+4 {
			t.Fatalf("killed training left step %d, want %d", m.Step, base+4)
		}
	}
	out := filepath.Join(dir, "cand.nnue")
	killed(out)
	var log bytes.Buffer
	if err := trainNNUE(context.Background(), &log, tr(out)); err != nil {
		t.Fatal(err)
	}
	got := mustLoad(t, out)
	if !strings.Contains(log.String(), "the same schedule and optimizer: true") || got.Step != want.Step || got.SHA256() != want.SHA256() {
		t.Fatalf("resumed: step %d sha %.12s, uninterrupted: step %d sha %.12s\n%s", got.Step, got.SHA256(), want.Step, want.SHA256(), log.String())
	}

	old := filepath.Join(dir, "old.nnue")
	killed(old)
	if err := os.Remove(train.CkptPath(old)); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if err := trainNNUE(context.Background(), &log, tr(old)); err != nil {
		t.Fatal(err)
	}
	got = mustLoad(t, old)
	if !strings.Contains(log.String(), "the same schedule and optimizer: false") || got.Step != want.Step || got.SHA256() == want.SHA256() {
		t.Fatalf("continued without a checkpoint: step %d, same weights %v\n%s", got.Step, got.SHA256() == want.SHA256(), log.String())
	}
}
