package alphabeta

import (
	"math/bits"
	"slices"
	"time"

	"colony/game/mouse"
)

// Scores are hundredths of a mouse from the side to move's point of view. A finished game
// scores winScore - ply for the winner (faster wins first) and its negation for the loser.
const (
	infinity  int32 = 32000
	winScore  int32 = 30000
	winBound  int32 = 20000
	checkMask       = 1023 // check the clock every 1024 nodes
)

type rootMove struct {
	m     mouse.Move
	order int64
}

// searcher holds everything one search touches: pre-sized buffers per ply, so a node never
// allocates.
type searcher struct {
	e        *Engine
	tt       *table
	miceRole bool // the engine plays the mice: their evaluation profile
	exp      uint // the engine's experiment switches

	nodes     int64
	nodeLimit int64
	start     time.Time
	hard      time.Duration
	stop      bool

	root      []rootMove
	bestMove  mouse.Move
	bestScore int32

	killers [maxPly][2]mouse.Move
	history [2][mouse.NumCells * mouse.NumCells]int32
	moves   [maxPly][mouse.MaxMoves]mouse.Move
	keys    [maxPly][mouse.MaxMoves]int64
}

func newSearcher() *searcher {
	return &searcher{root: make([]rootMove, 0, mouse.MaxMoves)}
}

func (s *searcher) resetStats() {
	s.killers = [maxPly][2]mouse.Move{}
	s.history = [2][mouse.NumCells * mouse.NumCells]int32{}
}

// terminalScore scores a finished game at distance ply from the root.
func terminalScore(p *mouse.Position, ply int) int32 {
	if p.Winner() == p.ToMove() {
		return winScore - int32(ply)
	}
	return -winScore + int32(ply)
}

func toTT(score int32, ply int) int32 {
	switch {
	case score >= winBound:
		return score + int32(ply)
	case score <= -winBound:
		return score - int32(ply)
	}
	return score
}

func fromTT(score int32, ply int) int32 {
	switch {
	case score >= winBound:
		return score - int32(ply)
	case score <= -winBound:
		return score + int32(ply)
	}
	return score
}

func histIndex(m mouse.Move) int { return m.From()*mouse.NumCells + m.To() }

// orderer scores the moves of one node before killers and the table move.
type orderer struct {
	side  int
	rows  [mouse.Cols]int8 // mouse row per column, -1 for none
	free  uint16           // columns whose mouse has a free path
	mice  uint64
	nad   uint64
	reach uint64 // inner cells next to Nadori
}

func newOrderer(p *mouse.Position) orderer {
	o := orderer{side: p.ToMove(), rows: p.MouseRows(), mice: p.InnerMice(), nad: p.Nadori()}
	if o.nad != 0 {
		o.reach = mouse.KingAttacks(bits.TrailingZeros64(o.nad))
	}
	occ := p.Occupied()
	for c, r := range o.rows {
		if r < 0 || r >= mouse.Rows-1 {
			continue
		}
		free := true
		for rr := int(r) + 1; rr <= 5; rr++ {
			if occ>>((rr-1)*mouse.Cols+c)&1 != 0 {
				free = false
				break
			}
		}
		if free {
			o.free |= 1 << c
		}
	}
	return o
}

// key is the static ordering value of m: for the team, captures (of the most advanced mice
// first), then moves onto the path of a free mouse (the most advanced first, right below it
// best); for the mice, the winning step, then steps of free mice, the furthest down first, and
// last the steps into Nadori's reach.
func (o *orderer) key(m mouse.Move) int32 {
	from, to := m.From(), m.To()
	tr, tc := to/mouse.Cols, to%mouse.Cols
	if o.side == mouse.Team {
		ti := to - mouse.Cols
		if o.mice>>ti&1 != 0 {
			return 100000 + 1000*int32(tr)
		}
		var k int32
		if r := int(o.rows[tc]); r >= 0 && r < tr && o.free>>tc&1 != 0 {
			k = 2000 + 700*int32(r) - 150*int32(tr-r-1)
		}
		if o.nad>>(from-mouse.Cols)&1 != 0 {
			k += 50
		}
		return k
	}
	if tr == mouse.Rows-1 {
		return 1 << 20
	}
	k := 100 * int32(tr)
	if o.free>>tc&1 != 0 {
		k += 400 + 150*int32(tr)
	}
	if o.reach>>(to-mouse.Cols)&1 != 0 {
		k -= 3000
	}
	return k
}

func (s *searcher) updateHistory(side int, m mouse.Move, bonus int32) {
	h := &s.history[side][histIndex(m)]
	a := max(bonus, -bonus)
	*h += bonus - *h*a/16384
}

// checkStop is called every checkMask+1 nodes.
func (s *searcher) checkStop() {
	if s.hard > 0 && time.Since(s.start) >= s.hard {
		s.stop = true
	}
}

// row5Mice are the inner cells of row 6 (0-based 5), the last before row 7.
const row5Mice = uint64(mouse.RowFull) << (4 * mouse.Cols)

// search is fail-soft negamax PVS. ply is the distance from the root.
func (s *searcher) search(p mouse.Position, depth int, alpha, beta int32, ply int, pv bool) int32 {
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
	// Mate-distance pruning: nothing here can beat a win found nearer the root.
	alpha = max(alpha, -winScore+int32(ply))
	beta = min(beta, winScore-int32(ply+1))
	if alpha >= beta {
		return alpha
	}
	side := p.ToMove()
	// A mouse on row 6 with the mice to move wins at once; with the team to move, only
	// Nadori's capture answers it: search that on.
	if p.InnerMice()&row5Mice != 0 {
		if side == mouse.Mice {
			return winScore - int32(ply+1)
		}
		depth++
	}
	if depth <= 0 || ply >= maxPly-1 {
		return evaluate(&p, s.miceRole || s.exp&expMiceEval != 0)
	}

	key := p.Hash()
	ttMove := mouse.NoMove
	if s.tt != nil {
		if en, ok := s.tt.probe(key); ok {
			ttMove = en.move
			if !pv && int(en.depth) >= depth {
				v := fromTT(int32(en.score), ply)
				switch {
				case en.bound == boundExact,
					en.bound == boundLower && v >= beta,
					en.bound == boundUpper && v <= alpha:
					return v
				}
			}
		}
	}

	moves := p.LegalMoves(s.moves[ply][:0])
	if moves[0] == mouse.Pass {
		return -s.search(p.Apply(mouse.Pass), depth-1, -beta, -alpha, ply+1, pv)
	}

	o := newOrderer(&p)
	keys := s.keys[ply][:len(moves)]
	k1, k2 := s.killers[ply][0], s.killers[ply][1]
	hist := &s.history[side]
	for i, m := range moves {
		var k int32
		switch m {
		case ttMove:
			k = 1 << 24
		case k1:
			k = o.key(m) + 9000
		case k2:
			k = o.key(m) + 8500
		default:
			k = o.key(m) + hist[histIndex(m)]/8
		}
		keys[i] = int64(-k)<<16 | int64(m)
	}

	origAlpha := alpha
	best := -infinity
	bestMove := mouse.NoMove
	n := len(keys)
	for i := 0; i < n; i++ {
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
		m := mouse.Move(keys[i] & 0xFFFF)
		c := p.Apply(m)
		var v int32
		if i == 0 {
			v = -s.search(c, depth-1, -beta, -alpha, ply+1, pv)
		} else {
			r := 0
			// Late quiet moves of the team are searched one ply less first.
			if side == mouse.Team && s.exp&expNoLMR == 0 && depth >= 3 && i >= 6 && m != k1 && m != k2 && -(keys[i]>>16) < 2000 {
				r = 1
				if depth >= 6 && i >= 20 {
					r = 2
				}
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
						s.updateHistory(side, mouse.Move(keys[j]&0xFFFF), -bonus)
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
		bound := boundUpper
		switch {
		case best >= beta:
			bound = boundLower
		case best > origAlpha:
			bound = boundExact
		}
		s.tt.store(key, bestMove, toTT(best, ply), depth, bound)
	}
	return best
}

// searchRoot searches the root moves in their current order; the best one found with a score
// above alpha moves to the front and becomes s.bestMove.
func (s *searcher) searchRoot(p *mouse.Position, depth int, alpha, beta int32) int32 {
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

// begin readies s for a search of e's. A zero hard time and node limit mean no limit.
func (s *searcher) begin(e *Engine, start time.Time, hard time.Duration, nodeLimit int64) {
	s.e = e
	s.exp = e.opts.exp
	s.tt = nil
	if e.tt.entries != nil {
		s.tt = &e.tt
	}
	s.nodes, s.nodeLimit = 0, nodeLimit
	s.start, s.hard = start, hard
	s.stop = false
}

// run is the iterative-deepening driver.
func (s *searcher) run(e *Engine, pos mouse.Position, start time.Time, soft, hard time.Duration, depthLimit int, nodeLimit int64) mouse.Move {
	s.begin(e, start, hard, nodeLimit)
	s.miceRole = pos.ToMove() == mouse.Mice
	if s.tt != nil {
		e.tt.gen++
	}
	e.lastDepth, e.lastScore, e.lastNodes = 0, 0, 0

	moves := pos.LegalMoves(s.moves[0][:0])
	if len(moves) == 0 {
		return mouse.NoMove
	}
	if len(moves) == 1 {
		return moves[0]
	}
	if e.nveto >= len(moves) {
		e.nveto = 0
	}
	o := newOrderer(&pos)
	ttMove := mouse.NoMove
	if s.tt != nil {
		if en, ok := s.tt.probe(pos.Hash()); ok {
			ttMove = en.move
		}
	}
	s.root = s.root[:0]
	for _, m := range moves {
		if slices.Contains(e.veto[:e.nveto], m) {
			continue
		}
		k := int64(o.key(m))
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
		s.killers[i] = [2]mouse.Move{}
	}

	maxD := maxDepth
	if depthLimit > 0 {
		maxD = min(depthLimit, maxDepth)
	}
	for d := 1; d <= maxD; d++ {
		v := s.searchRoot(&pos, d, -infinity, infinity)
		if s.stop {
			break
		}
		e.lastDepth, e.lastScore = d, s.bestScore
		// A proven result within the searched depth cannot change.
		if (v >= winBound || v <= -winBound) && abs32(v) >= winScore-int32(d) {
			break
		}
		if soft > 0 && time.Since(start) >= soft/2 {
			break
		}
	}
	e.lastNodes = s.nodes
	return s.bestMove
}

func abs32(x int32) int32 { return max(x, -x) }

func mix(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
