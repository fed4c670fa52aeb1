package uai

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxab"
	"colony/game/ataxx/ataxxtest"
)

// uaiOnString runs a UAI session over input.
func uaiOnString(t *testing.T, input string, factory func() (Engine, error)) (string, []played, *uaiSession) {
	t.Helper()
	var out, log strings.Builder
	s := newUAISession(strings.NewReader(input), &out, &log, "test", factory, 1)
	var moves []played
	s.trace = func(b ataxx.Position, m ataxx.Move) { moves = append(moves, played{Before: b, M: m}) }
	if err := s.run(); err != nil {
		t.Fatalf("session: %v\nlog:\n%s", err, log.String())
	}
	return out.String(), moves, s
}

// afterB6A2G1E3 is the start after x divides to b6, o divides to a2 and x leaps g1-e3.
const afterB6A2G1E3 = `
	O . . . . . X
	. O . . . . .
	. . . . . . .
	. . . . . . .
	. . . . O . .
	X . . . . . .
	X . . . . . .`

func TestUAIHandshake(t *testing.T) {
	out, moves, _ := uaiOnString(t, "uai\r\nisready\n\n  uainewgame \nposition startpos\ngo movetime 10\nquit\ngo movetime 10\n", greedyFactory(1))
	want := []string{"id name Colony test", "id author Colony", "uaiok", "readyok"}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 || strings.Join(lines[:4], "|") != strings.Join(want, "|") || !strings.HasPrefix(lines[4], "bestmove ") {
		t.Fatalf("output %q", out)
	}
	if len(moves) != 1 {
		t.Fatalf("%d moves", len(moves))
	}
	checkPlayed(t, moves[0])
	m, err := ataxx.Start().ParseUAIMove(strings.TrimPrefix(lines[4], "bestmove "))
	if err != nil || m != moves[0].M {
		t.Errorf("bestmove line %q: %v", lines[4], err)
	}
}

func TestUAIPositions(t *testing.T) {
	moved := ataxxtest.DiagramPos(t, afterB6A2G1E3, ataxx.X, 3)
	afterB6 := ataxx.Start().Apply(ataxx.CloneMove(8))
	for _, tc := range []struct {
		name, input string
		want        ataxx.Position
	}{
		{"startpos-moves", "position startpos moves b6 a2 g1e3", moved},
		{"clone-as-two-squares", "position startpos moves a7b6 a2 g1e3", moved},
		{"fen-moves", "position fen x5o/7/7/7/7/7/o5x x 0 1 moves b6 a2 g1e3", moved},
		{"fen", "position fen " + moved.FEN(), moved},
		{"fen-o-to-move", "position fen x5o/7/7/7/7/7/o5x o 0 1", ataxx.NewPosition(ataxx.Start().Pieces(ataxx.O), ataxx.Start().Pieces(ataxx.X), ataxx.X, 1)},
		{"illegal-move-stops", "position startpos moves b6 b6 a2", afterB6},
		{"garbage-move-stops", "position startpos moves b6 zz9 a2", afterB6},
		{"bad-fen-keeps", "position startpos moves b6\nposition fen x5o/7/7 x", afterB6},
		{"bad-keyword-keeps", "position startpos moves b6\nposition middlegame", afterB6},
		{"empty-keeps", "position startpos moves b6\nposition", afterB6},
		{"newgame-resets", "position startpos moves b6\nuainewgame", ataxx.Start()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, s := uaiOnString(t, tc.input+"\n", greedyFactory(1))
			if !ataxxtest.SamePieces(s.pos, tc.want) || s.pos.Turns() != tc.want.Turns() {
				t.Fatalf("tracked\n%s\nwant\n%s", s.pos.Diagram(), tc.want.Diagram())
			}
		})
	}
}

func TestUAIGoLimits(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name, input string
		want        engine.Limits
	}{
		{"x-clock", "position startpos\ngo btime 5000 wtime 7000 binc 10 winc 20",
			engine.Limits{MyTime: 5000 * ms, OppTime: 7000 * ms, MyInc: 10 * ms, OppInc: 20 * ms}},
		{"o-clock", "position startpos moves b6\ngo wtime 7000 btime 5000 winc 20 binc 10 movestogo 30",
			engine.Limits{MyTime: 7000 * ms, OppTime: 5000 * ms, MyInc: 20 * ms, OppInc: 10 * ms}},
		{"movetime", "go movetime 250", engine.Limits{MoveTime: 250 * ms}},
		{"depth-nodes", "go depth 3 nodes 1000", engine.Limits{Depth: 3, Nodes: 1000}},
		{"zero-clock", "go btime 0 wtime 0", engine.Limits{MyTime: ms, OppTime: ms}},
		{"infinite", "go infinite", engine.Limits{MoveTime: bareGoTime}},
		{"bare", "go", engine.Limits{MoveTime: bareGoTime}},
		{"garbage", "go btime soon wtime", engine.Limits{MoveTime: bareGoTime}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := &fakeEngine{}
			// isready waits for the engine, so that even a 1 ms clock reaches it.
			out, moves, _ := uaiOnString(t, "isready\n"+tc.input+"\n", func() (Engine, error) { return fake, nil })
			if len(fake.Lims) != 1 || fake.Lims[0] != tc.want {
				t.Fatalf("limits %+v, want %+v", fake.Lims, tc.want)
			}
			if len(moves) != 1 || out != "readyok\nbestmove "+moves[0].M.UAI()+"\n" {
				t.Fatalf("output %q", out)
			}
			checkPlayed(t, moves[0])
		})
	}
}

func TestUAIPassAndTurnCap(t *testing.T) {
	// x is walled in: it must pass.
	out, _, _ := uaiOnString(t, "position fen xoo4/ooo4/ooo4/7/7/7/7 x 0 1\ngo movetime 10\n", greedyFactory(1))
	if out != "bestmove 0000\n" {
		t.Errorf("stuck: %q", out)
	}
	// Standard Ataxx has no turn cap: at move 300 the agent still plays a real move.
	out, moves, _ := uaiOnString(t, "position fen x5o/7/7/7/7/7/o5x x 0 300 moves b6\ngo movetime 10\n", greedyFactory(1))
	if len(moves) != 1 || moves[0].M == ataxx.Pass || out == "bestmove 0000\n" {
		t.Fatalf("turn cap: %q", out)
	}
	checkPlayed(t, moves[0])
	if moves[0].Before.Pieces(ataxx.O)&(1<<8) == 0 {
		t.Errorf("the move b6 past the cap was dropped:\n%s", moves[0].Before.Diagram())
	}
	// An engine blunder is replaced by a legal move.
	fake := &fakeEngine{Answer: func(ataxx.Position) ataxx.Move { return ataxx.CloneMove(0) }}
	_, moves, _ = uaiOnString(t, "go movetime 10\n", func() (Engine, error) { return fake, nil })
	if len(moves) != 1 || len(fake.Lims) != 1 {
		t.Fatalf("moves %v", moves)
	}
	checkPlayed(t, moves[0])
}

// Shared with the judge session's tests.
type (
	played     = ataxxtest.Played
	fakeEngine = ataxxtest.FakeEngine
)

var (
	checkPlayed   = ataxxtest.CheckPlayed
	greedyFactory = ataxxtest.GreedyFactory
)

// TestUAIInfoLines: go depth 8 with the classical alpha-beta engine prints one info line per
// finished depth (1 to 8, in order, with nodes growing and a legal principal variation whose
// first move is the bestmove), then bestmove.
func TestUAIInfoLines(t *testing.T) {
	factory := func() (Engine, error) {
		return ataxxab.NewWithOptions(ataxxab.Options{Options: ab.Options{HashMB: 4}}), nil
	}
	out, _, _ := uaiOnString(t, "uai\nisready\nposition startpos moves b6 a2\ngo depth 8\nquit\n", factory)
	var infos []string
	best := ""
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		switch {
		case strings.HasPrefix(l, "info "):
			infos = append(infos, l)
		case strings.HasPrefix(l, "bestmove "):
			best = strings.TrimPrefix(l, "bestmove ")
		}
	}
	if len(infos) != 8 || best == "" {
		t.Fatalf("%d info lines, bestmove %q:\n%s", len(infos), best, out)
	}
	lastNodes := int64(0)
	for i, l := range infos {
		f := strings.Fields(l)
		field := func(key string) string {
			for j := range f[:len(f)-1] {
				if f[j] == key {
					return f[j+1]
				}
			}
			t.Fatalf("info line %q has no %s", l, key)
			return ""
		}
		if d, _ := strconv.Atoi(field("depth")); d != i+1 {
			t.Errorf("line %d: depth %d", i, d)
		}
		if sd, _ := strconv.Atoi(field("seldepth")); sd < i+1 {
			t.Errorf("line %d: seldepth %d below the depth", i, sd)
		}
		if field("score") != "cp" {
			t.Errorf("line %d: score is not in cp: %q", i, l)
		}
		n, err := strconv.ParseInt(field("nodes"), 10, 64)
		if err != nil || n < lastNodes {
			t.Errorf("line %d: nodes %d after %d (%v)", i, n, lastNodes, err)
		}
		lastNodes = n
		field("nps")
		field("time")
		pv := strings.Fields(strings.SplitN(l, " pv ", 2)[1])
		p := ataxx.Start().Apply(ataxx.CloneMove(8))
		p = p.Apply(mustUAI(t, p, "a2"))
		for _, s := range pv {
			p = p.Apply(mustUAI(t, p, s))
		}
		if i == len(infos)-1 && pv[0] != best {
			t.Errorf("last pv starts with %s, bestmove %s", pv[0], best)
		}
	}
}

func mustUAI(t *testing.T, p ataxx.Position, s string) ataxx.Move {
	t.Helper()
	m, err := p.ParseUAIMove(s)
	if err != nil {
		t.Fatalf("pv move %s: %v", s, err)
	}
	return m
}
