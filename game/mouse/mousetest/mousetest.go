// Package mousetest holds checks that every Catch The Mouse engine must pass, for the
// engines' own tests: legal moves for both roles in whole games, and a whole game on a short
// clock that never runs out.
package mousetest

import (
	"math/rand/v2"
	"testing"
	"time"

	"colony/contract/contracttest"
	"colony/engine"
	"colony/game/mouse"
)

// Engine is an engine for Catch The Mouse.
type Engine = engine.Engine[mouse.Position, mouse.Move]

// MustDiagram reads a diagram (mouse.ParseDiagram) and fails on an invalid one.
func MustDiagram(t testing.TB, d string, side int) mouse.Position {
	t.Helper()
	p, err := mouse.ParseDiagram(d, side)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Valid() {
		t.Fatalf("invalid diagram\n%s", d)
	}
	return p
}

// LegalInRandomGames lets e play role against random moves in games whole games, asking with
// the limits lim(i) for its i-th move, and fails on an illegal move.
func LegalInRandomGames(t testing.TB, e Engine, games int, lim func(i int) engine.Limits) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(games), 77))
	buf := make([]mouse.Move, 0, mouse.MaxMoves)
	i := 0
	for g := range games {
		role := g % 2
		e.NewGame()
		p := mouse.Start()
		for !p.Terminal() {
			var m mouse.Move
			if p.ToMove() == role {
				m = e.BestMove(p, lim(i))
				i++
				if !p.IsLegal(m) {
					t.Fatalf("%s: illegal move %v in\n%s", e.Name(), m, p.Diagram())
				}
			} else {
				buf = p.LegalMoves(buf)
				m = buf[r.IntN(len(buf))]
			}
			p = p.Apply(m)
		}
	}
}

// ClockedGame plays a whole game between a and b (a plays the mice) from start, each with
// clock on a whole-game clock, charging every move its search time plus pipe for the judge's
// pipes, and fails if a move is illegal or a clock runs out. It returns the finished position
// and the time left to each side.
//
// The search time charged is the CPU time of the thread that searched (Linux), the time the
// move would take on an idle core like the judge's: on a loaded test machine the wall time
// also counts the waits for a core, which no clock split can foresee (the engines stop on
// wall time, so a wait only makes them stop early). Elsewhere it is the wall time.
func ClockedGame(t testing.TB, a, b Engine, start mouse.Position, clock, pipe time.Duration) (mouse.Position, [2]time.Duration) {
	t.Helper()
	seats := [2]Engine{a, b}
	left := [2]time.Duration{clock, clock}
	a.NewGame()
	b.NewGame()
	p := start
	for !p.Terminal() {
		s := p.ToMove()
		t0 := time.Now()
		var m mouse.Move
		cpu, ok := threadTime(func() { m = seats[s].BestMove(p, engine.Limits{MyTime: left[s], OppTime: left[1-s]}) })
		if !ok {
			cpu = time.Since(t0)
		}
		left[s] -= cpu + pipe
		if !p.IsLegal(m) {
			t.Fatalf("%s: illegal move %v in\n%s", seats[s].Name(), m, p.Diagram())
		}
		if left[s] <= 0 {
			t.Fatalf("%s (%s) ran out of time in\n%s", seats[s].Name(), mouse.Info.PlayerNames[s], p.Diagram())
		}
		p = p.Apply(m)
	}
	return p, left
}

// WinsWithin reports whether player me can force a win from p within plies plies (plain
// exhaustive minimax, independent of any engine: contracttest.WinsWithin).
func WinsWithin(p mouse.Position, plies int, me int) bool {
	return contracttest.WinsWithin(p, plies, me)
}

// WinCase is a position where the side to move forces a win in Plies plies and not faster.
type WinCase struct {
	Name    string
	Diagram string
	Side    int
	Plies   int
}

// WinCases are hand-made race positions for both roles.
var WinCases = []WinCase{
	{"mice: a mouse on row 6 steps home", `
		R R R R . . R R R R .
		. . . . . . . . . . .
		. . . . R . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . C . C . C N . R
		. . . . . . . . . . .`, mouse.Mice, 1},
	{"mice: the mouse Nadori cannot reach", `
		R . R R . . R R R R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. R . . . R . . . . .
		C . C . . C . C . N .
		. . . . . . . . . . .`, mouse.Mice, 3},
	{"mice: two threats, one cat", `
		. R R R R R R R R . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		R . . . . . . . . . R
		. . . . . . . . . . .
		. . . . . C . . . . .
		. . . . . . . . . . .`, mouse.Mice, 7},
	{"team: Nadori takes the last mouse", `
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . R N . . . .
		. . C . . . . . . . .
		. . . . C C . . C . .
		. . . . . . . . . . .`, mouse.Team, 1},
	{"team: block the last moving mouse", `
		. . . . . . . . . . .
		. . . R . . . . . . .
		. . . C . . . . R . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. C . . . . N . . . C
		. . . . . . . . . . .`, mouse.Team, 1},
	{"team: take the runner, then the mice are stuck", `
		. . . . . . . . . . .
		. . R . . . . . . . .
		. . C . . . . . . . .
		. . . . . . . . . . .
		. . . . . . R . . . .
		. . . . . N . . . . .
		. . . . . . . . . . .`, mouse.Team, 1},
	{"team: block the runner and eat it", `
		. . . . . . . . . . .
		. . . R . . . . . . .
		. . . C . . . . . . .
		. . . . . . . R . . .
		. . . . . . . . . . .
		. . . . . N . . . . .
		. . . . . . . . . . .`, mouse.Team, 3},
}
