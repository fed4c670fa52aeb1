// Package alphabeta is Colony's classical Bacteria War (Ataxx 7x7) engine: iterative-deepening
// principal-variation search with aspiration windows, a transposition table, killer and
// history move ordering, late-move reductions and a hand-made evaluation, under a time manager
// for the judge's whole-game clock. It is the baseline the neural agent must beat.
package alphabeta

import (
	"time"

	"colony/engine"
	"colony/engine/tt"
	"colony/game/ataxx"
)

// Options configure an Engine. Zero fields take their defaults.
type Options struct {
	HashMB  int      // transposition table size in megabytes (default 64; negative: no table)
	Seed    uint64   // perturbs the order of equal root moves (0: none)
	Depth   int      // fixed maximum depth in plies (0: none; the smaller of this and Limits.Depth)
	Nodes   int64    // node budget per move (0: none; the smaller of this and Limits.Nodes)
	Weights *Weights // evaluation weights (nil: DefaultWeights)
	NoLMR   bool     // disable late-move reductions
}

const (
	defaultHashMB   = 64
	defaultMoveTime = time.Second
	maxPly          = 128
	maxDepth        = 100
)

// Engine is the alpha-beta engine. It plays one game at a time and is not safe for concurrent
// use.
type Engine struct {
	opts    Options
	weights Weights
	tt      tt.Table[ataxx.Move]
	s       *searcher // allocated on the first search

	// Test knobs: exactTT only cuts off on entries of exactly the wanted depth, so a fixed-depth
	// search returns the same score with or without the table.
	exactTT bool

	lastDepth int
	lastScore int32
	lastNodes int64
}

var _ engine.Engine[ataxx.Position, ataxx.Move] = (*Engine)(nil)

// New returns an engine with default options. It allocates no table until the first search.
func New() *Engine { return NewWithOptions(Options{}) }

// NewWithOptions returns an engine with options o. Construction is cheap: the transposition
// table is allocated lazily.
func NewWithOptions(o Options) *Engine {
	if o.HashMB == 0 {
		o.HashMB = defaultHashMB
	}
	e := &Engine{opts: o, weights: DefaultWeights}
	if o.Weights != nil {
		e.weights = *o.Weights
	}
	return e
}

// Name returns "alphabeta".
func (e *Engine) Name() string { return "alphabeta" }

// NewGame clears the transposition table and the move-ordering statistics.
func (e *Engine) NewGame() {
	if e.tt.Allocated() {
		e.tt.Clear()
	}
	if e.s != nil {
		e.s.resetStats()
	}
}

// Stats returns the depth, score (hundredths of a piece, side to move) and node count of the
// last search.
func (e *Engine) Stats() (depth int, score int32, nodes int64) {
	return e.lastDepth, e.lastScore, e.lastNodes
}

// budget turns limits into a soft time (no new iteration once half of it is spent), a hard time
// (abort the search), a depth and a node budget. Zero times mean no such limit.
func (e *Engine) budget(pos *ataxx.Position, lim engine.Limits) (soft, hard time.Duration, depth int, nodes int64) {
	depth, nodes = lim.Depth, lim.Nodes
	if e.opts.Depth > 0 && (depth == 0 || e.opts.Depth < depth) {
		depth = e.opts.Depth
	}
	if e.opts.Nodes > 0 && (nodes == 0 || e.opts.Nodes < nodes) {
		nodes = e.opts.Nodes
	}
	switch {
	case lim.MoveTime > 0:
		// An exact move time is used in full: iterations go on until the hard stop.
		hard = lim.MoveTime - min(lim.MoveTime/10, 5*time.Millisecond)
	case lim.MyTime > 0:
		// The clock above the turn-cap reserve is shared among the moves; under it, a depth-1
		// search answers at once.
		left, ok := engine.Spendable(lim.MyTime, pos.OwnTurnsLeft())
		if !ok {
			return engine.MinMoveCost / 2, engine.MinMoveCost / 2, 1, nodes
		}
		soft, hard = clockBudget(pos, left, lim.MyInc)
	case depth == 0 && nodes == 0:
		hard = defaultMoveTime
		soft = hard
	}
	return
}

// clockBudget budgets one move from the remaining whole-game time: a reserve is kept, the rest
// is shared among the own moves expected to come (about half the empty cells: every division
// fills one), with a hard cap of a few soft budgets and a third of what is left.
func clockBudget(pos *ataxx.Position, myTime, inc time.Duration) (soft, hard time.Duration) {
	reserve := min(myTime/4, 300*time.Millisecond)
	avail := myTime - reserve
	empty := 0
	for b := pos.Empty(); b != 0; b &= b - 1 {
		empty++
	}
	movesLeft := max((empty+2)/2, 3)
	if r := pos.OwnTurnsLeft(); r < movesLeft {
		movesLeft = max(r, 1)
	}
	soft = avail/time.Duration(movesLeft) + inc*3/4
	hard = min(soft*3, avail/3+inc*3/4)
	soft = min(soft, hard)
	if hard < time.Millisecond {
		hard = time.Millisecond
		soft = hard
	}
	return soft, hard
}

// BestMove searches pos within lim and returns the best move found; Pass when the side to move
// is stuck or the game is over.
func (e *Engine) BestMove(pos ataxx.Position, lim engine.Limits) ataxx.Move {
	start := time.Now()
	soft, hard, depth, nodes := e.budget(&pos, lim)
	return e.searcher().run(e, pos, start, soft, hard, depth, nodes)
}

// searcher returns the engine's searcher, allocating it and the table on first use.
func (e *Engine) searcher() *searcher {
	if e.s == nil {
		e.s = newSearcher()
	}
	if !e.tt.Allocated() && e.opts.HashMB > 0 {
		e.tt.Alloc(e.opts.HashMB, ataxx.NoMove)
	}
	return e.s
}

// WinBound: Score and Stats values at or beyond ±WinBound are proven wins and losses.
const WinBound = winBound

// Score returns the value of pos for the side to move (hundredths of a piece; proven wins and
// losses beyond ±12000) by a fixed-depth search: depth 0 is the static evaluation. It is meant
// for many small calls (as a value estimate at the leaves of another search): no clock, no
// iterative deepening, the table shared with BestMove. It does not allocate after the first call.
func (e *Engine) Score(pos *ataxx.Position, depth int) int32 {
	s := e.searcher()
	s.begin(e, time.Time{}, 0, 0)
	return s.search(*pos, max(depth, 0), -infinity, infinity, 0, true)
}
