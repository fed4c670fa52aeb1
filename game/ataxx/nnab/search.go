package nnab

import (
	"math/bits"
	"slices"
	"time"

	ab "colony/engine/alphabeta"
	"colony/engine/tt"
	"colony/game/ataxx"
	"colony/game/ataxx/alphabeta"
	"colony/nn/nnue"
)

// Scores are hundredths of a piece for the side to move (the net's logit x its ScoreScale).
// Finished games and forced passes with a known end score as in game/ataxx/alphabeta
// (TerminalScore, StuckScore: the two searches agree); the net's scores are clamped inside ±(winBound-1).
const (
	infinity  int32 = 32000
	winScore        = alphabeta.WinScore
	plyStep         = alphabeta.PlyStep
	winBound        = alphabeta.WinBound
	checkMask       = 1023

	// Pruning near the leaves (Options.NoPrune turns it off): reverse futility up to rfpDepth
	// with rfpMargin a ply, late-move pruning up to lmpDepth after lmpCount[depth] moves.
	lmpDepth = 3
)

var (
	rfpDepth        = 3
	rfpMargin int32 = 120
	lmpCount        = [lmpDepth + 1]int{0, 8, 14, 24}
)

var turnKeys [ataxx.MaxTurns + 2]uint64

func init() {
	s := uint64(0x6e6e61622d747572) // "nnab-tur"
	for i := range turnKeys {
		turnKeys[i] = mix(&s)
	}
}

func mix(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// ttKey mixes the turn count into the hash: the turn cap makes a position's value depend on it.
func ttKey(p *ataxx.Position) uint64 { return p.Hash() ^ turnKeys[p.Turns()] }

// delta is how the accumulator of a ply follows from its parent's.
type delta struct {
	pass  bool
	mover int
	to    int
	from  int // -1 for a division
	flips uint64
}

type searcher struct {
	net   *nnue.Net
	tt    *tt.Table[ataxx.Move]
	lmr   bool
	null  bool
	prune bool
	acc   [maxPly + 1]nnue.Acc
	accOK [maxPly + 1]bool
	delta [maxPly + 1]delta

	nodes     int64
	nodeLimit int64
	start     time.Time
	hard      time.Duration
	stop      bool

	root      []ataxx.Move
	rootKeys  []int64
	bestMove  ataxx.Move
	bestScore int32

	killers [maxPly][2]ataxx.Move
	history [2][4096]int32
	moves   [maxPly][ataxx.MaxMoves]ataxx.Move
	keys    [maxPly][ataxx.MaxMoves]int64
}

func newSearcher(net *nnue.Net) *searcher {
	s := &searcher{net: net, root: make([]ataxx.Move, 0, ataxx.MaxMoves), rootKeys: make([]int64, 0, ataxx.MaxMoves)}
	for i := range s.acc {
		s.acc[i] = net.NewAcc()
	}
	return s
}

func (s *searcher) resetStats() {
	s.killers = [maxPly][2]ataxx.Move{}
	s.history = [2][4096]int32{}
}

func (s *searcher) begin(e *Engine, start time.Time, hard time.Duration, nodeLimit int64) {
	s.tt = nil
	if e.tt.Allocated() {
		s.tt = &e.tt
	}
	s.lmr, s.null, s.prune = !e.opts.NoLMR, e.opts.Null, !e.opts.NoPrune
	s.nodes, s.nodeLimit = 0, nodeLimit
	s.start, s.hard = start, hard
	s.stop = false
}

// setRoot computes the root accumulator from scratch.
func (s *searcher) setRoot(p *ataxx.Position) {
	s.net.Refresh(s.acc[0], Pieces(p))
	s.accOK[0] = true
}

// ensure brings the accumulator of ply up to date from its parent's.
func (s *searcher) ensure(ply int) {
	if s.accOK[ply] {
		return
	}
	s.ensure(ply - 1)
	d := &s.delta[ply]
	if d.pass {
		copy(s.acc[ply], s.acc[ply-1])
	} else {
		s.net.Move(s.acc[ply], s.acc[ply-1], d.mover, d.to, d.from, d.flips)
	}
	s.accOK[ply] = true
}

// play returns the child of p by m (p at ply) and records its accumulator delta.
func (s *searcher) play(p *ataxx.Position, m ataxx.Move, ply int) ataxx.Position {
	d := &s.delta[ply+1]
	s.accOK[ply+1] = false
	if m == ataxx.Pass {
		d.pass = true
	} else {
		side := p.ToMove()
		to := m.To()
		*d = delta{mover: side, to: to, from: -1, flips: ataxx.Neighbours(to) & p.Pieces(side^1)}
		if m.IsJump() {
			d.from = m.From()
		}
	}
	return p.Apply(m)
}

// evaluate is the net's score of the position at ply for its side to move.
func (s *searcher) evaluate(side, ply int) int32 {
	s.ensure(ply)
	v := s.net.Evaluate(s.acc[ply], side)
	return min(max(v, -winBound+1), winBound-1)
}

func toTT(v int32, ply int) int32 {
	switch {
	case v >= winBound:
		return v + plyStep*int32(ply)
	case v <= -winBound:
		return v - plyStep*int32(ply)
	}
	return v
}

func fromTT(v int32, ply int) int32 {
	switch {
	case v >= winBound:
		return v - plyStep*int32(ply)
	case v <= -winBound:
		return v + plyStep*int32(ply)
	}
	return v
}

// orderKey: the gain of m in pieces (captures twice, a division one more), a leap's hole
// next to own pieces as a cost, plus the history score.
func (s *searcher) orderKey(m ataxx.Move, us, them uint64, side int) int32 {
	to := m.To()
	k := 2000 * int32(bits.OnesCount64(ataxx.Neighbours(to)&them))
	if m.IsClone() {
		k += 1000
	} else {
		k -= 700 + 250*int32(bits.OnesCount64(ataxx.Neighbours(m.From())&us&^(1<<to)))
	}
	return k + s.history[side][m&4095]/8
}

func (s *searcher) updateHistory(side int, m ataxx.Move, bonus int32) {
	h := &s.history[side][m&4095]
	a := bonus
	if a < 0 {
		a = -a
	}
	*h += bonus - *h*a/16384
}

func (s *searcher) checkStop() {
	if s.hard > 0 && time.Since(s.start) >= s.hard {
		s.stop = true
	}
}

// search is fail-soft negamax PVS; p is the position at ply (its accumulator delta recorded).
func (s *searcher) search(p ataxx.Position, depth int, alpha, beta int32, ply int, pv, nullOK bool) int32 {
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
	if p.Terminal() {
		return alphabeta.TerminalScore(&p, ply)
	}
	side := p.ToMove()
	us, them := p.Pieces(side), p.Pieces(side^1)
	if depth <= 0 || ply >= maxPly-1 {
		if ataxx.Dilate(ataxx.Dilate(us))&p.Empty() == 0 {
			if v, ok := alphabeta.StuckScore(&p, ply); ok {
				return v
			}
		}
		return s.evaluate(side, ply)
	}

	key := ttKey(&p)
	ttMove := ataxx.NoMove
	if s.tt != nil {
		if en, ok := s.tt.Probe(key); ok {
			ttMove = en.Move
			if !pv && int(en.Depth) >= depth {
				v := fromTT(int32(en.Score), ply)
				switch {
				case en.Bound == tt.Exact,
					en.Bound == tt.Lower && v >= beta,
					en.Bound == tt.Upper && v <= alpha:
					return v
				}
			}
		}
	}

	// Reverse futility: near the leaves, a node that stands far enough above beta by the net
	// alone is cut without a search (not in PV nodes, not near a proven score).
	static, haveStatic := int32(0), false
	if s.prune && !pv && depth <= rfpDepth && beta > -winBound && beta < winBound {
		static, haveStatic = s.evaluate(side, ply), true
		if static-rfpMargin*int32(depth) >= beta {
			return static
		}
	}

	// Null move: give the opponent a free move; if we still stand above beta at reduced depth,
	// cut. Not in PV nodes, not twice in a row, not near a proven score.
	if s.null && nullOK && !pv && depth >= 3 && beta > -winBound && beta < winBound && p.HasMove() {
		if !haveStatic {
			static = s.evaluate(side, ply)
		}
		if static >= beta {
			r := 2 + depth/4
			c := s.play(&p, ataxx.Pass, ply)
			v := -s.search(c, depth-1-r, -beta, -beta+1, ply+1, false, false)
			if s.stop {
				return 0
			}
			if v >= beta {
				return v
			}
		}
	}

	// Staged: the table's move is searched before any move is generated; a cut by it costs no
	// generation and no ordering.
	origAlpha := alpha
	best := -infinity
	bestMove := ataxx.NoMove
	searched := 0
	k1, k2 := s.killers[ply][0], s.killers[ply][1]
	staged := [2]ataxx.Move{ttMove, ataxx.NoMove}
	if k1 != ttMove {
		staged[1] = k1
	}
	for _, m := range staged {
		if m >= ataxx.NoMove || !p.IsLegal(m) {
			continue
		}
		c := s.play(&p, m, ply)
		var v int32
		if searched == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, ply+1, pv, true)
		} else {
			v = -s.search(c, depth-1, -alpha-1, -alpha, ply+1, false, true)
			if pv && v > alpha && v < beta {
				v = -s.search(c, depth-1, -beta, -alpha, ply+1, true, true)
			}
		}
		if s.stop {
			return 0
		}
		searched++
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if v >= beta {
					s.updateHistory(side, m, int32(depth*depth))
					if m != k1 {
						s.killers[ply][1], s.killers[ply][0] = k1, m
					}
					s.store(key, m, v, depth, ply, tt.Lower)
					return v
				}
			}
		}
	}

	moves := p.LegalMoves(s.moves[ply][:0])
	if moves[0] == ataxx.Pass {
		if v, ok := alphabeta.StuckScore(&p, ply); ok {
			return v
		}
		c := s.play(&p, ataxx.Pass, ply)
		return -s.search(c, depth-1, -beta, -alpha, ply+1, pv, false)
	}

	keys := s.keys[ply][:0]
	for _, m := range moves {
		var k int32
		switch m {
		case staged[0], staged[1]:
			continue // searched above
		case k1:
			k = s.orderKey(m, us, them, side) + 3000
		case k2:
			k = s.orderKey(m, us, them, side) + 2500
		default:
			k = s.orderKey(m, us, them, side)
		}
		keys = append(keys, int64(-k)<<16|int64(m))
	}

	// The first moves are picked one at a time (a cut usually comes early); the rest are sorted
	// once. Where late-move pruning applies, the picks cover every move it can let through.
	n := len(keys)
	picks := 3
	if s.prune && !pv && depth <= lmpDepth {
		picks = max(lmpCount[depth]-searched, 0)
	}
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
		m := ataxx.Move(keys[i] & 0xFFFF)
		idx := i + searched // the move's rank at this node
		// Late-move pruning: near the leaves, once the best-ordered moves have been searched,
		// the rest (the weakest by the static order) are skipped (not in PV nodes, and only
		// once a move has a score that is not a proven loss).
		if s.prune && !pv && depth <= lmpDepth && idx >= lmpCount[depth] && best > -winBound {
			break
		}
		c := s.play(&p, m, ply)
		var v int32
		if idx == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, ply+1, pv, true)
		} else {
			r := 0
			if s.lmr && depth >= 3 && m != k1 && m != k2 {
				r = int(alphabeta.Reductions[min(depth, 63)][min(idx, 63)])
				if pv && r > 0 {
					r--
				}
				r = min(r, depth-2)
			}
			v = -s.search(c, depth-1-r, -alpha-1, -alpha, ply+1, false, true)
			if v > alpha && r > 0 {
				v = -s.search(c, depth-1, -alpha-1, -alpha, ply+1, false, true)
			}
			if pv && v > alpha && v < beta {
				v = -s.search(c, depth-1, -beta, -alpha, ply+1, true, true)
			}
		}
		if s.stop {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if v >= beta {
					bonus := int32(depth * depth)
					s.updateHistory(side, m, bonus)
					for j := 0; j < i; j++ {
						s.updateHistory(side, ataxx.Move(keys[j]&0xFFFF), -bonus)
					}
					for _, sm := range staged {
						if sm < ataxx.NoMove && p.IsLegal(sm) {
							s.updateHistory(side, sm, -bonus)
						}
					}
					if m != k1 {
						s.killers[ply][1], s.killers[ply][0] = k1, m
					}
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
	return best
}

// store writes a search result to the table (if any).
func (s *searcher) store(key uint64, m ataxx.Move, v int32, depth, ply int, bound uint8) {
	if s.tt != nil {
		s.tt.Store(key, m, toTT(v, ply), depth, bound)
	}
}

// searchRoot searches the root moves in order; a move that raises alpha moves to the front.
func (s *searcher) searchRoot(p *ataxx.Position, depth int, alpha, beta int32) int32 {
	s.nodes++
	best := -infinity
	for i, m := range s.root {
		c := s.play(p, m, 0)
		var v int32
		if i == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, 1, true, true)
		} else {
			v = -s.search(c, depth-1, -alpha-1, -alpha, 1, false, true)
			if v > alpha && v < beta {
				v = -s.search(c, depth-1, -beta, -alpha, 1, true, true)
			}
		}
		if s.stop {
			return best
		}
		best = max(best, v)
		if v > alpha {
			alpha = v
			copy(s.root[1:i+1], s.root[:i])
			s.root[0] = m
			s.bestMove, s.bestScore = m, v
			if v >= beta {
				break
			}
		}
	}
	return best
}

// run is the iterative-deepening driver.
func (s *searcher) run(e *Engine, pos ataxx.Position, start time.Time, soft, hard time.Duration, depthLimit int, nodeLimit, softNodes int64) ataxx.Move {
	s.begin(e, start, hard, nodeLimit)
	if s.tt != nil {
		e.tt.NextSearch()
	}
	e.lastDepth, e.lastScore, e.lastNodes = 0, 0, 0
	moves := pos.LegalMoves(s.moves[0][:0])
	if len(moves) == 0 {
		return ataxx.Pass
	}
	if len(moves) == 1 {
		return moves[0]
	}
	s.setRoot(&pos)
	side := pos.ToMove()
	us, them := pos.Pieces(side), pos.Pieces(side^1)
	ttMove := ataxx.NoMove
	if s.tt != nil {
		if en, ok := s.tt.Probe(ttKey(&pos)); ok {
			ttMove = en.Move
		}
	}
	// Initial order: the table move, then the static order; the seed breaks ties.
	keys := s.rootKeys[:0]
	for _, m := range moves {
		k := int64(s.orderKey(m, us, them, side))
		if m == ttMove {
			k = 1 << 30
		}
		k <<= 16
		if e.opts.Seed != 0 {
			z := e.opts.Seed ^ uint64(m) ^ pos.Hash()
			k += int64(mix(&z) & 0xFFFF)
		}
		keys = append(keys, -k<<16|int64(m))
	}
	slices.Sort(keys)
	s.root = s.root[:0]
	for _, k := range keys {
		s.root = append(s.root, ataxx.Move(k&0xFFFF))
	}
	s.rootKeys = keys
	s.bestMove, s.bestScore = s.root[0], 0
	s.killers = [maxPly][2]ataxx.Move{}

	maxD := maxDepth
	if depthLimit > 0 {
		maxD = min(depthLimit, maxDepth)
	}
	ab.Deepen(maxD, 40, winScore, plyStep, winBound,
		func(d int, a, b int32) int32 { return s.searchRoot(&pos, d, a, b) },
		func() bool { return s.stop },
		func(d int, v int32) bool {
			e.lastDepth, e.lastScore = d, s.bestScore
			return (soft > 0 && time.Since(start) >= soft/2) || (softNodes > 0 && s.nodes >= softNodes)
		})
	e.lastNodes = s.nodes
	return s.bestMove
}
