package registry_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"colony/agentdef"
	"colony/arena"
	"colony/data"
	"colony/nn"
	"colony/registry"
	"colony/selfplay"
	"colony/train"
)

// TestToyGamePipeline is the proof that the pipeline is generic: a three-player toy game known
// only to this test file is registered, then goes through self-play -> shards -> training ->
// a model file -> the mcts engine -> refereed games, with no line of generic code knowing it.
func TestToyGamePipeline(t *testing.T) {
	g := registry.Register(triDef("tri-pipeline"))
	info := g.Info()
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")

	// Self-play with a fresh random net.
	start := nn.NewRandom(nn.ArchFor(info, 1, 8), 3)
	cfg := selfplay.Config{Workers: 1, GamesPerWorker: 4, Games: 12, Playouts: 24, Seed: 7, PerShard: 64}
	st, err := g.SelfPlay(context.Background(), cfg, start, shards)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 12 || st.Positions == 0 || len(st.Shards) == 0 {
		t.Fatalf("self-play: %+v", st)
	}
	// Every game fills the board: 8 recorded positions each (the last move is forced and not
	// recorded), with the three players' outcome.
	ex, _, err := data.LoadDir(shards, info.Name, info.EncoderVersion, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != st.Positions || st.Positions != 12*(triCells-1) {
		t.Fatalf("%d examples read, %d written, want %d", len(ex), st.Positions, 12*(triCells-1))
	}
	for _, e := range ex {
		var sum float32
		for _, v := range e.Values[:triPlayers] {
			sum += v
		}
		if sum > 1 || sum < -3 || e.Values[3] != 0 {
			t.Fatalf("values %v are not a three-player outcome", e.Values)
		}
	}

	// Training on those shards, with the game's symmetries, into a model file.
	modelPath := filepath.Join(dir, "tri.model")
	res, err := train.Run(context.Background(), train.RunConfig{Game: info, Symmetries: g.Symmetries(),
		Blocks: 1, Channels: 8, Shards: shards, Steps: 6, Train: train.Config{Batch: 16}, Seed: 1, Out: modelPath}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.Arch.NumPlayers != triPlayers || res.Model.Arch.Game != info.Name {
		t.Fatalf("trained arch %+v", res.Model.Arch)
	}
	if _, err := os.Stat(modelPath); err != nil {
		t.Fatal(err)
	}

	// The mcts engine on that model file, checked at start as the agent does.
	o := agentdef.EngineOptions{Model: modelPath, Playouts: 32, Seed: 5}
	if err := g.CheckEngine("mcts", []string{"model", "playouts"}, o); err != nil {
		t.Fatal(err)
	}
	bw, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	if err := bw.CheckEngine("mcts", []string{"model"}, o); err == nil {
		t.Error("bacteria-war's mcts accepted the toy game's model")
	}
	mcts, err := g.NewPlayer("mcts", o)
	if err != nil {
		t.Fatal(err)
	}
	var players []arena.Player
	players = append(players, mcts)
	for seed := range uint64(2) {
		p, err := g.NewPlayer("random", agentdef.EngineOptions{Seed: 10 + seed})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}

	// Refereed games, seats rotating: every game ends legally with a per-seat score.
	sum, recs, err := arena.RunLocal(g.Rules(), players, 6, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 6 || sum.Faults != 0 || len(recs) != 6 {
		t.Fatalf("summary %+v", sum)
	}
	for i, r := range recs {
		if len(r.Moves) != triCells || len(r.Players) != triPlayers {
			t.Fatalf("game %d: %d moves, players %v", i, len(r.Moves), r.Players)
		}
	}
	wins := sum.Shared
	for _, w := range sum.Wins {
		wins += w
	}
	if wins != sum.Games || sum.Players[0] != "mcts" {
		t.Fatalf("summary %+v", sum)
	}
	t.Logf("mcts vs two random players over %d games: wins %v, shared %d, average value %.2f %.2f %.2f",
		sum.Games, sum.Wins, sum.Shared, sum.Score[0], sum.Score[1], sum.Score[2])
}
