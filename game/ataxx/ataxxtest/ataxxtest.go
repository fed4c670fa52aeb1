// Package ataxxtest holds helpers for the tests of Bacteria War engines and protocol sessions (judge,
// UAI): recorded moves, their legality check, a scripted engine and diagram positions.
package ataxxtest

import (
	"testing"

	"colony/engine"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxgreedy"
)

// Engine is an engine for Bacteria War.
type Engine = engine.Engine[ataxx.Position, ataxx.Move]

// Played is one move a session printed, with the position it was chosen in.
type Played struct {
	Before ataxx.Position
	M      ataxx.Move
}

// CheckPlayed asserts that p.M is a legal move of p.Before, or a pass where it has no move.
func CheckPlayed(t testing.TB, p Played) {
	t.Helper()
	if p.Before.IsLegal(p.M) {
		return
	}
	if p.M == ataxx.Pass && p.Before.Terminal() {
		return
	}
	t.Fatalf("agent played %v, illegal in\n%s", p.M, p.Before.Diagram())
}

// GreedyFactory builds greedy engines.
func GreedyFactory(seed uint64) func() (Engine, error) {
	return func() (Engine, error) { return ataxxgreedy.New(seed), nil }
}

// FakeEngine records what it is asked and answers with Answer (or the first legal move).
type FakeEngine struct {
	Lims     []engine.Limits
	NewGames int
	Answer   func(p ataxx.Position) ataxx.Move
}

func (e *FakeEngine) Name() string { return "fake" }
func (e *FakeEngine) NewGame()     { e.NewGames++ }
func (e *FakeEngine) BestMove(p ataxx.Position, lim engine.Limits) ataxx.Move {
	e.Lims = append(e.Lims, lim)
	if e.Answer != nil {
		return e.Answer(p)
	}
	return p.LegalMoves(nil)[0]
}

// DiagramPos reads a diagram (ataxx.ParseDiagram) with side to move after turns turns.
func DiagramPos(t testing.TB, d string, side, turns int) ataxx.Position {
	t.Helper()
	p, err := ataxx.ParseDiagram(d, side)
	if err != nil {
		t.Fatal(err)
	}
	return ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), side, turns)
}

// SamePieces reports whether a and b have the same pieces and side to move.
func SamePieces(a, b ataxx.Position) bool {
	return a.Pieces(ataxx.O) == b.Pieces(ataxx.O) && a.Pieces(ataxx.X) == b.Pieces(ataxx.X) && a.ToMove() == b.ToMove()
}
