package judge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"colony/contract"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxgreedy"
	"colony/game/ataxx/ataxxtest"
)

// judge drives an agent session through pipes the way the judge does, tracking the game on
// its own and checking every answer against its own position.
type judge struct {
	t     *testing.T
	in    *io.PipeWriter // to the agent
	out   *bufio.Reader  // from the agent
	done  chan error
	eol   string
	noise []string // odd lines slipped in before some messages
	rng   *rand.Rand
}

func startJudge(t *testing.T, factory func() (bwEngine, error), eol string, noise []string) *judge {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	j := &judge{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1), eol: eol, noise: noise,
		rng: rand.New(rand.NewPCG(3, 4))}
	go func() {
		err := serveBW(inR, outW, io.Discard, factory)
		outW.Close()
		j.done <- err
	}()
	return j
}

func (j *judge) send(line string) {
	j.t.Helper()
	if len(j.noise) > 0 && j.rng.IntN(3) == 0 {
		if _, err := io.WriteString(j.in, j.noise[j.rng.IntN(len(j.noise))]+j.eol); err != nil {
			j.t.Fatal(err)
		}
	}
	if _, err := io.WriteString(j.in, line+j.eol); err != nil {
		j.t.Fatal(err)
	}
}

func (j *judge) recv() string {
	j.t.Helper()
	line, err := j.out.ReadString('\n')
	if err != nil {
		j.t.Fatalf("reading the agent: %v (got %q)", err, line)
	}
	return strings.TrimSuffix(line, "\n")
}

// finish sends FINISH and checks the agent exits cleanly without printing anything more.
func (j *judge) finish() {
	j.t.Helper()
	j.send("FINISH")
	rest, err := io.ReadAll(j.out)
	if err != nil || len(rest) > 0 {
		j.t.Fatalf("after FINISH: %q, %v", rest, err)
	}
	select {
	case err := <-j.done:
		if err != nil {
			j.t.Fatalf("agent ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		j.t.Fatal("agent did not exit after FINISH")
	}
	j.in.Close()
}

// playGame plays one whole game: the agent on side me against a random opponent.
func playGame(t *testing.T, factory func() (bwEngine, error), me int, eol string, noise []string) {
	j := startJudge(t, factory, eol, noise)
	start := time.Now()
	j.send([]string{"READY FIRST", "READY SECOND"}[me])
	if got := j.recv(); got != "OK" {
		t.Fatalf("READY: got %q, want OK", got)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("OK took %v", el)
	}
	p := ataxx.Start()
	clock := [2]int{10000, 10000}
	for !p.Terminal() {
		if p.ToMove() == me {
			j.send(fmt.Sprintf("TURN %d %d", clock[me], clock[me^1]))
			line := j.recv()
			r1, c1, r2, c2, err := parseMoveLine(line)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.JudgeMove(r1, c1, r2, c2)
			if err != nil {
				t.Fatalf("agent's %q: %v in\n%s", line, err, p.Diagram())
			}
			p = p.Apply(m)
			clock[me] -= 3
			continue
		}
		legal := p.LegalMoves(nil)
		m := legal[j.rng.IntN(len(legal))]
		r1, c1, r2, c2 := p.JudgeCoords(m)
		j.send(fmt.Sprintf("OPP %d %d %d %d %d", r1, c1, r2, c2, 5))
		p = p.Apply(m)
		clock[me^1] -= 5
	}
	t.Logf("game over after %d turns: O %d, X %d", p.Turns(), p.Count(ataxx.O), p.Count(ataxx.X))
	j.finish()
}

func TestJudgeWholeGames(t *testing.T) {
	noise := []string{"", "   ", "\t", "HELLO there", "MOVE 1 1 1 2", "TURNX", "12345", "\x00\x01garbage"}
	for _, tc := range []struct {
		name  string
		eol   string
		noise []string
	}{
		{"lf", "\n", nil},
		{"crlf", "\r\n", nil},
		{"noisy-crlf", "\r\n", noise},
		{"noisy-lf", "\n", noise},
	} {
		for me, side := range []string{"first", "second"} {
			t.Run(tc.name+"-"+side, func(t *testing.T) {
				playGame(t, greedyFactory(uint64(me)), me, tc.eol, tc.noise)
				playGame(t, randomFactory(uint64(me)), me, tc.eol, tc.noise)
			})
		}
	}
}

func TestJudgeSpacesAndCase(t *testing.T) {
	out, moves, _ := judgeOnString(t, "  ready   first  \r\n\r\n  turn  10000   10000 \r\n opp 1 7 2 7 10\r\nTURN 9990 9990\r\nfinish\r\n", greedyFactory(1))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "OK" || len(moves) != 2 {
		t.Fatalf("output %q, %d moves", out, len(moves))
	}
	for i, p := range moves {
		checkPlayed(t, p)
		if _, _, _, _, err := parseMoveLine(lines[i+1]); err != nil {
			t.Error(err)
		}
	}
	if moves[1].Before.Pieces(ataxx.X)&(1<<(1*7+6)) == 0 {
		t.Errorf("the opponent's division to (2,7) was not tracked:\n%s", moves[1].Before.Diagram())
	}
}

func TestJudgeReadyIsImmediateAndLimitsPass(t *testing.T) {
	fake := &fakeEngine{}
	slow := func() (bwEngine, error) {
		time.Sleep(1200 * time.Millisecond)
		return fake, nil
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serveBW(inR, outW, io.Discard, slow); outW.Close() }()
	out := bufio.NewReader(outR)
	start := time.Now()
	io.WriteString(inW, "READY FIRST\n")
	line, err := out.ReadString('\n')
	if err != nil || line != "OK\n" {
		t.Fatalf("got %q, %v", line, err)
	}
	// The constructor takes longer than this bound, so an OK that waited for it fails here;
	// the TURN below may wait min(2 s, clock/8) for it.
	if el := time.Since(start); el > time.Second {
		t.Errorf("OK took %v with a slow engine constructor", el)
	}
	io.WriteString(inW, "TURN 19876 5432\n")
	line, err = out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if line != "MOVE 1 1 1 2\n" { // the fake plays the first legal move: the division to b7
		t.Errorf("got %q from the fake engine", line)
	}
	io.WriteString(inW, "FINISH\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(fake.Lims) != 1 || fake.Lims[0].MyTime != 19876*time.Millisecond || fake.Lims[0].OppTime != 5432*time.Millisecond {
		t.Errorf("limits passed: %+v", fake.Lims)
	}
	if fake.NewGames != 1 {
		t.Errorf("NewGame called %d times, want 1", fake.NewGames)
	}
}

func TestJudgeNeverPrintsAnEngineBlunder(t *testing.T) {
	answers := map[string]func(ataxx.Position) ataxx.Move{
		"nomove":   func(ataxx.Position) ataxx.Move { return ataxx.NoMove },
		"pass":     func(ataxx.Position) ataxx.Move { return ataxx.Pass },
		"occupied": func(p ataxx.Position) ataxx.Move { return ataxx.CloneMove(6) },
		"panic":    func(ataxx.Position) ataxx.Move { panic("boom") },
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			fake := &fakeEngine{Answer: answer}
			factory := func() (bwEngine, error) { return fake, nil }
			_, moves, _ := judgeOnString(t, "READY SECOND\nOPP 1 1 2 2 5\nTURN 10000 10000\nOPP 7 7 6 6 5\nTURN 9000 9000\nFINISH\n", factory)
			if len(moves) != 2 {
				t.Fatalf("%d moves", len(moves))
			}
			for _, p := range moves {
				checkPlayed(t, p)
			}
			if len(fake.Lims) != 2 {
				t.Errorf("engine asked %d times, want 2", len(fake.Lims))
			}
		})
	}
	t.Run("constructor-fails", func(t *testing.T) {
		failing := func() (bwEngine, error) { return nil, errors.New("no weights") }
		out, moves, _ := judgeOnString(t, "READY FIRST\nTURN 10000 10000\nFINISH\n", failing)
		if len(moves) != 1 || !strings.HasPrefix(out, "OK\nMOVE ") {
			t.Fatalf("output %q", out)
		}
		checkPlayed(t, moves[0])
	})
}

func TestJudgeIllegalOpp(t *testing.T) {
	for _, tc := range []struct {
		name, opp string
		want      ataxx.Position
	}{{
		// O "divides" from X's piece at (1,7) to (2,6): forced, the piece lands and infects (1,7).
		"forced-division", "OPP 1 7 2 6 5",
		diagramPos(t, `
			O . . . . . O
			. . . . . O .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			X . . . . . O`, ataxx.X, 1),
	}, {
		// O "leaps" from the empty (3,3) to (1,2): the source is emptied, (1,2) infected nothing.
		"forced-leap", "OPP 3 3 1 2 5",
		diagramPos(t, `
			O O . . . . X
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			X . . . . . O`, ataxx.X, 1),
	}, {
		// A leap onto X's (7,1) from (5,3): O takes the cell; the source was empty anyway.
		"forced-onto-piece", "OPP 5 3 7 1 5",
		diagramPos(t, `
			O . . . . . X
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			O . . . . . O`, ataxx.X, 1),
	}, {
		"too-far", "OPP 1 1 4 4 5", diagramPos(t, startDiagram, ataxx.X, 1),
	}, {
		"off-board", "OPP 0 1 1 2 5", diagramPos(t, startDiagram, ataxx.X, 1),
	}, {
		"words", "OPP a b c d 5", diagramPos(t, startDiagram, ataxx.X, 1),
	}, {
		"short", "OPP 1 1", diagramPos(t, startDiagram, ataxx.X, 1),
	}, {
		"illegal-pass", "OPP -1 -1 -1 -1 5", diagramPos(t, startDiagram, ataxx.X, 1),
	}, {
		// A legal move without its time is still taken.
		"no-time", "OPP 1 1 2 2",
		diagramPos(t, `
			O . . . . . X
			. O . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			X . . . . . O`, ataxx.X, 1),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, moves, s := judgeOnString(t, "READY SECOND\n"+tc.opp+"\n", greedyFactory(1))
			if out != "OK\n" || len(moves) != 0 {
				t.Fatalf("output %q", out)
			}
			if !ataxxtest.SamePieces(s.pos, tc.want) || s.pos.Turns() != tc.want.Turns() || !s.pos.Valid() {
				t.Fatalf("tracked\n%s\nwant\n%s", s.pos.Diagram(), tc.want.Diagram())
			}
			// And the agent answers a legal move from there.
			_, moves, _ = judgeOnString(t, "READY SECOND\n"+tc.opp+"\nTURN 10000 10000\n", greedyFactory(1))
			if len(moves) != 1 || !ataxxtest.SamePieces(moves[0].Before, tc.want) {
				t.Fatalf("moves %v", moves)
			}
			checkPlayed(t, moves[0])
		})
	}
}

const startDiagram = `
	O . . . . . X
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. . . . . . .
	. . . . . . .
	X . . . . . O`

func TestJudgeInconsistentTurns(t *testing.T) {
	// Two TURNs in a row: the agent moves twice, each time legally for its own side.
	out, moves, _ := judgeOnString(t, "READY FIRST\nTURN 10000 10000\nTURN 9000 10000\nFINISH\n", greedyFactory(2))
	if len(moves) != 2 || strings.Count(out, "MOVE ") != 2 {
		t.Fatalf("output %q", out)
	}
	for _, p := range moves {
		checkPlayed(t, p)
		if p.Before.ToMove() != ataxx.O {
			t.Errorf("moved for side %d", p.Before.ToMove())
		}
	}
	// TURN before READY: the agent takes the side to move.
	out, moves, _ = judgeOnString(t, "TURN 10000 10000\n", greedyFactory(2))
	if len(moves) != 1 || !strings.HasPrefix(out, "MOVE ") {
		t.Fatalf("output %q", out)
	}
	checkPlayed(t, moves[0])
	// OPP before READY: the agent is second.
	_, moves, s := judgeOnString(t, "OPP 1 1 1 2 3\nTURN 10000 10000\n", greedyFactory(2))
	if s.me != ataxx.X || len(moves) != 1 || moves[0].Before.ToMove() != ataxx.X {
		t.Fatalf("me %d, moves %v", s.me, moves)
	}
	checkPlayed(t, moves[0])
	// A malformed TURN still gets a move, and a zero clock is not "no limit".
	fake := &fakeEngine{}
	out, _, _ = judgeOnString(t, "READY FIRST\nTURN soon\nOPP 1 7 2 7 0\nTURN 0 0\n", func() (bwEngine, error) { return fake, nil })
	if strings.Count(out, "MOVE ") != 2 || len(fake.Lims) != 2 || fake.Lims[1].Infinite() || fake.Lims[0].Infinite() {
		t.Fatalf("output %q, limits %+v", out, fake.Lims)
	}
}

func TestJudgeTurnInFinishedPosition(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pos      ataxx.Position
		wantPass bool
	}{
		{"turn-cap", diagramPos(t, startDiagram, ataxx.O, ataxx.MaxTurns), false},
		{"no-own-pieces", diagramPos(t, `
			X . . . . . X
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			X . . . . . .`, ataxx.O, 10), true},
		{"full-board", diagramPos(t, `
			O O O O O O O
			O O O O O O O
			O O O O O O O
			X X X X X X X
			X X X X X X X
			X X X X X X X
			X X X X X X X`, ataxx.O, 50), true},
		{"stuck", diagramPos(t, `
			O X X . . . .
			X X X . . . .
			X X X . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`, ataxx.O, 10), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			s := newBW(strings.NewReader("TURN 100 100\n"), &out, io.Discard, greedyFactory(1))
			s.pos, s.me = tc.pos, ataxx.O
			var moves []played
			s.Trace = func(b ataxx.Position, m ataxx.Move, c contract.Coords) {
				m = passIf(c, m)
				moves = append(moves, played{Before: b, M: m})
			}
			if err := s.Run(); err != nil {
				t.Fatal(err)
			}
			if len(moves) != 1 {
				t.Fatalf("output %q", out.String())
			}
			checkPlayed(t, moves[0])
			if (out.String() == "MOVE -1 -1 -1 -1\n") != tc.wantPass {
				t.Errorf("output %q, want pass %v", out.String(), tc.wantPass)
			}
			if !s.pos.Valid() {
				t.Errorf("tracked position invalid: %v", s.pos)
			}
		})
	}
}

func TestJudgeEndings(t *testing.T) {
	// EOF without FINISH is a clean end; so is an empty input.
	for _, in := range []string{"", "READY FIRST\nTURN 10000 10000", "READY FIRST\nTURN 10000 10000\n"} {
		out, moves, _ := judgeOnString(t, in, greedyFactory(1))
		if strings.Count(out, "MOVE ") != len(moves) {
			t.Errorf("input %q: output %q", in, out)
		}
	}
	// Nothing after FINISH is read or answered.
	out, _, _ := judgeOnString(t, "READY FIRST\nFINISH\nTURN 10000 10000\n", greedyFactory(1))
	if out != "OK\n" {
		t.Errorf("output %q", out)
	}
	// A line longer than the reader's buffer is skipped whole.
	long := "TURN " + strings.Repeat("9", 3*MaxLineLen) + "\n"
	out, _, _ = judgeOnString(t, "READY FIRST\n"+long+"TURN 10000 10000\n", greedyFactory(1))
	if strings.Count(out, "MOVE ") != 1 {
		t.Errorf("output %q", out)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

func TestJudgeWriteFailure(t *testing.T) {
	err := serveBW(strings.NewReader("READY FIRST\n"), failWriter{}, io.Discard, greedyFactory(1))
	if err == nil {
		t.Fatal("a failed write went unreported")
	}
}

func TestJudgeDoesNotWaitPastItsClockForTheEngine(t *testing.T) {
	fake := &fakeEngine{}
	release := make(chan struct{})
	slow := func() (bwEngine, error) {
		<-release
		return fake, nil
	}
	defer close(release)
	// With 80 ms left the agent waits 10 ms for the engine, then plays a greedy move.
	out, moves, _ := judgeOnString(t, "READY FIRST\nTURN 80 80\nOPP 1 7 2 7 1\nTURN 70 70\nFINISH\n", slow)
	if len(moves) != 2 || strings.Count(out, "MOVE ") != 2 {
		t.Fatalf("output %q", out)
	}
	for _, p := range moves {
		checkPlayed(t, p)
	}
	if len(fake.Lims) != 0 {
		t.Errorf("the engine was asked %d times before it was built", len(fake.Lims))
	}
}

// TestJudgePosition checks the arena's POSITION extension: the game goes on from the board
// given, so the agent's move must be legal there (and it is not legal from the start).
func TestJudgePosition(t *testing.T) {
	board, err := ataxx.ParseDiagram(`
		. . . . . . .
		. . . . . . .
		. . X X X . .
		. . X O X . .
		. . X X X . .
		. . . . . . .
		. . . . . . .`, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	board = ataxx.NewPosition(board.Pieces(ataxx.O), board.Pieces(ataxx.X), ataxx.O, 6)
	for _, eol := range []string{"\n", "\r\n"} {
		j := startJudge(t, func() (bwEngine, error) { return ataxxgreedy.New(1), nil }, eol, nil)
		j.send("READY FIRST")
		if got := j.recv(); got != "OK" {
			t.Fatalf("READY: %q", got)
		}
		j.send("POSITION " + board.String())
		j.send("TURN 10000 10000")
		line := j.recv()
		r1, c1, r2, c2, err := parseMoveLine(line)
		if err != nil {
			t.Fatal(err)
		}
		m, err := board.JudgeMove(r1, c1, r2, c2)
		if err != nil {
			t.Fatalf("%q is not legal in the POSITION board: %v", line, err)
		}
		if board.Captures(m) < 3 {
			t.Errorf("greedy from the POSITION board should capture at least 3, %q captures %d", line, board.Captures(m))
		}
		j.finish()
	}
}
