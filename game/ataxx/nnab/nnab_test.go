package nnab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
	"colony/internal/cputime"
	"colony/models"
	"colony/nn/nnue"
)

// testModel is a random Bacteria War net whose output weights are scaled so that its logits
// are of a trained net's order (random output weights cancel out).
func testModel(hidden, l1 int, seed uint64) *nnue.Model {
	return scaledOut(nnue.NewRandom(Arch(hidden, l1), seed))
}

// scaledOut multiplies m's output weights by 20 and returns m.
func scaledOut(m *nnue.Model) *nnue.Model {
	for i := range m.Weights.OutW {
		m.Weights.OutW[i] *= 20
	}
	return m
}

func testNet(t testing.TB, hidden, l1 int) *nnue.Net {
	t.Helper()
	n, err := nnue.Quantize(testModel(hidden, l1, 1), 0)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// randomGame plays uniformly random moves from the start to the end, calling f before each move.
func randomGame(rng *rand.Rand, f func(p *ataxx.Position, m ataxx.Move)) {
	p := ataxx.Start()
	buf := make([]ataxx.Move, 0, ataxx.MaxMoves)
	for !p.Terminal() {
		moves := p.LegalMoves(buf)
		m := moves[rng.IntN(len(moves))]
		f(&p, m)
		p = p.Apply(m)
	}
}

// TestIncrementalEqualsRefresh: along 1,000 random games (every move, passes included) the
// accumulator updated move by move equals one computed from scratch, and the encoder's planes
// read through the arch give the same pieces and side to move; undoing every move in reverse
// order returns to the start's accumulator.
func TestIncrementalEqualsRefresh(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 200
	}
	for _, sz := range [][2]int{{64, 0}, {32, 16}} {
		net := testNet(t, sz[0], sz[1])
		arch := net.Arch()
		rng := rand.New(rand.NewPCG(7, 8))
		acc, fresh := net.NewAcc(), net.NewAcc()
		in := make([]float32, ataxx.InputSize)
		start := ataxx.Start()
		startAcc := net.NewAcc()
		net.Refresh(startAcc, Pieces(&start))
		moves := 0
		type undo struct {
			side, to, from int
			flips          uint64
		}
		var undos []undo
		for range games {
			p0 := ataxx.Start()
			net.Refresh(acc, Pieces(&p0))
			undos = undos[:0]
			randomGame(rng, func(p *ataxx.Position, m ataxx.Move) {
				c := p.Apply(m)
				if m != ataxx.Pass {
					side, to := p.ToMove(), m.To()
					from := -1
					if m.IsJump() {
						from = m.From()
					}
					flips := ataxx.Neighbours(to) & p.Pieces(side^1)
					net.Move(acc, acc, side, to, from, flips)
					undos = append(undos, undo{side, to, from, flips})
				}
				net.Refresh(fresh, Pieces(&c))
				if !equal(acc, fresh) {
					t.Fatalf("after %v in\n%s\nthe incremental accumulator differs from a fresh one", m, p.Diagram())
				}
				c.Encode(in)
				pieces, stm, err := arch.Pieces(in)
				if err != nil || pieces != Pieces(&c) || stm != c.ToMove() {
					t.Fatalf("encoding read as pieces %x stm %d (err %v), position has %x stm %d", pieces, stm, err, Pieces(&c), c.ToMove())
				}
				moves++
			})
			for i := len(undos) - 1; i >= 0; i-- {
				u := undos[i]
				net.Unmove(acc, u.side, u.to, u.from, u.flips)
			}
			if !equal(acc, startAcc) {
				t.Fatal("undoing a whole game does not return to the start's accumulator")
			}
		}
		t.Logf("%s: %d games, %d moves checked", arch, games, moves)
	}
}

func equal(a, b nnue.Acc) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// quantTolerance is the largest |quantized - float| logit accepted on game positions (tanh
// units; x ScoreScale = hundredths of a piece). Measured: see the test log.
const quantTolerance = 0.06

// TestQuantizedEqualsFloatOnGames compares the integer net with the float reference on 10,000
// positions of random games, read through the encoder (Encode -> ForwardInput), so the planes
// mapping is checked too: two random nets and the embedded trained one.
func TestQuantizedEqualsFloatOnGames(t *testing.T) {
	var ms []*nnue.Model
	for _, sz := range [][2]int{{128, 0}, {64, 32}} {
		ms = append(ms, testModel(sz[0], sz[1], 3))
	}
	for _, sz := range [][2]int{{128, 0}, {64, 32}} { // SCReLU accumulators
		m := testModel(sz[0], sz[1], 3)
		m.Arch.Activation = nnue.SCReLU
		if err := CheckModel(m); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	if m, _, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, ""); err == nil {
		ms = append(ms, m) // the trained net
	}
	for _, m := range ms {
		net, err := nnue.Quantize(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		in := make([]float32, ataxx.InputSize)
		acc := net.NewAcc()
		n := 0
		var worst, sum, mag float64
		for n < 10000 {
			randomGame(rng, func(p *ataxx.Position, _ ataxx.Move) {
				if n >= 10000 {
					return
				}
				p.Encode(in)
				f, stm, err := m.ForwardInput(in)
				if err != nil || stm != p.ToMove() {
					t.Fatalf("ForwardInput: stm %d err %v", stm, err)
				}
				net.Refresh(acc, Pieces(p))
				q := net.Logit(net.Output(acc, p.ToMove(), net.Arch().Bucket(Pieces(p))))
				d := math.Abs(q - float64(f))
				worst, sum, mag = max(worst, d), sum+d, mag+math.Abs(float64(f))
				n++
			})
		}
		t.Logf("%s (step %d): 10,000 game positions: |quantized - float| logit max %.4f mean %.5f (mean |logit| %.2f)",
			net.Arch(), m.Step, worst, sum/1e4, mag/1e4)
		if worst > quantTolerance {
			t.Errorf("%s: quantized differs from float by %.4f > %v", net.Arch(), worst, quantTolerance)
		}
		if mag/1e4 < 0.3 {
			t.Errorf("mean |logit| %.3f too small for a meaningful comparison", mag/1e4)
		}
	}
}

const midgame = `
	O O . . . X X
	O O O . X X .
	. O . . . X .
	. . . . . . .
	. X . . . O .
	X X X . O O O
	X X . . . O O`

func newEngine(t testing.TB, o Options) *Engine {
	t.Helper()
	if o.Net == nil {
		o.Net = testNet(t, 64, 0)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSearchZeroAllocs: after the first search, a whole search allocates nothing.
func TestSearchZeroAllocs(t *testing.T) {
	p, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	sq := testModel(128, 0, 1)
	sq.Arch.Activation = nnue.SCReLU
	sqNet, err := nnue.Quantize(sq, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Options: ab.Options{HashMB: 4}}, {Options: ab.Options{HashMB: 4}, Net: testNet(t, 32, 16)}, {Options: ab.Options{HashMB: 4}, Net: sqNet}} {
		e := newEngine(t, o)
		e.BestMove(p, engine.Limits{Depth: 3})
		allocs := testing.AllocsPerRun(5, func() { e.BestMove(p, engine.Limits{Depth: 4}) })
		_, _, nodes := e.Stats()
		if allocs != 0 {
			t.Errorf("%v allocations per search of %d nodes", allocs, nodes)
		}
	}
}

// TestDepthOneIsNetArgmax: a depth-1 search without the table plays the move whose child the
// net scores worst for the opponent (or a proven result), and scores it so.
func TestDepthOneIsNetArgmax(t *testing.T) {
	net := testNet(t, 64, 0)
	e := newEngine(t, Options{Options: ab.Options{HashMB: -1}, Net: net})
	rng := rand.New(rand.NewPCG(3, 3))
	acc := net.NewAcc()
	checked := 0
	for range 30 {
		randomGame(rng, func(p *ataxx.Position, _ ataxx.Move) {
			moves := p.LegalMoves(nil)
			if len(moves) < 2 || rng.IntN(8) != 0 {
				return
			}
			best := int32(-1 << 30)
			for _, m := range moves {
				c := p.Apply(m)
				var v int32
				if c.Terminal() {
					v = -abrules.TerminalScore(&c, 1)
				} else if s, ok := stuckScoreIfBlocked(&c); ok {
					v = -s
				} else {
					net.Refresh(acc, Pieces(&c))
					v = -min(max(net.Evaluate(acc, c.ToMove(), net.Arch().Bucket(Pieces(&c))), -abrules.WinBound+1), abrules.WinBound-1)
				}
				best = max(best, v)
			}
			m := e.BestMove(*p, engine.Limits{Depth: 1})
			_, score, _ := e.Stats()
			if score != best {
				t.Fatalf("depth 1 in\n%s\nplays %v scoring %d, the best child scores %d", p.Diagram(), m, score, best)
			}
			checked++
		})
	}
	if checked < 50 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// stuckScoreIfBlocked mirrors the leaf rule: a side that cannot reach an empty cell within two
// steps is scored by stuckScore when that is exact.
func stuckScoreIfBlocked(p *ataxx.Position) (int32, bool) {
	us := p.Pieces(p.ToMove())
	if ataxx.Dilate(ataxx.Dilate(us))&p.Empty() != 0 {
		return 0, false
	}
	return abrules.StuckScore(p, 1)
}

// TestTakesTheWin: O can take X's last pieces at once.
func TestTakesTheWin(t *testing.T) {
	p, err := ataxx.ParseDiagram(`
	O O . . . . .
	O X . . . . .
	. X . . . . .
	. . . . . . .
	. . . . . . .
	. . . . . . O
	. . . . . . O`, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, Options{Options: ab.Options{HashMB: 4}})
	m := e.BestMove(p, engine.Limits{Depth: 4})
	c := p.Apply(m)
	_, score, _ := e.Stats()
	if c.Count(ataxx.X) != 0 || score < abrules.WinBound {
		t.Fatalf("plays %v (X keeps %d pieces), score %d", m, c.Count(ataxx.X), score)
	}
}

// TestLegalUnderClock: moves are legal and the clock is kept along a game against itself,
// 1.5 s a side for 60 plies. Each move is charged the CPU time of the search's thread (the
// wall clock where the system gives none) plus 0.5 ms: on a quiet machine that is the move's
// wall time, and on a loaded one it leaves out only the time spent waiting for a core, which
// no engine controls, so the test holds on a busy machine without a looser clock.
func TestLegalUnderClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	e := newEngine(t, Options{Options: ab.Options{HashMB: 4, Seed: 5}})
	p := ataxx.Start()
	left := [2]time.Duration{1500 * time.Millisecond, 1500 * time.Millisecond}
	for ply := 0; !p.Terminal() && ply < 60; ply++ {
		lim := engine.Limits{MyTime: left[p.ToMove()], OppTime: left[p.ToMove()^1]}
		c0, ok0 := cputime.Thread()
		w0 := time.Now()
		m := e.BestMove(p, lim)
		cost := time.Since(w0)
		if c1, ok1 := cputime.Thread(); ok0 && ok1 {
			cost = c1 - c0
		}
		left[p.ToMove()] -= cost + 500*time.Microsecond
		if !p.IsLegal(m) {
			t.Fatalf("illegal %v in\n%s", m, p.Diagram())
		}
		if left[p.ToMove()] <= 0 {
			t.Fatalf("out of time at ply %d", ply)
		}
		p = p.Apply(m)
	}
	t.Logf("clock left: O %v, X %v", left[ataxx.O], left[ataxx.X])
}

// benchSearch searches pos to a fixed depth from a new game each time and reports nodes per
// second and per CPU-second of the searching thread; the table's clear at each new game is
// outside both (it is not search work, and it would weigh more on the shorter pruned trees).
func benchSearch(b *testing.B, pos ataxx.Position, depth int, net *nnue.Net, noPrune bool) {
	e := newEngine(b, Options{Options: ab.Options{HashMB: 16, NoPrune: noPrune}, Net: net})
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var meter searchMeter
	for b.Loop() {
		b.StopTimer()
		e.NewGame()
		b.StartTimer()
		meter.bestMove(e, pos, engine.Limits{Depth: depth})
	}
	meter.report(b)
}

// searchMeter sums the nodes, wall time and searching thread's CPU time of a benchmark's
// searches (the caller locks its OS thread).
type searchMeter struct {
	nodes     int64
	wall, cpu time.Duration
	cpuLost   bool // a CPU-time read failed
}

// bestMove is e.BestMove(pos, lim), measured.
func (s *searchMeter) bestMove(e *Engine, pos ataxx.Position, lim engine.Limits) ataxx.Move {
	c0, ok0 := cputime.Thread()
	t0 := time.Now()
	m := e.BestMove(pos, lim)
	s.wall += time.Since(t0)
	c1, ok1 := cputime.Thread()
	s.cpu += c1 - c0
	s.cpuLost = s.cpuLost || !ok0 || !ok1
	_, _, n := e.Stats()
	s.nodes += n
	return m
}

// report gives nodes per second, per CPU-second (where the system tells the thread's CPU
// time) and per op.
func (s *searchMeter) report(b *testing.B) {
	b.ReportMetric(float64(s.nodes)/s.wall.Seconds(), "nodes/s")
	if !s.cpuLost {
		b.ReportMetric(float64(s.nodes)/s.cpu.Seconds(), "nodes/cpu-s")
	}
	b.ReportMetric(float64(s.nodes)/float64(b.N), "nodes/op")
}

// benchNet is the embedded net (a random one when none is embedded): a trained net's search
// tree is the one that matters.
func benchNet(b testing.TB) *nnue.Net {
	m, _, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, "")
	if err != nil {
		b.Logf("no embedded net (%v): a random one", err)
		return testNet(b, 64, 0)
	}
	n, err := nnue.Quantize(m, 0)
	if err != nil {
		b.Fatal(err)
	}
	if os.Getenv("NNAB_PORTABLE") != "" {
		n.SetSIMD(false)
	}
	return n
}

// BenchmarkSearchStart and BenchmarkSearchMidgame: fixed-depth searches from a new game, as
// alphabeta's BenchmarkSearch (NNAB_PORTABLE=1 turns the AVX2 kernels off in a simd build).
// The pruned searches go two plies deeper than the unpruned ones. Since the search's tree
// shrank (docs/search.md) these are small trees (13,000-15,000 nodes on the embedded net), far
// below a move of a 10 s game; BenchmarkGame is the mix a game searches.
func BenchmarkSearchStart(b *testing.B) {
	benchSearch(b, ataxx.Start(), 10, benchNet(b), false)
}

func BenchmarkSearchMidgame(b *testing.B) {
	benchSearch(b, benchMidgame(b), 8, benchNet(b), false)
}

// The same searches without the pruning near the leaves (Options.NoPrune): pruning spends a larger
// share of the nodes on evaluated interior nodes, so nodes/s drop while the time to a depth
// halves; these give the evaluator's pace in the search it had before pruning.
func BenchmarkSearchStartNoPrune(b *testing.B) {
	benchSearch(b, ataxx.Start(), 8, benchNet(b), true)
}

func BenchmarkSearchMidgameNoPrune(b *testing.B) {
	benchSearch(b, benchMidgame(b), 6, benchNet(b), true)
}

// BenchmarkGame plays whole games against itself at 20,000 nodes a move with the default
// table, from openings of 4 random plies (seeded, so every run plays the same games): the mix
// of openings, middle games and endings a match or a self-play run searches, with the table
// and the correction history carried from move to move. An op is one game. `make pgo` records
// its CPU profile as the build's profile (docs/house.md, "Profile-guided builds").
func BenchmarkGame(b *testing.B) {
	e := newEngine(b, Options{Net: benchNet(b)})
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(35, 0))
	var meter searchMeter
	for b.Loop() {
		e.NewGame()
		p := ataxx.Start()
		for ply := 0; !p.Terminal() && ply < 4; ply++ {
			ms := p.LegalMoves(nil)
			p = p.Apply(ms[r.IntN(len(ms))])
		}
		for !p.Terminal() {
			p = p.Apply(meter.bestMove(e, p, engine.Limits{Nodes: 20000}))
		}
	}
	meter.report(b)
}

func benchMidgame(b *testing.B) ataxx.Position {
	p, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// TestSingularChangesTheTree: the default's singular extensions, and the experiment that
// turns them on where a configuration has none (Options.Singular, at alphabeta's SEDepth and
// SEMargin), each change at least one of four deep searches' trees against the default
// without them (the midgame and the start, depths 8 and 9), and still play legal moves
// without allocating.
func TestSingularChangesTheTree(t *testing.T) {
	mid, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	if config.SEDepth == 0 {
		t.Fatal("the default search has no singular extensions")
	}
	noSE := config
	noSE.SEDepth, noSE.SEMargin = 0, 0
	net := benchNet(t)
	variants := []struct {
		name string
		o    Options
		c    ab.Config[ataxx.Move]
	}{
		{"without singular extensions", Options{}, noSE},
		{"default", Options{}, config},
		{"experiment se on the configuration without them", Options{Options: ab.Options{Singular: true}}, noSE},
	}
	// A switch need not fire in every search: it must change at least one of these trees.
	positions := []ataxx.Position{mid, ataxx.Start()}
	var base []int64
	for i, v := range variants {
		v.o.Net, v.o.HashMB = net, 4
		changed := false
		for j, p := range positions {
			for _, depth := range []int{8, 9} {
				e, err := newWithConfig(v.o, v.c)
				if err != nil {
					t.Fatal(err)
				}
				m := e.BestMove(p, engine.Limits{Depth: depth})
				_, _, nodes := e.Stats()
				if !p.IsLegal(m) {
					t.Fatalf("%s: illegal %v", v.name, m)
				}
				if i == 0 {
					base = append(base, nodes)
				} else if k := 2*j + depth - 8; nodes != base[k] {
					changed = true
				}
			}
			e, err := newWithConfig(v.o, v.c)
			if err != nil {
				t.Fatal(err)
			}
			if a := testing.AllocsPerRun(2, func() { e.BestMove(p, engine.Limits{Depth: 5}) }); a != 0 {
				t.Errorf("%s: %v allocations per search", v.name, a)
			}
		}
		if i > 0 && !changed {
			t.Errorf("%s: the same trees as without singular extensions (%v nodes)", v.name, base)
		}
	}
}

// BenchmarkSearchShapes: the midgame search with random nets of other shapes (hidden width,
// CReLU or SCReLU accumulators, an output of both perspectives or, -stm, the side to move's
// only), for the evaluator's cost per node; NNAB_PORTABLE=1 turns the AVX2 kernels off in a
// simd build. Random nets grow other trees: compare nodes/cpu-s. The windows-... shapes read
// window input (nnue.WindowInput).
func BenchmarkSearchShapes(b *testing.B) {
	for _, in := range []nnue.Input{nnue.CellInput, nnue.WindowInput} {
		for _, stm := range []bool{false, true} {
			for _, act := range []nnue.Activation{nnue.CReLU, nnue.SCReLU} {
				for _, h := range []int{64, 128, 256} {
					a := Arch(h, 0)
					name := fmt.Sprintf("%s-%d", act, h)
					if in == nnue.WindowInput {
						a, name = WindowArch(h, 0), "windows-"+name
					}
					if stm {
						name += "-stm"
					}
					a.Activation, a.STMOnly = act, stm
					b.Run(name, func(b *testing.B) {
						n, err := nnue.Quantize(scaledOut(nnue.NewRandom(a, 1)), 0)
						if err != nil {
							b.Fatal(err)
						}
						if os.Getenv("NNAB_PORTABLE") != "" {
							n.SetSIMD(false)
						}
						benchSearch(b, benchMidgame(b), 6, n, true)
					})
				}
			}
		}
	}
}
