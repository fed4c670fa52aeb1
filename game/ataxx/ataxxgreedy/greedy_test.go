package ataxxgreedy

import (
	"math/rand/v2"
	"testing"

	"colony/engine"
	"colony/game/ataxx"
)

func diagram(t *testing.T, d string, side int) ataxx.Position {
	t.Helper()
	p, err := ataxx.ParseDiagram(d, side)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPicksTheBigCapture(t *testing.T) {
	// The leap from e3 (row 5, col 5) into the hole at c5 (row 3, col 3) converts eight X;
	// the best division converts two (plus one new piece).
	p := diagram(t, `
		. . . . . . .
		. X X X . . .
		. X . X . . .
		. X X X . . .
		. . . . O . .
		. . . . . . .
		. . . . . . .`, ataxx.O)
	want := ataxx.JumpMove(4*7+4, 2*7+2)
	for seed := range uint64(10) {
		if m := New(seed).BestMove(p, engine.Limits{}); m != want {
			t.Fatalf("seed %d: got %v, want %v", seed, m, want)
		}
	}
}

func TestPrefersDivisionOnEqualCaptures(t *testing.T) {
	// X at b6 (row 2, col 2) can divide to c5 or leap to c4/d5, all next to the lone O at d4
	// (row 4, col 4); each converts it, but only the division also keeps its source.
	p := diagram(t, `
		. . . . . . .
		. X . . . . .
		. . . . . . .
		. . . O . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, ataxx.X)
	e := New(1)
	for range 50 {
		m := e.BestMove(p, engine.Limits{})
		if !m.IsClone() || m.To() != 2*7+2 {
			t.Fatalf("got %v, want the division to c5", m)
		}
	}
}

// gainByApply counts the mover's pieces before and after m, independently of Gain.
func gainByApply(p ataxx.Position, m ataxx.Move) int {
	me := p.ToMove()
	return p.Apply(m).Count(me) - p.Count(me)
}

func TestMaximalOnRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	e := New(2)
	buf := make([]ataxx.Move, 0, ataxx.MaxMoves)
	for game := range 30 {
		p := ataxx.Start()
		for !p.Terminal() {
			m := e.BestMove(p, engine.Limits{})
			if !p.IsLegal(m) {
				t.Fatalf("game %d: illegal %v in\n%s", game, m, p.Diagram())
			}
			best := -1
			buf = p.LegalMoves(buf)
			for _, c := range buf {
				best = max(best, gainByApply(p, c))
			}
			if g := gainByApply(p, m); g != best || g != Gain(p, m) {
				t.Fatalf("game %d: %v gains %d (Gain says %d), best is %d in\n%s",
					game, m, g, Gain(p, m), best, p.Diagram())
			}
			// Continue with a random move so the games visit varied positions.
			p = p.Apply(buf[rng.IntN(len(buf))])
		}
	}
}

func TestTiesCoverAllMaximalMoves(t *testing.T) {
	// At the start the six divisions gain one piece each; leaps gain none.
	p := ataxx.Start()
	e := New(11)
	seen := map[ataxx.Move]int{}
	for range 1200 {
		seen[e.BestMove(p, engine.Limits{})]++
	}
	if len(seen) != 6 {
		t.Fatalf("saw %d distinct moves, want the 6 divisions: %v", len(seen), seen)
	}
	for m, n := range seen {
		if !m.IsClone() || n < 100 { // 200 expected
			t.Errorf("move %v drawn %d times of 1200", m, n)
		}
	}
}

func TestDeterministicForSeed(t *testing.T) {
	game := func(seed uint64) []ataxx.Move {
		e := New(seed)
		var out []ataxx.Move
		for p := ataxx.Start(); !p.Terminal(); {
			m := e.BestMove(p, engine.Limits{})
			out = append(out, m)
			p = p.Apply(m)
		}
		return out
	}
	a, b, c := game(5), game(5), game(6)
	if len(a) != len(b) {
		t.Fatalf("same seed, %d vs %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, move %d: %v vs %v", i, a[i], b[i])
		}
	}
	same := len(a) == len(c)
	for i := 0; same && i < len(a); i++ {
		same = a[i] == c[i]
	}
	if same {
		t.Error("seeds 5 and 6 played the same game")
	}
}

func TestPassWhenStuckOrOver(t *testing.T) {
	stuck := diagram(t, `
		O X X . . . .
		X X X . . . .
		X X X . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, ataxx.O)
	if m := New(1).BestMove(stuck, engine.Limits{}); m != ataxx.Pass {
		t.Errorf("stuck: got %v, want pass", m)
	}
	over := diagram(t, `
		X X . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, ataxx.O)
	if m := New(1).BestMove(over, engine.Limits{}); m != ataxx.Pass {
		t.Errorf("no O pieces: got %v, want pass", m)
	}
}

func TestBestMoveDoesNotAllocate(t *testing.T) {
	e := New(5)
	p := ataxx.Start()
	if n := testing.AllocsPerRun(100, func() { e.BestMove(p, engine.Limits{}) }); n != 0 {
		t.Errorf("BestMove allocates %.1f times per call", n)
	}
}

func BenchmarkBestMove(b *testing.B) {
	e := New(5)
	p, err := ataxx.ParseBoard("..O...X/.O...X./....X.X/.XX.XXX/.X..X../O.....X/.X..... O")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e.BestMove(p, engine.Limits{})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
