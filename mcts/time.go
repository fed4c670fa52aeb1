package mcts

import "time"

// TimeManager turns a whole-game clock into a budget for one move. The budget spreads the
// clock, less a reserve, over the moves we still expect to play (a game-provided estimate),
// so a game that lasts as long as estimated uses most of the clock. When a game runs longer
// than estimated and the clock reaches the reserve, the budget shrinks geometrically into
// the upper half of the reserve; the lower half is never budgeted and pays only for what a
// move costs beyond its search (at 1 ms a move, 250 ms last 250 moves).
//
// Zero fields take DefaultTimeManager's values; use a negative value for an explicit zero.
type TimeManager struct {
	// Reserve is kept back from the planned spending. Default 500ms.
	Reserve time.Duration
	// Overhead is what a move costs beyond its search (reading the judge's line, re-rooting
	// the tree, the clock-check granularity, the reply); it is taken from each planned
	// budget. Default 15ms.
	Overhead time.Duration
	// MaxFraction caps one move at this fraction of the clock left. Default 0.25.
	MaxFraction float64
	// SoftFraction is the share of the spendable half of the reserve, divided by the moves
	// expected, that a move gets once the clock is inside the reserve. Default 0.25.
	SoftFraction float64
}

// DefaultTimeManager returns the documented defaults.
func DefaultTimeManager() TimeManager {
	return TimeManager{
		Reserve:      500 * time.Millisecond,
		Overhead:     15 * time.Millisecond,
		MaxFraction:  0.25,
		SoftFraction: 0.25,
	}
}

// pick is v, def when v is zero, and zero when v is negative (an explicit none).
func pick[T time.Duration | float64](v, def T) T {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return def
	}
	return v
}

// Filled returns tm with its zero fields replaced by the defaults and negative ones by zero.
func (tm TimeManager) Filled() TimeManager {
	d := DefaultTimeManager()
	tm.Reserve = pick(tm.Reserve, d.Reserve)
	tm.Overhead = pick(tm.Overhead, d.Overhead)
	tm.MaxFraction = pick(tm.MaxFraction, d.MaxFraction)
	tm.SoftFraction = pick(tm.SoftFraction, d.SoftFraction)
	return tm
}

// Budget returns the search time for the next move given the clock left and the number of
// own moves expected before the game ends, this one included (values below 1 count as 1).
// It is never negative, below remaining for remaining > 0, non-decreasing in remaining and
// non-increasing in movesLeft.
func (tm TimeManager) Budget(remaining time.Duration, movesLeft int) time.Duration {
	if remaining <= 0 {
		return 0
	}
	tm = tm.Filled()
	n := time.Duration(max(movesLeft, 1))
	// The plan: the clock above the reserve, shared by the moves left.
	b := (remaining-tm.Reserve)/n - tm.Overhead
	if tm.MaxFraction > 0 {
		b = min(b, time.Duration(tm.MaxFraction*float64(remaining)))
	}
	// Inside the reserve: a share of its upper half, decaying geometrically.
	if soft := remaining - tm.Reserve/2; soft > 0 {
		b = max(b, time.Duration(tm.SoftFraction*float64(soft))/n)
	}
	return max(b, 0)
}
