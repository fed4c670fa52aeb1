package mcts

import (
	"testing"
	"time"
)

func TestBudgetBasics(t *testing.T) {
	var tm TimeManager // zero value: the defaults
	if b := tm.Budget(0, 10); b != 0 {
		t.Errorf("no time left: budget %v", b)
	}
	if b := tm.Budget(-time.Second, 10); b != 0 {
		t.Errorf("negative clock: budget %v", b)
	}
	// 10 s, 25 moves expected: (10s - 0.5s)/25 - 15ms = 365ms.
	if b, want := tm.Budget(10*time.Second, 25), 365*time.Millisecond; b != want {
		t.Errorf("Budget(10s, 25) = %v, want %v", b, want)
	}
	// The last expected move may not take the whole clock.
	if b := tm.Budget(10*time.Second, 1); b != 2500*time.Millisecond {
		t.Errorf("Budget(10s, 1) = %v, want MaxFraction 0.25 of the clock", b)
	}
	// movesLeft below 1 counts as 1.
	if tm.Budget(time.Second, 0) != tm.Budget(time.Second, 1) || tm.Budget(time.Second, -3) != tm.Budget(time.Second, 1) {
		t.Error("movesLeft <= 0 is not treated as 1")
	}
	// Inside the reserve: a quarter of the spendable half of it, shared by the moves left.
	if b, want := tm.Budget(450*time.Millisecond, 10), 5*time.Millisecond; b != want {
		t.Errorf("Budget(450ms, 10) = %v, want %v", b, want)
	}
	// Inside the lower half of the reserve nothing is budgeted.
	if b := tm.Budget(200*time.Millisecond, 1); b != 0 {
		t.Errorf("Budget(200ms, 1) = %v, want 0", b)
	}
	// Explicit zeros through negative fields.
	exact := TimeManager{Reserve: -1, Overhead: -1, MaxFraction: -1, SoftFraction: -1}
	if b := exact.Budget(10*time.Second, 10); b != time.Second {
		t.Errorf("no reserve, no overhead: Budget(10s, 10) = %v, want 1s", b)
	}
}

func TestBudgetBounds(t *testing.T) {
	var tm TimeManager
	prev := time.Duration(0)
	for r := time.Millisecond; r <= 20*time.Second; r = r*11/10 + time.Microsecond {
		b := tm.Budget(r, 20)
		if b < 0 || (b >= r && b > 0) {
			t.Fatalf("Budget(%v, 20) = %v outside [0, remaining)", r, b)
		}
		if b < prev {
			t.Fatalf("Budget(%v, 20) = %v < %v for less time", r, b, prev)
		}
		prev = b
		for n := 1; n < 200; n++ {
			if tm.Budget(r, n+1) > tm.Budget(r, n) {
				t.Fatalf("Budget(%v, %d) > Budget(%v, %d)", r, n+1, r, n)
			}
		}
	}
}

// simulate plays a game of moves own moves on a clock: each move spends its budget plus
// extra (the time the search overshoots and the I/O). estimate gives the moves-left estimate
// before move i. It returns the clock used, or fails on a loss on time.
func simulate(t *testing.T, clock time.Duration, moves int, estimate func(i int) int, extra time.Duration) time.Duration {
	t.Helper()
	var tm TimeManager
	left := clock
	for i := range moves {
		left -= tm.Budget(left, estimate(i)) + extra
		if left <= 0 {
			t.Fatalf("lost on time at move %d of %d", i+1, moves)
		}
	}
	return clock - left
}

func TestBudgetUsesMostOfTheClock(t *testing.T) {
	const clock = 10 * time.Second
	for _, moves := range []int{10, 25, 40, 60} {
		used := simulate(t, clock, moves, func(i int) int { return moves - i }, 2*time.Millisecond)
		if used < 7*time.Second {
			t.Errorf("%d moves, exact estimate: used %v of %v", moves, used, clock)
		}
	}
}

func TestBudgetNeverLosesOnTime(t *testing.T) {
	const clock = 10 * time.Second
	for _, moves := range []int{25, 100, 200} {
		// Games much longer than estimated (the estimate is half the truth, or stuck at 3, or
		// at 1) with 1ms a move beyond the budget: a Bacteria War player has at most 200 moves.
		simulate(t, clock, moves, func(i int) int { return (moves - i) / 2 }, time.Millisecond)
		simulate(t, clock, moves, func(int) int { return 3 }, time.Millisecond)
		simulate(t, clock, moves, func(int) int { return 1 }, time.Millisecond)
		// With an exact estimate, overshooting each budget by the whole default Overhead.
		simulate(t, clock, moves, func(i int) int { return moves - i }, 15*time.Millisecond)
	}
}
