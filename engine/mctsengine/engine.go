// Package mctsengine is the Bacteria War engine "mcts": a PUCT search (package mcts) over an
// evaluator given by the caller (random rollouts, or the network of package nn), with the
// tree kept from move to move and the judge's whole-game clock spread over the game.
package mctsengine

import (
	"math"
	"math/bits"
	"time"

	"colony/engine"
	"colony/game/ataxx"
	"colony/mcts"
)

type (
	pos  = ataxx.Position
	move = ataxx.Move
)

// DefaultPlayouts is the per-move playout budget when the limits set no time and no nodes.
const DefaultPlayouts = 1000

// Options configures an Engine. Zero fields take the defaults.
type Options struct {
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
	// MovesLeft is the number of shares the remaining clock is split into at p (nil:
	// MovesLeft). An engine that hands the endgame to another one plans with fewer shares.
	MovesLeft func(p pos) int
}

// Engine is the "mcts" engine. It satisfies engine.Engine[ataxx.Position, ataxx.Move]. It is
// not safe for concurrent use.
type Engine struct {
	opts  Options
	s     *mcts.Searcher[pos, move]
	moves []move
	last  mcts.Result[move]
	err   error
}

var _ engine.Engine[pos, move] = (*Engine)(nil)

// New returns an engine searching with eval. It panics on an invalid search configuration.
func New(eval mcts.Evaluator[pos, move], opts Options) *Engine {
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
		opts.MovesLeft = MovesLeft
	}
	return &Engine{
		opts:  opts,
		s:     mcts.New(cfg, eval),
		moves: make([]move, 0, ataxx.MaxMoves),
	}
}

// NewRollout returns the random-rollout evaluator tuned for Bacteria War: rollouts stop after
// maxPlies (<= 0: 80) and score the position reached by MaterialValues.
func NewRollout(seed uint64, maxPlies int) *mcts.Rollout[pos, move] {
	if maxPlies <= 0 {
		maxPlies = 80
	}
	return mcts.NewRollout[pos, move](seed, maxPlies, MaterialValues)
}

// MaterialValues scores an unfinished position by its piece difference: (own - other) / 49
// for each player.
func MaterialValues(p pos) mcts.Values {
	d := float32(p.Count(ataxx.O)-p.Count(ataxx.X)) / ataxx.NumSquares
	return mcts.Values{d, -d}
}

// MovesLeft estimates how many moves the side to move still plays: every division fills a
// cell and most moves of good play are divisions, so about half the empty cells, plus a
// margin for leaps, bounded by the turn cap.
func MovesLeft(p pos) int {
	empty := bits.OnesCount64(p.Empty())
	n := empty/2 + 2
	capLeft := p.OwnTurnsLeft()
	return max(1, min(n, capLeft))
}

// MovesLeftWithEndgame is a MovesLeft for an engine that hands the game over once at most
// empty cells are empty: the own moves until then count in full, the about empty/2 + 2 after
// it count weight each (the finishing engine then gets weight times the share of a move
// before the handoff). Capped by the turns left, at least 1.
func MovesLeftWithEndgame(empty int, weight float64) func(p pos) int {
	return func(p pos) int {
		e := bits.OnesCount64(p.Empty())
		after := min(e, empty)/2 + 2
		before := max(e-empty, 0) / 2
		n := before + int(math.Round(weight*float64(after)))
		capLeft := p.OwnTurnsLeft()
		return max(1, min(n, capLeft))
	}
}

// Name returns "mcts".
func (e *Engine) Name() string { return "mcts" }

// NewGame drops the tree.
func (e *Engine) NewGame() {
	e.s.Reset()
	e.err = nil
}

// BestMove searches p within lim and returns the most visited move (or one drawn by the
// temperature). A single legal move is returned at once. lim.MoveTime is a time per move,
// lim.MyTime a whole-game clock spread by the time manager, lim.Nodes caps the playouts;
// lim.Depth is ignored. On an evaluator error it returns a legal move and keeps the error for
// Err.
func (e *Engine) BestMove(p pos, lim engine.Limits) move {
	e.moves = p.LegalMoves(e.moves[:0])
	if len(e.moves) == 0 {
		return ataxx.Pass // a finished game: nothing legal to say
	}
	if len(e.moves) == 1 {
		e.last = mcts.Result[move]{Move: e.moves[0], Best: e.moves[0]}
		return e.moves[0]
	}
	res, err := e.s.Search(p, e.limit(p, lim))
	if err != nil {
		e.err = err
		return e.fallback(p)
	}
	e.last = res
	return res.Move
}

// limit turns the engine limits into a search limit.
func (e *Engine) limit(p pos, lim engine.Limits) mcts.Limit {
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
		left, ok := engine.Spendable(lim.MyTime, p.OwnTurnsLeft())
		if !ok {
			l.Playouts = 1
			break
		}
		l.Time = max(tm.Budget(left, e.opts.MovesLeft(p)), time.Microsecond)
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

// fallback picks the legal move converting the most pieces (divisions first).
func (e *Engine) fallback(p pos) move {
	best, score := e.moves[0], -1
	for _, m := range e.moves {
		s := 2 * p.Captures(m)
		if m.IsClone() {
			s++
		}
		if s > score {
			best, score = m, s
		}
	}
	return best
}

// LastResult returns the result of the last search (its slices are overwritten by the next).
func (e *Engine) LastResult() mcts.Result[move] { return e.last }

// Err returns the last evaluator error (nil when none since NewGame).
func (e *Engine) Err() error { return e.err }

// WithEndgame returns an engine that plays with e until at most empty cells are empty, then
// with finish (typically alphabeta, which sees to the end of a crowded board) for the rest of
// the game. Its name stays e's.
func WithEndgame(e engine.Engine[pos, move], finish engine.Engine[pos, move], empty int) *engine.Handoff[pos, move] {
	return &engine.Handoff[pos, move]{
		Early:  e,
		Finish: finish,
		Late:   func(p pos) bool { return bits.OnesCount64(p.Empty()) <= empty },
	}
}
