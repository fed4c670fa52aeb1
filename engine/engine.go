// Package engine holds what every game-playing engine of the agent binary shares: the limits
// a search gets for one move.
package engine

import (
	"fmt"
	"strings"
	"time"
)

// Limits tells a search how much it may think for one move. Zero fields are unset.
type Limits struct {
	MyTime, OppTime time.Duration // remaining whole-game clocks
	MyInc, OppInc   time.Duration // increments per move (UAI only; the judge has none)
	MoveTime        time.Duration // exact time for this move
	Nodes           int64         // node/playout budget (hard: the search stops there)
	SoftNodes       int64         // no new iteration once this many nodes are spent (engines that deepen; 0: none)
	Depth           int           // depth budget
	// NodeClock (0: none) is a node clock: the nodes left of the mover's whole-game budget,
	// spent by the time manager as it spends a wall clock (engine.TimeManager). It replaces
	// MyTime for the engines that have one; the wall clock still bounds the move.
	NodeClock int64
}

// Infinite reports whether no limit at all is set.
func (l Limits) Infinite() bool {
	return l.MyTime == 0 && l.MoveTime == 0 && l.Nodes == 0 && l.Depth == 0 && l.NodeClock == 0
}

// Engine plays one game at a time. P is the game's position type and M its move type.
type Engine[P any, M any] interface {
	// Name is the engine's name as given to -engine.
	Name() string
	// NewGame forgets everything about the previous game.
	NewGame()
	// BestMove returns a legal move for pos (pos is not terminal). It must return within the
	// limits; with a whole-game clock it budgets its own time and keeps a reserve.
	BestMove(pos P, lim Limits) M
}

// MinMoveCost is the least a move is taken to cost on the judge's clock, however short the
// search: the referee measures from writing TURN to reading MOVE, so process wake-ups and
// pipes count (measured here: 0.5-1.5 ms per move on a loaded 2-core machine).
const MinMoveCost = 2 * time.Millisecond

// CapReserve is the clock to hold back for the ownMovesLeft moves that may still come before
// a turn cap: a game where both sides shuffle pieces without filling cells (jumps) can go on
// to the cap whatever the board says, and each of those moves costs at least MinMoveCost.
func CapReserve(ownMovesLeft int) time.Duration {
	return time.Duration(max(ownMovesLeft, 0)) * MinMoveCost
}

// Spendable is the part of a whole-game clock that a move may plan with: myTime less the
// CapReserve of the ownMovesLeft moves that may still come. ok is false when that is under two
// MinMoveCosts: the move should then answer at once with the cheapest search it has.
func Spendable(myTime time.Duration, ownMovesLeft int) (left time.Duration, ok bool) {
	left = myTime - CapReserve(ownMovesLeft)
	return left, left >= 2*MinMoveCost
}

// Report is a search's account of the move it just chose, from the mover's side: what the
// agent writes on its log for the referee's game records (judge.InfoLine). An alpha-beta
// search gives Score (in its evaluation's units, hundredths of a piece) and a Proven result
// beyond its win bound; a tree search gives Value, its expected result in [-1, 1].
type Report struct {
	Score  int32
	Value  float64
	HasAB  bool // Score is set (an alpha-beta search); else Value is
	Proven int  // 1: a proven win for the mover, -1: a proven loss, 0: neither
	Depth  int  // plies searched (a tree search: the deepest leaf)
	Nodes  int64
	Visits int // a tree search's root visits
}

// ReportOf is e's account of its last move, when e gives one (an engine with a method
// Report() (Report, bool): the alpha-beta searches, mcts, and the wrappers around them).
func ReportOf(e any) (Report, bool) {
	if r, ok := e.(interface{ Report() (Report, bool) }); ok {
		return r.Report()
	}
	return Report{}, false
}

// Iteration is one finished iteration of a deepening search, for a protocol's info lines:
// its depth, the deepest ply it reached, its score (the searcher's units, side to move), the
// nodes and time spent on the move so far and the principal variation (valid only during the
// call that hands it over).
type Iteration[M any] struct {
	Depth, SelDepth int
	Score           int32
	Nodes           int64
	Elapsed         time.Duration
	PV              []M
}

// Line is it as a UAI info line: "info depth D seldepth S score cp X nodes N nps R time T pv
// M...", the moves written by notation.
func (it Iteration[M]) Line(notation func(M) string) string {
	ms := it.Elapsed.Milliseconds()
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d score cp %d nodes %d nps %d time %d", it.Depth, it.SelDepth, it.Score,
		it.Nodes, it.Nodes*1000/max(ms, 1), ms)
	if len(it.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range it.PV {
			b.WriteString(" " + notation(m))
		}
	}
	return b.String()
}
