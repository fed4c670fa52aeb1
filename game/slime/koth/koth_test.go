package koth_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"colony/agent"
	"colony/agentdef"
	"colony/arena"
	"colony/engine"
	"colony/game/slime"
	"colony/game/slime/bots"
	"colony/game/slime/koth"
	"colony/registry"
)

type eng = engine.Engine[slime.Position, slime.Move]

// The contest page's example run of GreedySlime.
const pageBoard = "3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,333....4"

func answer(t *testing.T, pos string, build func() (eng, error)) (string, string, error, time.Duration) {
	t.Helper()
	var out, log bytes.Buffer
	start := time.Now()
	err := koth.Answer([]string{pos}, &out, &log, "test", build, 1)
	return out.String(), log.String(), err, time.Since(start)
}

func TestGreedyOnThePageExample(t *testing.T) {
	out, _, err, _ := answer(t, pageBoard, func() (eng, error) { return bots.Greedy{}, nil })
	if err != nil || out != "4 0 2 2\n" {
		t.Errorf("greedy answered %q, %v; the page says \"4 0 2 2\"", out, err)
	}
}

// TestLegalAndInTime: the default engine answers a legal move within the deadline on
// positions of random games.
func TestLegalAndInTime(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	positions := 12
	if testing.Short() {
		positions = 4
	}
	for i := range positions {
		p := slime.StartSize([]int{8, 5, 11}[i%3])
		for range r.IntN(60) {
			if p.Terminal() {
				break
			}
			p = p.Apply(bots.GreedyMove(p))
		}
		if p.Terminal() {
			continue
		}
		out, log, err, took := answer(t, p.String(), func() (eng, error) { return bots.NewParanoid(), nil })
		// A stall of the shared machine may bring the fallback in: still a legal move.
		if err != nil || (log != "" && !strings.HasPrefix(log, "koth: late:")) {
			t.Fatalf("%s: %v, log %q", p, err, log)
		}
		if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
			t.Fatalf("%s: output %q is not one line", p, out)
		}
		m, err := p.ParseMove(out)
		if err != nil || !p.IsLegal(m) {
			t.Fatalf("%s: %q is not legal: %v", p, out, err)
		}
		if took > koth.Deadline+2*time.Second { // loose: the shared machine stalls processes
			t.Errorf("%s: answered after %v", p, took)
		}
	}
}

type hang struct{}

func (hang) Name() string { return "hang" }
func (hang) NewGame()     {}
func (hang) BestMove(slime.Position, engine.Limits) slime.Move {
	time.Sleep(time.Hour)
	return slime.Pass
}

type wrong struct{ m slime.Move }

func (w wrong) Name() string                                      { return "wrong" }
func (wrong) NewGame()                                            {}
func (w wrong) BestMove(slime.Position, engine.Limits) slime.Move { return w.m }

type boom struct{}

func (boom) Name() string                                      { return "boom" }
func (boom) NewGame()                                          {}
func (boom) BestMove(slime.Position, engine.Limits) slime.Move { panic("boom") }

// TestFallback: an engine that hangs, panics, cannot be built or answers an illegal move gets
// GreedySlime's move instead, in time.
func TestFallback(t *testing.T) {
	p, _ := slime.Parse(pageBoard)
	illegal := p.Apply(slime.Pass).LegalMoves(nil)[0] // a move of player 4
	for name, build := range map[string]func() (eng, error){
		"hang":    func() (eng, error) { return hang{}, nil },
		"boom":    func() (eng, error) { return boom{}, nil },
		"build":   func() (eng, error) { return nil, errors.New("no engine") },
		"illegal": func() (eng, error) { return wrong{illegal}, nil },
		"offsize": func() (eng, error) { return wrong{slime.StartSize(9).LegalMoves(nil)[0]}, nil },
	} {
		out, log, err, took := answer(t, pageBoard, build)
		if err != nil || out != "4 0 2 2\n" || log == "" {
			t.Errorf("%s: %q, %v, log %q; want greedy's 4 0 2 2 and a log line", name, out, err, log)
		}
		if took > koth.Deadline+2*time.Second { // loose: the shared machine stalls processes
			t.Errorf("%s: answered after %v", name, took)
		}
	}
	// Where the mover has no spread and no jump, the fallback passes as the engines do:
	// GreedySlime's merge there fills nothing and gives up a cell.
	stuck := "1,11222,22222,33333,44444,4444."
	sp, _ := slime.Parse(stuck)
	merge := bots.GreedyMove(sp)
	if sp.CanGrow() || merge == slime.Pass || sp.Apply(merge).Count(0) != sp.Count(0)-1 {
		t.Fatalf("%s: not a position where greedy's merge (%v) only loses a cell", stuck, merge)
	}
	if !slices.Contains(sp.LegalMoves(nil), slime.Pass) {
		t.Errorf("%s: no pass among the legal moves", stuck)
	}
	for name, build := range map[string]func() (eng, error){
		"build":    func() (eng, error) { return nil, errors.New("no engine") },
		"paranoid": func() (eng, error) { return bots.NewParanoid(), nil },
	} {
		if out, _, err, _ := answer(t, stuck, build); err != nil || out != "0 0 0 0\n" {
			t.Errorf("%s on %s: %q, %v; want the pass 0 0 0 0", name, stuck, out, err)
		}
	}
	// A pass where the position offers one is printed as the controller's pass.
	out, _, err, _ := answer(t, "2,1...,....,....,...4", func() (eng, error) { return bots.NewParanoid(), nil })
	if err != nil || out != "0 0 0 0\n" {
		t.Errorf("player without slime: %q, %v", out, err)
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"1,....,....,....,....", "x"}, {"9,...."}, {"1,1..,...,..."}} {
		var out, log bytes.Buffer
		err := koth.Answer(args, &out, &log, "greedy", func() (eng, error) { return bots.Greedy{}, nil }, 1)
		if err == nil || out.String() != "0 0 0 0\n" {
			t.Errorf("%q: %q, %v; want a pass and an error", args, out.String(), err)
		}
	}
}

// TestAgent runs the agent program's argv path: agent -game slime ARG.
func TestAgent(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := agent.Main([]string{"-game", "slime", pageBoard}, nil, &out, &errOut); code != 0 {
		t.Fatalf("agent: exit %d, stderr %q", code, errOut.String())
	}
	p, _ := slime.Parse(pageBoard)
	if m, err := p.ParseMove(out.String()); err != nil || !p.IsLegal(m) || !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("agent printed %q: %v", out.String(), err)
	}
	out.Reset()
	if code := agent.Main([]string{"-game", "slime", "-engine", "greedy", pageBoard}, nil, &out, &errOut); code != 0 || out.String() != "4 0 2 2\n" {
		t.Errorf("agent -engine greedy: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := agent.Main([]string{"-game", "slime", "-engine", "nosuch", pageBoard}, nil, &out, &errOut); code != 2 {
		t.Errorf("agent -engine nosuch: exit %d", code)
	}
	out.Reset()
	if code := agent.Main([]string{"-game", "bacteria-war", pageBoard}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unexpected arguments") {
		t.Errorf("bacteria-war with an argument: exit %d, %q", code, errOut.String())
	}
}

// TestRegistered: Slime through the registry: its facts, engines, perft, the referee's view
// and an in-process game.
func TestRegistered(t *testing.T) {
	g, err := registry.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	info := g.Info()
	if !info.Scored || info.Players() != 4 || info.PolicySize != slime.PolicySize || g.Symmetries().NumSymmetries() != 8 {
		t.Errorf("info %+v", info)
	}
	if g.DefaultEngine() != "paranoid" || g.ArgvProtocol() != koth.Name {
		t.Errorf("default engine %q, argv protocol %q", g.DefaultEngine(), g.ArgvProtocol())
	}
	var names []string
	for _, e := range g.Engines() {
		names = append(names, e.Name)
	}
	for _, want := range []string{"greedy", "jumper", "simplebot", "paranoid", "bestreply", "random", "mcts-rollout"} {
		if !slices.Contains(names, want) {
			t.Errorf("engines %v lack %s", names, want)
		}
	}
	if n, err := g.Perft("", 4); err != nil || n != 4096 {
		t.Errorf("perft 4 = %d, %v", n, err)
	}
	if n, err := g.Perft("2,1...,....,....,...4", 3); err != nil || n != 8 {
		t.Errorf("perft 3 from a position = %d, %v", n, err)
	}
	var players []arena.Player
	for _, name := range []string{"greedy", "jumper", "simplebot", "greedy"} {
		pl, err := g.NewPlayer(name, agentdef.EngineOptions{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, pl)
	}
	rec, err := arena.PlayLocal(g.Rules(), players, g.Rules().Start(), 0)
	if err != nil || len(rec.Faults) != 0 {
		t.Fatalf("local game: %v, faults %v", err, rec.Faults)
	}
	if !strings.HasPrefix(rec.Outcome, "board full") && !strings.HasPrefix(rec.Outcome, "2000-turn cap") {
		t.Errorf("outcome %q", rec.Outcome)
	}
	if err := g.Serve("koth", "greedy", agentdef.EngineOptions{}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Error("the koth protocol served a session on stdin")
	}
}
