package alphabeta

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
	"colony/game/ataxx/greedy"
)

// The strength check is an in-process match, off by default:
//
//	ALPHABETA_MATCH=40 ALPHABETA_CLOCK=10s ALPHABETA_A=default ALPHABETA_B=greedy \
//	    go test -run TestMatch -v -timeout 60m ./engine/alphabeta/
//
// ALPHABETA_NODES=N gives every move of both sides N nodes instead of a clock (greedy ignores
// it), ALPHABETA_SEED picks the openings.
//
// A and B are engine specs: "greedy", "default", "material" (material-only evaluation),
// "nolmr", "depth:N" (fixed depth), or "w:M,T,C,E,Ed,Co,Mob" (evaluation weights in the order
// of the Weights fields). Games alternate colours over shared random 2-4 ply openings; each
// side has a whole-game clock and loses on time when it runs out.

type player = engine.Engine[ataxx.Position, ataxx.Move]

func makePlayer(t testing.TB, spec string, seed uint64) player {
	switch {
	case spec == "greedy":
		return greedy.New(seed)
	case spec == "default":
		return New()
	case spec == "material":
		return NewWithOptions(Options{Weights: &MaterialWeights})
	case spec == "nolmr":
		return NewWithOptions(Options{NoLMR: true})
	case strings.HasPrefix(spec, "depth:"):
		d, err := strconv.Atoi(spec[6:])
		if err != nil {
			t.Fatalf("spec %q: %v", spec, err)
		}
		return NewWithOptions(Options{Depth: d})
	case strings.HasPrefix(spec, "w:"):
		f := strings.Split(spec[2:], ",")
		var v [7]int32
		if len(f) != len(v) {
			t.Fatalf("spec %q: want %d weights", spec, len(v))
		}
		for i, s := range f {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("spec %q: %v", spec, err)
			}
			v[i] = int32(n)
		}
		w := Weights{v[0], v[1], v[2], v[3], v[4], v[5], v[6]}
		return NewWithOptions(Options{Weights: &w})
	}
	t.Fatalf("unknown engine spec %q", spec)
	return nil
}

type gameResult struct {
	winner     int // ataxx.O, ataxx.X or -1
	timeLoss   int // the player that lost on time, or -1
	plies      int
	o, x       int
	maxThink   [2]time.Duration
	clockLeft  [2]time.Duration
	movesMade  [2]int
	finalBoard string
}

// playGame plays one game from pos; players[ataxx.O] moves first in the start position.
// With nodes > 0 every move gets that node budget instead of the clock (for comparisons that
// the load of a shared machine cannot disturb).
func playGame(t testing.TB, players [2]player, pos ataxx.Position, clock time.Duration, nodes int64) gameResult {
	left := [2]time.Duration{clock, clock}
	r := gameResult{timeLoss: -1}
	for _, p := range players {
		p.NewGame()
	}
	for !pos.Terminal() {
		s := pos.ToMove()
		start := time.Now()
		lim := engine.Limits{MyTime: left[s], OppTime: left[s^1]}
		if nodes > 0 {
			lim = engine.Limits{Nodes: nodes}
		}
		m := players[s].BestMove(pos, lim)
		el := time.Since(start)
		left[s] -= el
		r.maxThink[s] = max(r.maxThink[s], el)
		r.movesMade[s]++
		if !pos.IsLegal(m) {
			t.Fatalf("%s played illegal move %v in\n%s", players[s].Name(), m, pos.Diagram())
		}
		if left[s] <= 0 && nodes == 0 {
			r.timeLoss = s
			r.winner = s ^ 1
			r.clockLeft = left
			return r
		}
		pos = pos.Apply(m)
		r.plies++
	}
	r.winner = pos.Winner()
	r.o, r.x = pos.Count(ataxx.O), pos.Count(ataxx.X)
	r.clockLeft = left
	r.finalBoard = pos.String()
	return r
}

func randomOpening(rng *rand.Rand) ataxx.Position {
	for {
		p := ataxx.Start()
		n := 2 + rng.IntN(3)
		buf := make([]ataxx.Move, 0, ataxx.MaxMoves)
		for range n {
			buf = p.LegalMoves(buf)
			p = p.Apply(buf[rng.IntN(len(buf))])
		}
		if !p.Terminal() {
			return p
		}
	}
}

func TestMatch(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ALPHABETA_MATCH"))
	if games <= 0 {
		t.Skip("set ALPHABETA_MATCH=<games> to play a match")
	}
	clock := 10 * time.Second
	if c := os.Getenv("ALPHABETA_CLOCK"); c != "" {
		d, err := time.ParseDuration(c)
		if err != nil {
			t.Fatal(err)
		}
		clock = d
	}
	specA, specB := os.Getenv("ALPHABETA_A"), os.Getenv("ALPHABETA_B")
	if specA == "" {
		specA = "default"
	}
	if specB == "" {
		specB = "greedy"
	}
	seed := uint64(1)
	if s := os.Getenv("ALPHABETA_SEED"); s != "" {
		v, _ := strconv.ParseUint(s, 10, 64)
		seed = v
	}
	nodes, _ := strconv.ParseInt(os.Getenv("ALPHABETA_NODES"), 10, 64)
	if nodes > 0 {
		clock = time.Hour
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	a, b := makePlayer(t, specA, seed), makePlayer(t, specB, seed+1)
	var wins, draws, losses, timeLossA, timeLossB int
	var maxThinkA time.Duration
	minLeftA := clock
	var open ataxx.Position
	for g := range games {
		if g%2 == 0 {
			open = randomOpening(rng)
		}
		// A plays the side to move of the opening in even games, the other in odd games.
		aSide := open.ToMove() ^ (g & 1)
		var players [2]player
		players[aSide], players[aSide^1] = a, b
		r := playGame(t, players, open, clock, nodes)
		switch r.winner {
		case aSide:
			wins++
		case -1:
			draws++
		default:
			losses++
		}
		if r.timeLoss == aSide {
			timeLossA++
		} else if r.timeLoss >= 0 {
			timeLossB++
		}
		maxThinkA = max(maxThinkA, r.maxThink[aSide])
		minLeftA = min(minLeftA, r.clockLeft[aSide])
		res := map[int]string{-1: "draw", aSide: "A wins", aSide ^ 1: "B wins"}[r.winner]
		t.Logf("game %d: A=%s as %c, %s, O %d X %d, %d plies, A moves %d max think %v clock left %v, B left %v",
			g+1, specA, "OX"[aSide], res, r.o, r.x, r.plies, r.movesMade[aSide], r.maxThink[aSide].Round(time.Millisecond),
			r.clockLeft[aSide].Round(time.Millisecond), r.clockLeft[aSide^1].Round(time.Millisecond))
	}
	score := (float64(wins) + float64(draws)/2) / float64(games)
	summary := fmt.Sprintf("%s vs %s, %d games at %v: +%d =%d -%d (score %.1f%%), time losses A %d B %d, A max think %v, A min clock left %v",
		specA, specB, games, clock, wins, draws, losses, 100*score, timeLossA, timeLossB,
		maxThinkA.Round(time.Millisecond), minLeftA.Round(time.Millisecond))
	t.Log(summary)
	fmt.Println("MATCH", summary)
}
