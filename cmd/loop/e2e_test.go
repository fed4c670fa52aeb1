package main

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"colony/data"
	"colony/engine"
	"colony/engine/alphabeta"
	"colony/engine/mctsengine"
	"colony/engine/random"
	"colony/game/ataxx"
	"colony/mcts"
	"colony/models"
	"colony/nn"
	"colony/selfplay"
	"colony/train"
)

// windowBatcher feeds the trainer from a replay window (as cmd/train does).
type windowBatcher struct {
	w   *data.Window
	t   *train.Trainer
	exs []data.Example
}

func (b *windowBatcher) NextBatch(inputs, policy, values []float32) error {
	var err error
	if b.exs, err = b.w.Sample(b.t.Rand(), b.t.Config().Batch, b.exs); err != nil {
		return err
	}
	return data.FillBatch(b.exs, inputs, policy, values)
}

// trainOn trains model for steps on the shards of dir and returns the exported model.
func trainOn(t *testing.T, model *nn.Model, dir string, steps int) (*nn.Model, float64, float64) {
	t.Helper()
	w, err := data.NewWindow(dir, data.WindowOptions{Game: nn.AtaxxGame, EncoderVersion: ataxx.EncoderVersion,
		Capacity: 100_000, Augmenter: data.AtaxxAugmenter{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	cfg := train.DefaultConfig(32)
	cfg.LR = 3e-3
	tr, err := train.NewTrainer(model, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b := &windowBatcher{w: w, t: tr}
	var first, last float64
	for i := range steps {
		s, err := tr.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(float64(s.Total)) {
			t.Fatalf("step %d: loss is NaN", i)
		}
		if i < 5 {
			first += float64(s.Total) / 5
		}
		if i >= steps-5 {
			last += float64(s.Total) / 5
		}
	}
	return tr.Model(), first, last
}

// TestEndToEnd runs the whole pipeline small: bootstrap shards from alphabeta -> train a tiny
// net -> export and load it -> self-play with it -> train again -> the trained net plays a
// legal game through the mcts engine.
func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	g := selfplay.AtaxxGame()

	// 1. Bootstrap: alphabeta at depth 1 plays itself.
	bst, err := selfplay.RunBootstrap(context.Background(), g, selfplay.BootstrapConfig{Workers: 2, Games: 6, Seed: 1,
		Limits: engine.Limits{Depth: 1}}, shards,
		func(seed uint64) engine.Engine[ataxx.Position, ataxx.Move] {
			return alphabeta.NewWithOptions(alphabeta.Options{Seed: seed, HashMB: 1})
		})
	if err != nil || bst.Positions == 0 {
		t.Fatalf("bootstrap: %d positions, %v", bst.Positions, err)
	}

	// 2. Train a tiny net on them; the loss must fall.
	arch := nn.AtaxxArch(1, 8)
	m, first, last := trainOn(t, nn.NewRandom(arch, 3), shards, 40)
	if !(last < first) {
		t.Fatalf("bootstrap training: loss %.3f -> %.3f did not fall", first, last)
	}

	// 3. Export and load back, checked like the agent does.
	path := filepath.Join(dir, "000001.model")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, name, err := models.Load(nn.AtaxxGame, ataxx.EncoderVersion, path)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.SHA256() != m.SHA256() {
		t.Fatalf("%s: loaded weights differ from the saved ones", name)
	}

	// 4. Self-play with the trained net.
	cfg := selfplay.Config{Workers: 1, GamesPerWorker: 2, Games: 2, Playouts: 16, Seed: 2,
		Meta: data.Meta{Generation: 1, ModelSHA256: loaded.SHA256()}}
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.BatchSize = 4
	st, err := selfplay.Run(context.Background(), g, cfg, shards, func(int) (mcts.Evaluator[ataxx.Position, ataxx.Move], error) {
		net, err := nn.NewNet(loaded, 8)
		if err != nil {
			return nil, err
		}
		return nn.NewEvaluator[ataxx.Position, ataxx.Move](net), nil
	})
	if err != nil || st.Games != 2 || st.Positions == 0 {
		t.Fatalf("self-play: %+v, %v", st, err)
	}
	exs, rep, err := data.LoadDir(shards, nn.AtaxxGame, ataxx.EncoderVersion, nil)
	if err != nil || rep.Corrupt != 0 || len(exs) != bst.Positions+st.Positions {
		t.Fatalf("shards: %d examples (want %d), %d corrupt, %v", len(exs), bst.Positions+st.Positions, rep.Corrupt, err)
	}

	// 5. Train the next generation on everything, export, and play a whole legal game with it.
	m2, _, _ := trainOn(t, loaded, shards, 10)
	if m2.SHA256() == loaded.SHA256() {
		t.Fatal("training changed nothing")
	}
	net, err := nn.NewNet(m2, 8)
	if err != nil {
		t.Fatal(err)
	}
	eng := mctsengine.New(nn.NewEvaluator[ataxx.Position, ataxx.Move](net), mctsengine.Options{Playouts: 24, BatchSize: 8, Seed: 1})
	opp := random.New(5)
	eng.NewGame()
	opp.NewGame()
	p := ataxx.Start()
	for !p.Terminal() {
		var mv ataxx.Move
		if p.ToMove() == ataxx.O {
			mv = eng.BestMove(p, engine.Limits{Nodes: 24})
		} else {
			mv = opp.BestMove(p, engine.Limits{})
		}
		if !p.IsLegal(mv) {
			t.Fatalf("illegal move %v in\n%s", mv, p.Diagram())
		}
		p = p.Apply(mv)
	}
	t.Logf("bootstrap %d + self-play %d positions; loss %.3f -> %.3f; final game O %d X %d after %d turns",
		bst.Positions, st.Positions, first, last, p.Count(ataxx.O), p.Count(ataxx.X), p.Turns())
}
