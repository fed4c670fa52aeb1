package mctsengine

import (
	"fmt"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// TestShuffleToTheTurnCap: a board with two empty cells where both sides may jump back and
// forth until the 400-turn cap (game 30 of an arena match, which the mcts agent lost on time
// with the old clock split). From turn 160 with 500 ms left and every move charged 0.5 ms on
// top of its search (the pipe), the engine must reach the cap with time left.
func TestShuffleToTheTurnCap(t *testing.T) {
	const board = "XOXXXXX/XOOXXXX/OOOOXXX/OOOOOXX/.OOOOX./OOOOXXX/OOOOXXX O"
	e := New(NewRollout(7, 0), Options{Seed: 7})
	left := 500 * time.Millisecond
	moves := 0
	for turn := 160; turn < ataxx.MaxTurns; turn += 2 {
		p, err := ataxx.ParseBoard(fmt.Sprintf("%s %d", board, turn))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		m := e.BestMove(p, engine.Limits{MyTime: left, OppTime: left})
		left -= time.Since(start) + 500*time.Microsecond
		if !p.IsLegal(m) {
			t.Fatalf("turn %d: illegal move %v", turn, m)
		}
		if left <= 0 {
			t.Fatalf("out of time at turn %d after %d moves", turn, moves)
		}
		moves++
	}
	t.Logf("%d moves to the cap, %v left of 500ms", moves, left)
}
