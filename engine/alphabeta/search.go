// Package alphabeta is Colony's alpha-beta search, for any two-player game with 16-bit moves:
// iterative deepening with optional aspiration windows, fail-soft negamax principal-variation
// search, a transposition table (engine/tt), killer and history move ordering, late-move
// reductions, optional staged move picking (the table move and the first killer before any
// move is generated), reverse futility, quiet-move and futility pruning near the leaves,
// singular extensions, internal iterative reduction, and the clock split of the judge's
// whole-game clock. What is game-specific (the evaluation, the static move order, terminal
// and forced scores, extensions, the reductions, the table key) comes from the game's Game
// hooks; Engine is the part of an engine every game shares (options, table, statistics,
// limits).
//
// Positions are passed by value (copy-make): every child is made by the Game's Play hook with
// its ply, so that an evaluator kept incrementally (a per-ply stack of accumulators brought
// up to date lazily, as the NNUE engine does) can record how the child follows from its
// parent; Root tells it the search's root. Every buffer is sized when the searcher is built,
// so a search does not allocate.
package alphabeta

import (
	"math"
	"slices"
	"time"

	"colony/engine"
	"colony/engine/tt"
	"colony/internal/splitmix"
)

// Move is a game's move type: 16 bits, so that it packs with its ordering key into an int64.
type Move interface{ ~uint16 }

// Position is what the search asks of a position itself (copy-make Apply, value receivers).
type Position[P any, M Move] interface {
	Hash() uint64
	Apply(m M) P
	ToMove() int
}

// Game is the game-specific part of a search. The search calls it at every node, so its
// methods should be cheap and must not allocate; the few calls a node makes are merged so that
// little is spent on calling them.
type Game[P any, M Move] interface {
	// Enter is called on entering every node below the root, before anything else: done with
	// score when p's value is known without a search (a finished game, a forced result); else
	// the depth to search p to (depth, or more for an extension) and the window (alpha, beta,
	// or narrower: mate-distance pruning).
	Enter(p P, ply, depth int, alpha, beta int32) (score int32, done bool, newDepth int, newAlpha, newBeta int32)
	// Key is p's transposition-table key (the hash, or more where the value depends on more).
	Key(p P) uint64
	// Leaf is p's value at the horizon, for the side to move.
	Leaf(p P, ply int) int32
	// Moves writes p's legal moves into moves[:0] (the pass alone when the side to move must
	// pass; none only in a finished game) and returns them and the side to move; unless the
	// move is the pass, it also sets o's side (o.Side) and writes each move's sort key,
	// o.Key(m, v) with v its static ordering value (larger first, below 1<<23), into o.Keys[i].
	Moves(p P, moves []M, o *Order[M]) ([]M, int)
	// Stuck scores p when its only move is the pass and its value is known then (ok).
	Stuck(p P, ply int) (score int32, ok bool)

	// Root is called with the root of every search (Search and Score) before any Play.
	Root(p P)
	// Play returns the child of p (at ply) by m, the pass included: p.Apply(m), and whatever
	// an incremental evaluator records for the child's ply.
	Play(p P, m M, ply int) P
	// Static is p's static value for the side to move (p at ply): reverse futility and
	// futility pruning compare it with beta and alpha. Only called when Config.RFPDepth or
	// Config.FPDepth ask.
	Static(p P, ply int) int32
	// Legal reports whether m (a table move or a killer: any value, NoMove included) is legal in
	// p. Only called with Config.Staged.
	Legal(p P, m M) bool
}

// Corrector is what a game's hooks may add to learn from their own searches (a correction
// history): after each node below the root whose search ends with a score that is not a
// proven result (and not inside a singular-extension test), After is given the node, its
// depth, that score and its bound (engine/tt's Lower, Upper or Exact). Engine.NewGame calls
// Forget. Options.NoCorrection turns the calls off.
type Corrector[P any] interface {
	After(p P, ply, depth int, best int32, bound uint8)
	Forget()
}

// Plain are the hooks of a game without an incremental evaluator or pruning: Play is Apply,
// Root does nothing, and the pruning hooks are never called (a game's hooks embed it).
type Plain[P Position[P, M], M Move] struct{}

// Root does nothing.
func (Plain[P, M]) Root(P) {}

// Play is p.Apply(m).
func (Plain[P, M]) Play(p P, m M, _ int) P { return p.Apply(m) }

// Static panics: a game that prunes gives its own.
func (Plain[P, M]) Static(P, int) int32 { panic("alphabeta: Static of Plain hooks") }

// Legal panics: a staged game gives its own.
func (Plain[P, M]) Legal(P, M) bool { panic("alphabeta: Legal of Plain hooks") }

// Order makes the sort keys of a node's moves from their static ordering values: the table
// move first, then by the static value plus the history score and the killers' bonus. A key
// packs the negated total above the move, so that sorting keys ascending sorts the moves.
type Order[M Move] struct {
	Keys []int64 // the node's keys, in the order of its moves

	ttMove, k1, k2 M
	bonus          [2]int32
	killerHist     int32 // 1: the killers' values include the history score, 0: not
	hist           [2][]int32
	cur            []int32
	mask           int
	histDiv        int32
}

// Side selects the history of the side to move.
func (o *Order[M]) Side(side int) { o.cur = o.hist[side&1] }

// Key is the sort key of m, given its static ordering value v.
func (o *Order[M]) Key(m M, v int32) int64 {
	h := o.cur[int(m)&o.mask] / o.histDiv
	k := v + h
	switch m {
	case o.ttMove:
		k = 1 << 24
	case o.k1:
		k = v + o.bonus[0] + h*o.killerHist
	case o.k2:
		k = v + o.bonus[1] + h*o.killerHist
	}
	return int64(-k)<<16 | int64(m)
}

// LMR is a late-move reduction table: [depth][move index], both capped at 63.
type LMR [64][64]int8

// Config is what a game's search is built with. Zero fields marked so take defaults.
type Config[M Move] struct {
	MaxPly   int // plies from the root a search may reach (default 128)
	MaxDepth int // the deepest iteration (default 100)
	MaxMoves int // the most legal moves of a position
	NoMove   M   // never legal: an empty table slot, no killer
	Pass     M   // the forced pass (Moves returns it alone)

	// Scores: a win scores WinScore - PlyStep*ply for the winner at distance ply from the root
	// and beyond ±WinBound is a proven result (defaults 30000, 1, 20000).
	WinScore, PlyStep, WinBound int32

	HistSize      int      // history entries per side, a power of two: index int(m) & (HistSize-1) (default 4096)
	KillerBonus   [2]int32 // added to the two killers' static ordering values
	KillerHistory bool     // the killers' ordering values include the history score
	RootHistory   bool     // so do the root moves' initial ones
	// Late-move reductions: the i-th move searched at a node of depth >= 3 (i >= 1, neither
	// killer) is searched Reductions[depth][i] plies shallower first (capped at depth-2; one
	// less on the principal variation with ReducePVLess), for the sides in ReduceSides (a bit
	// per side; default all) and moves whose ordering value is below ReduceBelow (default: any
	// move). Nil: none.
	Reductions   *LMR
	ReducePVLess bool
	ReduceSides  uint8
	ReduceBelow  int32
	// Aspiration is the first half-width of the aspiration window from depth 4 on (0: full
	// windows).
	Aspiration int32
	// Time are the time manager's rules on a clock (engine.TimeParams; zero: engine.DefaultTime).
	Time engine.TimeParams

	// RootTieMove orders root moves of equal keys by move value (else in generation order).
	RootTieMove bool
	// Staged: a node searches the table move and then the first killer (when Game.Legal says
	// they are legal) before it generates the moves; a cut by them costs no generation. The
	// killer is never reduced, and a cut among them penalises no other move's history.
	Staged bool
	// Reverse futility (Options.NoPrune turns it off), never in PV nodes: a node of depth <=
	// RFPDepth whose Static value stands RFPMargin a ply above beta (beta not a proven score)
	// is cut (0: none).
	RFPDepth  int
	RFPMargin int32

	// QuietBelow (0: none) marks the quiet moves: those whose sort key's value (static value
	// plus history, Order.Key) is below it; a game's order puts them last. At every node below
	// the root, PV nodes too, once QuietAfter moves are searched (default 2) and the best score
	// is above a proven loss, the quiet moves left are pruned (with pruning on).
	QuietBelow int32
	QuietAfter int
	// Futility pruning (FPDepth 0: none), with pruning on, at every node below the root: at a
	// depth <= FPDepth, once FPMoves moves are searched and the best is above a proven loss,
	// the node stops when its Static value + FPBase + FPMult*depth is at most alpha (alpha
	// not a proven win).
	FPDepth        int
	FPMoves        int
	FPBase, FPMult int32
	// Singular extensions (SEDepth 0: none, unless Options.Singular asks for the experiment at
	// SEDepth and SEMargin), with Staged only, at nodes off the principal variation: see
	// searcher.search.
	SEDepth  int
	SEMargin int32
	// TTCutPV lets the table cut principal-variation nodes below the root too.
	TTCutPV bool
	// IIRDepth (0: none, unless Options.IIR asks for the experiment at its IIRDepth): a node of
	// at least this depth that the table gives no move is searched a ply shallower.
	IIRDepth int
	// Late-move reductions, more: ReduceKillers reduces the killers too, ReduceRoot reduces
	// the root's late moves (by the same table), and LMRHistDiv (0: none) reduces a move by
	// its history score / LMRHistDiv less (more for a negative one).
	ReduceKillers, ReduceRoot bool
	LMRHistDiv                int32
	// History: a cut move's bonus (and the malus of the moves tried before it) is
	// min(HistMult*depth, HistMax) (HistMult 0: depth*depth); the order adds history/HistDiv
	// to a move's static value (default 8).
	HistMult, HistMax int32
	HistDiv           int32
	// Aspiration from AspDepth on (default 4); a failed window widens by AspGrow/16 of its
	// delta (default 32: doubling); AspFailHighShallower searches a ply shallower after a fail
	// high (back to the full depth after a fail low), and AspFailLowMid moves beta to the
	// middle of the failed window.
	AspDepth             int
	AspGrow              int32
	AspFailHighShallower bool
	AspFailLowMid        bool
}

// LogReductions is a late-move reduction table from a log formula: the move of index i >=
// minIndex (0 first) at depth d >= 3 is reduced round(base + mult*ln(d)*ln(i+1)) plies.
func LogReductions(base, mult float64, minIndex int) *LMR {
	var t LMR
	for d := 3; d < 64; d++ {
		for i := minIndex; i < 64; i++ {
			t[d][i] = int8(math.Round(base + mult*math.Log(float64(d))*math.Log(float64(i+1))))
		}
	}
	return &t
}

// withDefaults returns c with its zero fields set to their defaults.
func (c Config[M]) withDefaults() Config[M] {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MaxPly, 128)
	def(&c.MaxDepth, 100)
	def(&c.HistSize, 4096)
	def(&c.QuietAfter, 2)
	def(&c.AspDepth, 4)
	for _, f := range []struct {
		v *int32
		d int32
	}{{&c.WinScore, 30000}, {&c.PlyStep, 1}, {&c.WinBound, 20000}, {&c.ReduceBelow, 1 << 30}, {&c.HistDiv, 8}, {&c.AspGrow, 32}} {
		if *f.v == 0 {
			*f.v = f.d
		}
	}
	if c.Time == (engine.TimeParams{}) {
		c.Time = engine.DefaultTime
	}
	if c.ReduceSides == 0 {
		c.ReduceSides = 0xFF
	}
	return c
}

const (
	infinity  int32 = 32000
	checkMask       = 1023 // check the clock every 1024 nodes
)

type rootMove[M Move] struct {
	m     M
	order int64
	nodes int64 // spent below this move in the search so far
}

// searcher holds everything one search touches: buffers per ply sized at construction, so a
// node never allocates.
type searcher[P Position[P, M], M Move, G Game[P, M]] struct {
	cfg      *Config[M]
	g        G
	tt       *tt.Table[M]
	exactTT  bool
	lmr      bool
	prune    bool  // the pruning near the leaves (reverse futility, quiet moves, futility)
	iirDepth int   // internal iterative reduction from this depth (0: none)
	seDepth  int   // singular extensions from this depth (0: none)
	seMargin int32 // and their margin a ply

	excluded []M // per ply: the move a singular-extension test leaves out (NoMove: none)

	nodes     int64
	nodeLimit int64
	seldepth  int // the deepest ply the iteration reached
	pv        []M // the principal variation handed to Engine.Info
	start     time.Time
	hard      time.Duration
	stop      bool

	root      []rootMove[M]
	bestMove  M
	bestScore int32

	corr     Corrector[P] // the game's hooks, where they learn from the search (else nil)
	killers  [][2]M
	history  [2][]int32
	zeroHist [2][]int32 // no history: the root's order without RootHistory
	order    Order[M]
	moves    [][]M
	keys     [][]int64
}

func newSearcher[P Position[P, M], M Move, G Game[P, M]](cfg *Config[M], g G) *searcher[P, M, G] {
	s := &searcher[P, M, G]{cfg: cfg, g: g, root: make([]rootMove[M], 0, cfg.MaxMoves), pv: make([]M, 0, cfg.MaxPly)}
	s.killers = make([][2]M, cfg.MaxPly)
	s.excluded = make([]M, cfg.MaxPly)
	for i := range s.excluded {
		s.excluded[i] = cfg.NoMove
	}
	for i := range s.history {
		s.history[i] = make([]int32, cfg.HistSize)
		s.zeroHist[i] = make([]int32, cfg.HistSize)
	}
	s.order.bonus = cfg.KillerBonus
	if cfg.KillerHistory {
		s.order.killerHist = 1
	}
	s.order.mask = cfg.HistSize - 1
	s.order.histDiv = cfg.HistDiv
	moves := make([]M, cfg.MaxPly*cfg.MaxMoves)
	keys := make([]int64, cfg.MaxPly*cfg.MaxMoves)
	s.moves = make([][]M, cfg.MaxPly)
	s.keys = make([][]int64, cfg.MaxPly)
	for i := range cfg.MaxPly {
		lo, hi := i*cfg.MaxMoves, (i+1)*cfg.MaxMoves
		s.moves[i], s.keys[i] = moves[lo:hi:hi], keys[lo:hi:hi]
	}
	s.clearKillers()
	return s
}

// clearKillers empties the killer slots (the zero move: a killer only raises a move's place
// in the order, so a legal zero move there is harmless).
func (s *searcher[P, M, G]) clearKillers() { clear(s.killers) }

func (s *searcher[P, M, G]) resetStats() {
	s.clearKillers()
	clear(s.history[0])
	clear(s.history[1])
}

func (s *searcher[P, M, G]) histIndex(m M) int { return int(m) & (s.cfg.HistSize - 1) }

func (s *searcher[P, M, G]) updateHistory(side int, m M, bonus int32) {
	h := &s.history[side][s.histIndex(m)]
	a := max(bonus, -bonus)
	*h += bonus - *h*a/16384
}

func (s *searcher[P, M, G]) toTT(score int32, ply int) int32 {
	switch {
	case score >= s.cfg.WinBound:
		return score + s.cfg.PlyStep*int32(ply)
	case score <= -s.cfg.WinBound:
		return score - s.cfg.PlyStep*int32(ply)
	}
	return score
}

func (s *searcher[P, M, G]) fromTT(score int32, ply int) int32 {
	switch {
	case score >= s.cfg.WinBound:
		return score - s.cfg.PlyStep*int32(ply)
	case score <= -s.cfg.WinBound:
		return score + s.cfg.PlyStep*int32(ply)
	}
	return score
}

// checkStop is called every checkMask+1 nodes.
func (s *searcher[P, M, G]) checkStop() {
	if s.hard > 0 && time.Since(s.start) >= s.hard {
		s.stop = true
	}
}

// search is fail-soft negamax PVS. ply is the distance from the root.
func (s *searcher[P, M, G]) search(p P, depth int, alpha, beta int32, ply int, pv bool) int32 {
	s.nodes++
	if s.nodes&checkMask == 0 {
		s.checkStop()
	}
	s.seldepth = max(s.seldepth, ply)
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stop = true
	}
	if s.stop {
		return 0
	}
	v, done, depth, alpha, beta := s.g.Enter(p, ply, depth, alpha, beta)
	if done {
		return v
	}
	if depth <= 0 || ply >= s.cfg.MaxPly-1 {
		return s.g.Leaf(p, ply)
	}

	key := s.g.Key(p)
	ttMove := s.cfg.NoMove
	excluded := s.excluded[ply] // a singular-extension test's excluded move (else NoMove)
	var ttEntry tt.Entry[M]
	if s.tt != nil && excluded == s.cfg.NoMove {
		if en, ok := s.tt.Probe(key); ok {
			ttMove, ttEntry = en.Move, en
			if (!pv || s.cfg.TTCutPV && ply > 0) && (int(en.Depth) == depth || !s.exactTT && int(en.Depth) > depth) {
				v := s.fromTT(int32(en.Score), ply)
				switch {
				case en.Bound == tt.Exact,
					en.Bound == tt.Lower && v >= beta,
					en.Bound == tt.Upper && v <= alpha:
					return v
				}
			}
		}
	}

	// Internal iterative reduction: without a table move the ordering is poor and the node
	// likely new; it is searched a ply shallower.
	if s.iirDepth > 0 && depth >= s.iirDepth && ttMove == s.cfg.NoMove {
		depth--
	}

	// Reverse futility: near the leaves, a node that stands far enough above beta by its
	// static value alone is cut without a search.
	inBounds := beta > -s.cfg.WinBound && beta < s.cfg.WinBound
	static, haveStatic := int32(0), false
	if s.prune && !pv && depth <= s.cfg.RFPDepth && inBounds {
		static, haveStatic = s.g.Static(p, ply), true
		if static-s.cfg.RFPMargin*int32(depth) >= beta {
			return static
		}
	}

	// Singular extension: when the table says the table move holds beta at nearly this
	// depth, the node is searched without it, at half depth, against a bound below the
	// table's score; if nothing else reaches it the table move is singular and is searched a
	// ply deeper; if the bound is above beta, two moves beat beta and the node is cut.
	ext := 0
	if s.seDepth > 0 && !pv && ply > 0 && depth >= s.seDepth && ttMove != s.cfg.NoMove && ttEntry.Bound&tt.Lower != 0 &&
		int(ttEntry.Depth) >= depth-3 && s.g.Legal(p, ttMove) {
		if ttv := s.fromTT(int32(ttEntry.Score), ply); ttv > -s.cfg.WinBound && ttv < s.cfg.WinBound {
			sBeta := ttv - s.seMargin*int32(depth)
			s.excluded[ply] = ttMove
			v := s.search(p, (depth-1)/2, sBeta-1, sBeta, ply, false)
			s.excluded[ply] = s.cfg.NoMove
			if s.stop {
				return 0
			}
			switch {
			case v < sBeta:
				ext = 1
			case sBeta >= beta:
				return sBeta
			}
		}
	}

	origAlpha := alpha
	best := -infinity
	bestMove := s.cfg.NoMove
	k1, k2 := s.killers[ply][0], s.killers[ply][1]

	// Staged: the table move, then the first killer, before any move is generated.
	staged := [2]M{s.cfg.NoMove, s.cfg.NoMove}
	searched := 0
	if s.cfg.Staged {
		staged[0] = ttMove
		if k1 != ttMove {
			staged[1] = k1
		}
		for j, m := range staged {
			if m == excluded || !s.g.Legal(p, m) {
				staged[j] = s.cfg.NoMove
				continue
			}
			d := depth
			if m == ttMove {
				d += ext
			}
			v := s.child(p, m, d, 0, alpha, beta, ply, searched, pv)
			if s.stop {
				return 0
			}
			searched++
			if v > best {
				best, bestMove = v, m
				if v > alpha {
					alpha = v
					if v >= beta {
						s.updateHistory(p.ToMove(), m, s.histBonus(depth))
						s.setKiller(ply, m, k1)
						s.store(key, m, v, depth, ply, tt.Lower)
						return v
					}
				}
			}
		}
	}

	o := &s.order
	o.Keys, o.hist = s.keys[ply], s.history
	o.ttMove, o.k1, o.k2 = ttMove, k1, k2
	moves, side := s.g.Moves(p, s.moves[ply][:0], o)
	if moves[0] == s.cfg.Pass {
		if v, ok := s.g.Stuck(p, ply); ok {
			return v
		}
		return -s.search(s.g.Play(p, s.cfg.Pass, ply), depth-1, -beta, -alpha, ply+1, pv)
	}
	keys := s.keys[ply][:len(moves)]
	if searched > 0 || excluded != s.cfg.NoMove {
		// The staged moves are done (and the excluded one is not searched): drop them.
		n := 0
		for i, m := range moves {
			if m != staged[0] && m != staged[1] && m != excluded {
				keys[n] = keys[i]
				n++
			}
		}
		keys = keys[:n]
	}

	// The first moves are picked one at a time (a cut usually comes early), the rest sorted
	// once.
	reduce := s.lmr && depth >= 3 && s.cfg.ReduceSides>>side&1 != 0
	quiet := s.prune && s.cfg.QuietBelow != 0 && ply > 0
	fp := s.prune && ply > 0 && depth <= s.cfg.FPDepth && alpha < s.cfg.WinBound
	const picks = 3
	n := len(keys)
	for i := 0; i < n; i++ {
		if i < picks {
			bi := i
			for j := i + 1; j < n; j++ {
				if keys[j] < keys[bi] {
					bi = j
				}
			}
			keys[i], keys[bi] = keys[bi], keys[i]
		} else if i == picks {
			slices.Sort(keys[i:n])
		}
		m := M(keys[i] & 0xFFFF)
		idx := i + searched // the move's rank at this node
		if best > -s.cfg.WinBound {
			// The moves are sorted: once one is quiet, so are all the rest.
			if quiet && idx >= s.cfg.QuietAfter && -(keys[i]>>16) < int64(s.cfg.QuietBelow) {
				break
			}
			if fp && idx >= s.cfg.FPMoves {
				if !haveStatic {
					static, haveStatic = s.g.Static(p, ply), true
				}
				if static+s.cfg.FPBase+s.cfg.FPMult*int32(depth) <= alpha {
					break
				}
			}
		}
		r := 0
		if idx > 0 && reduce && (s.cfg.ReduceKillers || m != k1 && m != k2) && -(keys[i]>>16) < int64(s.cfg.ReduceBelow) {
			r = s.reduction(depth, idx, pv, side, m)
		}
		v := s.child(p, m, depth, r, alpha, beta, ply, idx, pv)
		if s.stop {
			return 0
		}
		if v > best {
			best = v
			bestMove = m
			if v > alpha {
				alpha = v
				if v >= beta {
					bonus := s.histBonus(depth)
					s.updateHistory(side, m, bonus)
					for j := 0; j < i; j++ {
						s.updateHistory(side, M(keys[j]&0xFFFF), -bonus)
					}
					for _, sm := range staged {
						if sm != s.cfg.NoMove {
							s.updateHistory(side, sm, -bonus)
						}
					}
					s.setKiller(ply, m, k1)
					break
				}
			}
		}
	}

	bound := tt.Upper
	switch {
	case best >= beta:
		bound = tt.Lower
	case best > origAlpha:
		bound = tt.Exact
	}
	s.store(key, bestMove, best, depth, ply, bound)
	if s.corr != nil && excluded == s.cfg.NoMove && best > -s.cfg.WinBound && best < s.cfg.WinBound {
		s.corr.After(p, ply, depth, best, bound)
	}
	return best
}

// reduction is the late-move reduction of the idx-th move m searched at a node of depth
// (by the side to move side): the table's, one less on the principal variation with
// ReducePVLess, less by its history with LMRHistDiv, within [0, depth-2].
func (s *searcher[P, M, G]) reduction(depth, idx int, pv bool, side int, m M) int {
	r := int(s.cfg.Reductions[min(depth, 63)][min(idx, 63)])
	if pv && s.cfg.ReducePVLess {
		r--
	}
	if s.cfg.LMRHistDiv != 0 {
		// history / LMRHistDiv rounded half away from zero
		h, d := s.history[side&1][s.histIndex(m)], s.cfg.LMRHistDiv
		if h >= 0 {
			r -= int((2*h + d) / (2 * d))
		} else {
			r += int((-2*h + d) / (2 * d))
		}
	}
	return min(max(r, 0), depth-2)
}

// histBonus is the history bonus of a cut at depth (and the malus of the moves tried first).
func (s *searcher[P, M, G]) histBonus(depth int) int32 {
	if s.cfg.HistMult == 0 {
		return int32(depth * depth)
	}
	return min(s.cfg.HistMult*int32(depth), s.cfg.HistMax)
}

// child searches the child of p (at ply) by m, the idx-th move searched at p: the first with
// the full window, the others with a null window first (r plies shallower, then at full
// depth if it beats alpha), then, on the principal variation, with the full window again if
// the score falls inside it.
func (s *searcher[P, M, G]) child(p P, m M, depth, r int, alpha, beta int32, ply, idx int, pv bool) int32 {
	c := s.g.Play(p, m, ply)
	if idx == 0 {
		return -s.search(c, depth-1, -beta, -alpha, ply+1, pv)
	}
	v := -s.search(c, depth-1-r, -alpha-1, -alpha, ply+1, false)
	if v > alpha && r > 0 {
		v = -s.search(c, depth-1, -alpha-1, -alpha, ply+1, false)
	}
	if pv && v > alpha && v < beta {
		v = -s.search(c, depth-1, -beta, -alpha, ply+1, true)
	}
	return v
}

// setKiller makes m the first killer at ply (k1 the one before it).
func (s *searcher[P, M, G]) setKiller(ply int, m, k1 M) {
	if m != k1 {
		s.killers[ply][1] = k1
		s.killers[ply][0] = m
	}
}

// store writes a search result to the table (if any; not that of a search without a move).
func (s *searcher[P, M, G]) store(key uint64, m M, v int32, depth, ply int, bound uint8) {
	if s.tt != nil && s.excluded[ply] == s.cfg.NoMove {
		s.tt.Store(key, m, s.toTT(v, ply), depth, bound)
	}
}

// searchRoot searches the root moves in their current order; the best one found with a score
// above alpha moves to the front and becomes s.bestMove.
func (s *searcher[P, M, G]) searchRoot(p P, depth int, alpha, beta int32) int32 {
	s.nodes++
	best := -infinity
	side := p.ToMove()
	for i := range s.root {
		m := s.root[i].m
		r := 0
		if s.cfg.ReduceRoot && s.lmr && depth >= 3 && i > 0 && s.cfg.ReduceSides>>side&1 != 0 {
			r = s.reduction(depth, i, true, side, m)
		}
		n0 := s.nodes
		v := s.child(p, m, depth, r, alpha, beta, 0, i, true)
		s.root[i].nodes += s.nodes - n0
		if s.stop {
			return best
		}
		best = max(best, v)
		if v > alpha {
			alpha = v
			rm := s.root[i]
			copy(s.root[1:i+1], s.root[:i])
			s.root[0] = rm
			s.bestMove, s.bestScore = m, v
			if v >= beta {
				break
			}
		}
	}
	return best
}

// begin readies s for a search of e's within b (its node limit and hard time; zero: none):
// its table and options, no nodes counted yet.
func (s *searcher[P, M, G]) begin(e *Engine[P, M, G], b Budget) {
	s.g = e.Game
	s.corr = nil
	if !e.Opts.NoCorrection {
		s.corr, _ = any(e.Game).(Corrector[P])
	}
	s.tt = nil
	if e.tt.Allocated() {
		s.tt = &e.tt
	}
	s.exactTT = e.ExactTT
	s.lmr = !e.Opts.NoLMR && s.cfg.Reductions != nil
	s.prune = !e.Opts.NoPrune && (s.cfg.RFPDepth > 0 || s.cfg.QuietBelow != 0 || s.cfg.FPDepth > 0)
	s.iirDepth = s.cfg.IIRDepth
	if s.iirDepth == 0 && e.Opts.IIR {
		s.iirDepth = IIRDepth
	}
	s.seDepth, s.seMargin = s.cfg.SEDepth, s.cfg.SEMargin
	if s.seDepth == 0 && e.Opts.Singular {
		s.seDepth, s.seMargin = SEDepth, SEMargin
	}
	if !s.cfg.Staged {
		s.seDepth = 0
	}
	s.nodes, s.nodeLimit, s.seldepth = 0, b.Nodes, 0
	s.start, s.hard = b.Start, b.Hard
	s.stop = false
}

// run is the iterative-deepening driver within b. The root moves in exclude are not searched
// unless they are all the moves there are.
func (s *searcher[P, M, G]) run(e *Engine[P, M, G], pos P, b Budget, exclude []M) M {
	s.begin(e, b)
	start := b.Start
	if s.tt != nil {
		e.tt.NextSearch()
	}
	e.lastDepth, e.lastScore, e.lastNodes = 0, 0, 0

	o := &s.order
	o.Keys, o.hist = s.keys[0], s.zeroHist
	if s.cfg.RootHistory {
		o.hist = s.history
	}
	o.ttMove, o.k1, o.k2 = s.cfg.NoMove, s.cfg.NoMove, s.cfg.NoMove
	moves, _ := s.g.Moves(pos, s.moves[0][:0], o)
	if len(moves) == 0 {
		return s.cfg.NoMove
	}
	if len(moves) == 1 {
		return moves[0]
	}
	if len(exclude) >= len(moves) {
		exclude = nil
	}
	s.g.Root(pos)
	// Initial root order: the table move, then the static order; the seed breaks ties.
	ttMove := s.cfg.NoMove
	if s.tt != nil {
		if en, ok := s.tt.Probe(s.g.Key(pos)); ok {
			ttMove = en.Move
		}
	}
	s.root = s.root[:0]
	for i, m := range moves {
		if slices.Contains(exclude, m) {
			continue
		}
		k := -(s.keys[0][i] >> 16)
		if m == ttMove {
			k = 1 << 40
		}
		k <<= 16
		if e.Opts.Seed != 0 {
			k += int64(splitmix.Mix(e.Opts.Seed^uint64(m)^pos.Hash()) & 0xFFFF)
		}
		s.root = append(s.root, rootMove[M]{m: m, order: k})
	}
	tieMove := s.cfg.RootTieMove
	slices.SortStableFunc(s.root, func(a, b rootMove[M]) int {
		switch {
		case a.order > b.order:
			return -1
		case a.order < b.order:
			return 1
		case tieMove:
			return int(a.m) - int(b.m)
		}
		return 0
	})
	s.bestMove, s.bestScore = s.root[0].m, 0
	s.clearKillers()

	maxD := s.cfg.MaxDepth
	if b.Depth > 0 {
		maxD = min(b.Depth, maxD)
	}
	Deepen(s.cfg, maxD,
		func(d int, a, b int32) int32 { return s.searchRoot(pos, d, a, b) },
		func() bool { return s.stop },
		func(d int, v int32) bool {
			e.lastDepth, e.lastScore = d, s.bestScore
			if e.Info != nil {
				e.Info(engine.Iteration[M]{Depth: d, SelDepth: s.seldepth, Score: s.bestScore, Nodes: s.nodes,
					Elapsed: time.Since(start), PV: s.principal(pos, d)})
			}
			s.seldepth = 0
			if b.TM != nil {
				elapsed := int64(time.Since(start))
				if b.NodeClock {
					elapsed = s.nodes
				}
				if b.TM.Iteration(d, elapsed, uint32(s.bestMove), s.bestScore, s.rootNodes(s.bestMove), s.nodes) {
					return true
				}
			}
			return b.SoftNodes > 0 && s.nodes >= b.SoftNodes
		})
	e.lastNodes = s.nodes
	return s.bestMove
}

// rootNodes is the nodes spent below the root move m in this search.
func (s *searcher[P, M, G]) rootNodes(m M) int64 {
	for _, r := range s.root {
		if r.m == m {
			return r.nodes
		}
	}
	return 0
}

// principal is the principal variation of the last iteration, at most depth moves: the best
// root move, then the table's move at each position while it is legal there.
func (s *searcher[P, M, G]) principal(pos P, depth int) []M {
	pv := append(s.pv[:0], s.bestMove)
	p := pos.Apply(s.bestMove)
	o := &s.order
	for s.tt != nil && len(pv) < min(depth, s.cfg.MaxPly-1) {
		en, ok := s.tt.Probe(s.g.Key(p))
		if !ok || en.Move == s.cfg.NoMove {
			break
		}
		o.Keys, o.hist = s.keys[len(pv)], s.zeroHist
		o.ttMove, o.k1, o.k2 = s.cfg.NoMove, s.cfg.NoMove, s.cfg.NoMove
		if moves, _ := s.g.Moves(p, s.moves[len(pv)][:0], o); !slices.Contains(moves, en.Move) {
			break
		}
		pv = append(pv, en.Move)
		p = p.Apply(en.Move)
	}
	s.pv = pv
	return pv
}

// Deepen is iterative deepening from depth 1 to maxDepth, with c's aspiration and scores.
// search(d, alpha, beta) searches the root to depth d: with the full window below
// c.AspDepth, at a proven score or with c.Aspiration 0, else in a window of ±Aspiration
// around the last score that widens by AspGrow/16 on each fail (a fail high a ply shallower
// with AspFailHighShallower; a fail low with beta moved to the window's middle with
// AspFailLowMid). stopped reports an aborted search, which ends the deepening without done;
// done(d, v) is called after each finished iteration and ends it by returning true, and so
// does a proven result within the searched depth (|v| >= WinScore - PlyStep*d beyond
// WinBound).
func Deepen[M Move](c *Config[M], maxDepth int, search func(d int, alpha, beta int32) int32, stopped func() bool, done func(d int, v int32) bool) {
	prev := int32(0)
	winBound := c.WinBound
	for d := 1; d <= maxDepth; d++ {
		var v int32
		if c.Aspiration <= 0 || d < c.AspDepth || prev >= winBound || prev <= -winBound {
			v = search(d, -infinity, infinity)
		} else {
			delta := c.Aspiration
			a, b := prev-delta, prev+delta
			sd := d
			for {
				v = search(sd, a, b)
				if stopped() {
					break
				}
				if v <= a {
					if c.AspFailLowMid {
						b = (a + b) / 2
					}
					a = max(a-delta, -infinity)
					sd = d
				} else if v >= b {
					b = min(b+delta, infinity)
					if c.AspFailHighShallower && sd > 1 {
						sd--
					}
				} else {
					break
				}
				delta = delta * c.AspGrow / 16
			}
		}
		if stopped() {
			return
		}
		prev = v
		if done(d, v) {
			return
		}
		// A proven result within the searched depth cannot change.
		if (v >= winBound || v <= -winBound) && max(v, -v) >= c.WinScore-c.PlyStep*int32(d) {
			return
		}
	}
}
