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
	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/solve"
)

// Options configure an Engine. Zero fields take their defaults.
type Options struct {
	HashMB int    // transposition table size in megabytes (default 32; negative: no table)
	Seed   uint64 // perturbs the order of equal root moves (0: none)
	Depth  int    // fixed maximum depth in plies (0: none; the smaller of this and Limits.Depth)
	Nodes  int64  // node budget per move (0: none; the smaller of this and Limits.Nodes)
	// SolveMB is the table of the prover (game/mouse/solve) that runs before the search once
	// proofs are within reach, and whose winning move is played when it finds one (default
	// 16; negative: no prover).
	SolveMB int

	exp uint // experiment switches (A/B matches in the tests)
}

// Experiment switches: expOld restores the engine as it was before the current changes.
const (
	expOld uint = 1 << iota
	expNoVeto
	expNoLMR       // no late-move reductions
	expMiceEval    // the team evaluates with the mice's profile
	expBigShare    // the prover gets half of the move
	expNoEvalCache // no evaluation cache
)

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
	MaxPly: maxPly, MaxDepth: maxDepth, MaxMoves: mouse.MaxMoves, ReserveDiv: 5,
	NoMove: mouse.NoMove, Pass: mouse.Pass, WinScore: winScore, WinBound: winBound,
	HistSize: 1 << 14, KillerBonus: [2]int32{9000, 8500},
	Reductions: reductions, ReduceSides: 1 << mouse.Team, ReduceBelow: 2000,
}

// Engine is the alpha-beta engine. It plays one game at a time and is not safe for concurrent
// use.
type Engine struct {
	opts Options
	h    *hooks
	ab   *ab.Engine[mouse.Position, mouse.Move, *hooks]
	pr   *solve.Solver // the prover, allocated on its first use

	veto  [mouse.MaxMoves]mouse.Move // root moves the prover showed to lose
	nveto int
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
	h := &hooks{exp: o.exp}
	return &Engine{opts: o, h: h, ab: ab.New(config, ab.Options{
		HashMB: o.HashMB, Seed: o.Seed, Depth: o.Depth, Nodes: o.Nodes, NoLMR: o.exp&expNoLMR != 0,
	}, h)}
}

// Name returns "alphabeta".
func (e *Engine) Name() string { return "alphabeta" }

// NewGame clears the transposition table and the move-ordering statistics.
func (e *Engine) NewGame() {
	e.ab.NewGame()
	if e.pr != nil {
		e.pr.Clear()
	}
}

// Stats returns the depth, score (hundredths of a mouse, side to move; beyond ±WinBound a
// proven result) and node count of the last search.
func (e *Engine) Stats() (depth int, score int32, nodes int64) { return e.ab.Stats() }

// WinBound: Stats scores at or beyond ±WinBound are proven wins and losses.
const WinBound = winBound

// ClockBudget budgets one move from the spendable whole-game time: a reserve is kept, the
// rest is shared among the own moves expected to come (mouse.Position.MovesLeft), with a hard
// cap of three soft budgets and a third of what is left.
func ClockBudget(pos *mouse.Position, myTime, inc time.Duration) (soft, hard time.Duration) {
	return ab.ClockSplit(myTime, inc, pos.MovesLeft(), config.ReserveDiv)
}

// BestMove searches pos within lim and returns the best move found (mouse.Pass when the team
// is stuck; mouse.NoMove only in a finished game).
func (e *Engine) BestMove(pos mouse.Position, lim engine.Limits) mouse.Move {
	start := time.Now()
	// The game has no turn cap, but it cannot last longer than the mouse steps left.
	soft, hard, depth, nodes := e.ab.Budget(lim, pos.MouseStepsLeft()+1, pos.MovesLeft())
	e.nveto = 0
	var proverNodes int64
	if e.proverOn(&pos, soft, nodes) {
		// The prover's share: a tenth of the move for a win of the side to move, up to
		// three tenths with the losing moves it then rules out. A prover node costs about a
		// quarter of a search node (no evaluation): a node budget buys it four times as
		// many, so that fixed-node matches share the time as clock games do.
		pn, pt := nodes*3/10*proverSpeed, soft*3/10
		if e.opts.exp&expBigShare != 0 {
			pn, pt = nodes*5/10*proverSpeed, soft*5/10
		}
		m, d, n, ok := e.prove(pos, depth, pn/3, pt/3)
		if ok {
			e.ab.SetStats(d, winScore-int32(d), n)
			return m
		}
		if e.opts.exp&expNoVeto == 0 {
			var left time.Duration
			if pt > 0 {
				left = max(pt-time.Since(start), time.Millisecond)
			}
			n += e.vetoLosing(pos, max(pn-n, 1), left)
		}
		if nodes > 0 {
			nodes = max(nodes-n/proverSpeed, 1)
		}
		proverNodes = n
	}
	e.ready(&pos)
	m := e.ab.Search(pos, start, soft, hard, depth, nodes, e.veto[:e.nveto])
	if proverNodes > 0 {
		d, v, n := e.ab.Stats()
		e.ab.SetStats(d, v, n+proverNodes)
	}
	return m
}

// proveFrom is the most mouse steps left at which the prover runs: earlier, nothing is
// provable within a move's budget (mousesolve -survey: the first proofs in games between
// alphabeta engines come with about 40 steps left).
const proveFrom = 50

// proverSpeed is how many prover nodes cost the time of one search node.
const proverSpeed = 4

// proverOn reports whether the prover runs before the search of pos: once proofs are within
// reach, and when the move has a time or node budget (a search bounded by depth alone, for
// tests and analysis, runs no prover).
func (e *Engine) proverOn(pos *mouse.Position, soft time.Duration, nodes int64) bool {
	if e.opts.SolveMB < 0 || pos.Terminal() || pos.MouseStepsLeft() > proveFrom || soft <= 0 && nodes <= 0 {
		return false
	}
	if e.pr == nil {
		e.pr = solve.New(e.opts.SolveMB)
	}
	return true
}

// prove runs the prover on pos within the budget and returns a move that forces a win of the
// side to move, the length of that win and the prover's nodes; ok is false without a proven
// win.
func (e *Engine) prove(pos mouse.Position, depth int, nodes int64, t time.Duration) (m mouse.Move, d int, n int64, ok bool) {
	lim := solve.Limits{MeOnly: true, Nodes: max(nodes, 1), Time: t}
	if nodes <= 0 {
		lim.Nodes = 0
	}
	if depth > 0 {
		lim.Depth = depth
	}
	r := e.pr.Solve(pos, lim)
	if r.Winner == pos.ToMove() && r.Move != mouse.NoMove {
		return r.Move, r.Depth, r.Nodes, true
	}
	return mouse.NoMove, 0, r.Nodes, false
}

// vetoLosing deepens proofs that the opponent wins after each move of pos, within the budget
// (nodes, or time t; zero: none), and lists the moves proven to lose in e.veto, the root
// search then leaves them out. When every move loses, those that lose latest stay allowed. It
// returns the nodes spent.
func (e *Engine) vetoLosing(pos mouse.Position, nodes int64, t time.Duration) int64 {
	var deadline time.Time
	if t > 0 {
		deadline = time.Now().Add(t)
	}
	if nodes <= 0 {
		nodes = 0
	}
	e.pr.SetLimits(nodes, deadline)
	opp := 1 - pos.ToMove()
	var buf [mouse.MaxMoves]mouse.Move
	moves := pos.LegalMoves(buf[:0])
	if len(moves) < 2 {
		return 0
	}
	var lost [mouse.MaxMoves]int // the depth at which a move was proven lost, 0: not
	nlost := 0
	maxD := 2*pos.MouseStepsLeft() + 1
	for d := 1; d <= maxD && nlost < len(moves); d++ {
		newly := 0
		for i, m := range moves {
			if lost[i] != 0 {
				continue
			}
			c := pos.Apply(m)
			var w, ok bool
			if c.Terminal() {
				w, ok = c.Winner() == opp, true
			} else {
				w, ok = e.pr.Wins(c, opp, d-1)
			}
			if !ok {
				d = maxD // the budget ran out
				break
			}
			if w {
				lost[i] = d
				nlost++
				newly++
			}
		}
		if nlost == len(moves) {
			// Every move loses: keep those that lose latest.
			for i := range moves {
				if lost[i] == d {
					lost[i] = 0
				}
			}
			break
		}
	}
	for i, m := range moves {
		if lost[i] != 0 {
			e.veto[e.nveto] = m
			e.nveto++
		}
	}
	return e.pr.Nodes()
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
	if e.h.evals == nil && e.opts.exp&expNoEvalCache == 0 {
		e.h.evals = make([]evalEntry, 1<<evalCacheBits)
	}
}
