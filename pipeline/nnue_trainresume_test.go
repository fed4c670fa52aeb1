package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
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
			LR: 1e-3, Seed: 9, NNUERecipe: NNUERecipe{ScoreWeight: 0.5, TeacherWeight: 0.3}}
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

// TestNNUETrainWarmupValEvery: a generation's training warms its rate up over Warmup steps and
// validates every ValEvery steps (the rows of epochs.csv), as NNUEConfig's Warmup and ValEvery
// ask; negative values are refused.
func TestNNUETrainWarmupValEvery(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	bc := selfplay.BootstrapConfig{Workers: 2, Games: 8, Seed: 4, PerShard: 40, Limits: engine.Limits{Depth: 1}}
	if _, err := g.Bootstrap(context.Background(), bc, "alphabeta", agentdef.EngineOptions{HashMB: 1}, shards); err != nil {
		t.Fatal(err)
	}
	best := filepath.Join(nnueModels(t), "000004.nnue")
	base := mustLoad(t, best).Step
	csv := filepath.Join(dir, "gen", "loss.csv")
	if err := os.MkdirAll(filepath.Dir(csv), 0o755); err != nil {
		t.Fatal(err)
	}
	tr := nnueTraining{Game: g, Best: best, Out: filepath.Join(dir, "gen", "c.nnue"), Shards: shards, Steps: 8,
		Window: 10_000, Batch: 16, LR: 1e-3, Seed: 9, CSV: csv, ValFrac: 0.5,
		NNUERecipe: NNUERecipe{ScoreWeight: 0.5, ScoreLambda: 0.6, ValEvery: 2, Warmup: 4}}
	if err := trainNNUE(context.Background(), io.Discard, tr); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, tr.Out).Meta["train.score_lambda"]; got != "0.6" {
		t.Errorf("the candidate's train.score_lambda is %q, want 0.6 (the λ-return reached the trainer)", got)
	}
	steps, err := train.ReadLossCSV(csv)
	if err != nil || len(steps) != 8 {
		t.Fatalf("loss.csv: %d rows, %v", len(steps), err)
	}
	for i, s := range steps {
		// The cosine from 1e-3 to 5e-5 over the 8 steps, times (i+1)/4 over the first 4.
		want := 5e-5 + (1e-3-5e-5)*0.5*(1+math.Cos(math.Pi*float64(i)/8))
		if i < 4 {
			want *= float64(i+1) / 4
		}
		if math.Abs(s.LR-want) > 1e-6*want {
			t.Errorf("step %d: lr %g, want %g (warm-up over 4 steps)", s.Step, s.LR, want)
		}
	}
	rows, err := train.ReadEpochCSV(filepath.Join(dir, "gen", "epochs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var at []int64
	for _, r := range rows {
		at = append(at, r.Step-base)
	}
	if want := []int64{0, 2, 4, 6, 8}; fmt.Sprint(at) != fmt.Sprint(want) {
		t.Fatalf("validated at steps %v past the best net, want %v", at, want)
	}
	for _, bad := range []func(n *NNUEConfig){func(n *NNUEConfig) { n.Warmup = -1 }, func(n *NNUEConfig) { n.ValEvery = -2 }} {
		n := DefaultNNUE()
		bad(n)
		if err := n.check(); err == nil || !strings.Contains(err.Error(), "warm-up") {
			t.Errorf("%+v: %v", n, err)
		}
	}
	for _, l := range []float64{-0.5, 1} {
		n := DefaultNNUE()
		n.ScoreLambda = l
		if err := n.check(); err == nil || !strings.Contains(err.Error(), "lambda") {
			t.Errorf("score lambda %v: %v", l, err)
		}
	}
}
