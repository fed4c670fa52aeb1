// Package mctsengine is the "mcts" engine of every game: a PUCT search (package mcts) over an
// evaluator given by the caller (random rollouts, or the network of package nn), with the
// tree kept from move to move and a whole-game clock spread over the game. What it needs to
// know about the game (how many moves are left, the turn cap) it is told through Options.
package mctsengine

import (
	"time"

	"colony/engine"
	"colony/mcts"
)

// DefaultPlayouts is the per-move playout budget when the limits set no time and no nodes.
const DefaultPlayouts = 1000

// Options configures an Engine. Zero fields take the defaults.
type Options[P, M any] struct {
	// Playouts is the per-move budget when the limits set neither a clock, a move time nor
	// nodes. Default DefaultPlayouts.
	Playouts int
	// MaxPlayouts caps the playouts of every move, whatever the limits (0: no cap).
	MaxPlayouts int
	// Search is the search configuration; nil means mcts.DefaultConfig(). The fields below
	// override it when they are non-zero.
	Search *mcts.Config
	// BatchSize is the most leaves per evaluator call (mcts.Config.BatchSize).
	BatchSize int
	// CPuct is the exploration constant (mcts.Config.CPuct).
	CPuct float32
	// Seed seeds the search's generator (mcts.Config.Seed).
	Seed uint64
	// Temperature picks moves in proportion to visits^(1/T) (mcts.Config.Temperature).
	Temperature float32
	// MaxNodes caps the node arena (mcts.Config.MaxNodes).
	MaxNodes int
	// Time spreads a whole-game clock over the moves; zero fields take
	// mcts.DefaultTimeManager's values.
	Time mcts.TimeManager
	// MovesLeft is the number of shares the remaining clock is split into at p (the game's
	// estimate of the mover's moves still to play; nil: 30).
	MovesLeft func(p P) int
	// CapLeft is the number of moves the mover may still have to make before the game's turn
	// cap: each holds engine.MinMoveCost of the clock back (nil: no cap).
	CapLeft func(p P) int
	// Prover, when set, gets ProverShare of every move's budget before the search: a forced
	// win it finds is played at once, and the root moves it proves to lose are left out of
	// the search.
	Prover engine.Prover[P, M]
	// ProverShare is the prover's part of a move's time (default 0.3); with a playout budget
	// instead of a clock it gets ProverNodes nodes per playout (default 100).
	ProverShare float64
	ProverNodes int64
}

// Engine is the "mcts" engine. It satisfies engine.Engine[P, M]. It is not safe for
// concurrent use.
type Engine[P mcts.Position[P, M], M comparable] struct {
	opts  Options[P, M]
	s     *mcts.Searcher[P, M]
	moves []M
	veto  []M
	last  mcts.Result[M]
	err   error
}

// New returns an engine searching with eval. It panics on an invalid search configuration.
func New[P mcts.Position[P, M], M comparable](eval mcts.Evaluator[P, M], opts Options[P, M]) *Engine[P, M] {
	cfg := mcts.DefaultConfig()
	if opts.Search != nil {
		cfg = *opts.Search
	}
	if opts.BatchSize > 0 {
		cfg.BatchSize = opts.BatchSize
	}
	if opts.CPuct > 0 {
		cfg.CPuct = opts.CPuct
	}
	if opts.Seed != 0 {
		cfg.Seed = opts.Seed
	}
	if opts.Temperature > 0 {
		cfg.Temperature = opts.Temperature
	}
	if opts.MaxNodes > 0 {
		cfg.MaxNodes = opts.MaxNodes
	}
	if opts.Playouts <= 0 {
		opts.Playouts = DefaultPlayouts
	}
	if opts.MovesLeft == nil {
		opts.MovesLeft = func(P) int { return 30 }
	}
	if opts.CapLeft == nil {
		opts.CapLeft = func(P) int { return 0 }
	}
	if opts.ProverShare <= 0 {
		opts.ProverShare = 0.3
	}
	if opts.ProverNodes <= 0 {
		opts.ProverNodes = 100
	}
	return &Engine[P, M]{opts: opts, s: mcts.New(cfg, eval)}
}

// NewRollout returns a random-rollout evaluator: rollouts stop after maxPlies (<= 0: 80) and
// score the position reached by heuristic.
func NewRollout[P mcts.Position[P, M], M comparable](seed uint64, maxPlies int, heuristic func(P) mcts.Values) *mcts.Rollout[P, M] {
	if maxPlies <= 0 {
		maxPlies = 80
	}
	return mcts.NewRollout[P, M](seed, maxPlies, heuristic)
}

// Name returns "mcts".
func (e *Engine[P, M]) Name() string { return "mcts" }

// NewGame drops the tree (and the prover's table).
func (e *Engine[P, M]) NewGame() {
	e.s.Reset()
	e.err = nil
	if e.opts.Prover != nil {
		e.opts.Prover.NewGame()
	}
}

// BestMove searches p within lim and returns the most visited move (or one drawn by the
// temperature). A single legal move is returned at once. lim.MoveTime is a time per move,
// lim.MyTime a whole-game clock spread by the time manager, lim.Nodes caps the playouts;
// lim.Depth is ignored. On an evaluator error it returns the first legal move and keeps the
// error for Err (the agent then asks its fallback engine). A finished game gets the zero
// move.
func (e *Engine[P, M]) BestMove(p P, lim engine.Limits) M {
	e.moves = p.LegalMoves(e.moves[:0])
	if len(e.moves) == 0 {
		var zero M
		return zero
	}
	if len(e.moves) == 1 {
		e.last = mcts.Result[M]{Move: e.moves[0], Best: e.moves[0]}
		return e.moves[0]
	}
	l := e.limit(p, lim)
	e.veto = e.veto[:0]
	if e.opts.Prover != nil {
		start := time.Now()
		var nodes int64
		t := time.Duration(float64(l.Time) * e.opts.ProverShare)
		if l.Time <= 0 {
			nodes = int64(l.Playouts) * e.opts.ProverNodes
		}
		win, ok, veto, _ := e.opts.Prover.Prove(p, nodes, t, e.veto)
		e.veto = veto
		if ok {
			e.last = mcts.Result[M]{Move: win, Best: win, Proven: true}
			return win
		}
		if l.Time > 0 {
			l.Time = max(l.Time-time.Since(start), time.Microsecond)
		}
	}
	res, err := e.s.SearchExcluding(p, l, e.veto)
	if err != nil {
		e.err = err
		return e.moves[0]
	}
	e.last = res
	return res.Move
}

// limit turns the engine limits into a search limit.
func (e *Engine[P, M]) limit(p P, lim engine.Limits) mcts.Limit {
	var l mcts.Limit
	tm := e.opts.Time
	switch {
	case lim.MoveTime > 0:
		over := tm.Overhead
		if over == 0 {
			over = mcts.DefaultTimeManager().Overhead
		}
		l.Time = max(lim.MoveTime-over, lim.MoveTime/2)
	case lim.MyTime > 0:
		// The clock above the turn-cap reserve is shared among the moves; under it, one
		// playout answers at once (the tree kept from earlier moves still decides).
		capLeft := e.opts.CapLeft(p)
		left, ok := engine.Spendable(lim.MyTime, capLeft)
		if !ok {
			l.Playouts = 1
			break
		}
		n := e.opts.MovesLeft(p)
		if capLeft > 0 {
			n = min(n, capLeft)
		}
		l.Time = max(tm.Budget(left, max(n, 1)), time.Microsecond)
	}
	if lim.Nodes > 0 {
		l.Playouts = int(min(lim.Nodes, 1<<31-1))
	}
	if l.Time == 0 && l.Playouts == 0 {
		l.Playouts = e.opts.Playouts
	}
	if e.opts.MaxPlayouts > 0 && (l.Playouts == 0 || l.Playouts > e.opts.MaxPlayouts) {
		l.Playouts = e.opts.MaxPlayouts
	}
	return l
}

// LastResult returns the result of the last search (its slices are overwritten by the next).
func (e *Engine[P, M]) LastResult() mcts.Result[M] { return e.last }

// Report is the last search's account (engine.Report): the root value for the mover, the
// root visits and the deepest leaf; a move the prover found is a proven win. A forced move
// has none.
func (e *Engine[P, M]) Report() (engine.Report, bool) {
	switch r := e.last; {
	case r.Proven:
		return engine.Report{Value: 1, Proven: 1}, true
	case r.RootVisits == 0:
		return engine.Report{}, false
	default:
		return engine.Report{Value: float64(r.Value), Depth: r.MaxDepth, Nodes: int64(r.Playouts), Visits: r.RootVisits}, true
	}
}

// Err returns the last evaluator error (nil when none since NewGame).
func (e *Engine[P, M]) Err() error { return e.err }

// WithEndgame returns an engine that plays with e until late(p) first holds, then with
// finish (for Ataxx alphabeta, which sees to the end of a crowded board) for the rest of the
// game. Its name stays e's.
func WithEndgame[P any, M any](e, finish engine.Engine[P, M], late func(P) bool) *engine.Handoff[P, M] {
	return &engine.Handoff[P, M]{Early: e, Finish: finish, Late: late}
}
