package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"colony/engine"
	"colony/engine/greedy"
	"colony/engine/random"
	"colony/game/ataxx"
)

// played is one move the agent printed, with the position it was chosen in.
type played struct {
	before ataxx.Position
	m      ataxx.Move
}

func randomFactory(seed uint64) func() (AtaxxEngine, error) {
	return func() (AtaxxEngine, error) { return random.New(seed), nil }
}

func greedyFactory(seed uint64) func() (AtaxxEngine, error) {
	return func() (AtaxxEngine, error) { return greedy.New(seed), nil }
}

// judgeOnString runs a judge session over input and returns what it printed and played.
func judgeOnString(t testing.TB, input string, factory func() (AtaxxEngine, error)) (string, []played, *judgeSession) {
	t.Helper()
	var out, log bytes.Buffer
	s := newJudgeSession(strings.NewReader(input), &out, &log, factory, 1)
	var moves []played
	s.trace = func(before ataxx.Position, m ataxx.Move) { moves = append(moves, played{before, m}) }
	if err := s.run(); err != nil {
		t.Fatalf("session failed: %v\nlog:\n%s", err, log.String())
	}
	return out.String(), moves, s
}

// checkPlayed asserts that m is a legal move of before, or a pass where before has no move.
func checkPlayed(t testing.TB, p played) {
	t.Helper()
	if p.before.IsLegal(p.m) {
		return
	}
	if p.m == ataxx.Pass && p.before.Terminal() {
		return
	}
	t.Fatalf("agent played %v, illegal in\n%s", p.m, p.before.Diagram())
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

// fakeEngine records what it is asked and answers with answer (or the first legal move).
type fakeEngine struct {
	lims     []engine.Limits
	newGames int
	answer   func(p ataxx.Position) ataxx.Move
}

func (e *fakeEngine) Name() string { return "fake" }
func (e *fakeEngine) NewGame()     { e.newGames++ }
func (e *fakeEngine) BestMove(p ataxx.Position, lim engine.Limits) ataxx.Move {
	e.lims = append(e.lims, lim)
	if e.answer != nil {
		return e.answer(p)
	}
	return p.LegalMoves(nil)[0]
}
