// Package alphabeta is Colony's classical Catch The Mouse engine, for either side:
// iterative-deepening principal-variation search with a transposition table, killer and
// history move ordering, mild late-move reductions for the team's quiet moves, an extension
// when a mouse stands on row 6, and an evaluation that understands the race to row 7 (see
// eval.go), under a time manager for the judge's whole-game clock. It is the baseline the
// neural agent must beat.
package alphabeta

import (
	"time"

	"colony/engine"
	"colony/game/mouse"
)

// Options configure an Engine. Zero fields take their defaults.
type Options struct {
	HashMB int    // transposition table size in megabytes (default 32; negative: no table)
	Seed   uint64 // perturbs the order of equal root moves (0: none)
	Depth  int    // fixed maximum depth in plies (0: none; the smaller of this and Limits.Depth)
	Nodes  int64  // node budget per move (0: none; the smaller of this and Limits.Nodes)
}

const (
	defaultHashMB   = 32
	defaultMoveTime = time.Second
	maxPly          = 160
	maxDepth        = 120
)

// Engine is the alpha-beta engine. It plays one game at a time and is not safe for concurrent
// use.
type Engine struct {
	opts Options
	tt   table
	s    *searcher // allocated on the first search

	lastDepth int
	lastScore int32
	lastNodes int64
}

var _ engine.Engine[mouse.Position, mouse.Move] = (*Engine)(nil)

// New returns an engine with default options.
func New() *Engine { return NewWithOptions(Options{}) }

// NewWithOptions returns an engine with options o. Construction is cheap: the transposition
// table is allocated on the first search.
func NewWithOptions(o Options) *Engine {
	if o.HashMB == 0 {
		o.HashMB = defaultHashMB
	}
	return &Engine{opts: o}
}

// Name returns "alphabeta".
func (e *Engine) Name() string { return "alphabeta" }

// NewGame clears the transposition table and the move-ordering statistics.
func (e *Engine) NewGame() {
	if e.tt.entries != nil {
		e.tt.clear()
	}
	if e.s != nil {
		e.s.resetStats()
	}
}

// Stats returns the depth, score (hundredths of a mouse, side to move; beyond ±WinBound a
// proven result) and node count of the last search.
func (e *Engine) Stats() (depth int, score int32, nodes int64) {
	return e.lastDepth, e.lastScore, e.lastNodes
}

// WinBound: Stats scores at or beyond ±WinBound are proven wins and losses.
const WinBound = winBound

// budget turns limits into a soft time (no new iteration once half of it is spent), a hard time
// (abort the search), a depth and a node budget. Zero times mean no such limit.
func (e *Engine) budget(pos *mouse.Position, lim engine.Limits) (soft, hard time.Duration, depth int, nodes int64) {
	depth, nodes = lim.Depth, lim.Nodes
	if e.opts.Depth > 0 && (depth == 0 || e.opts.Depth < depth) {
		depth = e.opts.Depth
	}
	if e.opts.Nodes > 0 && (nodes == 0 || e.opts.Nodes < nodes) {
		nodes = e.opts.Nodes
	}
	switch {
	case lim.MoveTime > 0:
		hard = lim.MoveTime - min(lim.MoveTime/10, 5*time.Millisecond)
	case lim.MyTime > 0:
		// The game has no turn cap, but it cannot last longer than the mouse steps left: hold
		// back engine.MinMoveCost for each of them, and answer at once below that.
		left, ok := engine.Spendable(lim.MyTime, pos.MouseStepsLeft()+1)
		if !ok {
			return engine.MinMoveCost / 2, engine.MinMoveCost / 2, 1, nodes
		}
		soft, hard = ClockBudget(pos, left, lim.MyInc)
	case depth == 0 && nodes == 0:
		hard = defaultMoveTime
		soft = hard
	}
	return
}

// ClockBudget budgets one move from the spendable whole-game time: a reserve is kept, the
// rest is shared among the own moves expected to come (mouse.Position.MovesLeft), with a hard
// cap of three soft budgets and a third of what is left.
func ClockBudget(pos *mouse.Position, myTime, inc time.Duration) (soft, hard time.Duration) {
	reserve := min(myTime/5, 300*time.Millisecond)
	avail := myTime - reserve
	movesLeft := max(pos.MovesLeft(), 1)
	soft = avail/time.Duration(movesLeft) + inc*3/4
	hard = min(soft*3, avail/3+inc*3/4)
	soft = min(soft, hard)
	if hard < time.Millisecond {
		hard = time.Millisecond
		soft = hard
	}
	return soft, hard
}

// BestMove searches pos within lim and returns the best move found (mouse.Pass when the team
// is stuck; mouse.NoMove only in a finished game).
func (e *Engine) BestMove(pos mouse.Position, lim engine.Limits) mouse.Move {
	start := time.Now()
	soft, hard, depth, nodes := e.budget(&pos, lim)
	return e.searcher().run(e, pos, start, soft, hard, depth, nodes)
}

// searcher returns the engine's searcher, allocating it and the table on first use.
func (e *Engine) searcher() *searcher {
	if e.s == nil {
		e.s = newSearcher()
	}
	if e.tt.entries == nil && e.opts.HashMB > 0 {
		e.tt.alloc(e.opts.HashMB)
	}
	return e.s
}

// Score returns the value of pos for the side to move (hundredths of a mouse; proven results
// beyond ±WinBound) by a fixed-depth search: depth 0 is the static evaluation.
func (e *Engine) Score(pos *mouse.Position, depth int) int32 {
	s := e.searcher()
	s.begin(e, time.Time{}, 0, 0)
	s.miceRole = pos.ToMove() == mouse.Mice
	return s.search(*pos, max(depth, 0), -infinity, infinity, 0, true)
}
