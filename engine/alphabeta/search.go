// Package alphabeta is the alpha-beta search of Colony's classical engines, for any two-player
// game with 16-bit moves: iterative deepening with optional aspiration windows, fail-soft
// negamax principal-variation search, a transposition table (engine/tt), killer and history
// move ordering, late-move reductions, and the clock split of the judge's whole-game clock.
// What is game-specific (the evaluation, the static move order, terminal and forced scores,
// extensions, the reductions, the table key) comes from the game's Game hooks; Engine is the
// part of an engine every game shares (options, table, statistics, limits).
//
// Positions are passed by value (copy-make) and every buffer is sized when the searcher is
// built, so a search does not allocate.
package alphabeta

import (
	"slices"
	"time"

	"colony/engine/tt"
	"colony/games"
)

// Move is a game's move type: 16 bits, so that it packs with its ordering key into an int64.
type Move interface{ ~uint16 }

// Position is what the search asks of a position itself (copy-make Apply, value receivers).
type Position[P any, M Move] interface {
	Hash() uint64
	Apply(m M) P
}

// Game is the game-specific part of a search. The search calls it at every node, so its
// methods should be cheap and must not allocate; the few calls a node makes are merged so that
// little is spent on calling them.
type Game[P any, M Move] interface {
	// Enter is called on entering every node below the root, before anything else: done with
	// score when p's value is known without a search (a finished game, a forced result); else
	// the depth to search p to (depth, or more for an extension), the window (alpha, beta, or
	// narrower: mate-distance pruning) and p's transposition-table key (the hash, or more where
	// the value depends on more).
	Enter(p P, ply, depth int, alpha, beta int32) (score int32, done bool, newDepth int, newAlpha, newBeta int32, key uint64)
	// Key is p's transposition-table key, as Enter gives it (for the root).
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
}

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
}

// Side selects the history of the side to move.
func (o *Order[M]) Side(side int) { o.cur = o.hist[side&1] }

// Key is the sort key of m, given its static ordering value v.
func (o *Order[M]) Key(m M, v int32) int64 {
	h := o.cur[int(m)&o.mask] / 8
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
	ReserveDiv int // ClockSplit keeps min(myTime/ReserveDiv, 300 ms) in reserve (default 4)
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
	def(&c.ReserveDiv, 4)
	for _, f := range []struct {
		v *int32
		d int32
	}{{&c.WinScore, 30000}, {&c.PlyStep, 1}, {&c.WinBound, 20000}, {&c.ReduceBelow, 1 << 30}} {
		if *f.v == 0 {
			*f.v = f.d
		}
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
}

// searcher holds everything one search touches: buffers per ply sized at construction, so a
// node never allocates.
type searcher[P Position[P, M], M Move, G Game[P, M]] struct {
	cfg     *Config[M]
	g       G
	tt      *tt.Table[M]
	exactTT bool
	lmr     bool

	nodes     int64
	nodeLimit int64
	start     time.Time
	hard      time.Duration
	stop      bool

	root      []rootMove[M]
	bestMove  M
	bestScore int32

	killers  [][2]M
	history  [2][]int32
	zeroHist [2][]int32 // no history: the root's order without RootHistory
	order    Order[M]
	moves    [][]M
	keys     [][]int64
}

func newSearcher[P Position[P, M], M Move, G Game[P, M]](cfg *Config[M], g G) *searcher[P, M, G] {
	s := &searcher[P, M, G]{cfg: cfg, g: g, root: make([]rootMove[M], 0, cfg.MaxMoves)}
	s.killers = make([][2]M, cfg.MaxPly)
	for i := range s.history {
		s.history[i] = make([]int32, cfg.HistSize)
		s.zeroHist[i] = make([]int32, cfg.HistSize)
	}
	s.order.bonus = cfg.KillerBonus
	if cfg.KillerHistory {
		s.order.killerHist = 1
	}
	s.order.mask = cfg.HistSize - 1
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
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stop = true
	}
	if s.stop {
		return 0
	}
	v, done, depth, alpha, beta, key := s.g.Enter(p, ply, depth, alpha, beta)
	if done {
		return v
	}
	if depth <= 0 || ply >= s.cfg.MaxPly-1 {
		return s.g.Leaf(p, ply)
	}

	ttMove := s.cfg.NoMove
	if s.tt != nil {
		if en, ok := s.tt.Probe(key); ok {
			ttMove = en.Move
			if !pv && (int(en.Depth) == depth || !s.exactTT && int(en.Depth) > depth) {
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

	k1, k2 := s.killers[ply][0], s.killers[ply][1]
	o := &s.order
	o.Keys, o.hist = s.keys[ply], s.history
	o.ttMove, o.k1, o.k2 = ttMove, k1, k2
	moves, side := s.g.Moves(p, s.moves[ply][:0], o)
	if moves[0] == s.cfg.Pass {
		if v, ok := s.g.Stuck(p, ply); ok {
			return v
		}
		return -s.search(p.Apply(s.cfg.Pass), depth-1, -beta, -alpha, ply+1, pv)
	}
	keys := s.keys[ply][:len(moves)]

	origAlpha := alpha
	best := -infinity
	bestMove := s.cfg.NoMove
	reduce := s.lmr && depth >= 3 && s.cfg.ReduceSides>>side&1 != 0
	n := len(keys)
	for i := 0; i < n; i++ {
		// Selection for the first few moves (most nodes cut early), then one sort.
		if i < 3 {
			bi := i
			for j := i + 1; j < n; j++ {
				if keys[j] < keys[bi] {
					bi = j
				}
			}
			keys[i], keys[bi] = keys[bi], keys[i]
		} else if i == 3 {
			slices.Sort(keys[3:n])
		}
		m := M(keys[i] & 0xFFFF)
		c := p.Apply(m)
		var v int32
		if i == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, ply+1, pv)
		} else {
			r := 0
			if reduce && m != k1 && m != k2 && -(keys[i]>>16) < int64(s.cfg.ReduceBelow) {
				r = int(s.cfg.Reductions[min(depth, 63)][min(i, 63)])
				if pv && r > 0 && s.cfg.ReducePVLess {
					r--
				}
				r = min(r, depth-2)
			}
			v = -s.search(c, depth-1-r, -alpha-1, -alpha, ply+1, false)
			if v > alpha && r > 0 {
				v = -s.search(c, depth-1, -alpha-1, -alpha, ply+1, false)
			}
			if pv && v > alpha && v < beta {
				v = -s.search(c, depth-1, -beta, -alpha, ply+1, true)
			}
		}
		if s.stop {
			return 0
		}
		if v > best {
			best = v
			bestMove = m
			if v > alpha {
				alpha = v
				if v >= beta {
					bonus := int32(depth * depth)
					s.updateHistory(side, m, bonus)
					for j := 0; j < i; j++ {
						s.updateHistory(side, M(keys[j]&0xFFFF), -bonus)
					}
					if m != k1 {
						s.killers[ply][1] = k1
						s.killers[ply][0] = m
					}
					break
				}
			}
		}
	}

	if s.tt != nil {
		bound := tt.Upper
		switch {
		case best >= beta:
			bound = tt.Lower
		case best > origAlpha:
			bound = tt.Exact
		}
		s.tt.Store(key, bestMove, s.toTT(best, ply), depth, bound)
	}
	return best
}

// searchRoot searches the root moves in their current order; the best one found with a score
// above alpha moves to the front and becomes s.bestMove.
func (s *searcher[P, M, G]) searchRoot(p P, depth int, alpha, beta int32) int32 {
	s.nodes++
	best := -infinity
	for i := range s.root {
		m := s.root[i].m
		c := p.Apply(m)
		var v int32
		if i == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, 1, true)
		} else {
			v = -s.search(c, depth-1, -alpha-1, -alpha, 1, false)
			if v > alpha && v < beta {
				v = -s.search(c, depth-1, -beta, -alpha, 1, true)
			}
		}
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

// begin readies s for a search of e's: its table and options, no nodes counted yet. A zero
// hard time and node limit mean no limit.
func (s *searcher[P, M, G]) begin(e *Engine[P, M, G], start time.Time, hard time.Duration, nodeLimit int64) {
	s.g = e.Game
	s.tt = nil
	if e.tt.Allocated() {
		s.tt = &e.tt
	}
	s.exactTT = e.ExactTT
	s.lmr = !e.Opts.NoLMR && s.cfg.Reductions != nil
	s.nodes, s.nodeLimit = 0, nodeLimit
	s.start, s.hard = start, hard
	s.stop = false
}

// run is the iterative-deepening driver. The root moves in exclude are not searched unless
// they are all the moves there are.
func (s *searcher[P, M, G]) run(e *Engine[P, M, G], pos P, start time.Time, soft, hard time.Duration, depthLimit int, nodeLimit int64, exclude []M) M {
	s.begin(e, start, hard, nodeLimit)
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
			k += int64(Mix(e.Opts.Seed^uint64(m)^pos.Hash()) & 0xFFFF)
		}
		s.root = append(s.root, rootMove[M]{m: m, order: k})
	}
	slices.SortStableFunc(s.root, func(a, b rootMove[M]) int {
		switch {
		case a.order > b.order:
			return -1
		case a.order < b.order:
			return 1
		}
		return 0
	})
	s.bestMove, s.bestScore = s.root[0].m, 0
	s.clearKillers()

	maxD := s.cfg.MaxDepth
	if depthLimit > 0 {
		maxD = min(depthLimit, maxD)
	}
	Deepen(maxD, s.cfg.Aspiration, s.cfg.WinScore, s.cfg.PlyStep, s.cfg.WinBound,
		func(d int, a, b int32) int32 { return s.searchRoot(pos, d, a, b) },
		func() bool { return s.stop },
		func(d int, v int32) bool {
			e.lastDepth, e.lastScore = d, s.bestScore
			return soft > 0 && time.Since(start) >= soft/2
		})
	e.lastNodes = s.nodes
	return s.bestMove
}

// Mix is games.Mix: the seed's tie-break of equal root moves.
func Mix(z uint64) uint64 { return games.Mix(z) }

// Deepen is iterative deepening from depth 1 to maxDepth. search(d, alpha, beta) searches the
// root: with the full window below depth 4, at a proven score or with aspiration 0, else in a
// window of ±aspiration around the last score that widens (doubling) on each fail. stopped
// reports an aborted search, which ends the deepening without done; done(d, v) is called
// after each finished iteration and ends it by returning true, and so does a proven result
// within the searched depth (|v| >= winScore - plyStep*d beyond winBound).
func Deepen(maxDepth int, aspiration, winScore, plyStep, winBound int32, search func(d int, alpha, beta int32) int32, stopped func() bool, done func(d int, v int32) bool) {
	prev := int32(0)
	for d := 1; d <= maxDepth; d++ {
		var v int32
		if aspiration <= 0 || d < 4 || prev >= winBound || prev <= -winBound {
			v = search(d, -infinity, infinity)
		} else {
			delta := aspiration
			a, b := prev-delta, prev+delta
			for {
				v = search(d, a, b)
				if stopped() {
					break
				}
				if v <= a {
					a = max(a-delta, -infinity)
				} else if v >= b {
					b = min(b+delta, infinity)
				} else {
					break
				}
				delta *= 2
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
		if (v >= winBound || v <= -winBound) && max(v, -v) >= winScore-plyStep*int32(d) {
			return
		}
	}
}
