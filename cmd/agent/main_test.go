package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// runAgent runs the program in-process.
func runAgent(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb strings.Builder
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPerftFlagStart(t *testing.T) {
	want := []string{"1", "16", "256", "6460", "155888"}
	for d, w := range want {
		code, out, errOut := runAgent("", "-game", "bacteria-war", "-perft", strconv.Itoa(d))
		if code != 0 || out != w+"\n" {
			t.Errorf("perft %d: exit %d, output %q, want %q (stderr %q)", d, code, out, w, errOut)
		}
	}
}

func TestPerftFlagBoards(t *testing.T) {
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ";")
		if len(fields) != 5 {
			t.Fatalf("bad testdata line %q", sc.Text())
		}
		maxDepth := 4
		if testing.Short() {
			maxDepth = 3
		}
		for d := 1; d <= maxDepth; d++ {
			code, out, errOut := runAgent("", "-game", "bacteria-war", "-perft", strconv.Itoa(d), "-board", fields[0])
			if code != 0 || out != fields[d]+"\n" {
				t.Errorf("%s perft %d: exit %d, output %q, want %s (stderr %q)", fields[0], d, code, out, fields[d], errOut)
			}
		}
		n++
	}
	if err := sc.Err(); err != nil || n == 0 {
		t.Fatalf("read %d boards: %v", n, err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"-game", "catch-the-mouse"}, "not implemented yet"},
		{[]string{"-game", "slime", "-engine", "greedy"}, "not implemented yet"},
		{[]string{"-game", "petri-dish"}, "not implemented yet"},
		{[]string{"-game", "chess"}, "not implemented yet"},
		{[]string{"-game", "bacteria-war", "-engine", "nonesuch"}, "unknown engine"},
		{[]string{"-game", "bacteria-war", "-protocol", "xboard"}, "unknown protocol"},
		{[]string{"-game", "bacteria-war", "-perft", "2", "-board", "OOO X"}, "-board"},
		{[]string{"-game", "bacteria-war", "-board", "......./......./......./......./......./......./....... O"}, "only goes with -perft"},
		{[]string{"-nonesuch"}, "flag provided but not defined"},
		{[]string{"-engine", "mcts", "-endgame", "-1"}, "-endgame in [0, 49]"},
		{[]string{"-engine", "mcts", "-endgame", "50"}, "-endgame in [0, 49]"},
		{[]string{"-game", "bacteria-war", "stray"}, "unexpected arguments"},
	} {
		code, out, errOut := runAgent("READY FIRST\n", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.wantErr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.wantErr)
		}
	}
}

func TestRegistry(t *testing.T) {
	if _, err := lookupEngine(defaultEngine); err != nil {
		t.Fatalf("default engine: %v", err)
	}
	for _, name := range engineNames() {
		f, err := lookupEngine(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := f(Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Name() != name {
			t.Errorf("engine registered as %q calls itself %q", name, e.Name())
		}
	}
}

// TestMCTSEndgameHandoff: with -endgame 49 the mcts agent hands even the first move to
// alphabeta, and still answers the judge with a legal move under its own name.
func TestMCTSEndgameHandoff(t *testing.T) {
	e, err := newMCTS(Options{Seed: 1, EndgameEmpty: 49})
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "mcts" {
		t.Fatalf("name %q, want mcts", e.Name())
	}
	p := ataxx.Start()
	if m := e.BestMove(p, engine.Limits{MoveTime: 50 * time.Millisecond}); !p.IsLegal(m) {
		t.Fatalf("illegal move %v", m)
	}
	if h, ok := e.(interface{ Finishing() bool }); !ok || !h.Finishing() {
		t.Fatalf("-endgame 49: the first move was not handed to alphabeta (%T)", e)
	}
	code, out, errOut := runAgent("READY FIRST\nTURN 300 300\nFINISH\n", "-engine", "mcts", "-endgame", "49")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) != 3 || lines[0] != "OK" {
		t.Fatalf("exit %d, output %q, stderr %q", code, out, errOut)
	}
	if _, _, _, _, err := parseMoveLine(lines[1]); err != nil {
		t.Error(err)
	}
}

func TestRunJudgeEveryEngine(t *testing.T) {
	for _, name := range engineNames() {
		code, out, errOut := runAgent("READY FIRST\nTURN 300 300\nFINISH\n", "-game", "bacteria-war", "-engine", name)
		lines := strings.Split(out, "\n")
		if code != 0 || len(lines) != 3 || lines[0] != "OK" || lines[2] != "" {
			t.Fatalf("%s: exit %d, output %q, stderr %q", name, code, out, errOut)
		}
		if _, _, _, _, err := parseMoveLine(lines[1]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
