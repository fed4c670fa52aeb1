// Package ataxxab is Colony's classical Bacteria War (Ataxx 7x7) engine: iterative-deepening
// principal-variation search with aspiration windows, a transposition table, killer and
// history move ordering, late-move reductions and a hand-made evaluation, under a time manager
// for the judge's whole-game clock. It is the baseline the neural agent must beat.
package ataxxab

import (
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
)

// Options configure an Engine: the search's (engine/alphabeta; HashMB 0 means 64 MB) and the
// evaluation weights. Zero fields take their defaults.
type Options struct {
	ab.Options
	Weights *Weights // evaluation weights (nil: DefaultWeights)
}

const defaultHashMB = 64

// config is Bacteria War's search configuration (abrules).
var config = abrules.SearchConfig()

// Engine is the alpha-beta engine. It plays one game at a time and is not safe for concurrent
// use.
type Engine struct {
	weights Weights
	ab      *ab.Engine[ataxx.Position, ataxx.Move, *hooks]
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
	e := &Engine{weights: DefaultWeights}
	if o.Weights != nil {
		e.weights = *o.Weights
	}
	e.ab = ab.New(config, o.Options, &hooks{w: &e.weights})
	return e
}

// Name returns "alphabeta".
func (e *Engine) Name() string { return "alphabeta" }

// SetInfo has f called after each finished iteration of a move's search (UAI's info lines).
func (e *Engine) SetInfo(f func(engine.Iteration[ataxx.Move])) { e.ab.Info = f }

// NewGame clears the transposition table and the move-ordering statistics.
func (e *Engine) NewGame() { e.ab.NewGame() }

// Stats returns the depth, score (hundredths of a piece, side to move) and node count of the
// last search.
func (e *Engine) Stats() (depth int, score int32, nodes int64) { return e.ab.Stats() }

// Report is the last search's account for the agent's log (engine.Report).
func (e *Engine) Report() (engine.Report, bool) { return e.ab.Report() }

// clockBudget budgets one move from the spendable whole-game time: a reserve is kept, the rest
// is shared among the expected own moves, with a hard cap of a few soft budgets and a third of
// what is left.
func clockBudget(pos *ataxx.Position, myTime, inc time.Duration) (soft, hard time.Duration) {
	return ab.ClockSplit(ab.WithDefaults(config).Time, myTime, inc, abrules.ExpectedMoves(pos))
}

// BestMove searches pos within lim and returns the best move found; Pass when the side to move
// is stuck or the game is over.
func (e *Engine) BestMove(pos ataxx.Position, lim engine.Limits) ataxx.Move {
	// The clock above the turn-cap reserve is shared among the moves.
	b := e.ab.Budget(lim, pos.OwnTurnsLeft(), abrules.ExpectedMoves(&pos))
	b.SoftNodes = 0
	if m := e.ab.Search(pos, b, nil); m != ataxx.NoMove {
		return m
	}
	return ataxx.Pass
}

// Score returns the value of pos for the side to move (hundredths of a piece; proven wins and
// losses beyond ±12000) by a fixed-depth search: depth 0 is the static evaluation. It is meant
// for many small calls (as a value estimate at the leaves of another search): no clock, no
// iterative deepening, the table shared with BestMove. It does not allocate after the first call.
func (e *Engine) Score(pos *ataxx.Position, depth int) int32 { return e.ab.Score(*pos, depth) }
