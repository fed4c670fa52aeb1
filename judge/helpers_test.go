package judge

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"colony/contract"
	"colony/engine"
	"colony/engine/random"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxgreedy"
	"colony/game/ataxx/ataxxtest"
)

// Shared with the UAI tests.
type (
	played     = ataxxtest.Played
	fakeEngine = ataxxtest.FakeEngine
)

var (
	checkPlayed   = ataxxtest.CheckPlayed
	greedyFactory = ataxxtest.GreedyFactory
	diagramPos    = ataxxtest.DiagramPos
)

func randomFactory(seed uint64) func() (bwEngine, error) {
	return func() (bwEngine, error) { return random.New[ataxx.Position, ataxx.Move](seed), nil }
}

// judgeOnString runs a judge session over input and returns what it printed and played.
func judgeOnString(t testing.TB, input string, factory func() (bwEngine, error)) (string, []played, *Session[ataxx.Position, ataxx.Move]) {
	t.Helper()
	var out, log bytes.Buffer
	s := newBW(strings.NewReader(input), &out, &log, factory)
	var moves []played
	s.Trace = func(before ataxx.Position, m ataxx.Move, c contract.Coords) {
		m = passIf(c, m)
		moves = append(moves, played{Before: before, M: m})
	}
	if err := s.Run(); err != nil {
		t.Fatalf("session failed: %v\nlog:\n%s", err, log.String())
	}
	return out.String(), moves, s
}

// parseMoveLine reads "MOVE r1 c1 r2 c2" strictly (single spaces, no extra words).
func parseMoveLine(line string) (r1, c1, r2, c2 int, err error) {
	var rest string
	n, _ := fmt.Sscanf(line, "MOVE %d %d %d %d%s", &r1, &c1, &r2, &c2, &rest)
	if n != 4 || fmt.Sprintf("MOVE %d %d %d %d", r1, c1, r2, c2) != line {
		return 0, 0, 0, 0, fmt.Errorf("malformed move line %q", line)
	}
	return r1, c1, r2, c2, nil
}

// The tests play Bacteria War.
type bwEngine = engine.Engine[ataxx.Position, ataxx.Move]

var bwDef = ataxx.Def()

func newBW(r io.Reader, w, log io.Writer, factory func() (bwEngine, error)) *Session[ataxx.Position, ataxx.Move] {
	s, err := NewSession(bwDef, r, w, log, factory, bwEngine(ataxxgreedy.New(0xFA11BAC4)))
	if err != nil {
		panic(err)
	}
	return s
}

func serveBW(r io.Reader, w, log io.Writer, factory func() (bwEngine, error)) error {
	return newBW(r, w, log, factory).Run()
}

// passIf is ataxx.Pass where the session printed a pass (in a finished game it has no move
// of the game to trace), else m.
func passIf(c contract.Coords, m ataxx.Move) ataxx.Move {
	if c == contract.PassCoords {
		return ataxx.Pass
	}
	return m
}
