package registry_test

import (
	"cmp"
	"testing"
	"time"

	"colony/arena"
	"colony/registry"
)

// TestStrength: each game's search engine beats the rules-of-thumb players, refereed by the
// one in-process loop (arena.RunLocal: seats rotate every game, each side on a whole-game
// clock). The clocks are short and the margins wide; a search that plays no better than its
// opponents fails. The referee's clock has a backstop of slack beyond the clock the engines
// are told (see lean), so that a stall of a loaded machine does not decide a game.
func TestStrength(t *testing.T) {
	cases := []struct {
		game    string
		players []string // the engine under test first ("": the game's default; mcts capped at 800 playouts a move)
		games   int
		clock   time.Duration
		// min is the least average value (games.Values: 1 a win, -1 a loss; Slime: the
		// share of the board) of the engine under test; over is how far above the others'
		// mean it must be.
		min, over float64
		// fixed: no clock; the engine plays its fixed budget (mcts: its playouts), whatever
		// the load of the machine.
		fixed bool
		long  bool // skipped with -short
	}{
		{"bacteria-war", []string{"alphabeta", "greedy"}, 2, time.Second, 1, 2, false, false},
		{"bacteria-war", []string{"nnab", "greedy"}, 2, time.Second, 1, 2, false, false},
		// mcts (the default, with the prover) on 800 playouts a move: 10 s on an idle core,
		// a minute on the loaded machine.
		{"catch-the-mouse", []string{"", "greedy"}, 2, 0, 1, 2, true, true},
		// An equal share of the Slime board is -0.5.
		{"slime", []string{"paranoid", "greedy", "greedy", "greedy"}, 4, 2 * time.Second, -0.5, 0.01, false, false},
	}
	for _, c := range cases {
		t.Run(c.game+"/"+cmp.Or(c.players[0], "default"), func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("plays for a minute on a loaded machine")
			}
			t.Parallel()
			g, err := registry.Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			var players []arena.Player
			for i, name := range c.players {
				o := g.Defaults()
				o.Seed = uint64(i + 1)
				o.Playouts = 800
				if name == "" {
					name = g.DefaultEngine()
				}
				p, err := g.NewPlayer(name, o)
				if err != nil {
					t.Fatal(err)
				}
				players = append(players, lean{p, c.fixed})
			}
			clock := c.clock + slack
			if c.fixed {
				clock = 0
			}
			sum, recs, err := arena.RunLocal(g.Rules(), players, c.games, clock)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				t.Logf("%v: %s, values %v", r.Players, r.Outcome, r.Values[:len(c.players)])
			}
			others := 0.0
			for _, s := range sum.Score[1:] {
				others += s / float64(len(sum.Score)-1)
			}
			if sum.Faults > 0 || sum.Score[0] < c.min || sum.Score[0]-others < c.over {
				t.Errorf("%s: %d faults, average values %v (want %s at least %.2f and %.2f above the others' mean)",
					c.game, sum.Faults, sum.Score, c.players[0], c.min, c.over)
			}
		})
	}
}

// slack is the referee's clock beyond the one the engines plan with.
const slack = 30 * time.Second

// lean is a player told that its clock is the referee's less slack (fixed: no clock at all).
type lean struct {
	arena.Player
	fixed bool
}

func (l lean) Move(s arena.State, clock time.Duration) (arena.Coords, error) {
	if l.fixed {
		return l.Player.Move(s, 0)
	}
	return l.Player.Move(s, max(clock-slack, time.Millisecond))
}
