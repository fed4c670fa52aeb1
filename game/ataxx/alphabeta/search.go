package alphabeta

import (
	"math/bits"
	"slices"
	"time"

	"colony/engine/tt"
	"colony/game/ataxx"
)

// Scores are hundredths of a piece from the side to move's point of view. A finished game
// scores winScore - plyStep*ply + margin for the winner (faster wins first, then larger
// margins), its negation for the loser, and 0 for a draw.
const (
	infinity  int32 = 32000
	winScore  int32 = 30000
	plyStep   int32 = 50 // > the largest margin (49)
	winBound  int32 = 12000
	checkMask       = 1023 // check the clock every 1024 nodes
)

var turnKeys [ataxx.MaxTurns + 2]uint64

func init() {
	s := uint64(0x7475726E6B657973) // "turnkeys"
	for i := range turnKeys {
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		turnKeys[i] = z ^ z>>31
	}
}

// ttKey mixes the turn count into the position hash: the 400-turn cap makes the value of a
// position depend on it, so entries from different turns must not be confused.
func ttKey(p *ataxx.Position) uint64 { return p.Hash() ^ turnKeys[p.Turns()] }

type rootMove struct {
	m     ataxx.Move
	order int64
}

// searcher holds everything one search touches: pre-sized buffers per ply, so a node never
// allocates.
type searcher struct {
	e       *Engine
	w       *Weights
	tt      *tt.Table[ataxx.Move]
	exactTT bool
	lmr     bool

	nodes     int64
	nodeLimit int64
	start     time.Time
	hard      time.Duration
	stop      bool

	root      []rootMove
	bestMove  ataxx.Move
	bestScore int32

	killers [maxPly][2]ataxx.Move
	history [2][4096]int32
	moves   [maxPly][ataxx.MaxMoves]ataxx.Move
	keys    [maxPly][ataxx.MaxMoves]int64
	lmrTab  [64][64]int8 // [depth][move index]
}

func newSearcher() *searcher {
	s := &searcher{root: make([]rootMove, 0, ataxx.MaxMoves)}
	// Late-move reductions: Ataxx has a large branching factor and the ordering by gain is
	// good, so late moves are reduced early and deeply (measured in self-play against a milder
	// table: 60% of 60 games at equal nodes).
	for d := range 64 {
		for i := range 64 {
			r := 0
			if d >= 3 && i >= 2 {
				r = 1
				if i >= 6 && d >= 4 {
					r = 2
				}
				if i >= 16 && d >= 6 {
					r = 3
				}
			}
			s.lmrTab[d][i] = int8(r)
		}
	}
	return s
}

func (s *searcher) resetStats() {
	s.killers = [maxPly][2]ataxx.Move{}
	s.history = [2][4096]int32{}
}

// terminalScore scores a finished game at distance ply from the root.
func terminalScore(p *ataxx.Position, ply int) int32 {
	side := p.ToMove()
	diff := int32(p.Count(side) - p.Count(side^1))
	switch {
	case diff > 0:
		return winScore - plyStep*int32(ply) + diff
	case diff < 0:
		return -winScore + plyStep*int32(ply) + diff
	}
	return 0
}

// stuckScore scores a position whose side to move has no division or leap. The opponent can
// then divide into every empty cell (none touches the stuck side, so nothing can free it) while
// the stuck side passes. When every empty cell is reachable by a chain of divisions and the
// turn cap leaves time for them all, the game's end is known: ok is true and the score exact.
func stuckScore(p *ataxx.Position, ply int) (int32, bool) {
	side := p.ToMove()
	opp := p.Pieces(side ^ 1)
	empty := p.Empty()
	reach := ataxx.Dilate(opp) & empty
	for {
		n := ataxx.Dilate(reach) & empty
		if n == reach {
			break
		}
		reach = n
	}
	if reach != empty {
		return 0, false
	}
	ne := bits.OnesCount64(empty)
	if (ataxx.MaxTurns-p.Turns())/2 < ne {
		return 0, false
	}
	diff := int32(p.Count(side) - p.Count(side^1) - ne)
	endPly := int32(ply + 2*ne)
	switch {
	case diff > 0:
		return winScore - plyStep*endPly + diff, true
	case diff < 0:
		return -winScore + plyStep*endPly + diff, true
	}
	return 0, true
}

func toTT(score int32, ply int) int32 {
	switch {
	case score >= winBound:
		return score + plyStep*int32(ply)
	case score <= -winBound:
		return score - plyStep*int32(ply)
	}
	return score
}

func fromTT(score int32, ply int) int32 {
	switch {
	case score >= winBound:
		return score - plyStep*int32(ply)
	case score <= -winBound:
		return score + plyStep*int32(ply)
	}
	return score
}

// orderKey is the move-ordering score of m before killers and the table move: the swing in
// piece difference (captures count twice, a division adds one), a leap penalised for the hole
// it leaves next to own pieces, plus the history score.
func (s *searcher) orderKey(m ataxx.Move, us, them uint64, side int) int32 {
	to := m.To()
	capt := int32(bits.OnesCount64(ataxx.Neighbours(to) & them))
	k := 2000 * capt
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

// checkStop is called every checkMask+1 nodes.
func (s *searcher) checkStop() {
	if s.hard > 0 && time.Since(s.start) >= s.hard {
		s.stop = true
	}
}

// search is fail-soft negamax PVS. ply is the distance from the root.
func (s *searcher) search(p ataxx.Position, depth int, alpha, beta int32, ply int, pv bool) int32 {
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
		return terminalScore(&p, ply)
	}
	side := p.ToMove()
	us, them := p.Pieces(side), p.Pieces(side^1)
	if depth <= 0 || ply >= maxPly-1 {
		return s.leafScore(&p, us, them, ply)
	}

	key := ttKey(&p)
	ttMove := ataxx.NoMove
	if s.tt != nil {
		if en, ok := s.tt.Probe(key); ok {
			ttMove = en.Move
			if !pv && (int(en.Depth) == depth || !s.exactTT && int(en.Depth) > depth) {
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

	moves := p.LegalMoves(s.moves[ply][:0])
	if moves[0] == ataxx.Pass {
		if v, ok := stuckScore(&p, ply); ok {
			return v
		}
		c := p.Apply(ataxx.Pass)
		return -s.search(c, depth-1, -beta, -alpha, ply+1, pv)
	}

	keys := s.keys[ply][:len(moves)]
	k1, k2 := s.killers[ply][0], s.killers[ply][1]
	for i, m := range moves {
		var k int32
		switch m {
		case ttMove:
			k = 1 << 24
		case k1:
			k = s.orderKey(m, us, them, side) + 3000
		case k2:
			k = s.orderKey(m, us, them, side) + 2500
		default:
			k = s.orderKey(m, us, them, side)
		}
		keys[i] = int64(-k)<<16 | int64(m)
	}

	origAlpha := alpha
	best := -infinity
	bestMove := ataxx.NoMove
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
		m := ataxx.Move(keys[i] & 0xFFFF)
		c := p.Apply(m)
		var v int32
		if i == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, ply+1, pv)
		} else {
			r := 0
			if s.lmr && depth >= 3 && m != k1 && m != k2 {
				r = int(s.lmrTab[min(depth, 63)][min(i, 63)])
				if pv && r > 0 {
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
						s.updateHistory(side, ataxx.Move(keys[j]&0xFFFF), -bonus)
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
		s.tt.Store(key, bestMove, toTT(best, ply), depth, bound)
	}
	return best
}

// searchRoot searches the root moves in their current order; the best one found with a score
// above alpha moves to the front and becomes s.bestMove.
func (s *searcher) searchRoot(p *ataxx.Position, depth int, alpha, beta int32) int32 {
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

// begin readies s for a search of e's: its weights, table and options, no nodes counted yet.
// A zero hard time and node limit mean no limit.
func (s *searcher) begin(e *Engine, start time.Time, hard time.Duration, nodeLimit int64) {
	s.e, s.w = e, &e.weights
	s.tt = nil
	if e.tt.Allocated() {
		s.tt = &e.tt
	}
	s.exactTT = e.exactTT
	s.lmr = !e.opts.NoLMR
	s.nodes, s.nodeLimit = 0, nodeLimit
	s.start, s.hard = start, hard
	s.stop = false
}

// leafScore is the value of p at the search horizon: a stuck side's proven result, else the
// static evaluation.
func (s *searcher) leafScore(p *ataxx.Position, us, them uint64, ply int) int32 {
	if dilate2(us)&(ataxx.Full&^(us|them)) == 0 {
		if v, ok := stuckScore(p, ply); ok {
			return v
		}
	}
	return s.w.evaluate(p)
}

// run is the iterative-deepening driver.
func (s *searcher) run(e *Engine, pos ataxx.Position, start time.Time, soft, hard time.Duration, depthLimit int, nodeLimit int64) ataxx.Move {
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
	// Initial root order: the table move, then the static order; the seed breaks ties.
	side := pos.ToMove()
	us, them := pos.Pieces(side), pos.Pieces(side^1)
	ttMove := ataxx.NoMove
	if s.tt != nil {
		if en, ok := s.tt.Probe(ttKey(&pos)); ok {
			ttMove = en.Move
		}
	}
	s.root = s.root[:0]
	for _, m := range moves {
		k := int64(s.orderKey(m, us, them, side))
		if m == ttMove {
			k = 1 << 40
		}
		k <<= 16
		if e.opts.Seed != 0 {
			k += int64(mix(e.opts.Seed^uint64(m)^pos.Hash()) & 0xFFFF)
		}
		s.root = append(s.root, rootMove{m: m, order: k})
	}
	slices.SortStableFunc(s.root, func(a, b rootMove) int {
		switch {
		case a.order > b.order:
			return -1
		case a.order < b.order:
			return 1
		}
		return 0
	})
	s.bestMove, s.bestScore = s.root[0].m, 0
	for i := range s.killers {
		s.killers[i] = [2]ataxx.Move{}
	}

	maxD := maxDepth
	if depthLimit > 0 {
		maxD = min(depthLimit, maxDepth)
	}
	prev := int32(0)
	for d := 1; d <= maxD; d++ {
		var v int32
		if d < 4 || prev >= winBound || prev <= -winBound {
			v = s.searchRoot(&pos, d, -infinity, infinity)
		} else {
			delta := int32(40)
			a, b := prev-delta, prev+delta
			for {
				v = s.searchRoot(&pos, d, a, b)
				if s.stop {
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
		if s.stop {
			break
		}
		prev = v
		e.lastDepth, e.lastScore = d, s.bestScore
		// A proven result within the searched depth cannot change.
		if v >= winBound || v <= -winBound {
			if abs32(v) >= winScore-plyStep*int32(d) {
				break
			}
		}
		if soft > 0 && time.Since(start) >= soft/2 {
			break
		}
	}
	e.lastNodes = s.nodes
	return s.bestMove
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func mix(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
