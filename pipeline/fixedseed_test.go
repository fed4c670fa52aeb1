package pipeline

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"colony/agentdef"
	"colony/engine"
	"colony/registry"
	"colony/selfplay"
)

// fixedShards writes the shards every fixed-seed training reads: random play of Bacteria War,
// one worker, a fixed seed (the same games on any machine).
func fixedShards(t *testing.T, g registry.Game, dir string) {
	t.Helper()
	bc := selfplay.BootstrapConfig{Workers: 1, Games: 6, Seed: 5, Limits: engine.Limits{Depth: 1}}
	if _, err := g.Bootstrap(context.Background(), bc, "random", agentdef.EngineOptions{}, dir); err != nil {
		t.Fatal(err)
	}
}

// copyDirShards copies the .shard files of src into dst, keeping their times (the replay
// window takes the newest files first).
func copyDirShards(t *testing.T, src, dst string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(src, "*.shard"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no shards in %s: %v", src, err)
	}
	for _, n := range names {
		to := filepath.Join(dst, filepath.Base(n))
		if err := copyFile(n, to); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(to, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
}

// Golden weights of TestTrainingFromAFixedSeed (amd64, the first 12 digits of their SHA-256),
// recorded before the two cycles became one: a change to the cycle that keeps its training
// must keep them.
const (
	goldenConvnet = "2b489355ee9e"
	goldenNNUE    = "2cb8b1e285b7"
)

// TestTrainingFromAFixedSeed: the training stage of each cycle (the local run, the run on a
// store) and of each kind (convnet, nnue) trains, from a fixed seed on fixed shards, the weights
// it trained when this test was written (the local run and the run on a store the same ones):
// a refactor of the cycles must not change what they train. The weights are compared by SHA-256 on amd64 (another architecture may round floats
// otherwise); elsewhere the test checks only that two trainings agree.
func TestTrainingFromAFixedSeed(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	shards := t.TempDir()
	fixedShards(t, g, shards)
	ctx := context.Background()
	check := func(name, want string, train func() string) {
		t.Helper()
		got := train()
		if again := train(); again != got {
			t.Errorf("%s: two trainings from the same seed differ: %.12s and %.12s", name, got, again)
		}
		if runtime.GOARCH == "amd64" && short12(got) != want {
			t.Errorf("%s: trained weights %.12s, want %s", name, got, want)
		}
	}
	local := func(nnueRun bool) func() string {
		return func() string {
			cfg := DefaultConfig()
			cfg.Init, cfg.ExtraShards, cfg.Seed = "random:1x4", shards, 3
			cfg.TrainSteps, cfg.Batch, cfg.Window = 12, 16, 10_000
			if nnueRun {
				models := nnueModels(t)
				cfg.Models, cfg.Init = models, filepath.Join(models, "000004.nnue")
				cfg.NNUE = DefaultNNUE()
				cfg.NNUE.TeacherWeight = 0.2
			}
			c, err := Open(filepath.Join(t.TempDir(), "run"), g, cfg, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(c.genDir(), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := c.train(ctx); err != nil {
				t.Fatal(err)
			}
			_, sha, err := c.kind.candidate()
			if err != nil {
				t.Fatal(err)
			}
			return sha
		}
	}
	onStore := func(nnueRun bool) func() string {
		return func() string {
			cfg := DefaultStoreConfig()
			cfg.Init, cfg.Seed, cfg.TrainSteps, cfg.Batch, cfg.Window = "random:1x4", 3, 12, 16, 10_000
			if nnueRun {
				cfg.Init, cfg.Engine, cfg.NNUE = filepath.Join("..", "models", "bacteria-war", "nnue", "000004.nnue"), "nnab", DefaultStoreNNUE()
				cfg.NNUE.TeacherWeight = 0.2
			}
			c, err := OpenStore(ctx, "file://"+t.TempDir(), g, cfg, t.TempDir(), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(c.cache(), 0o755); err != nil {
				t.Fatal(err)
			}
			copyDirShards(t, shards, c.cache())
			best, err := c.fetch(ctx, c.netKey(c.s.BestSHA))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "cand"+c.kind.ext())
			if err := c.kind.train(ctx, best, out); err != nil {
				t.Fatal(err)
			}
			sha, err := c.kind.sha(out)
			if err != nil {
				t.Fatal(err)
			}
			return sha
		}
	}
	check("local convnet", goldenConvnet, local(false))
	check("local nnue", goldenNNUE, local(true))
	check("store convnet", goldenConvnet, onStore(false))
	check("store nnue", goldenNNUE, onStore(true))
}
