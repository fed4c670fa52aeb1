package alphabeta

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"colony/engine"
	"colony/engine/tt"
)

// Options are the options every game's alpha-beta engine takes. Zero fields take defaults.
type Options struct {
	HashMB int    // transposition table size in megabytes (negative: no table)
	Seed   uint64 // perturbs the order of equal root moves (0: none)
	Depth  int    // fixed maximum depth in plies (0: none; the smaller of this and Limits.Depth)
	Nodes  int64  // node budget per move (0: none; the smaller of this and Limits.Nodes)
	NoLMR  bool   // disable late-move reductions
	// NoPrune disables reverse futility and late-move pruning (Config.RFPDepth, Config.LMP).
	NoPrune bool
	Null    bool // null-move pruning (with the Game's CanNull and Static)
	// IIR: internal iterative reduction, an experiment (docs/search.md): a node of depth >=
	// IIRDepth that the table gives no move is searched a ply shallower.
	IIR bool
	// Singular: singular extensions and their multi-cut, an experiment (docs/search.md); with
	// Config.Staged only (the table move is searched first, Game.Legal checks it).
	Singular bool
	// NoCorrection: the game's hooks learn nothing from the search (Corrector), so an
	// evaluation that corrects itself by what it learnt stays uncorrected.
	NoCorrection bool
}

// experiment is a search switch that an agent turns on by name.
type experiment struct {
	name, doc string
	set       func(*Options)
}

// experiments are the search's switches that an agent turns on by name (-exp NAME,...;
// docs/search.md): the one table of their names.
var experiments = []experiment{
	{"iir", "internal iterative reduction where the game's search has none (nnab: on by default)", func(o *Options) { o.IIR = true }},
	{"se", "singular extensions where the game's search has none", func(o *Options) { o.Singular = true }},
	{"null", "null-move pruning", func(o *Options) { o.Null = true }},
	{"nolmr", "no late-move reductions", func(o *Options) { o.NoLMR = true }},
	{"nocorr", "no correction history (nnab: the evaluation learns nothing from its own searches)", func(o *Options) { o.NoCorrection = true }},
}

// Experiments lists the experiments' names, in the table's order.
func Experiments() []string {
	names := make([]string, len(experiments))
	for i, x := range experiments {
		names[i] = x.name
	}
	return names
}

// ExperimentsHelp describes the experiments for a flag's help: "iir: internal iterative
// reduction, se: ...".
func ExperimentsHelp() string {
	docs := make([]string, len(experiments))
	for i, x := range experiments {
		docs[i] = x.name + ": " + x.doc
	}
	return strings.Join(docs, ", ")
}

// SetExperiments turns on the experiments that list names, comma-separated ("": none); an
// unknown name is an error that lists the known ones.
func (o *Options) SetExperiments(list string) error {
	for _, name := range strings.Split(list, ",") {
		if name == "" {
			continue
		}
		i := slices.IndexFunc(experiments, func(x experiment) bool { return x.name == name })
		if i < 0 {
			return fmt.Errorf("unknown search experiment %q (known: %s)", name, strings.Join(Experiments(), ", "))
		}
		experiments[i].set(o)
	}
	return nil
}

// IIRDepth is the least depth Options.IIR reduces.
const IIRDepth = 4

// Singular extensions (Options.Singular) test nodes of depth >= SEDepth, against the table's
// score less SEMargin a ply.
const (
	SEDepth        = 6
	SEMargin int32 = 4
)

// DefaultMoveTime is a move's time when the limits give none (no clock, depth or nodes).
const DefaultMoveTime = time.Second

// Engine is the shared part of an alpha-beta engine: a game's engine holds one, built by New,
// and adds its name, its own options and whatever it does around the search. It plays one game
// at a time and is not safe for concurrent use.
type Engine[P Position[P, M], M Move, G Game[P, M]] struct {
	Opts Options
	Game G // the game's hooks (a pointer: an engine may change their state between searches)

	// Info, when set, is called after each finished iteration of Search (not Score) with its
	// depth, score, nodes, time and principal variation (the best root move, then the table's
	// moves): a protocol's info lines.
	Info func(engine.Iteration[M])

	// ExactTT is a test knob: the table only cuts off on entries of exactly the wanted depth,
	// so that a fixed-depth search returns the same score with or without it.
	ExactTT bool

	cfg Config[M]
	tt  tt.Table[M]
	s   *searcher[P, M, G] // allocated on the first search

	lastDepth int
	lastScore int32
	lastNodes int64
}

// New returns an engine for a game's configuration and hooks. Construction is cheap: the
// table and the searcher's buffers are allocated on the first search.
func New[P Position[P, M], M Move, G Game[P, M]](cfg Config[M], o Options, g G) *Engine[P, M, G] {
	return &Engine[P, M, G]{Opts: o, Game: g, cfg: cfg.withDefaults()}
}

// Allocated reports whether the transposition table has been allocated.
func (e *Engine[P, M, G]) Allocated() bool { return e.tt.Allocated() }

// NewGame clears the transposition table, the move-ordering statistics and what the game's
// hooks learnt (Corrector).
func (e *Engine[P, M, G]) NewGame() {
	if e.tt.Allocated() {
		e.tt.Clear()
	}
	if e.s != nil {
		e.s.resetStats()
	}
	if c, ok := any(e.Game).(Corrector[P]); ok {
		c.Forget()
	}
}

// Stats returns the depth, score (side to move; beyond ±WinBound a proven result) and node
// count of the last search.
func (e *Engine[P, M, G]) Stats() (depth int, score int32, nodes int64) {
	return e.lastDepth, e.lastScore, e.lastNodes
}

// Report is the last search's account (engine.Report): its score, proven beyond the win bound.
func (e *Engine[P, M, G]) Report() (engine.Report, bool) {
	r := engine.Report{Score: e.lastScore, HasAB: true, Depth: e.lastDepth, Nodes: e.lastNodes}
	switch {
	case e.lastDepth == 0:
		return r, false
	case e.lastScore >= e.cfg.WinBound:
		r.Proven = 1
	case e.lastScore <= -e.cfg.WinBound:
		r.Proven = -1
	}
	return r, true
}

// SetStats replaces what Stats reports (for a move an engine found without the search).
func (e *Engine[P, M, G]) SetStats(depth int, score int32, nodes int64) {
	e.lastDepth, e.lastScore, e.lastNodes = depth, score, nodes
}

// Budget turns limits into a soft time (no new iteration once half of it is spent), a hard
// time (abort the search), a depth and a node budget; zero times mean no such limit. On a
// whole-game clock, engine.MinMoveCost is held back for each of the ownMovesLeft moves the
// game may still ask for, and the rest is split by ClockSplit among the expected moves.
func (e *Engine[P, M, G]) Budget(lim engine.Limits, ownMovesLeft, expectedMoves int) (soft, hard time.Duration, depth int, nodes int64) {
	return Budget(lim, e.Opts.Depth, e.Opts.Nodes, ownMovesLeft, expectedMoves, e.cfg.ReserveDiv)
}

// Budget is Engine.Budget for any alpha-beta search: fixedDepth and fixedNodes (0: none) cap
// the limits' own, and reserveDiv is ClockSplit's.
func Budget(lim engine.Limits, fixedDepth int, fixedNodes int64, ownMovesLeft, expectedMoves, reserveDiv int) (soft, hard time.Duration, depth int, nodes int64) {
	depth, nodes = lim.Depth, lim.Nodes
	if fixedDepth > 0 && (depth == 0 || fixedDepth < depth) {
		depth = fixedDepth
	}
	if fixedNodes > 0 && (nodes == 0 || fixedNodes < nodes) {
		nodes = fixedNodes
	}
	switch {
	case lim.MoveTime > 0:
		// An exact move time is used in full: iterations go on until the hard stop.
		hard = lim.MoveTime - min(lim.MoveTime/10, 5*time.Millisecond)
	case lim.MyTime > 0:
		// Under the reserve for the moves still possible, a depth-1 search answers at once.
		left, ok := engine.Spendable(lim.MyTime, ownMovesLeft)
		if !ok {
			return engine.MinMoveCost / 2, engine.MinMoveCost / 2, 1, nodes
		}
		soft, hard = ClockSplit(left, lim.MyInc, expectedMoves, reserveDiv)
	case depth == 0 && nodes == 0:
		hard = DefaultMoveTime
		soft = hard
	}
	return
}

// ClockSplit budgets one move from the spendable whole-game time myTime: min(myTime/reserveDiv,
// 300 ms) is kept, the rest is shared among the expected own moves, with a hard cap of three
// soft budgets and a third of what is left.
func ClockSplit(myTime, inc time.Duration, expectedMoves, reserveDiv int) (soft, hard time.Duration) {
	reserve := min(myTime/time.Duration(max(reserveDiv, 1)), 300*time.Millisecond)
	avail := myTime - reserve
	movesLeft := max(expectedMoves, 1)
	soft = avail/time.Duration(movesLeft) + inc*3/4
	hard = min(soft*3, avail/3+inc*3/4)
	soft = min(soft, hard)
	if hard < time.Millisecond {
		hard = time.Millisecond
		soft = hard
	}
	return soft, hard
}

// searcher returns the engine's searcher, allocating it and the table on first use.
func (e *Engine[P, M, G]) searcher() *searcher[P, M, G] {
	if e.s == nil {
		e.s = newSearcher[P](&e.cfg, e.Game)
	}
	if !e.tt.Allocated() && e.Opts.HashMB > 0 {
		e.tt.Alloc(e.Opts.HashMB, e.cfg.NoMove)
	}
	return e.s
}

// Search searches pos by iterative deepening within the budget (start: when the move's time
// began; zero soft and hard times, depth, nodes and soft nodes: no such limit; no iteration
// starts once softNodes are spent) and returns the best move found: the only one without a
// search, NoMove when there is none. The root moves in exclude are left out unless they are
// all there are.
func (e *Engine[P, M, G]) Search(pos P, start time.Time, soft, hard time.Duration, depth int, nodes, softNodes int64, exclude []M) M {
	return e.searcher().run(e, pos, start, soft, hard, depth, nodes, softNodes, exclude)
}

// Score returns the value of pos for the side to move by a fixed-depth search (depth 0: the
// Leaf value): no clock, no iterative deepening, the table shared with Search. It is meant for
// many small calls and does not allocate after the first.
func (e *Engine[P, M, G]) Score(pos P, depth int) int32 {
	s := e.searcher()
	s.begin(e, time.Time{}, 0, 0)
	s.g.Root(pos)
	return s.search(pos, max(depth, 0), -infinity, infinity, 0, true, false)
}
