package random

import (
	"testing"

	"colony/engine"
	"colony/game/ataxx"
)

var _ engine.Engine[ataxx.Position, ataxx.Move] = (*Engine[ataxx.Position, ataxx.Move])(nil)

// playGame plays e against itself from the start and returns the moves, checking each one.
func playGame(t *testing.T, e *Engine[ataxx.Position, ataxx.Move]) []ataxx.Move {
	t.Helper()
	var moves []ataxx.Move
	p := ataxx.Start()
	for !p.Terminal() {
		m := e.BestMove(p, engine.Limits{})
		if !p.IsLegal(m) {
			t.Fatalf("illegal move %v in\n%s", m, p.Diagram())
		}
		moves = append(moves, m)
		p = p.Apply(m)
	}
	return moves
}

func TestLegalWholeGames(t *testing.T) {
	e := New[ataxx.Position, ataxx.Move](1)
	for range 20 {
		if n := len(playGame(t, e)); n == 0 {
			t.Fatal("empty game")
		}
	}
}

func TestForcedPassAndFinishedGame(t *testing.T) {
	// O is walled in: every cell within distance 2 of its piece is taken.
	stuck, err := ataxx.ParseDiagram(`
		O X X . . . .
		X X X . . . .
		X X X . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	e := New[ataxx.Position, ataxx.Move](3)
	if m := e.BestMove(stuck, engine.Limits{}); m != ataxx.Pass {
		t.Errorf("stuck side: got %v, want pass", m)
	}
	over, err := ataxx.ParseBoard("OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOX X")
	if err != nil {
		t.Fatal(err)
	}
	if m := e.BestMove(over, engine.Limits{}); m != (ataxx.Move(0)) {
		t.Errorf("finished game: got %v, want the zero move", m)
	}
}

func TestDeterministicForSeed(t *testing.T) {
	a, b := playGame(t, New[ataxx.Position, ataxx.Move](42)), playGame(t, New[ataxx.Position, ataxx.Move](42))
	if len(a) != len(b) {
		t.Fatalf("same seed, games of %d and %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, move %d differs: %v vs %v", i, a[i], b[i])
		}
	}
	c := playGame(t, New[ataxx.Position, ataxx.Move](43))
	same := len(a) == len(c)
	for i := 0; same && i < len(a); i++ {
		same = a[i] == c[i]
	}
	if same {
		t.Error("seeds 42 and 43 played the same game")
	}
}

func TestCoversEveryMove(t *testing.T) {
	e := New[ataxx.Position, ataxx.Move](7)
	p := ataxx.Start()
	seen := map[ataxx.Move]int{}
	for range 4000 {
		seen[e.BestMove(p, engine.Limits{})]++
	}
	legal := p.LegalMoves(nil)
	if len(seen) != len(legal) {
		t.Fatalf("saw %d distinct moves, want %d", len(seen), len(legal))
	}
	for _, m := range legal {
		// 4000/16 = 250 expected; 150 is more than 6 standard deviations below.
		if seen[m] < 150 {
			t.Errorf("move %v drawn %d times of 4000", m, seen[m])
		}
	}
}

func TestBestMoveDoesNotAllocate(t *testing.T) {
	e := New[ataxx.Position, ataxx.Move](5)
	p := ataxx.Start()
	if n := testing.AllocsPerRun(100, func() { e.BestMove(p, engine.Limits{}) }); n != 0 {
		t.Errorf("BestMove allocates %.1f times per call", n)
	}
}

func BenchmarkBestMove(b *testing.B) {
	e := New[ataxx.Position, ataxx.Move](5)
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
