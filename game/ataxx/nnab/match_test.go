package nnab

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxab"
	"colony/models"
	"colony/nn/nnue"
)

// An in-process match for A/B tests of search settings, off by default:
//
//	NNAB_MATCH=100 NNAB_A=null NNAB_B=default NNAB_NODES=20000 go test -run TestMatch -v -timeout 60m ./game/ataxx/nnab
//
// NNAB_NODES=N gives every move N nodes (both sides), else NNAB_CLOCK (default 2s) is a
// whole-game clock per side. A spec is "+"-joined words: "default", "null" (null-move
// pruning), "nolmr", "model:FILE" (another nnue net), or "alphabeta" alone. Games alternate
// colours over shared random 2-ply openings (NNAB_SEED).

type player = engine.Engine[ataxx.Position, ataxx.Move]

func matchPlayer(t *testing.T, spec string, seed uint64) player {
	if spec == "alphabeta" {
		return ataxxab.NewWithOptions(ataxxab.Options{Seed: seed, HashMB: 16})
	}
	o := Options{Seed: seed, HashMB: 16}
	file := ""
	for _, w := range strings.Split(spec, "+") {
		switch {
		case w == "default":
		case w == "null":
			o.Null = true
		case w == "nolmr":
			o.NoLMR = true
		case strings.HasPrefix(w, "model:"):
			file = w[6:]
		default:
			t.Fatalf("unknown spec word %q", w)
		}
	}
	m, _, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, file)
	if err != nil {
		t.Fatal(err)
	}
	if o.Net, err = nnue.Quantize(m, 0); err != nil {
		t.Fatal(err)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestMatch(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("NNAB_MATCH"))
	if games <= 0 {
		t.Skip("NNAB_MATCH=N plays an N-game match")
	}
	specA, specB := os.Getenv("NNAB_A"), os.Getenv("NNAB_B")
	if specA == "" {
		specA = "default"
	}
	if specB == "" {
		specB = "alphabeta"
	}
	nodes, _ := strconv.ParseInt(os.Getenv("NNAB_NODES"), 10, 64)
	clock := 2 * time.Second
	if c := os.Getenv("NNAB_CLOCK"); c != "" {
		var err error
		if clock, err = time.ParseDuration(c); err != nil {
			t.Fatal(err)
		}
	}
	seed, _ := strconv.ParseUint(os.Getenv("NNAB_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, 99))
	var score float64
	var timeLosses [2]int
	var opening ataxx.Position
	for g := range games {
		if g%2 == 0 {
			opening = ataxx.Start()
			for range 2 {
				ms := opening.LegalMoves(nil)
				opening = opening.Apply(ms[rng.IntN(len(ms))])
			}
		}
		pl := [2]player{matchPlayer(t, specA, uint64(g)+1), matchPlayer(t, specB, uint64(g)+1001)}
		aSeat := g % 2 // A plays O (seat 0) in even games
		seats := [2]player{pl[aSeat], pl[1-aSeat]}
		left := [2]time.Duration{clock, clock}
		p := opening
		lost := -1
		for !p.Terminal() {
			side := p.ToMove()
			lim := engine.Limits{Nodes: nodes}
			if nodes == 0 {
				lim = engine.Limits{MyTime: left[side], OppTime: left[side^1]}
			}
			st := time.Now()
			m := seats[side].BestMove(p, lim)
			left[side] -= time.Since(st) + time.Millisecond
			if !p.IsLegal(m) {
				t.Fatalf("game %d: illegal %v", g, m)
			}
			if nodes == 0 && left[side] <= 0 {
				lost = side
				break
			}
			p = p.Apply(m)
		}
		var sA float64
		switch {
		case lost >= 0:
			if lost != aSeat {
				sA = 1
			}
			timeLosses[boolInt(lost != aSeat)]++
		case p.Winner() == aSeat:
			sA = 1
		case p.Winner() < 0:
			sA = 0.5
		}
		score += sA
		t.Logf("game %d: A (%s) as %s scores %.1f, final %d-%d, A total %.1f/%d", g, specA, []string{"O", "X"}[aSeat], sA,
			p.Count(ataxx.O), p.Count(ataxx.X), score, g+1)
	}
	t.Logf("A %s vs B %s: %.1f/%d = %.1f%% (time losses A %d, B %d)", specA, specB, score, games, 100*score/float64(games), timeLosses[0], timeLosses[1])
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
