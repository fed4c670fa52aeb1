package registry_test

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"colony/data"
	"colony/nn"
	"colony/registry"
	"colony/selfplay"
)

// TestSlimeValueTargets: Slime is scored by cells, and the shards it trains on say so. A
// bootstrap run through the registry writes, for every recorded position, each player's
// final share of the board (2*cells/64 - 1: whole cells adding up to a full board), the same
// for every position of a game, not a win or a loss; the run's counts agree.
func TestSlimeValueTargets(t *testing.T) {
	g, err := registry.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	info := g.Info()
	if !info.Scored || info.Players() != 4 {
		t.Fatalf("slime: scored %v, %d players", info.Scored, info.Players())
	}
	dir := t.TempDir()
	const games = 4
	bc := selfplay.BootstrapConfig{Workers: 1, Games: games, Seed: 9, PerShard: 128}
	st, err := g.Bootstrap(context.Background(), bc, "greedy", g.Defaults(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ex, _, err := data.LoadDir(dir, info.Name, info.EncoderVersion, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != games || len(ex) != st.Positions || len(ex) == 0 {
		t.Fatalf("%d games, %d positions written, %d read", st.Games, st.Positions, len(ex))
	}
	byGame := map[uint64][4]float32{}
	for _, e := range ex {
		if v, ok := byGame[e.GameID]; ok && v != e.Values {
			t.Fatalf("game %d: values %v and %v", e.GameID, v, e.Values)
		}
		byGame[e.GameID] = e.Values
	}
	if len(byGame) != games {
		t.Fatalf("examples of %d games", len(byGame))
	}
	var sums [4]float64
	wins := 0
	for id, v := range byGame {
		total, holders, best, nBest := 0.0, 0, -1.0, 0
		for p, x := range v {
			sums[p] += float64(x)
			c := (float64(x) + 1) / 2 * 64
			if math.Abs(c-math.Round(c)) > 1e-3 {
				t.Errorf("game %d: player %d's value %v is not a whole number of cells", id, p+1, x)
			}
			c = math.Round(c)
			total += c
			if c > 0 {
				holders++
			}
			switch {
			case c > best:
				best, nBest = c, 1
			case c == best:
				nBest++
			}
		}
		if total != 64 || holders < 2 {
			t.Errorf("game %d: values %v: %v cells, %d players holding some", id, v, total, holders)
		}
		if nBest == 1 {
			wins++
		}
	}
	for p := range 4 {
		if math.Abs(sums[p]-st.ValueSum[p]) > 1e-4 {
			t.Errorf("player %d: values add up to %v in the shards, %v in the stats", p+1, sums[p], st.ValueSum[p])
		}
	}
	if w := st.Wins[0] + st.Wins[1] + st.Wins[2] + st.Wins[3]; w != wins || st.Draws != games-wins {
		t.Errorf("stats: wins %v, draws %d; the shards have %d games with a single top share", st.Wins, st.Draws, wins)
	}
}

// TestModelReadOnce: the agent's check at start and the engine built after it share one
// reading of the model file (a process per move must not read it twice): with the file gone
// after the check, the engine still gets its network.
func TestModelReadOnce(t *testing.T) {
	g, err := registry.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.model")
	if err := nn.NewRandom(nn.ArchFor(g.Info(), 1, 4), 1).Save(path); err != nil {
		t.Fatal(err)
	}
	o := g.Defaults()
	o.Model = path
	if err := g.CheckEngine("mcts", []string{"model"}, o); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := g.NewPlayer("mcts", o); err != nil {
		t.Errorf("the engine read the model again: %v", err)
	}
	o.Model = path + ".other"
	if err := g.CheckEngine("mcts", []string{"model"}, o); err == nil {
		t.Error("a missing model file passed the check")
	}
}
