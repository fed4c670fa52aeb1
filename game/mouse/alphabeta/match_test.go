package alphabeta

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"colony/engine"
	"colony/game/mouse"
)

// variants are the engine versions of the fixed-node A/B matches (TestMatch).
var variants = map[string]Options{
	"old":     {SolveMB: -1, exp: expOld}, // the engine before the prover and the team's changes
	"nosolve": {SolveMB: -1},
	"new":     {},
	"noveto":  {exp: expNoVeto},
	"nolmr":   {SolveMB: -1, exp: expNoLMR},
	"micev":   {SolveMB: -1, exp: expMiceEval},
	"big":     {exp: expBigShare},
}

// TestMatch plays a fixed-node match between two versions when MOUSE_AB="a,b" is set:
// MOUSE_AB_GAMES games (default 20; each opening twice, roles swapped), MOUSE_AB_NODES nodes a
// move (default 20000; b: MOUSE_AB_BNODES), a playing only MOUSE_AB_ROLE (mice or team: a
// new opening every game) when set, openings of MOUSE_AB_PLIES random plies (default 2) from
// MOUSE_AB_SEED. It reports a's results as the mice and as the team. Deterministic: the load
// of the machine does not change a fixed-node game.
func TestMatch(t *testing.T) {
	ab := os.Getenv("MOUSE_AB")
	if ab == "" {
		t.Skip("MOUSE_AB not set")
	}
	env := func(k string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
			return v
		}
		return def
	}
	names := strings.Split(ab, ",")
	oa, ok1 := variants[names[0]]
	ob, ok2 := variants[names[1]]
	if len(names) != 2 || !ok1 || !ok2 {
		t.Fatalf("MOUSE_AB=%q: want two of %v", ab, variants)
	}
	games, nodes, plies := env("MOUSE_AB_GAMES", 20), int64(env("MOUSE_AB_NODES", 20000)), env("MOUSE_AB_PLIES", 2)
	bNodes := int64(env("MOUSE_AB_BNODES", int(nodes)))
	onlyRole := -1
	switch os.Getenv("MOUSE_AB_ROLE") {
	case "mice":
		onlyRole = mouse.Mice
	case "team":
		onlyRole = mouse.Team
	}
	r := rand.New(rand.NewPCG(uint64(env("MOUSE_AB_SEED", 1)), 9))
	oa.HashMB, ob.HashMB = 16, 16
	a, b := NewWithOptions(oa), NewWithOptions(ob)
	var wins, played [2]int // a's wins and games per a's role
	var plyTotal int
	var buf [mouse.MaxMoves]mouse.Move
	var open mouse.Position
	for g := range games {
		if g%2 == 0 || onlyRole >= 0 {
			open = mouse.Start()
			for range plies {
				moves := open.LegalMoves(buf[:0])
				open = open.Apply(moves[r.IntN(len(moves))])
			}
		}
		roleA := g % 2
		if onlyRole >= 0 {
			roleA = onlyRole
		}
		seats := [2]*Engine{a, b}
		if roleA == mouse.Team {
			seats = [2]*Engine{b, a}
		}
		a.NewGame()
		b.NewGame()
		p := open
		n := 0
		for !p.Terminal() {
			lim := engine.Limits{Nodes: nodes}
			if seats[p.ToMove()] == b {
				lim.Nodes = bNodes
			}
			m := seats[p.ToMove()].BestMove(p, lim)
			if !p.IsLegal(m) {
				t.Fatalf("illegal %v in %s", m, p)
			}
			p = p.Apply(m)
			n++
		}
		plyTotal += n
		played[roleA]++
		if p.Winner() == roleA {
			wins[roleA]++
		}
		t.Logf("game %d: a as %s, %s after %d plies; a: %d/%d as mice, %d/%d as team", g+1,
			mouse.Info.PlayerNames[roleA], mouse.Info.PlayerNames[p.Winner()], n, wins[0], played[0], wins[1], played[1])
	}
	t.Logf("%s vs %s, %d games at %d nodes: %s as mice %d/%d, %s as team %d/%d; total %d/%d (%.1f%%); %.1f plies a game",
		names[0], names[1], games, nodes, names[0], wins[0], played[0], names[0], wins[1], played[1],
		wins[0]+wins[1], games, 100*float64(wins[0]+wins[1])/float64(games), float64(plyTotal)/float64(games))
}
