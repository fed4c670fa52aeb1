package uai

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// helperEnv makes the test binary an external engine: "serve" speaks UAI with Colony's
// greedy engine (what a public engine is to the client), "illegal" answers every go with a
// move no position has, "mute" never answers go, "die" exits at once.
const helperEnv = "COLONY_UAI_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "serve":
		if err := Serve(os.Stdin, os.Stdout, os.Stderr, "helper", greedyFactory(3), 3); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "die":
		os.Exit(3)
	case "illegal", "mute":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			switch f := strings.Fields(sc.Text()); {
			case len(f) == 0:
			case f[0] == "uai":
				fmt.Println("id name Helper\nuaiok")
			case f[0] == "isready":
				fmt.Println("readyok")
			case f[0] == "go" && os.Getenv(helperEnv) == "illegal":
				fmt.Println("bestmove a1a1")
			case f[0] == "quit":
				os.Exit(0)
			}
		}
		os.Exit(0)
	}
}

// helperClient dials the test binary in the given helper mode.
func helperClient(t *testing.T, mode, goArgs string) (*Client, *strings.Builder, error) {
	t.Helper()
	t.Setenv(helperEnv, mode)
	var log strings.Builder
	c, err := Dial(os.Args[0], goArgs, &log)
	if c != nil {
		t.Cleanup(func() { _ = c.Close() })
	}
	return c, &log, err
}

// TestClientPlaysAGame: an external UAI engine (Colony's own UAI server over greedy, in a
// separate process) plays a whole game to its end through the client, with clocks and with a
// fixed go, every move legal in the position the client holds.
func TestClientPlaysAGame(t *testing.T) {
	for _, goArgs := range []string{"", "nodes,5000"} {
		c, log, err := helperClient(t, "serve", goArgs)
		if err != nil {
			t.Fatal(err)
		}
		if c.ID() != "Colony helper" {
			t.Fatalf("id name %q, want %q", c.ID(), "Colony helper")
		}
		c.NewGame()
		p, plies := ataxx.Start(), 0
		for ; !p.Terminal() && plies < 400; plies++ {
			// BestMove panics on a move that is not legal in p: a wrong FEN or colour shows.
			p = p.Apply(c.BestMove(p, engine.Limits{MyTime: 5 * time.Second, OppTime: 4 * time.Second}))
		}
		if !p.Terminal() || plies < 20 {
			t.Fatalf("go %q: the game stopped after %d plies in %s\nlog:\n%s", goArgs, plies, p.FEN(), log)
		}
		if strings.Contains(log.String(), "panicked") || strings.Contains(log.String(), "illegal") {
			t.Fatalf("go %q: the engine's log shows trouble:\n%s", goArgs, log)
		}
		if err := c.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
	}
}

// TestGoLine: the clocks go to the right colour (O is FEN x, black: btime), and the fixed
// arguments win over the limits.
func TestGoLine(t *testing.T) {
	lim := engine.Limits{MyTime: 9 * time.Second, OppTime: 7 * time.Second, MyInc: 10 * time.Millisecond}
	for _, tc := range []struct {
		side   int
		lim    engine.Limits
		goArgs string
		want   string
	}{
		{ataxx.O, lim, "", "go btime 9000 wtime 7000 binc 10 winc 0"},
		{ataxx.X, lim, "", "go btime 7000 wtime 9000 binc 0 winc 10"},
		{ataxx.X, engine.Limits{MyTime: 3 * time.Second}, "", "go btime 3000 wtime 3000 binc 0 winc 0"},
		{ataxx.O, engine.Limits{MoveTime: 250 * time.Millisecond}, "", "go movetime 250"},
		{ataxx.O, engine.Limits{Nodes: 5000}, "", "go nodes 5000"},
		{ataxx.O, engine.Limits{Depth: 7}, "", "go depth 7"},
		{ataxx.O, engine.Limits{}, "", "go movetime 1000"},
		{ataxx.X, lim, "nodes 5000", "go nodes 5000"},
	} {
		if got := GoLine(tc.side, tc.lim, tc.goArgs); got != tc.want {
			t.Errorf("GoLine(%d, %+v, %q) = %q, want %q", tc.side, tc.lim, tc.goArgs, got, tc.want)
		}
	}
}

// TestClientFailures: an engine that is not there, that exits, that answers an illegal move
// or that never answers fails loudly, with the reason.
func TestClientFailures(t *testing.T) {
	if _, err := Dial("", "", &strings.Builder{}); err == nil {
		t.Fatal("an empty command dialled")
	}
	if _, err := Dial("/nonexistent/engine", "", &strings.Builder{}); err == nil {
		t.Fatal("a missing program dialled")
	}
	if _, _, err := helperClient(t, "die", ""); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("an engine that exits: %v, want an error saying it ended", err)
	}
	for mode, want := range map[string]string{"illegal": "a1a1", "mute": "no \"bestmove\""} {
		c, _, err := helperClient(t, mode, "movetime 10")
		if err != nil {
			t.Fatal(err)
		}
		got := func() (r any) {
			defer func() { r = recover() }()
			c.BestMove(ataxx.Start(), engine.Limits{MoveTime: 10 * time.Millisecond})
			return nil
		}()
		if got == nil || !strings.Contains(fmt.Sprint(got), want) {
			t.Errorf("%s engine: BestMove panicked with %v, want %q in it", mode, got, want)
		}
	}
}
