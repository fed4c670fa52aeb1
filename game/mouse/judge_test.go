package mouse_test

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"colony/contract"
	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/mouseab"
	"colony/game/mouse/mousegreedy"
	"colony/judge"
)

type mouseEngine = engine.Engine[mouse.Position, mouse.Move]

// session runs the judge protocol of the agent (package judge over mouse.Def()) with e, and
// talks to it line by line.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func newSession(t *testing.T, e mouseEngine) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		err := judge.Serve(mouse.Def(), inR, outW, io.Discard,
			func() (mouseEngine, error) { return e, nil }, mousegreedy.New(9))
		outW.Close()
		s.done <- err
	}()
	return s
}

func (s *session) send(line string) {
	s.t.Helper()
	if _, err := fmt.Fprintln(s.in, line); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) read() string {
	s.t.Helper()
	if !s.out.Scan() {
		s.t.Fatalf("the agent said nothing: %v", s.out.Err())
	}
	return s.out.Text()
}

func (s *session) finish() {
	s.t.Helper()
	s.send(judge.Finish)
	s.in.Close()
	if err := <-s.done; err != nil {
		s.t.Fatal(err)
	}
}

// TestJudgeSessions plays whole games over the judge protocol, the agent on either side
// against random moves, and checks every MOVE it prints against the rules.
func TestJudgeSessions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	def := mouse.Def()
	for seat := range 2 {
		for _, e := range []mouseEngine{mousegreedy.New(3), mouseab.NewWithOptions(mouseab.Options{Options: ab.Options{HashMB: 2}})} {
			s := newSession(t, e)
			s.send(judge.ReadyLine(seat))
			if got := s.read(); got != judge.OK {
				t.Fatalf("READY answered %q", got)
			}
			p := mouse.Start()
			clock := 500 * time.Millisecond
			for !p.Terminal() {
				if p.ToMove() == seat {
					s.send(judge.TurnLine(clock, clock))
					line := s.read()
					c, err := judge.ParseMove(line)
					if err != nil {
						t.Fatalf("%s: %q: %v", e.Name(), line, err)
					}
					m, err := def.Judge.Move(p, c)
					if err != nil {
						t.Fatalf("%s played %q, illegal in\n%s", e.Name(), line, p.Diagram())
					}
					p = p.Apply(m)
					clock -= 5 * time.Millisecond
					continue
				}
				moves := p.LegalMoves(nil)
				m := moves[r.IntN(len(moves))]
				s.send(judge.OppLine(def.Judge.Coords(p, m), time.Millisecond))
				p = p.Apply(m)
			}
			s.finish()
		}
	}
}

// TestJudgePassAndPosition: with no team piece on the board (set by the arena's POSITION
// line), Nadori's team answers the pass "-1 -1 -1 -1", and the mice's next move is legal.
func TestJudgePassAndPosition(t *testing.T) {
	s := newSession(t, mouseab.New())
	s.send(judge.ReadyLine(1))
	if got := s.read(); got != judge.OK {
		t.Fatalf("READY answered %q", got)
	}
	board := "R.R.R.R.R.R/.R.R.R.R.R./.........../.........../.........../.........../........... N"
	s.send(judge.PositionLine(board))
	s.send(judge.TurnLine(time.Second, time.Second))
	if got := s.read(); got != judge.MoveLine(contract.PassCoords) {
		t.Fatalf("stuck team answered %q", got)
	}
	s.finish()

	// The mice at once after a board set by POSITION.
	s = newSession(t, mousegreedy.New(1))
	s.send(judge.ReadyLine(0))
	s.read()
	s.send(judge.PositionLine("RRRRR.RRRRR/.........../.........../.........../...CC.CC.../.....R...N./........... R"))
	s.send(judge.TurnLine(time.Second, time.Second))
	if got := s.read(); !strings.HasPrefix(got, "MOVE 6 6 7 6") {
		t.Fatalf("the mice missed the win: %q", got)
	}
	s.finish()
}
