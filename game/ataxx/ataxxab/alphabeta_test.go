package ataxxab

import (
	"math/rand/v2"
	"testing"
	"time"

	"colony/contract/contracttest"
	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/engine/enginetest"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
)

// randomPosition plays n random legal moves from the start (fewer if the game ends).
func randomPosition(rng *rand.Rand, n int) ataxx.Position {
	p := ataxx.Start()
	buf := make([]ataxx.Move, 0, ataxx.MaxMoves)
	for range n {
		buf = p.LegalMoves(buf)
		if len(buf) == 0 {
			break
		}
		c := p.Apply(buf[rng.IntN(len(buf))])
		if c.Terminal() {
			break
		}
		p = c
	}
	return p
}

func mustDiagram(t testing.TB, d string, side int) ataxx.Position {
	t.Helper()
	p, err := ataxx.ParseDiagram(d, side)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// midgame is a position after 12 plies of the opening, used by the benchmark and tests.
const midgame = `
	O O . . . X X
	O O O . X X .
	. O . . . X .
	. . . . . . .
	. X . . . O .
	X X X . O O O
	X X . . . O O`

func TestLegalOnRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
	n := 60
	if testing.Short() {
		n = 30
	}
	for i := range n {
		p := randomPosition(rng, rng.IntN(80))
		if p.Terminal() {
			continue
		}
		lim := engine.Limits{Depth: 1 + i%4}
		if i%3 == 0 {
			lim = engine.Limits{MoveTime: 5 * time.Millisecond}
		}
		m := e.BestMove(p, lim)
		if !p.IsLegal(m) {
			t.Fatalf("illegal move %v in\n%s", m, p.Diagram())
		}
	}
}

func TestForcedPass(t *testing.T) {
	// X is walled in: every cell within two of it is full, so its only move is the pass.
	p := mustDiagram(t, `
		X O O O . . .
		O O O O . . .
		O O O O . . .
		O O O O . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, ataxx.X)
	if m := New().BestMove(p, engine.Limits{Depth: 3}); m != ataxx.Pass {
		t.Fatalf("got %v, want the forced pass", m)
	}
	// With O to move the stuck X must be scored as O owning every empty cell: a win.
	p = ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), ataxx.O, 0)
	e := New()
	e.BestMove(p, engine.Limits{Depth: 2})
	if _, s, _ := e.Stats(); s < abrules.WinBound {
		t.Fatalf("score %d, want a win", s)
	}
}

// winsWithin reports whether player me can force a finished game that it wins within plies
// plies (plain exhaustive minimax, independent of the engine).
func winsWithin(p ataxx.Position, plies int, me int) bool {
	return contracttest.WinsWithin(p, plies, me)
}

func TestFindsWins(t *testing.T) {
	cases := []struct {
		name  string
		board string
		side  int
		plies int
	}{
		{"wipe-out in 1", `
			. . . . . . .
			. . . . . . .
			. . O . . . .
			. . . . . . .
			. . . . . X X
			. . . . O X .
			O O . . . X X`, ataxx.O, 1},
		{"fill the board in 1", `
			O O O O X X X
			O O O O X X X
			O O O X X X X
			O O O X X X X
			O O O X X X X
			O O X X X X X
			O O . O O O X`, ataxx.O, 1},
		{"win in 3 plies", `
			X O O O X X .
			X O O O X X X
			X X X X X X X
			X X X O X X .
			O O O X X X X
			O O O X X O O
			O O O X X O .`, ataxx.X, 3},
		{"win in 3 plies, greedy fails", `
			. X X O O O O
			O O X O X X O
			X X X O X X X
			. O O O X X O
			O O X X X O O
			O O X X X O O
			O . X X O X X`, ataxx.X, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustDiagram(t, c.board, c.side)
			me := p.ToMove()
			if !winsWithin(p, c.plies, me) {
				t.Fatalf("bad test: no forced win within %d plies", c.plies)
			}
			if c.plies > 1 && winsWithin(p, c.plies-2, me) {
				t.Fatalf("bad test: a faster win exists")
			}
			e := New()
			m := e.BestMove(p, engine.Limits{Depth: c.plies + 1})
			if !p.IsLegal(m) {
				t.Fatalf("illegal move %v", m)
			}
			if !winsWithin(p.Apply(m), c.plies-1, me) {
				t.Fatalf("move %v does not force the win within %d plies", m, c.plies)
			}
			if _, s, _ := e.Stats(); s < abrules.WinBound {
				t.Fatalf("score %d, want a win", s)
			}
		})
	}
}

// TestTableKeepsScore checks that the transposition table does not change the value of a
// fixed-depth search (without reductions, and with cut-offs from entries of the same depth).
func TestTableKeepsScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	positions := []ataxx.Position{ataxx.Start(), mustDiagram(t, midgame, ataxx.O)}
	for range 4 {
		positions = append(positions, randomPosition(rng, 10+rng.IntN(50)))
	}
	depth := 4
	if testing.Short() {
		depth = 3
	}
	for _, p := range positions {
		if p.CountMoves() < 2 {
			continue
		}
		with := NewWithOptions(Options{Options: ab.Options{HashMB: 4, NoLMR: true}})
		with.ab.ExactTT = true
		without := NewWithOptions(Options{Options: ab.Options{HashMB: -1, NoLMR: true}})
		with.BestMove(p, engine.Limits{Depth: depth})
		without.BestMove(p, engine.Limits{Depth: depth})
		d1, s1, n1 := with.Stats()
		d2, s2, n2 := without.Stats()
		// A proven result ends the deepening early; both searches must agree on it.
		if d1 != d2 || d1 != depth && s1 < abrules.WinBound && s1 > -abrules.WinBound {
			t.Fatalf("depths %d %d, want %d", d1, d2, depth)
		}
		if s1 != s2 {
			t.Fatalf("score with table %d, without %d in\n%s", s1, s2, p.Diagram())
		}
		t.Logf("depth %d score %d nodes %d with table, %d without", depth, s1, n1, n2)
	}
}

func TestDeterministicAtFixedDepth(t *testing.T) {
	enginetest.CheckDeterministic(t, func() enginetest.Engine[ataxx.Position, ataxx.Move] { return New() },
		mustDiagram(t, midgame, ataxx.O), engine.Limits{Depth: 5})
}

func TestMoveTime(t *testing.T) {
	p := mustDiagram(t, midgame, ataxx.O)
	e := New()
	start := time.Now()
	m := e.BestMove(p, engine.Limits{MoveTime: 50 * time.Millisecond})
	el := time.Since(start)
	if !p.IsLegal(m) {
		t.Fatalf("illegal move %v", m)
	}
	// Loose on purpose: CI machines are shared and the table allocation on the first call
	// counts too. Without a working deadline this search runs to the depth cap, far longer.
	if el > 2*time.Second {
		t.Fatalf("movetime 50ms took %v", el)
	}
	d, _, _ := e.Stats()
	t.Logf("movetime 50ms: %v, depth %d", el, d)
}

func TestLowClock(t *testing.T) {
	p := mustDiagram(t, midgame, ataxx.O)
	e := New()
	e.BestMove(p, engine.Limits{Depth: 1}) // allocate the table outside the timing
	for _, my := range []time.Duration{100 * time.Millisecond, 20 * time.Millisecond, time.Millisecond} {
		start := time.Now()
		m := e.BestMove(p, engine.Limits{MyTime: my, OppTime: time.Second})
		el := time.Since(start)
		if !p.IsLegal(m) {
			t.Fatalf("illegal move %v", m)
		}
		// Loose (shared machines): the point is that the search stops at all on a tiny clock.
		if el > time.Second+my {
			t.Fatalf("my_time %v: took %v", my, el)
		}
	}
}

func TestClockBudget(t *testing.T) {
	p := ataxx.Start()
	soft, hard := clockBudget(&p, 10*time.Second, 0)
	if soft <= 0 || hard < soft || hard > 10*time.Second/3 {
		t.Fatalf("10s at the start: soft %v hard %v", soft, hard)
	}
	soft, hard = clockBudget(&p, 100*time.Millisecond, 0)
	if hard > 40*time.Millisecond || soft > hard {
		t.Fatalf("100ms: soft %v hard %v", soft, hard)
	}
}

func TestNodeLimit(t *testing.T) {
	p := mustDiagram(t, midgame, ataxx.O)
	e := New()
	e.BestMove(p, engine.Limits{Nodes: 5000})
	if _, _, n := e.Stats(); n > 5000 || n < 4000 {
		t.Fatalf("node limit 5000: searched %d", n)
	}
}

func TestNoAllocs(t *testing.T) {
	p := mustDiagram(t, midgame, ataxx.O)
	e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
	e.BestMove(p, engine.Limits{Depth: 3})
	allocs := testing.AllocsPerRun(3, func() {
		e.BestMove(p, engine.Limits{Depth: 3})
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per search", allocs)
	}
}

func TestConstructionIsCheap(t *testing.T) {
	e := New()
	if e.ab.Allocated() {
		t.Fatal("New allocated the table")
	}
}

func TestNeighbourCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		b := rng.Uint64() & ataxx.Full
		c0, c1, c2, c3 := neighbourCount(b)
		for sq := range ataxx.NumSquares {
			want := 0
			for n := ataxx.Neighbours(sq) & b; n != 0; n &= n - 1 {
				want++
			}
			got := int(c0>>sq&1 + 2*(c1>>sq&1) + 4*(c2>>sq&1) + 8*(c3>>sq&1))
			if got != want {
				t.Fatalf("square %d: %d, want %d", sq, got, want)
			}
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	p, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		b.Fatal(err)
	}
	e := New()
	var nodes int64
	b.ResetTimer()
	for range b.N {
		e.NewGame()
		e.BestMove(p, engine.Limits{Depth: 6})
		_, _, n := e.Stats()
		nodes += n
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
