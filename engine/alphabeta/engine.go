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
	// NoPrune disables the pruning near the leaves: reverse futility, quiet-move and futility
	// pruning (Config.RFPDepth, Config.QuietBelow, Config.FPDepth).
	NoPrune bool
	// IIR: internal iterative reduction, an experiment (docs/search.md): a node of depth >=
	// IIRDepth that the table gives no move is searched a ply shallower.
	IIR bool
	// Singular: singular extensions and their multi-cut, an experiment (docs/search.md); with
	// Config.Staged only (the table move is searched first, Game.Legal checks it).
	Singular bool
	// NoCorrection: the game's hooks learn nothing from the search (Corrector), so an
	// evaluation that corrects itself by what it learnt stays uncorrected.
	NoCorrection bool
	// Time changes the configuration's time rules (Config.Time): "name=value,..."
	// (engine.TimeParams.Set; "": none). Check it with CheckTime first: New panics on a bad one.
	Time string
}

// CheckTime reports whether spec changes time rules validly (Options.Time; engine.TimeParams.Set
// on the default rules).
func CheckTime(spec string) error {
	p := engine.DefaultTime
	return p.Set(spec)
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

	// TM is the engine's time manager (its rules Config.Time, or Options.Time when set): it
	// plans each move on a clock (Budget) and keeps what it needs from move to move.
	TM engine.TimeManager

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
	e := &Engine[P, M, G]{Opts: o, Game: g, cfg: cfg.withDefaults()}
	e.TM.P = e.cfg.Time
	if err := e.TM.P.Set(o.Time); err != nil {
		panic(fmt.Sprintf("alphabeta: Options.Time: %v (check it with CheckTime)", err))
	}
	return e
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
	e.TM.Reset()
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

// Budget is what the search of one move may spend. Zero fields are no limit.
type Budget struct {
	Start     time.Time     // when the move's time began
	Depth     int           // the deepest iteration
	Nodes     int64         // the search stops there (a node clock's maximum included)
	SoftNodes int64         // no iteration starts once this many nodes are spent
	Hard      time.Duration // the search stops there
	// TM, when set, has planned the move (TimeManager.Start) and decides after each iteration
	// whether to go on; its ticks are nodes with NodeClock, else nanoseconds since Start.
	TM        *engine.TimeManager
	NodeClock bool
}

// Soft is the budget's optimum as a time (0 without a wall-clock plan): what a game's engine
// shares with work it does beside the search.
func (b Budget) Soft() time.Duration {
	if b.TM == nil || b.NodeClock {
		return 0
	}
	return time.Duration(b.TM.Optimum)
}

// Budget plans a move within lim: its fixed depth and nodes (the smaller of the options' and
// the limits'), a move time used in full, or a whole-game clock (a wall clock, or a node clock
// with lim.NodeClock) planned by the engine's time manager over the ownMovesLeft moves the
// game may still ask for and the expectedMoves it is likely to.
func (e *Engine[P, M, G]) Budget(lim engine.Limits, ownMovesLeft, expectedMoves int) Budget {
	return PlanMove(&e.TM, lim, e.Opts.Depth, e.Opts.Nodes, ownMovesLeft, expectedMoves)
}

// PlanMove is Engine.Budget for any search with the time manager tm: fixedDepth and fixedNodes
// (0: none) cap the limits' own.
func PlanMove(tm *engine.TimeManager, lim engine.Limits, fixedDepth int, fixedNodes int64, ownMovesLeft, expectedMoves int) Budget {
	b := Budget{Start: time.Now(), Depth: lim.Depth, Nodes: lim.Nodes, SoftNodes: lim.SoftNodes}
	if fixedDepth > 0 && (b.Depth == 0 || fixedDepth < b.Depth) {
		b.Depth = fixedDepth
	}
	if fixedNodes > 0 && (b.Nodes == 0 || fixedNodes < b.Nodes) {
		b.Nodes = fixedNodes
	}
	switch {
	case lim.NodeClock > 0:
		_, maxi := tm.Start(engine.Clock{Left: lim.NodeClock, PerMs: tm.P.NodesPerMs}, ownMovesLeft, expectedMoves)
		b.TM, b.NodeClock = tm, true
		if b.Nodes == 0 || maxi < b.Nodes {
			b.Nodes = maxi
		}
		if tm.Quick {
			b.Depth = 1
		}
	case lim.MoveTime > 0:
		// An exact move time is used in full: iterations go on until the hard stop.
		b.Hard = lim.MoveTime - min(lim.MoveTime/10, 5*time.Millisecond)
	case lim.MyTime > 0:
		_, maxi := tm.Start(engine.Clock{Left: int64(lim.MyTime), Inc: int64(lim.MyInc), PerMs: int64(time.Millisecond)}, ownMovesLeft, expectedMoves)
		b.TM, b.Hard = tm, time.Duration(maxi)
		if tm.Quick {
			// Under the reserve for the moves still possible, a depth-1 search answers at once.
			b.Depth = 1
		}
	case b.Depth == 0 && b.Nodes == 0:
		b.Hard = DefaultMoveTime
	}
	return b
}

// ClockSplit is the optimum and maximum that the rules p give a move from the spendable
// whole-game time myTime (what is left after the reserve for the moves still possible),
// shared among expectedMoves.
func ClockSplit(p engine.TimeParams, myTime, inc time.Duration, expectedMoves int) (soft, hard time.Duration) {
	tm := engine.TimeManager{P: p}
	o, m := tm.Start(engine.Clock{Left: int64(myTime), Inc: int64(inc), PerMs: int64(time.Millisecond)}, 0, expectedMoves)
	return time.Duration(o), time.Duration(m)
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

// Search searches pos by iterative deepening within the budget b and returns the best move
// found: the only one without a search, NoMove when there is none. The root moves in exclude
// are left out unless they are all there are.
func (e *Engine[P, M, G]) Search(pos P, b Budget, exclude []M) M {
	return e.searcher().run(e, pos, b, exclude)
}

// Score returns the value of pos for the side to move by a fixed-depth search (depth 0: the
// Leaf value): no clock, no iterative deepening, the table shared with Search. It is meant for
// many small calls and does not allocate after the first.
func (e *Engine[P, M, G]) Score(pos P, depth int) int32 {
	s := e.searcher()
	s.begin(e, Budget{})
	s.g.Root(pos)
	return s.search(pos, max(depth, 0), -infinity, infinity, 0, true)
}
