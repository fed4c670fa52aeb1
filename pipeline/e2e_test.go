package pipeline

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"colony/agentdef"
	"colony/arena"
	"colony/data"
	"colony/engine"
	"colony/mcts"
	"colony/models"
	"colony/registry"
	"colony/selfplay"
	"colony/train"
)

// meanLoss is the mean total loss of the first and of the last n rows of a loss CSV.
func meanLoss(t *testing.T, path string, n int) (first, last float64) {
	t.Helper()
	rows, err := train.ReadLossCSV(path)
	if err != nil || len(rows) < n {
		t.Fatalf("%s: %d rows, %v", path, len(rows), err)
	}
	for i := range n {
		if math.IsNaN(rows[i].Total) || math.IsNaN(rows[len(rows)-1-i].Total) {
			t.Fatalf("%s: the loss is NaN", path)
		}
		first += rows[i].Total / float64(n)
		last += rows[len(rows)-1-i].Total / float64(n)
	}
	return first, last
}

// TestEndToEnd runs the pipeline's pieces small, through the registry and train.Run:
// bootstrap shards from alphabeta -> train a tiny net (the loss falls) -> load it as the agent
// does -> self-play with it -> train the next one from it -> it plays a whole legal game
// against random in the in-process referee.
func TestEndToEnd(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	info, dir := g.Info(), t.TempDir()
	shards := filepath.Join(dir, "shards")
	ctx := context.Background()

	// 1. Bootstrap: alphabeta at depth 1 plays itself.
	bst, err := g.Bootstrap(ctx, selfplay.BootstrapConfig{Workers: 2, Games: 6, Seed: 1, Limits: engine.Limits{Depth: 1}},
		"alphabeta", agentdef.EngineOptions{HashMB: 1}, shards)
	if err != nil || bst.Positions == 0 {
		t.Fatalf("bootstrap: %d positions, %v", bst.Positions, err)
	}

	// 2. Train a tiny net on them; the loss must fall.
	first := filepath.Join(dir, "000001.model")
	rc := train.RunConfig{Game: info, Symmetries: g.Symmetries(), Blocks: 1, Channels: 8, Shards: shards, Steps: 40,
		Train: train.Config{Batch: 32, LR: 3e-3}, Seed: 3, Out: first, CSV: filepath.Join(dir, "loss1.csv")}
	if _, err := train.Run(ctx, rc, testLog{t}); err != nil {
		t.Fatal(err)
	}
	if a, b := meanLoss(t, rc.CSV, 5); !(b < a) {
		t.Fatalf("bootstrap training: loss %.3f -> %.3f did not fall", a, b)
	}

	// 3. Load it back, checked like the agent does.
	loaded, _, err := models.Load(info, first)
	if err != nil {
		t.Fatal(err)
	}

	// 4. Self-play with the trained net.
	cfg := selfplay.Config{Workers: 1, GamesPerWorker: 2, Games: 2, Playouts: 16, Seed: 2,
		Meta: data.Meta{Generation: 1, ModelSHA256: loaded.SHA256()}}
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.BatchSize = 4
	st, err := g.SelfPlay(ctx, cfg, loaded, shards)
	if err != nil || st.Games != 2 || st.Positions == 0 {
		t.Fatalf("self-play: %+v, %v", st, err)
	}
	exs, rep, err := data.LoadDir(shards, info.Name, info.EncoderVersion, nil)
	if err != nil || rep.Corrupt != 0 || len(exs) != bst.Positions+st.Positions {
		t.Fatalf("shards: %d examples (want %d), %d corrupt, %v", len(exs), bst.Positions+st.Positions, rep.Corrupt, err)
	}

	// 5. Train the next generation from it on everything, and play a whole legal game with it.
	second := filepath.Join(dir, "000002.model")
	rc.Model, rc.Steps, rc.Out, rc.CSV = first, 10, second, ""
	res, err := train.Run(ctx, rc, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.SHA256() == loaded.SHA256() || res.Model.Step != 50 {
		t.Fatalf("second training: step %d, weights changed: %v", res.Model.Step, res.Model.SHA256() != loaded.SHA256())
	}
	net, err := g.NewPlayer("mcts", agentdef.EngineOptions{Model: second, Playouts: 24, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	opp, err := g.NewPlayer("random", agentdef.EngineOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rules := g.Rules()
	rec, err := arena.PlayLocal(rules, []arena.Player{net, opp}, rules.Start(), 0)
	if err != nil || len(rec.Faults) > 0 {
		t.Fatalf("the trained net's game: %+v, %v", rec, err)
	}
	t.Logf("bootstrap %d + self-play %d positions; final game after %d moves: %s",
		bst.Positions, st.Positions, len(rec.Moves), rec.Outcome)
}
