package bots

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/engine/mctsengine"
	"colony/game/slime"
	"colony/models"
	"colony/nn"
)

type eng = engine.Engine[slime.Position, slime.Move]

// playGame plays one game from the start of an n x n board, seat i played by seats[i], each
// move searched for moveTime, and returns the cells held by seat.
func playGame(n int, seats [4]eng, moveTime time.Duration) ([4]int, slime.Position) {
	p := slime.StartSize(n)
	for _, e := range seats {
		e.NewGame()
	}
	for !p.Terminal() {
		m := seats[p.ToMove()].BestMove(p, engine.Limits{MoveTime: moveTime})
		if m != slime.Pass {
			if c := p.Canonical(m); c == slime.Pass || !p.IsLegal(c) {
				panic(fmt.Sprintf("%s played %v in %s", seats[p.ToMove()].Name(), m, p))
			}
		}
		p = p.Apply(m)
	}
	return p.Scores(), p
}

// permutations lists the 24 orders of 4 entries.
func permutations() [][4]int {
	var out [][4]int
	for a := range 4 {
		for b := range 4 {
			for c := range 4 {
				for d := range 4 {
					if a != b && a != c && a != d && b != c && b != d && c != d {
						out = append(out, [4]int{a, b, c, d})
					}
				}
			}
		}
	}
	return out
}

// tournament plays every seat permutation of the four entries rounds times and returns each
// entry's average cells.
func tournament(n int, entries [4]func() eng, rounds int, moveTime time.Duration) [4]float64 {
	var sum [4]float64
	games := 0
	built := [4]eng{}
	for i, f := range entries {
		built[i] = f()
	}
	for range rounds {
		for _, perm := range permutations() {
			var seats [4]eng
			for seat, who := range perm {
				seats[seat] = built[who]
			}
			s, _ := playGame(n, seats, moveTime)
			for seat, who := range perm {
				sum[who] += float64(s[seat])
			}
			games++
		}
	}
	for i := range sum {
		sum[i] /= float64(games)
	}
	return sum
}

// TestExperiment plays a tournament chosen by the environment, for measurements:
// SLIME_MATCH="paranoid,greedy,greedy,greedy" SLIME_ROUNDS=1 SLIME_MS=50 go test -run Experiment -v
// (engines: greedy, jumper, simplebot, mcts-rollout, mcts, paranoid, bestreply)
func TestExperiment(t *testing.T) {
	spec := os.Getenv("SLIME_MATCH")
	if spec == "" {
		t.Skip("SLIME_MATCH not set")
	}
	rounds, _ := strconv.Atoi(os.Getenv("SLIME_ROUNDS"))
	ms, _ := strconv.Atoi(os.Getenv("SLIME_MS"))
	rounds, ms = max(rounds, 1), max(ms, 1)
	names := strings.Split(spec, ",")
	var entries [4]func() eng
	for i, name := range names {
		seed := uint64(i + 1)
		switch name {
		case "greedy":
			entries[i] = func() eng { return Greedy{} }
		case "jumper":
			entries[i] = func() eng { return Jumper{} }
		case "simplebot":
			entries[i] = func() eng { return NewSimplebot(seed) }
		case "mcts-rollout":
			entries[i] = func() eng {
				eval := mctsengine.NewRollout[slime.Position, slime.Move](seed, 0, slime.Position.Shares)
				return mctsengine.New(eval, mctsengine.Options[slime.Position, slime.Move]{Seed: seed, BatchSize: 1})
			}
		case "mcts": // PUCT on the embedded network (SLIME_MODEL: another model file; SLIME_PLAYOUTS caps each move)
			m, _, err := models.Load(slime.Info, os.Getenv("SLIME_MODEL"))
			if err != nil {
				t.Fatal(err)
			}
			entries[i] = func() eng {
				net, err := nn.NewNet(m, 8)
				if err != nil {
					t.Fatal(err)
				}
				eval := nn.NewEvaluator[slime.Position, slime.Move](net)
				limit, _ := strconv.Atoi(os.Getenv("SLIME_PLAYOUTS"))
				return mctsengine.New(eval, mctsengine.Options[slime.Position, slime.Move]{Seed: seed, BatchSize: 8, MaxPlayouts: limit})
			}
		case "paranoid", "bestreply":
			br := name == "bestreply"
			entries[i] = func() eng {
				e := NewParanoid()
				if br {
					e = NewBestReply()
				}
				if b := os.Getenv("SLIME_BEAM"); b != "" {
					e.Beam, _ = strconv.Atoi(b)
				}
				e.OppBeam, _ = strconv.Atoi(os.Getenv("SLIME_OPPBEAM"))
				if w := os.Getenv("SLIME_W"); w != "" {
					f := strings.Split(w, ":")
					e.W.Threat, _ = strconv.Atoi(f[0])
					e.W.Exposed, _ = strconv.Atoi(f[1])
					e.W.Frontier, _ = strconv.Atoi(f[2])
				}
				return e
			}
		default:
			t.Fatalf("unknown engine %q", name)
		}
	}
	start := time.Now()
	avg := tournament(8, entries, rounds, time.Duration(ms)*time.Millisecond)
	t.Logf("%v rounds %d, %d ms/move, %v: average cells %.2f", names, rounds, ms, time.Since(start).Round(time.Second), avg)
}

// TestDepthLog (SLIME_DEPTH=1) logs the depths and nodes of paranoid and bestreply moves
// in a game against three greedy players.
func TestDepthLog(t *testing.T) {
	if os.Getenv("SLIME_DEPTH") == "" {
		t.Skip()
	}
	for _, e := range []*Paranoid{NewParanoid(), NewBestReply()} {
		p := slime.Start()
		var depths []int
		var nodes []int64
		for !p.Terminal() {
			var m slime.Move
			if p.ToMove() == 0 {
				m = e.BestMove(p, engine.Limits{MoveTime: 50 * time.Millisecond})
				depths = append(depths, e.LastDepth)
				nodes = append(nodes, e.LastNodes)
			} else {
				m = GreedyMove(p)
			}
			p = p.Apply(m)
		}
		t.Logf("%s: depths %v nodes %v final %v", e.Name(), depths, nodes, p.Scores())
	}
}

// TestShowGame (SLIME_SHOW=1) logs a game of paranoid against three greedy players.
func TestShowGame(t *testing.T) {
	if os.Getenv("SLIME_SHOW") == "" {
		t.Skip()
	}
	e := NewParanoid()
	e.Beam = 6
	p := slime.Start()
	for !p.Terminal() {
		var m slime.Move
		if p.ToMove() == 0 {
			m = e.BestMove(p, engine.Limits{MoveTime: 50 * time.Millisecond})
			t.Logf("paranoid %v depth %d score %d\n%s", m, e.LastDepth, e.LastScore, p.Apply(m).Diagram())
		} else {
			m = GreedyMove(p)
			t.Logf("greedy %v\n%s", m, p.Apply(m).Diagram())
		}
		p = p.Apply(m)
	}
}
