package mcts

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

type nodeState uint8

const (
	stateLeaf     nodeState = iota // never reached by a playout
	statePending                   // waiting in the batch being collected
	stateExpanded                  // evaluated; its children are in the arena
	stateTerminal                  // the game is over here
)

// node is one arena entry: the statistics of the edge from its parent (move, prior, visits,
// value sum) and the position it leads to (children, player to move). Children are stored
// contiguously: first .. first+count-1. About 32 bytes for a 2-byte move.
type node[M comparable] struct {
	// w sums the backed-up values of the player who made move, that is the player to move at
	// the parent: selection at the parent maximises w/n directly, with no sign flipping.
	w      float64
	n      int32 // completed visits
	virt   int32 // visits in flight (virtual loss)
	first  int32 // first child, when state == stateExpanded
	count  int32 // number of children
	prior  float32
	state  nodeState
	toMove uint8 // player to move at this node (set once reached)
	move   M
}

// Searcher runs PUCT searches for one game at a time and keeps its tree between them. It is
// not safe for concurrent use; run one Searcher per goroutine.
type Searcher[P Position[P, M], M comparable] struct {
	cfg  Config
	eval Evaluator[P, M]
	rng  Rand

	nodes    []node[M] // the arena; len(nodes) is its allocated size, next the used part
	spare    []node[M] // the other arena, target of the copy when the root moves down
	next     int
	reserved int // children promised to the leaves of the batch being collected
	full     bool

	root    P
	hasRoot bool

	batch   []Request[P, M]
	paths   [][]int32 // the path (root first) of each batch slot
	moveCap int       // the capacity of every slot's move and prior buffers

	ban        []bool    // per root child: excluded from this search (empty: none)
	noise      []float32 // root priors with noise mixed in; empty when noise is off
	gamma      []float64
	numPlayers int
	valueSum   [MaxPlayers]float64
	maxDepth   int

	resMoves  []M
	resVisits []int32
	resPolicy []float32
}

// New returns a Searcher that evaluates leaves with eval. It panics on an invalid config (a
// programming error); Validate reports the same problems as an error.
func New[P Position[P, M], M comparable](cfg Config, eval Evaluator[P, M]) *Searcher[P, M] {
	if err := cfg.normalise(); err != nil {
		panic(err)
	}
	if eval == nil {
		panic("mcts: New: nil evaluator")
	}
	s := &Searcher[P, M]{cfg: cfg, eval: eval, rng: NewRand(cfg.Seed), moveCap: 64}
	s.batch = make([]Request[P, M], cfg.BatchSize)
	s.paths = make([][]int32, cfg.BatchSize)
	for i := range s.paths {
		s.paths[i] = make([]int32, 0, 64)
	}
	return s
}

// Validate reports whether cfg is acceptable to New.
func (c Config) Validate() error { return c.normalise() }

// Config returns the searcher's configuration, with defaults filled in.
func (s *Searcher[P, M]) Config() Config { return s.cfg }

// Reset forgets the tree; the next Search starts fresh. The generator is not reseeded.
func (s *Searcher[P, M]) Reset() {
	s.hasRoot = false
	s.next = 0
	s.reserved = 0
}

// Reseed restarts the searcher's generator (noise, temperature) from seed.
func (s *Searcher[P, M]) Reseed(seed uint64) { s.rng.Seed(seed) }

// Result is the outcome of one Search. Its slices belong to the Searcher and are overwritten
// by the next Search: copy what you keep.
type Result[M comparable] struct {
	Move M // the move to play: the most visited, or drawn according to Config.Temperature
	Best M // the most visited root move (ties: the higher prior, then the first)

	Moves  []M       // the root moves, in the order the game's LegalMoves gave them
	Visits []int32   // the visits of each root move
	Policy []float32 // Visits normalised to sum 1 (the priors when no move has a visit)

	Value  float32 // the mean value of the root moves' visits for the player to move at the root
	Values Values  // the mean value vector backed up through the root by this search

	Playouts   int // playouts run by this search
	Reused     int // root visits kept from the previous tree
	RootVisits int // root visits now: Reused + Playouts
	Nodes      int // arena nodes in use
	MaxDepth   int // the deepest leaf reached by this search, in plies below the root
	ArenaFull  bool
	Elapsed    time.Duration

	// Proven: Move was not searched but proven to win by the engine's prover (no other
	// field is set).
	Proven bool
}

// ErrTerminal is returned by Search for a position that has no moves.
var ErrTerminal = errors.New("mcts: search from a terminal position")

// Search runs playouts from root until lim is reached and returns the visit statistics of
// the root moves. The tree of the previous search is kept when root is its root or, matched
// by Hash, a position at most Config.ReuseDepth plies below it; otherwise the search starts
// from a fresh tree. On an evaluator error the tree is dropped and the error returned.
func (s *Searcher[P, M]) Search(root P, lim Limit) (Result[M], error) {
	return s.SearchExcluding(root, lim, nil)
}

// SearchExcluding is Search with the root moves of exclude neither visited nor played (moves
// a prover showed to lose). Moves of exclude that are not legal at the root are ignored; when
// it would leave no move, it is ignored as a whole. Visits such moves have from the kept tree
// stay in the statistics (Result.Visits, Value) but never make them Best or Move.
func (s *Searcher[P, M]) SearchExcluding(root P, lim Limit, exclude []M) (Result[M], error) {
	start := time.Now()
	if root.Terminal() {
		return Result[M]{}, ErrTerminal
	}
	np := root.NumPlayers()
	if np < 1 || np > MaxPlayers {
		return Result[M]{}, fmt.Errorf("mcts: %d players, want 1..%d", np, MaxPlayers)
	}
	s.numPlayers = np
	reused := s.setRoot(root)
	s.valueSum = [MaxPlayers]float64{}
	s.maxDepth = 0
	s.full = false
	s.noise = s.noise[:0]
	noiseOn := s.cfg.NoiseFraction > 0

	s.ban = s.ban[:0]
	banSet := len(exclude) == 0
	playouts, lastCheck, checkEvery, lastTime := 0, 0, 1, start
	for {
		if s.nodes[0].state == stateExpanded {
			if noiseOn && len(s.noise) == 0 {
				s.applyNoise()
			}
			if !banSet {
				s.setBan(exclude)
				banSet = true
			}
			if lim.Playouts > 0 && playouts >= lim.Playouts {
				break
			}
			if lim.Playouts <= 0 && lim.Time <= 0 && playouts >= 1 {
				break
			}
			if lim.Time > 0 && playouts-lastCheck >= checkEvery {
				now := time.Now()
				if now.Sub(start) >= lim.Time {
					break
				}
				// Look at the clock about every 0.25 to 1 ms: often enough not to overshoot
				// with slow playouts, rarely enough to cost nothing with fast ones.
				switch dt := now.Sub(lastTime); {
				case dt < 250*time.Microsecond && checkEvery < s.cfg.ClockCheck:
					checkEvery = min(2*checkEvery, s.cfg.ClockCheck)
				case dt > time.Millisecond && checkEvery > 1:
					checkEvery /= 2
				}
				lastCheck, lastTime = playouts, now
			}
			if s.full {
				break
			}
		} else if s.full {
			s.Reset()
			return Result[M]{}, fmt.Errorf("mcts: MaxNodes %d cannot hold the root's moves", s.cfg.MaxNodes)
		}
		want := s.cfg.BatchSize
		if lim.Playouts > 0 && lim.Playouts-playouts < want {
			want = max(1, lim.Playouts-playouts)
		}
		done, err := s.runBatch(want)
		playouts += done
		if err != nil {
			s.Reset()
			return Result[M]{}, err
		}
	}
	res := s.result(playouts)
	s.ban = s.ban[:0]
	res.Playouts = playouts
	res.Reused = reused
	res.Elapsed = time.Since(start)
	return res, nil
}

// Advance moves the root down the given moves (ours, then the opponent's, ...) and keeps the
// subtree found there. It reports whether that subtree existed; when it did not, the tree
// starts fresh at the position reached. It does nothing and reports false before any Search.
// The moves must be legal.
func (s *Searcher[P, M]) Advance(moves ...M) bool {
	if !s.hasRoot {
		return false
	}
	pos := s.root
	idx, found := int32(0), true
	for _, m := range moves {
		pos = pos.Apply(m)
		if !found {
			continue
		}
		c := s.child(idx, m)
		if c < 0 {
			found = false
			continue
		}
		idx = c
	}
	if !found {
		s.resetTo(pos)
		return false
	}
	s.promote(idx)
	s.root = pos
	return true
}

// Root returns the current root position and whether there is a tree at all.
func (s *Searcher[P, M]) Root() (P, bool) { return s.root, s.hasRoot }

// RootVisits returns the visits of the current root (0 without a tree).
func (s *Searcher[P, M]) RootVisits() int {
	if !s.hasRoot {
		return 0
	}
	return int(s.nodes[0].n)
}

func (s *Searcher[P, M]) child(idx int32, m M) int32 {
	nd := &s.nodes[idx]
	if nd.state != stateExpanded {
		return -1
	}
	for i := nd.first; i < nd.first+nd.count; i++ {
		if s.nodes[i].move == m {
			return i
		}
	}
	return -1
}

// setRoot makes pos the root, keeping what it can of the tree; it returns the visits kept.
func (s *Searcher[P, M]) setRoot(pos P) int {
	if s.hasRoot {
		if s.root.Hash() == pos.Hash() {
			s.root = pos
			return int(s.nodes[0].n)
		}
		h := pos.Hash()
		for d := 1; d <= s.cfg.ReuseDepth; d++ {
			if idx := s.findAt(0, s.root, d, h); idx > 0 {
				s.promote(idx)
				s.root = pos
				return int(s.nodes[0].n)
			}
		}
	}
	s.resetTo(pos)
	return 0
}

// findAt looks for a node exactly d plies below idx whose position hashes to h.
func (s *Searcher[P, M]) findAt(idx int32, pos P, d int, h uint64) int32 {
	nd := s.nodes[idx]
	if nd.state != stateExpanded {
		return -1
	}
	for i := nd.first; i < nd.first+nd.count; i++ {
		p := pos.Apply(s.nodes[i].move)
		if d == 1 {
			if p.Hash() == h {
				return i
			}
			continue
		}
		if r := s.findAt(i, p, d-1, h); r >= 0 {
			return r
		}
	}
	return -1
}

func (s *Searcher[P, M]) resetTo(pos P) {
	s.root = pos
	s.hasRoot = true
	s.reserved = 0
	s.next = 0
	s.ensure(1)
	s.nodes[0] = node[M]{}
	s.next = 1
}

// promote copies the subtree of idx into the spare arena, breadth first so that children
// stay contiguous, and makes it the tree (idx becomes node 0).
func (s *Searcher[P, M]) promote(idx int32) {
	if idx == 0 {
		return
	}
	if cap(s.spare) < len(s.nodes) {
		s.spare = make([]node[M], 0, len(s.nodes))
	}
	dst := append(s.spare[:0], s.nodes[idx])
	dst[0].w = 0 // the root's own edge value has no mover to belong to
	for i := 0; i < len(dst); i++ {
		if dst[i].state == stateExpanded {
			f, c := dst[i].first, dst[i].count
			dst[i].first = int32(len(dst))
			dst = append(dst, s.nodes[f:f+c]...)
		}
	}
	s.spare = s.nodes[:0]
	s.next = len(dst)
	s.nodes = dst[:cap(dst)]
}

// ensure grows the arena to hold at least n nodes (by doubling, up to MaxNodes).
func (s *Searcher[P, M]) ensure(n int) {
	if n <= len(s.nodes) {
		return
	}
	size := max(2*len(s.nodes), n, 1<<12)
	size = min(size, max(s.cfg.MaxNodes, n))
	grown := make([]node[M], size)
	copy(grown, s.nodes[:s.next])
	s.nodes = grown
}

// runBatch collects up to want leaves (terminal leaves are backed up at once), evaluates the
// batch and backs it up. It returns the playouts completed.
func (s *Searcher[P, M]) runBatch(want int) (int, error) {
	k, done, collisions := 0, 0, 0
collect:
	for k+done < want && collisions < s.cfg.MaxCollisions {
		path, pos := s.descend(s.paths[k][:0])
		s.paths[k] = path
		if d := len(path) - 1; d > s.maxDepth {
			s.maxDepth = d
		}
		leaf := &s.nodes[path[len(path)-1]]
		switch leaf.state {
		case stateTerminal:
			v := pos.Values()
			s.backup(path, &v)
			done++
		case statePending:
			s.undoVirtual(path)
			collisions++
		default: // stateLeaf
			leaf.toMove = uint8(pos.ToMove())
			req := &s.batch[k]
			if !pos.Terminal() {
				// Every slot gets the largest capacity seen, so that once the largest move
				// list has occurred no slot grows again.
				if cap(req.Moves) < s.moveCap {
					req.Moves = make([]M, 0, s.moveCap)
				}
				req.Moves = pos.LegalMoves(req.Moves[:0])
				s.moveCap = max(s.moveCap, cap(req.Moves))
			}
			nm := len(req.Moves)
			if pos.Terminal() || nm == 0 {
				leaf.state = stateTerminal
				v := pos.Values()
				s.backup(path, &v)
				done++
				continue
			}
			if s.next+s.reserved+nm > s.cfg.MaxNodes {
				s.undoVirtual(path)
				s.full = true
				break collect
			}
			s.reserved += nm
			leaf.state = statePending
			req.Pos = pos
			if cap(req.Priors) < nm {
				req.Priors = make([]float32, nm, s.moveCap)
			}
			req.Priors = req.Priors[:nm]
			req.Value = Values{}
			k++
		}
	}
	if k == 0 {
		return done, nil
	}
	if err := s.eval.Evaluate(s.batch[:k]); err != nil {
		return done, fmt.Errorf("mcts: evaluating %d leaves: %w", k, err)
	}
	for i := range k {
		path := s.paths[i]
		s.expand(path[len(path)-1], &s.batch[i])
		s.backup(path, &s.batch[i].Value)
	}
	return done + k, nil
}

// descend walks from the root to a node that is not expanded, adding a virtual visit to every
// node on the way, and returns the path and the position reached.
func (s *Searcher[P, M]) descend(path []int32) ([]int32, P) {
	nodes := s.nodes
	pos := s.root
	nodes[0].virt++
	path = append(path, 0)
	idx := int32(0)
	if nodes[0].state == stateExpanded {
		var noise []float32
		if len(s.noise) > 0 {
			noise = s.noise
		}
		idx = s.selectChild(0, s.cfg.FPUReductionRoot, noise, s.ban)
		pos = pos.Apply(nodes[idx].move)
		nodes[idx].virt++
		path = append(path, idx)
	}
	for nodes[idx].state == stateExpanded {
		idx = s.selectChild(idx, s.cfg.FPUReduction, nil, nil)
		pos = pos.Apply(nodes[idx].move)
		nodes[idx].virt++
		path = append(path, idx)
	}
	return path, pos
}

// selectChild returns the child of idx with the highest PUCT score for the player to move at
// idx. noise, when not nil, replaces the children's priors; children i with ban[i] (ban empty:
// none) are skipped.
func (s *Searcher[P, M]) selectChild(idx int32, fpuReduction float32, noise []float32, ban []bool) int32 {
	nodes := s.nodes
	nd := &nodes[idx]
	first := nd.first
	children := nodes[first : first+nd.count]
	k := s.cfg.CPuct * float32(math.Sqrt(float64(nd.n+nd.virt)))
	vl := s.cfg.VirtualLoss

	best, bestScore := int32(-1), float32(math.Inf(-1))
	unvisited, unvisitedPrior := int32(-1), float32(-1)
	var visitedPrior float32
	var sumW float64
	var sumN int32
	for i := range children {
		if len(ban) > 0 && ban[i] {
			continue
		}
		c := &children[i]
		p := c.prior
		if noise != nil {
			p = noise[i]
		}
		nv := c.n + c.virt
		if nv == 0 {
			if p > unvisitedPrior {
				unvisited, unvisitedPrior = int32(i), p
			}
			continue
		}
		visitedPrior += p
		sumW += c.w
		sumN += c.n
		q := (float32(c.w) - vl*float32(c.virt)) / float32(nv)
		if score := q + k*p/float32(1+nv); score > bestScore {
			best, bestScore = int32(i), score
		}
	}
	if unvisited >= 0 {
		var parentQ float32
		if sumN > 0 {
			parentQ = float32(sumW / float64(sumN))
		}
		fpu := parentQ - fpuReduction*float32(math.Sqrt(float64(visitedPrior)))
		if fpu+k*unvisitedPrior > bestScore {
			best = unvisited
		}
	}
	return first + best
}

// backup adds one visit and the value v along path and removes the virtual visits.
func (s *Searcher[P, M]) backup(path []int32, v *Values) {
	nodes := s.nodes
	for i := len(path) - 1; i > 0; i-- {
		nd := &nodes[path[i]]
		nd.n++
		nd.virt--
		nd.w += float64(v[nodes[path[i-1]].toMove&(MaxPlayers-1)])
	}
	nodes[0].n++
	nodes[0].virt--
	for p := range s.numPlayers {
		s.valueSum[p] += float64(v[p])
	}
}

func (s *Searcher[P, M]) undoVirtual(path []int32) {
	for _, i := range path {
		s.nodes[i].virt--
	}
}

// expand creates the children of the pending node idx from its evaluation. Priors that are
// negative, NaN or sum to zero are replaced by uniform ones; the rest are normalised.
func (s *Searcher[P, M]) expand(idx int32, req *Request[P, M]) {
	nm := len(req.Moves)
	s.reserved -= nm
	first := s.next
	s.ensure(first + nm)
	s.next += nm
	pri := req.Priors[:nm]
	var sum float32
	ok := true
	for _, p := range pri {
		if !(p >= 0) || p > math.MaxFloat32 {
			ok = false
		}
		sum += p
	}
	scale := float32(0)
	if ok && sum > 0 && sum <= math.MaxFloat32 {
		scale = 1 / sum
	}
	uniform := 1 / float32(nm)
	children := s.nodes[first : first+nm]
	for i := range children {
		p := uniform
		if scale != 0 {
			p = pri[i] * scale
		}
		children[i] = node[M]{prior: p, move: req.Moves[i]}
	}
	nd := &s.nodes[idx]
	nd.first = int32(first)
	nd.count = int32(nm)
	nd.state = stateExpanded
}

// applyNoise draws the Dirichlet noise of this search and mixes it into the root priors.
func (s *Searcher[P, M]) applyNoise() {
	root := &s.nodes[0]
	c := int(root.count)
	if cap(s.gamma) < c {
		s.gamma = make([]float64, c)
	}
	if cap(s.noise) < c {
		s.noise = make([]float32, c)
	}
	g := s.gamma[:c]
	s.noise = s.noise[:c]
	s.rng.Dirichlet(float64(s.cfg.NoiseAlpha), g)
	f := s.cfg.NoiseFraction
	children := s.nodes[root.first : root.first+root.count]
	for i := range children {
		s.noise[i] = (1-f)*children[i].prior + f*float32(g[i])
	}
}

func (s *Searcher[P, M]) result(playouts int) Result[M] {
	root := &s.nodes[0]
	children := s.nodes[root.first : root.first+root.count]
	s.resMoves = s.resMoves[:0]
	s.resVisits = s.resVisits[:0]
	s.resPolicy = s.resPolicy[:0]
	var total int64
	var sumW float64
	best := 0
	for i := range children {
		c := &children[i]
		s.resMoves = append(s.resMoves, c.move)
		s.resVisits = append(s.resVisits, c.n)
		total += int64(c.n)
		sumW += c.w
		if s.banned(i) {
			continue
		}
		b := &children[best]
		if s.banned(best) || c.n > b.n || (c.n == b.n && c.prior > b.prior) {
			best = i
		}
	}
	for i := range children {
		p := children[i].prior
		if total > 0 {
			p = float32(float64(children[i].n) / float64(total))
		}
		s.resPolicy = append(s.resPolicy, p)
	}
	res := Result[M]{
		Best:       children[best].move,
		Moves:      s.resMoves,
		Visits:     s.resVisits,
		Policy:     s.resPolicy,
		RootVisits: int(root.n),
		Nodes:      s.next,
		MaxDepth:   s.maxDepth,
		ArenaFull:  s.full,
	}
	res.Move = res.Best
	if s.cfg.Temperature > 0 && total > 0 {
		res.Move = children[s.sample(children)].move
	}
	if total > 0 {
		res.Value = float32(sumW / float64(total))
	} else if playouts > 0 {
		res.Value = float32(s.valueSum[root.toMove&(MaxPlayers-1)] / float64(playouts))
	}
	if playouts > 0 {
		for p := range s.numPlayers {
			res.Values[p] = float32(s.valueSum[p] / float64(playouts))
		}
	}
	return res
}

// sample draws a root child with probability proportional to visits^(1/Temperature)
// (computed as (visits/max)^(1/T), which cannot overflow).
func (s *Searcher[P, M]) sample(children []node[M]) int {
	inv := 1 / float64(s.cfg.Temperature)
	best := -1
	for i := range children {
		if !s.banned(i) && (best < 0 || children[i].n > children[best].n) {
			best = i
		}
	}
	top := float64(children[best].n)
	if top == 0 {
		return best
	}
	var total float64
	for i := range children {
		if !s.banned(i) {
			total += math.Pow(float64(children[i].n)/top, inv)
		}
	}
	x := s.rng.Float64() * total
	for i := range children {
		if children[i].n == 0 || s.banned(i) {
			continue
		}
		x -= math.Pow(float64(children[i].n)/top, inv)
		if x < 0 {
			return i
		}
	}
	return best
}

// setBan marks the root children whose moves are in exclude; with every child marked, or none,
// nothing is.
func (s *Searcher[P, M]) setBan(exclude []M) {
	root := &s.nodes[0]
	children := s.nodes[root.first : root.first+root.count]
	s.ban = s.ban[:0]
	n := 0
	for i := range children {
		b := slices.Contains(exclude, children[i].move)
		if b {
			n++
		}
		s.ban = append(s.ban, b)
	}
	if n == 0 || n == len(children) {
		s.ban = s.ban[:0]
	}
}

// banned reports whether root child i is excluded from this search.
func (s *Searcher[P, M]) banned(i int) bool { return len(s.ban) > 0 && s.ban[i] }
