// Engine checks that every Bacteria War engine must pass, for the engines' own tests.
package ataxxtest

import (
	"fmt"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
	"colony/internal/cputime"
)

// ShuffleBoard has two empty cells; both sides may jump back and forth on it until the
// 400-turn cap (game 30 of an arena match, which the mcts agent lost on time when the clock
// split ignored the cap). O is to move at even turns.
const ShuffleBoard = "XOXXXXX/XOOXXXX/OOOOXXX/OOOOOXX/.OOOOX./OOOOXXX/OOOOXXX O"

// ShuffleToTheTurnCap asks e for O's moves on ShuffleBoard from turn 160 to the cap with 500
// ms on the clock, charging every move its search time plus 0.5 ms for the pipe, and fails if
// the clock runs out or a move is illegal. It returns the time left at the cap.
func ShuffleToTheTurnCap(t testing.TB, e engine.Engine[ataxx.Position, ataxx.Move]) time.Duration {
	t.Helper()
	left := 500 * time.Millisecond
	moves := 0
	e.NewGame()
	for turn := 160; turn < ataxx.MaxTurns; turn += 2 {
		p, err := ataxx.ParseBoard(fmt.Sprintf("%s %d", ShuffleBoard, turn))
		if err != nil {
			t.Fatal(err)
		}
		// A move costs its wall time, or the process's CPU time when that is less: on a
		// loaded machine the wall clock also counts the time other programs ran, which the
		// engine did not spend (a search on threads of its own still pays for all of them).
		start, c0 := time.Now(), cputime.Process()
		m := e.BestMove(p, engine.Limits{MyTime: left, OppTime: left})
		left -= min(time.Since(start), cputime.Process()-c0) + 500*time.Microsecond
		if !p.IsLegal(m) {
			t.Fatalf("%s, turn %d: illegal move %v", e.Name(), turn, m)
		}
		if left <= 0 {
			t.Fatalf("%s: out of time at turn %d after %d moves", e.Name(), turn, moves)
		}
		moves++
	}
	t.Logf("%s: %d moves to the cap, %v left of 500ms", e.Name(), moves, left)
	return left
}
