package mcts

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"colony/game/ataxx"
)

type (
	apos = ataxx.Position
	amov = ataxx.Move
)

var _ Position[apos, amov] = ataxx.Position{}

// materialValues scores a cut-off ataxx rollout by the piece difference.
func materialValues(p apos) Values {
	d := float32(p.Count(ataxx.O)-p.Count(ataxx.X)) / float32(ataxx.NumSquares)
	return Values{d, -d}
}

func mustDiagram(t testing.TB, diagram string, side int) apos {
	t.Helper()
	p, err := ataxx.ParseDiagram(diagram, side)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// midgame is a position from the middle of a game, with many moves for both sides.
const midgame = `
	O O . . . X X
	O O O . X X .
	. O . . X . .
	. . . O . . .
	. . X X O . .
	. X X . O O .
	X X . . . O O`

// checkTree walks the whole tree and checks the arena's invariants: every expanded node has
// one visit more than its children together, no visit is in flight, nothing is pending,
// children are in the used part of the arena and reached exactly once, and |w| <= n.
func checkTree[P Position[P, M], M comparable](t *testing.T, s *Searcher[P, M]) {
	t.Helper()
	if !s.hasRoot {
		t.Fatal("no tree")
	}
	if s.reserved != 0 {
		t.Errorf("reserved = %d after a search", s.reserved)
	}
	seen := make([]bool, s.next)
	seen[0] = true
	stack := []int32{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := s.nodes[i]
		if nd.virt != 0 {
			t.Fatalf("node %d: %d virtual visits left", i, nd.virt)
		}
		if math.Abs(nd.w) > float64(nd.n)+1e-6 && i != 0 {
			t.Fatalf("node %d: |w| = %v > n = %d", i, nd.w, nd.n)
		}
		switch nd.state {
		case statePending:
			t.Fatalf("node %d still pending", i)
		case stateLeaf:
			if nd.n != 0 {
				t.Fatalf("unexpanded node %d has %d visits", i, nd.n)
			}
		case stateTerminal:
			if nd.n == 0 {
				t.Fatalf("terminal node %d has no visit", i)
			}
		case stateExpanded:
			if nd.count <= 0 || nd.first <= i || int(nd.first+nd.count) > s.next {
				t.Fatalf("node %d: children [%d, +%d) outside the arena (next %d)", i, nd.first, nd.count, s.next)
			}
			var sum int32
			var prior float64
			for c := nd.first; c < nd.first+nd.count; c++ {
				if seen[c] {
					t.Fatalf("node %d reached twice", c)
				}
				seen[c] = true
				sum += s.nodes[c].n
				prior += float64(s.nodes[c].prior)
				stack = append(stack, c)
			}
			if nd.n != sum+1 {
				t.Fatalf("node %d: %d visits, children have %d (want n = sum + 1)", i, nd.n, sum)
			}
			if math.Abs(prior-1) > 1e-3 {
				t.Fatalf("node %d: priors sum to %v", i, prior)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("arena node %d is not in the tree", i)
		}
	}
}

func TestInvariants(t *testing.T) {
	mid := mustDiagram(t, midgame, ataxx.X)
	for _, tc := range []struct {
		name  string
		pos   apos
		batch int
		eval  Evaluator[apos, amov]
	}{
		{"uniform/start/b1", ataxx.Start(), 1, Uniform[apos, amov]{}},
		{"uniform/mid/b16", mid, 16, Uniform[apos, amov]{}},
		{"rollout/start/b1", ataxx.Start(), 1, NewRollout[apos, amov](1, 0, nil)},
		{"rollout/mid/b8", mid, 8, NewRollout[apos, amov](2, 60, materialValues)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.BatchSize = tc.batch
			cfg.NoiseFraction = 0.25
			s := New(cfg, tc.eval)
			const n = 1500
			res, err := s.Search(tc.pos, Limit{Playouts: n})
			if err != nil {
				t.Fatal(err)
			}
			checkTree(t, s)
			if res.Playouts != n || res.RootVisits != n || s.RootVisits() != n {
				t.Fatalf("playouts %d, root visits %d/%d, want %d", res.Playouts, res.RootVisits, s.RootVisits(), n)
			}
			legal := tc.pos.LegalMoves(nil)
			if !slices.Equal(res.Moves, legal) {
				t.Fatalf("root moves %v, want the legal moves %v", res.Moves, legal)
			}
			var visits int32
			var policy float64
			for i := range res.Moves {
				visits += res.Visits[i]
				policy += float64(res.Policy[i])
			}
			if visits != n-1 {
				t.Fatalf("root moves have %d visits, want %d", visits, n-1)
			}
			if math.Abs(policy-1) > 1e-4 {
				t.Fatalf("policy sums to %v", policy)
			}
			if i := slices.Index(res.Moves, res.Best); i < 0 || res.Visits[i] != slices.Max(res.Visits) {
				t.Fatalf("best move %v is not the most visited", res.Best)
			}
			if res.Move != res.Best {
				t.Fatalf("temperature 0 played %v, not the best %v", res.Move, res.Best)
			}
			if res.Value < -1 || res.Value > 1 || res.Values[0] < -1 || res.Values[0] > 1 {
				t.Fatalf("values out of range: %v %v", res.Value, res.Values)
			}
			if res.MaxDepth < 2 {
				t.Fatalf("max depth %d after %d playouts", res.MaxDepth, n)
			}
		})
	}
}

// wipeout: O's jump from d4 to b2 (0-based row 1, col 1) converts all three X pieces and ends
// the game at once; every other move lets X play on with more pieces.
const wipeout = `
	X X . . . . .
	X . . . . . .
	. . . . . . .
	. . . O . . .
	. . . . . . .
	. . . . . . .
	. . . . . . .`

func TestFindsWinningMove(t *testing.T) {
	pos := mustDiagram(t, wipeout, ataxx.O)
	win, err := pos.JudgeMove(4, 4, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if after := pos.Apply(win); !after.Terminal() || after.Winner() != ataxx.O {
		t.Fatalf("test board is wrong: after %v:\n%s", win, after.Diagram())
	}
	for _, batch := range []int{1, 8} {
		cfg := DefaultConfig()
		cfg.BatchSize = batch
		s := New(cfg, NewRollout[apos, amov](7, 0, nil))
		res, err := s.Search(pos, Limit{Playouts: 2000})
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, s)
		if res.Best != win {
			t.Errorf("batch %d: best move %v, want the wipeout %v", batch, res.Best, win)
		}
		if res.Value < 0.8 {
			t.Errorf("batch %d: root value %v for O, want near 1", batch, res.Value)
		}
	}
}

// TestAvoidsLosingMove needs two plies: after many of O's moves X can convert every O piece
// at once (a wipeout); O must pick a move after which X has no such reply.
func TestAvoidsLosingMove(t *testing.T) {
	pos := mustDiagram(t, `
		O O . . . . .
		. . . . . . .
		. . X . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . X
		. . . . . X X`, ataxx.O)
	wipedOut := func(p apos) bool { // X to move in p has a move that leaves O no piece
		for _, m := range p.LegalMoves(nil) {
			if p.Apply(m).Count(ataxx.O) == 0 {
				return true
			}
		}
		return false
	}
	var safe, losing []amov
	for _, m := range pos.LegalMoves(nil) {
		if wipedOut(pos.Apply(m)) {
			losing = append(losing, m)
		} else {
			safe = append(safe, m)
		}
	}
	if len(safe) == 0 || len(losing) == 0 {
		t.Fatalf("test board: %d safe and %d losing moves", len(safe), len(losing))
	}
	for _, batch := range []int{1, 8} {
		cfg := DefaultConfig()
		cfg.BatchSize = batch
		s := New(cfg, NewRollout[apos, amov](3, 0, nil))
		res, err := s.Search(pos, Limit{Playouts: 4000})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(safe, res.Best) {
			t.Errorf("batch %d: best move %v lets X wipe O out (%d safe moves, %d losing)", batch, res.Best, len(safe), len(losing))
		}
	}
}

func TestPlayoutLimitIsExact(t *testing.T) {
	for _, batch := range []int{1, 7, 64} {
		cfg := DefaultConfig()
		cfg.BatchSize = batch
		s := New(cfg, Uniform[apos, amov]{})
		for _, n := range []int{1, 2, 100, 1001} {
			s.Reset()
			res, err := s.Search(ataxx.Start(), Limit{Playouts: n})
			if err != nil {
				t.Fatal(err)
			}
			if res.Playouts != n {
				t.Errorf("batch %d: %d playouts, want %d", batch, res.Playouts, n)
			}
			checkTree(t, s)
		}
	}
}

func TestDeterministic(t *testing.T) {
	pos := mustDiagram(t, midgame, ataxx.O)
	run := func(seed uint64) Result[amov] {
		cfg := DefaultConfig()
		cfg.BatchSize = 8
		cfg.NoiseFraction = 0.25
		cfg.Temperature = 1
		cfg.Seed = seed
		s := New(cfg, NewRollout[apos, amov](seed+100, 80, materialValues))
		var res Result[amov]
		var err error
		// Two moves, so that tree reuse is part of what must repeat.
		res, err = s.Search(pos, Limit{Playouts: 800})
		if err != nil {
			t.Fatal(err)
		}
		next := pos.Apply(res.Move)
		next = next.Apply(next.LegalMoves(nil)[0])
		res, err = s.Search(next, Limit{Playouts: 800})
		if err != nil {
			t.Fatal(err)
		}
		res.Moves = slices.Clone(res.Moves)
		res.Visits = slices.Clone(res.Visits)
		res.Policy = slices.Clone(res.Policy)
		return res
	}
	a, b := run(5), run(5)
	if a.Move != b.Move || a.Best != b.Best || a.Value != b.Value || a.Reused != b.Reused ||
		!slices.Equal(a.Visits, b.Visits) || !slices.Equal(a.Moves, b.Moves) {
		t.Fatalf("same seed, different searches:\n%+v\n%+v", a, b)
	}
	c := run(6)
	if slices.Equal(a.Visits, c.Visits) {
		t.Fatalf("seeds 5 and 6 gave identical visits %v", a.Visits)
	}
}

func TestTreeReuse(t *testing.T) {
	s := New(DefaultConfig(), NewRollout[apos, amov](11, 0, nil))
	start := ataxx.Start()
	res, err := s.Search(start, Limit{Playouts: 3000})
	if err != nil {
		t.Fatal(err)
	}
	ours := res.Best
	c := s.child(0, ours)
	reply, replyIdx := amov(0), int32(-1)
	for i := s.nodes[c].first; i < s.nodes[c].first+s.nodes[c].count; i++ {
		if replyIdx < 0 || s.nodes[i].n > s.nodes[replyIdx].n {
			reply, replyIdx = s.nodes[i].move, i
		}
	}
	kept := int(s.nodes[replyIdx].n)
	if kept < 2 {
		t.Fatalf("the main reply has only %d visits", kept)
	}
	pos := start.Apply(ours).Apply(reply)

	// Matched by hash inside Search.
	res, err = s.Search(pos, Limit{Playouts: 500})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reused != kept || res.RootVisits != kept+500 {
		t.Fatalf("reused %d visits (root now %d), want %d (+500)", res.Reused, res.RootVisits, kept)
	}
	checkTree(t, s)

	// Advance along the played moves.
	res, err = s.Search(pos, Limit{Playouts: 100}) // same root: everything kept
	if err != nil || res.Reused != kept+500 {
		t.Fatalf("same root: reused %d, want %d (err %v)", res.Reused, kept+500, err)
	}
	m1 := res.Best
	c = s.child(0, m1)
	m2 := s.nodes[s.nodes[c].first].move
	want := int(s.nodes[s.nodes[c].first].n)
	if !s.Advance(m1, m2) {
		t.Fatal("Advance did not find the subtree")
	}
	if got := s.RootVisits(); got != want {
		t.Fatalf("after Advance the root has %d visits, want %d", got, want)
	}
	if root, _ := s.Root(); root.Hash() != pos.Apply(m1).Apply(m2).Hash() {
		t.Fatal("Advance moved the root to the wrong position")
	}
	checkTree(t, s)

	// A position not in the tree: fresh tree.
	other := mustDiagram(t, midgame, ataxx.O)
	res, err = s.Search(other, Limit{Playouts: 50})
	if err != nil || res.Reused != 0 || res.RootVisits != 50 {
		t.Fatalf("unrelated root: reused %d, root visits %d (err %v)", res.Reused, res.RootVisits, err)
	}
	checkTree(t, s)

	// Advance through a node never expanded starts fresh at the position reached.
	s.Reset()
	if _, err := s.Search(other, Limit{Playouts: 1}); err != nil {
		t.Fatal(err)
	}
	m := other.LegalMoves(nil)[3]
	r := other.Apply(m).LegalMoves(nil)[0]
	if s.Advance(m, r) {
		t.Fatal("Advance found a subtree below a leaf")
	}
	if root, ok := s.Root(); !ok || root.Hash() != other.Apply(m).Apply(r).Hash() || s.RootVisits() != 0 {
		t.Fatal("Advance to an unknown position did not start a fresh tree there")
	}
	s.Reset()
	if s.Advance(ours) {
		t.Fatal("Advance without a tree reported success")
	}
}

func TestReuseDepthZero(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ReuseDepth = 0
	s := New(cfg, Uniform[apos, amov]{})
	res, err := s.Search(ataxx.Start(), Limit{Playouts: 300})
	if err != nil {
		t.Fatal(err)
	}
	next := ataxx.Start().Apply(res.Best)
	res, err = s.Search(next, Limit{Playouts: 10})
	if err != nil || res.Reused != 0 {
		t.Fatalf("ReuseDepth 0 reused %d visits one ply down (err %v)", res.Reused, err)
	}
}

func TestTimeLimit(t *testing.T) {
	s := New(DefaultConfig(), NewRollout[apos, amov](1, 0, nil))
	limit := 30 * time.Millisecond
	res, err := s.Search(ataxx.Start(), Limit{Time: limit})
	if err != nil {
		t.Fatal(err)
	}
	// Loose above (shared CI machines): an ignored limit would search forever.
	if res.Elapsed < limit || res.Elapsed > limit+2*time.Second {
		t.Errorf("searched %v for a %v limit", res.Elapsed, limit)
	}
	if res.Playouts < 10 {
		t.Errorf("only %d playouts in %v", res.Playouts, res.Elapsed)
	}
	// A tiny limit still expands the root and returns a legal move.
	s.Reset()
	res, err = s.Search(ataxx.Start(), Limit{Time: time.Nanosecond})
	if err != nil || !ataxx.Start().IsLegal(res.Move) {
		t.Fatalf("tiny limit: move %v, err %v", res.Move, err)
	}
}

func TestTerminalRoot(t *testing.T) {
	pos := mustDiagram(t, `
		O O O O O O O
		O O O O O O O
		O O O O O O O
		O O O O O O O
		O O O O O O O
		O O O O O O O
		O O O O O O O`, ataxx.X)
	s := New(DefaultConfig(), Uniform[apos, amov]{})
	if _, err := s.Search(pos, Limit{Playouts: 10}); !errors.Is(err, ErrTerminal) {
		t.Fatalf("err = %v, want ErrTerminal", err)
	}
}

type failing struct{ after int }

func (f *failing) Evaluate(batch []Request[apos, amov]) error {
	if f.after <= 0 {
		return errors.New("boom")
	}
	f.after--
	return Uniform[apos, amov]{}.Evaluate(batch)
}

func TestEvaluatorError(t *testing.T) {
	s := New(DefaultConfig(), &failing{after: 5})
	_, err := s.Search(ataxx.Start(), Limit{Playouts: 100})
	if err == nil || err.Error() != "mcts: evaluating 1 leaves: boom" {
		t.Fatalf("err = %v", err)
	}
	if s.RootVisits() != 0 {
		t.Fatal("the tree survived an evaluator error")
	}
}

type badPriors struct{}

func (badPriors) Evaluate(batch []Request[apos, amov]) error {
	for i := range batch {
		for j := range batch[i].Priors {
			batch[i].Priors[j] = float32(math.NaN())
		}
		if i%2 == 0 {
			for j := range batch[i].Priors {
				batch[i].Priors[j] = 3 // not normalised
			}
		}
	}
	return nil
}

func TestPriorsSanitised(t *testing.T) {
	cfg := DefaultConfig()
	cfg.BatchSize = 4
	s := New(cfg, badPriors{})
	if _, err := s.Search(ataxx.Start(), Limit{Playouts: 200}); err != nil {
		t.Fatal(err)
	}
	checkTree(t, s) // checks that the priors of every node sum to 1
}

func TestArenaFull(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxNodes = 2000
	cfg.BatchSize = 4
	s := New(cfg, Uniform[apos, amov]{})
	res, err := s.Search(ataxx.Start(), Limit{Playouts: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if !res.ArenaFull || res.Nodes > cfg.MaxNodes || res.Playouts < 10 {
		t.Fatalf("full %v, nodes %d, playouts %d", res.ArenaFull, res.Nodes, res.Playouts)
	}
	checkTree(t, s)
	cfg.MaxNodes = 5 // the start position has 16 moves
	s = New(cfg, Uniform[apos, amov]{})
	if _, err := s.Search(ataxx.Start(), Limit{Playouts: 10}); err == nil {
		t.Fatal("no error when the root's moves do not fit")
	}
}

func TestNoiseChangesSearch(t *testing.T) {
	cfg := DefaultConfig()
	s := New(cfg, Uniform[apos, amov]{})
	base, _ := s.Search(ataxx.Start(), Limit{Playouts: 400})
	baseVisits := slices.Clone(base.Visits)
	cfg.NoiseFraction = 0.5
	cfg.NoiseAlpha = 0.3
	s = New(cfg, Uniform[apos, amov]{})
	noisy, _ := s.Search(ataxx.Start(), Limit{Playouts: 400})
	if slices.Equal(baseVisits, noisy.Visits) {
		t.Fatal("noise left the visits unchanged")
	}
	var sum float64
	for _, p := range s.noise {
		sum += float64(p)
	}
	if len(s.noise) != 16 || math.Abs(sum-1) > 1e-4 {
		t.Fatalf("noisy priors: %d entries summing to %v", len(s.noise), sum)
	}
	checkTree(t, s)
}

func TestTemperature(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Temperature = 1
	s := New(cfg, Uniform[apos, amov]{})
	res, _ := s.Search(ataxx.Start(), Limit{Playouts: 200})
	visits := slices.Clone(res.Visits)
	moves := slices.Clone(res.Moves)
	counts := map[amov]int{}
	const draws = 4000
	for range draws {
		r := s.result(0)
		counts[r.Move]++
	}
	for i, m := range moves {
		want := float64(visits[i]) / 199
		got := float64(counts[m]) / draws
		if math.Abs(got-want) > 0.04 {
			t.Errorf("move %v: drawn %.3f of the time, visit share %.3f", m, got, want)
		}
	}
}

// toy3 is a three-player game for the value backup: each of players 0, 1, 2 in turn picks a
// digit 0..2 once; the outcome table gives each player's value. With no sign flipping every
// player maximises its own entry.
type toy3 struct {
	picks [3]int8
	n     int8
}

func (g toy3) LegalMoves(dst []int) []int {
	dst = dst[:0]
	if g.n < 3 {
		dst = append(dst, 0, 1, 2)
	}
	return dst
}
func (g toy3) Apply(m int) toy3 { g.picks[g.n] = int8(m); g.n++; return g }
func (g toy3) ToMove() int      { return int(g.n) % 3 }
func (g toy3) NumPlayers() int  { return 3 }
func (g toy3) Terminal() bool   { return g.n == 3 }
func (g toy3) Hash() uint64 {
	return uint64(g.picks[0]) | uint64(g.picks[1])<<4 | uint64(g.picks[2])<<8 | uint64(g.n)<<12
}
func (g toy3) Values() Values {
	// Player 2 wants to match player 1's pick, player 1 wants to differ from player 0, and
	// player 0 gets 1 for pick 2 if player 2's pick is 0, and -1 otherwise.
	var v Values
	if g.picks[2] == g.picks[1] {
		v[2] = 1
	} else {
		v[2] = -1
	}
	if g.picks[1] != g.picks[0] {
		v[1] = 1
	} else {
		v[1] = -1
	}
	if g.picks[0] == 2 && g.picks[2] == 0 {
		v[0] = 1
	} else {
		v[0] = -1
	}
	return v
}

func TestThreePlayers(t *testing.T) {
	// Player 0 can get +1 only by picking 2 and hoping player 2 picks 0; player 2 picks 0
	// only when player 1 picked 0, which player 1 does (picking 0 differs from 2). So player
	// 0's best pick is 2, and after it player 1 picks 0 or 1, both differing.
	s := New(DefaultConfig(), Uniform[toy3, int]{})
	res, err := s.Search(toy3{}, Limit{Playouts: 4000})
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, s)
	if res.Best != 2 {
		t.Fatalf("player 0 picked %d, want 2 (visits %v)", res.Best, res.Visits)
	}
	// Player 2 after picks (2, 1) must match 1.
	res, err = s.Search(toy3{}.Apply(2).Apply(1), Limit{Playouts: 500})
	if err != nil || res.Best != 1 || res.Value < 0.9 {
		t.Fatalf("player 2 picked %d (value %v, err %v), want 1", res.Best, res.Value, err)
	}
}

func TestZeroAllocs(t *testing.T) {
	mid := mustDiagram(t, midgame, ataxx.O)
	for _, tc := range []struct {
		name  string
		batch int
		eval  Evaluator[apos, amov]
	}{
		{"uniform/b1", 1, Uniform[apos, amov]{}},
		{"uniform/b16", 16, Uniform[apos, amov]{}},
		{"rollout/b4", 4, NewRollout[apos, amov](3, 100, materialValues)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.BatchSize = tc.batch
			cfg.NoiseFraction = 0.25
			cfg.Temperature = 1
			s := New(cfg, tc.eval)
			search := func() {
				s.Reset()
				if _, err := s.Search(mid, Limit{Playouts: 300}); err != nil {
					t.Fatal(err)
				}
			}
			for range 3 {
				search() // warm-up: the arena and buffers reach their size
			}
			if a := testing.AllocsPerRun(20, search); a != 0 {
				t.Fatalf("%v allocations per 300-playout search", a)
			}
			// Tree reuse between searches does not allocate either once both arenas exist.
			reuse := func() {
				s.Reset()
				res, _ := s.Search(mid, Limit{Playouts: 300})
				next := mid.Apply(res.Best)
				if _, err := s.Search(next, Limit{Playouts: 100}); err != nil {
					t.Fatal(err)
				}
			}
			reuse()
			reuse()
			if a := testing.AllocsPerRun(10, reuse); a != 0 {
				t.Fatalf("%v allocations per search pair with reuse", a)
			}
		})
	}
}

// TestSearchExcluding: excluded root moves get no visit and are never Best or Move (nor drawn
// by the temperature), whether the tree is fresh or kept; a list that would exclude every
// move, or only moves that are not legal, changes nothing.
func TestSearchExcluding(t *testing.T) {
	pos := mustDiagram(t, midgame, ataxx.O)
	visitsOf := func(res Result[amov], m amov) int32 {
		i := slices.Index(res.Moves, m)
		if i < 0 {
			t.Fatalf("move %v not among the root moves", m)
		}
		return res.Visits[i]
	}
	s := New(DefaultConfig(), NewRollout[apos, amov](21, 0, materialValues))
	res, err := s.Search(pos, Limit{Playouts: 2000})
	if err != nil {
		t.Fatal(err)
	}
	top := slices.Clone(res.Moves)
	slices.SortFunc(top, func(a, b amov) int { return int(visitsOf(res, b) - visitsOf(res, a)) })
	ban := top[:3] // the three most visited moves
	before := make([]int32, len(ban))
	for i, m := range ban {
		before[i] = visitsOf(res, m)
	}

	// Kept tree: the banned moves keep their visits and get no more.
	res, err = s.SearchExcluding(pos, Limit{Playouts: 1000}, ban)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ban {
		if v := visitsOf(res, m); v != before[i] {
			t.Errorf("kept tree: excluded %v went from %d to %d visits", m, before[i], v)
		}
	}
	if slices.Contains(ban, res.Best) || slices.Contains(ban, res.Move) {
		t.Errorf("kept tree: played an excluded move (best %v, move %v, excluded %v)", res.Best, res.Move, ban)
	}
	checkTree(t, s)

	// Fresh tree, and a temperature that draws among the visited moves.
	cfg := DefaultConfig()
	cfg.Temperature = 1
	for seed := uint64(1); seed <= 10; seed++ {
		cfg.Seed = seed
		f := New(cfg, NewRollout[apos, amov](seed, 0, materialValues))
		res, err := f.SearchExcluding(pos, Limit{Playouts: 300}, ban)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ban {
			if v := visitsOf(res, m); v != 0 {
				t.Errorf("seed %d: excluded %v has %d visits in a fresh tree", seed, m, v)
			}
		}
		if slices.Contains(ban, res.Best) || slices.Contains(ban, res.Move) {
			t.Errorf("seed %d: played an excluded move (best %v, move %v)", seed, res.Best, res.Move)
		}
		// The ban lasts one search.
		res, _ = f.Search(pos, Limit{Playouts: 300})
		if visitsOf(res, ban[0])+visitsOf(res, ban[1])+visitsOf(res, ban[2]) == 0 {
			t.Errorf("seed %d: the moves excluded from the last search got no visit in the next", seed)
		}
	}

	// Every move excluded, or none of the listed moves legal: a plain search.
	for name, ex := range map[string][]amov{"all": top, "illegal": {amov(0xFFFF)}} {
		f := New(DefaultConfig(), NewRollout[apos, amov](3, 0, materialValues))
		res, err := f.SearchExcluding(pos, Limit{Playouts: 300}, ex)
		if err != nil {
			t.Fatal(err)
		}
		if res.Playouts != 300 || !slices.Contains(res.Moves, res.Best) || len(f.ban) != 0 {
			t.Errorf("%s: %d playouts, best %v, ban %v", name, res.Playouts, res.Best, f.ban)
		}
		g := New(DefaultConfig(), NewRollout[apos, amov](3, 0, materialValues))
		want, _ := g.Search(pos, Limit{Playouts: 300})
		if !slices.Equal(want.Visits, res.Visits) {
			t.Errorf("%s: visits differ from a plain search of the same seed", name)
		}
	}
}
