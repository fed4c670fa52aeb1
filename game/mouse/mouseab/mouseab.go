// Package mouseab is Colony's classical Catch The Mouse engine, for either side:
// iterative-deepening principal-variation search with a transposition table, killer and
// history move ordering, mild late-move reductions for the team's quiet moves, an extension
// when a mouse stands on row 6, and an evaluation that understands the race to row 7 (see
// eval.go), under a time manager for the judge's whole-game clock. It is the baseline the
// neural agent must beat.
package mouseab

import (
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/solve"
)

// Options configure an Engine: the search's (engine/alphabeta; HashMB 0 means 32 MB) and the
// prover's. Zero fields take their defaults.
type Options struct {
	ab.Options
	// SolveMB is the table of the prover (game/mouse/solve) that runs before the search once
	// proofs are within reach, and whose winning move is played when it finds one (default
	// 16; negative: no prover).
	SolveMB int

	noEvalCache bool // no evaluation cache (the tests' reference)
}

const (
	defaultHashMB  = 32
	defaultSolveMB = 16
	maxPly         = 160
	maxDepth       = 120
)

// config is Catch The Mouse's search configuration (engine/alphabeta). The history index
// int(m)&16383 is the move's from and to cells (the team bit dropped: each side has its own
// table).
var config = ab.Config[mouse.Move]{
	MaxPly: maxPly, MaxDepth: maxDepth, MaxMoves: mouse.MaxMoves, Time: mouseTime,
	NoMove: mouse.NoMove, Pass: mouse.Pass, WinScore: winScore, WinBound: winBound,
	HistSize: 1 << 14, KillerBonus: [2]int32{9000, 8500},
	Reductions: reductions, ReduceSides: 1 << mouse.Team, ReduceBelow: 2000,
}

// mouseTime are the time manager's rules: the default ones with a fifth of the spendable clock
// (at most 300 ms) kept back (docs/mouse-clock.md).
var mouseTime = func() engine.TimeParams {
	p := engine.DefaultTime
	p.ReserveDiv = 5
	return p
}()

// Engine is the alpha-beta engine. It plays one game at a time and is not safe for concurrent
// use.
type Engine struct {
	opts Options
	h    *hooks
	ab   *ab.Engine[mouse.Position, mouse.Move, *hooks]
	pr   *solve.Prover // the prover, allocated on its first use

	veto []mouse.Move // root moves the prover showed to lose
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
	if o.SolveMB == 0 {
		o.SolveMB = defaultSolveMB
	}
	h := &hooks{}
	return &Engine{opts: o, h: h, ab: ab.New(config, o.Options, h)}
}

// Name returns "alphabeta".
func (e *Engine) Name() string { return "alphabeta" }

// NewGame clears the transposition table and the move-ordering statistics.
func (e *Engine) NewGame() {
	e.ab.NewGame()
	if e.pr != nil {
		e.pr.NewGame()
	}
}

// Stats returns the depth, score (hundredths of a mouse, side to move; beyond ±WinBound a
// proven result) and node count of the last search.
func (e *Engine) Stats() (depth int, score int32, nodes int64) { return e.ab.Stats() }

// Report is the last search's account for the agent's log (engine.Report).
func (e *Engine) Report() (engine.Report, bool) { return e.ab.Report() }

// WinBound: Stats scores at or beyond ±WinBound are proven wins and losses.
const WinBound = winBound

// ClockBudget budgets one move from the spendable whole-game time: a reserve is kept, the
// rest is shared among the own moves expected to come (mouse.Position.MovesLeft), with a hard
// cap of three soft budgets and a third of what is left.
func ClockBudget(pos *mouse.Position, myTime, inc time.Duration) (soft, hard time.Duration) {
	return ab.ClockSplit(mouseTime, myTime, inc, pos.MovesLeft())
}

// BestMove searches pos within lim and returns the best move found (mouse.Pass when the team
// is stuck; mouse.NoMove only in a finished game).
func (e *Engine) BestMove(pos mouse.Position, lim engine.Limits) mouse.Move {
	b := e.Budget(&pos, lim)
	soft, depth, nodes := b.Soft(), b.Depth, b.Nodes
	e.veto = e.veto[:0]
	var proverNodes int64
	if e.proverOn(&pos, soft, nodes) {
		// The prover's share: a tenth of the move for a win of the side to move, up to
		// three tenths with the losing moves it then rules out. A prover node costs about a
		// quarter of a search node (no evaluation): a node budget buys it four times as
		// many, so that fixed-node matches share the time as clock games do.
		pn, pt := nodes*3/10*proverSpeed, soft*3/10
		var r solve.Proof
		r, e.veto = e.pr.ProveDepth(pos, depth, pn, pt, e.veto)
		if r.Win {
			e.ab.SetStats(r.Depth, winScore-int32(r.Depth), r.Nodes)
			return r.Move
		}
		if nodes > 0 {
			nodes = max(nodes-r.Nodes/proverSpeed, 1)
		}
		proverNodes = r.Nodes
	}
	e.ready(&pos)
	b.Nodes, b.SoftNodes = nodes, 0
	m := e.ab.Search(pos, b, e.veto)
	if proverNodes > 0 {
		d, v, n := e.ab.Stats()
		e.ab.SetStats(d, v, n+proverNodes)
	}
	return m
}

// Budget plans the search of pos within the limits (engine/alphabeta Engine.Budget): the game
// has no turn cap, but it cannot last longer than the mouse steps left.
func (e *Engine) Budget(pos *mouse.Position, lim engine.Limits) ab.Budget {
	return e.ab.Budget(lim, pos.MouseStepsLeft()+1, pos.MovesLeft())
}

// proverSpeed is how many prover nodes cost the time of one search node.
const proverSpeed = 4

// proverOn reports whether the prover runs before the search of pos: once proofs are within
// reach, and when the move has a time or node budget (a search bounded by depth alone, for
// tests and analysis, runs no prover).
func (e *Engine) proverOn(pos *mouse.Position, soft time.Duration, nodes int64) bool {
	if e.opts.SolveMB < 0 || !solve.Reaches(pos) || soft <= 0 && nodes <= 0 {
		return false
	}
	if e.pr == nil {
		e.pr = solve.NewProver(e.opts.SolveMB, false)
	}
	return true
}

// Score returns the value of pos for the side to move (hundredths of a mouse; proven results
// beyond ±WinBound) by a fixed-depth search: depth 0 is the static evaluation.
func (e *Engine) Score(pos *mouse.Position, depth int) int32 {
	e.ready(pos)
	return e.ab.Score(*pos, depth)
}

// ready sets the evaluation profile for the side to move of pos and allocates the evaluation
// cache on first use.
func (e *Engine) ready(pos *mouse.Position) {
	e.h.miceRole = pos.ToMove() == mouse.Mice
	if e.h.evals == nil && !e.opts.noEvalCache {
		e.h.evals = make([]evalEntry, 1<<evalCacheBits)
	}
}
