package registry_test

import (
	"testing"
	"time"

	"colony/arena"
	"colony/registry"
)

// TestStrength: each game's search engine beats the rules-of-thumb players, refereed by the
// one in-process loop (arena.RunLocal: seats rotate every game, each side on a whole-game
// clock). The clocks are short and the margins wide, so that a loaded machine does not
// decide; a search that plays no better than its opponents fails.
func TestStrength(t *testing.T) {
	cases := []struct {
		game    string
		players []string // the engine under test first ("": the game's default; mcts capped at 200 playouts a move)
		games   int
		clock   time.Duration
		// min is the least average value (games.Values: 1 a win, -1 a loss; Slime: the
		// share of the board) of the engine under test; over is how far above the best of
		// the others it must be.
		min, over float64
	}{
		{"bacteria-war", []string{"alphabeta", "greedy"}, 2, time.Second, 1, 2},
		// mcts (the default, with the prover) at most 200 playouts a move: the clock is only
		// a backstop.
		{"catch-the-mouse", []string{"", "greedy"}, 2, 6 * time.Second, 1, 2},
		// An equal share of the Slime board is -0.5.
		{"slime", []string{"paranoid", "greedy", "greedy", "greedy"}, 4, 2 * time.Second, -0.45, 0.02},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			g, err := registry.Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			var players []arena.Player
			for i, name := range c.players {
				o := g.Defaults()
				o.Seed = uint64(i + 1)
				o.Playouts = 200
				if name == "" {
					name = g.DefaultEngine()
				}
				p, err := g.NewPlayer(name, o)
				if err != nil {
					t.Fatal(err)
				}
				players = append(players, p)
			}
			sum, recs, err := arena.RunLocal(g.Rules(), players, c.games, c.clock)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				t.Logf("%v: %s, values %v", r.Players, r.Outcome, r.Values[:len(c.players)])
			}
			best := sum.Score[1]
			for _, s := range sum.Score[2:] {
				best = max(best, s)
			}
			if sum.Faults > 0 || sum.Score[0] < c.min || sum.Score[0]-best < c.over {
				t.Errorf("%s: %d faults, average values %v (want %s at least %.2f and %.2f above the others)",
					c.game, sum.Faults, sum.Score, c.players[0], c.min, c.over)
			}
		})
	}
}
