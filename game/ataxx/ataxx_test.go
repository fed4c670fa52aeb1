package ataxx

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"colony/contract/contracttest"
)

// startPerft are the perft counts of the start position (docs/rules.md §1).
var startPerft = []uint64{16, 256, 6460, 155888, 4752668, 141865520}

func TestPerftStart(t *testing.T) { contracttest.CheckStartPerft(t, Start(), Perft, startPerft, 5, 6) }

func loadPerftFile(t *testing.T) []contracttest.PerftCase {
	return contracttest.ReadPerft(t, "testdata/bacteria-war-perft.txt", 40)
}

func TestPerftFile(t *testing.T) {
	contracttest.CheckPerftCases(t, loadPerftFile(t), ParseBoard, Perft)
}

// naivePerft counts without bulk counting, through LegalMoves only: a cross-check of
// CountMoves against the generator.
func naivePerft(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.LegalMoves(nil) {
		n += naivePerft(p.Apply(m), depth-1)
	}
	return n
}

// referenceMoves counts the distinct legal moves of p from the rules alone, on a 2D grid.
func referenceMoves(p Position) int {
	var grid [Size][Size]int // 0 empty, 1 own, 2 other
	own := p.Pieces(p.ToMove())
	other := p.Pieces(1 - p.ToMove())
	for sq := range NumSquares {
		switch {
		case own>>sq&1 != 0:
			grid[sq/Size][sq%Size] = 1
		case other>>sq&1 != 0:
			grid[sq/Size][sq%Size] = 2
		}
	}
	n := 0
	for r := range Size {
		for c := range Size {
			if grid[r][c] != 0 {
				continue
			}
			clone := false
			for r2 := range Size {
				for c2 := range Size {
					if grid[r2][c2] != 1 {
						continue
					}
					switch max(abs(r-r2), abs(c-c2)) {
					case 1:
						clone = true
					case 2:
						n++
					}
				}
			}
			if clone {
				n++
			}
		}
	}
	return n
}

func randomPosition(r *rand.Rand) Position {
	o := r.Uint64() & Full
	x := r.Uint64() & Full &^ o
	if r.IntN(2) == 0 {
		o &= r.Uint64()
		x &= r.Uint64()
	}
	return NewPosition(o, x, r.IntN(2), r.IntN(MaxTurns))
}

func TestMoveGenAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]Move, 0, MaxMoves)
	for range 20000 {
		p := randomPosition(r)
		moves := p.LegalMoves(buf)
		if p.Terminal() {
			if len(moves) != 0 || p.CountMoves() != 0 {
				t.Fatalf("terminal position has moves:\n%s", p.Diagram())
			}
			continue
		}
		want := referenceMoves(p)
		got := len(moves)
		if p.HasMove() != (want > 0) {
			t.Fatalf("HasMove %v with %d reference moves\n%s", p.HasMove(), want, p.Diagram())
		}
		if want == 0 {
			if got != 1 || moves[0] != Pass {
				t.Fatalf("stuck position should have a lone pass, got %v\n%s", moves, p.Diagram())
			}
		} else if got != want {
			t.Fatalf("got %d moves, reference %d\n%s", got, want, p.Diagram())
		}
		if p.CountMoves() != got {
			t.Fatalf("CountMoves %d != len(LegalMoves) %d\n%s", p.CountMoves(), got, p.Diagram())
		}
		side := p.ToMove()
		for _, m := range moves {
			if !p.IsLegal(m) {
				t.Fatalf("generated move %v not IsLegal\n%s", m, p.Diagram())
			}
			// The capture mask is what the move converts: the opponent's pieces it turns.
			if conv := p.Pieces(side^1) &^ p.Apply(m).Pieces(side^1); p.CaptureMask(m) != conv {
				t.Fatalf("%v: capture mask %#x, converted %#x\n%s", m, p.CaptureMask(m), conv, p.Diagram())
			}
		}
	}
}

func TestNaivePerftAgrees(t *testing.T) {
	for d := 1; d <= 4; d++ {
		if a, b := naivePerft(Start(), d), Perft(Start(), d); a != b {
			t.Errorf("depth %d: naive %d, bulk %d", d, a, b)
		}
	}
}

func TestApplyAndHashInRandomGames(t *testing.T) {
	contracttest.RandomGames(t, 3, 300, Start(), Position.ComputeHash, func(before Position, m Move, p Position) {
		if !p.Valid() {
			t.Fatalf("invalid position after %v from\n%s", m, before.Diagram())
		}
		if p.Turns() != before.Turns()+1 {
			t.Fatalf("turn not advanced by %v", m)
		}
		if m != Pass {
			d := p.Count(before.ToMove()) - before.Count(before.ToMove())
			want := before.Captures(m)
			if m.IsClone() {
				want++
			}
			if d != want {
				t.Fatalf("%v: mover gained %d pieces, want %d\n%s", m, d, want, before.Diagram())
			}
		}
	}, func(p Position) {
		// Games end for one of the three reasons of the rules.
		if p.Count(O) != 0 && p.Count(X) != 0 && p.Empty() != 0 && p.Turns() < MaxTurns {
			t.Fatalf("terminal for no reason:\n%s", p.Diagram())
		}
	})
}

func TestInfectionAndLeap(t *testing.T) {
	p, err := ParseDiagram(`
		O . . . . . .
		. X X . . . .
		. X . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . X`, O)
	if err != nil {
		t.Fatal(err)
	}
	// Leap from (1,1) to (3,3): the source empties, the three X around (3,3) turn to O.
	m, err := p.JudgeMove(1, 1, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Apply(m)
	want, _ := ParseDiagram(`
		. . . . . . .
		. O O . . . .
		. O O . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . X`, X)
	want = NewPosition(want.Pieces(O), want.Pieces(X), X, 1)
	if q != want {
		t.Fatalf("after leap got\n%swant\n%s", q.Diagram(), want.Diagram())
	}
	// A division to (2,1)... is illegal: occupied. A pass is illegal with moves available.
	if _, err := p.JudgeMove(1, 1, 2, 2); err == nil {
		t.Error("division onto an occupied cell accepted")
	}
	if _, err := p.JudgeMove(-1, -1, -1, -1); err == nil {
		t.Error("pass accepted although moves exist")
	}
	if _, err := p.JudgeMove(1, 1, 4, 4); err == nil {
		t.Error("distance-3 move accepted")
	}
	if _, err := p.JudgeMove(2, 2, 3, 3); err == nil {
		t.Error("move of an opponent piece accepted")
	}
}

func TestForcedPass(t *testing.T) {
	// O's only piece is walled in by X two deep: O must pass; X has moves.
	p, err := ParseDiagram(`
		O X X . . . .
		X X X . . . .
		X X X . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, O)
	if err != nil {
		t.Fatal(err)
	}
	moves := p.LegalMoves(nil)
	if len(moves) != 1 || moves[0] != Pass {
		t.Fatalf("want a lone pass, got %v", moves)
	}
	if m, err := p.JudgeMove(-1, -1, -1, -1); err != nil || m != Pass {
		t.Fatalf("judge pass refused: %v", err)
	}
	if r1, c1, r2, c2 := p.JudgeCoords(Pass); r1 != -1 || c1 != -1 || r2 != -1 || c2 != -1 {
		t.Fatal("pass coordinates")
	}
	q := p.Apply(Pass)
	if q.ToMove() != X || q.Pieces(O) != p.Pieces(O) || q.Pieces(X) != p.Pieces(X) {
		t.Fatal("pass changed the board")
	}
}

func TestTerminalRules(t *testing.T) {
	full := NewPosition(Full&^1, 1, O, 50)
	if !full.Terminal() || full.Winner() != O || full.Values()[O] != 1 || full.Values()[X] != -1 {
		t.Error("full board: O should win")
	}
	wiped := NewPosition(0, 1<<10, O, 10)
	if !wiped.Terminal() || wiped.Winner() != X {
		t.Error("no O pieces: X should win")
	}
	capped := NewPosition(1|1<<2, 1<<40|1<<42, X, MaxTurns)
	if !capped.Terminal() || capped.Winner() != -1 || capped.Values() != [4]float32{} {
		t.Error("400 turns with equal counts: draw")
	}
	if NewPosition(1, 1<<40, O, MaxTurns-1).Terminal() {
		t.Error("turn 399 is not the end")
	}
	if Perft(capped, 3) != 0 {
		t.Error("a finished game has no moves")
	}
}

func TestJudgeCoordsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		p := randomPosition(r)
		for _, m := range p.LegalMoves(nil) {
			r1, c1, r2, c2 := p.JudgeCoords(m)
			back, err := p.JudgeMove(r1, c1, r2, c2)
			if err != nil || back != m {
				t.Fatalf("%v -> %d %d %d %d -> %v (%v)\n%s", m, r1, c1, r2, c2, back, err, p.Diagram())
			}
			u, err := p.ParseUAIMove(m.UAI())
			if err != nil || u != m {
				t.Fatalf("UAI %q -> %v (%v)", m.UAI(), u, err)
			}
		}
	}
}

func TestFENAndUAI(t *testing.T) {
	p, err := ParseFEN("x5o/7/7/7/7/7/o5x x 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if p != Start() {
		t.Fatalf("startpos FEN gives\n%s", p.Diagram())
	}
	if got := p.FEN(); got != "x5o/7/7/7/7/7/o5x x 0 1" {
		t.Errorf("FEN() = %q", got)
	}
	// a7 is our (1,1); g1 our (7,7).
	if sq, _ := ParseSquare("a7"); sq != 0 {
		t.Errorf("a7 = %d", sq)
	}
	if sq, _ := ParseSquare("g1"); sq != 48 {
		t.Errorf("g1 = %d", sq)
	}
	m, err := p.ParseUAIMove("a7c5")
	if err != nil || m != JumpMove(0, 16) {
		t.Errorf("a7c5 = %v %v", m, err)
	}
	if m, err := p.ParseUAIMove("b6"); err != nil || m != CloneMove(8) {
		t.Errorf("b6 = %v %v", m, err)
	}
	for _, bad := range []string{"a7", "h1", "a0", "a7d4", "0000", "zz", ""} {
		if _, err := p.ParseUAIMove(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		q := randomPosition(r)
		back, err := ParseFEN(q.FEN())
		if err != nil {
			t.Fatal(err)
		}
		if back.Pieces(O) != q.Pieces(O) || back.Pieces(X) != q.Pieces(X) || back.ToMove() != q.ToMove() {
			t.Fatalf("FEN round trip %q", q.FEN())
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"", "O", ".......", "......./......./......./......./......./......./....... Z",
		"......./......./......./......./......./......./...... O",
		"......./......./......./......./......./......./......Q O",
		"......./......./......./......./......./......./....... O -3",
	} {
		if _, err := ParseBoard(bad); err == nil {
			t.Errorf("ParseBoard(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"x5o/7/7/7/7/7 x", "x6o/7/7/7/7/7/o5x x", "x5o/7/7/7/7/7/o5x q", "x-4o/7/7/7/7/7/o5x x"} {
		if _, err := ParseFEN(bad); err == nil {
			t.Errorf("ParseFEN(%q) accepted", bad)
		}
	}
}

func TestSymmetryPerft(t *testing.T) {
	cases := loadPerftFile(t)
	depth := 3
	if !testing.Short() {
		depth = 4
	}
	for i, c := range cases {
		if testing.Short() && i%4 != 0 {
			continue
		}
		p, _ := ParseBoard(c.Board)
		for k := range NumSymmetries {
			q := p.Transform(k)
			if got := Perft(q, depth); got != c.Counts[depth-1] {
				t.Errorf("%s under symmetry %d: perft(%d) = %d, want %d", c.Board, k, depth, got, c.Counts[depth-1])
			}
			if back := q.Transform(InverseSymmetry(k)); back != p {
				t.Errorf("symmetry %d then its inverse is not the identity", k)
			}
		}
	}
}

func TestSymmetryMovesAndPolicy(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	in := make([]float32, InputSize)
	inSym := make([]float32, InputSize)
	want := make([]float32, InputSize)
	for range 300 {
		p := randomPosition(r)
		p.Encode(in)
		for k := range NumSymmetries {
			q := p.Transform(k)
			legal := map[Move]bool{}
			for _, m := range q.LegalMoves(nil) {
				legal[m] = true
			}
			moves := p.LegalMoves(nil)
			if len(moves) != len(legal) {
				t.Fatalf("symmetry %d changes the move count", k)
			}
			for _, m := range moves {
				mk := m.Transform(k)
				if !legal[mk] {
					t.Fatalf("symmetry %d: image %v of %v is not legal", k, mk, m)
				}
				if SymPolicyIndex(k, m.PolicyIndex()) != mk.PolicyIndex() {
					t.Fatalf("symmetry %d: policy index of %v maps to %d, want %d", k, m,
						SymPolicyIndex(k, m.PolicyIndex()), mk.PolicyIndex())
				}
				if q.Apply(mk) != p.Apply(m).Transform(k) {
					t.Fatalf("symmetry %d does not commute with applying %v", k, m)
				}
			}
			SymInput(k, in, inSym)
			q.Encode(want)
			for i := range want {
				if want[i] != inSym[i] {
					t.Fatalf("SymInput(%d) differs from encoding the transformed position at %d", k, i)
				}
			}
		}
	}
}

func TestPolicyIndex(t *testing.T) {
	var ms []Move
	for to := range NumSquares {
		ms = append(ms, CloneMove(to))
		for from := range NumSquares {
			if Ring2(to)>>from&1 != 0 {
				ms = append(ms, JumpMove(from, to))
			}
		}
	}
	contracttest.CheckPolicyIndices(t, ms, PassIndex, MoveOfPolicyIndex)
	if Pass.PolicyIndex() != PassIndex || MoveOfPolicyIndex(PassIndex) != Pass {
		t.Fatal("pass index")
	}
	for k := range NumSymmetries {
		img := map[int]bool{}
		for idx := range PolicySize {
			img[SymPolicyIndex(k, idx)] = true
		}
		if len(img) != PolicySize {
			t.Fatalf("symmetry %d is not a permutation of policy indices", k)
		}
	}
}

func TestEncode(t *testing.T) {
	p := Start().Apply(CloneMove(8))
	in := make([]float32, InputSize)
	p.Encode(in)
	sum := func(plane int) (s float32) {
		for _, v := range in[plane*NumSquares : (plane+1)*NumSquares] {
			s += v
		}
		return s
	}
	if sum(0) != 3 || sum(1) != 2 || sum(2) != 44 || sum(3) != 0 || sum(4) != 49 {
		t.Fatalf("plane sums %v %v %v %v %v", sum(0), sum(1), sum(2), sum(3), sum(4))
	}
	if in[5*NumSquares] != 1.0/MaxTurns {
		t.Fatalf("turn plane %v", in[5*NumSquares])
	}
	if in[8] != 1 || in[NumSquares+6] != 1 {
		t.Fatal("piece planes misplaced")
	}
}

func TestDivide(t *testing.T) { contracttest.CheckDivide(t, Divide(Start(), 3), 16, startPerft[2]) }

func TestZeroAllocs(t *testing.T) {
	p, _ := ParseBoard("..O...X/.O...X./....X.X/.XX.XXX/.X..X../O.....X/.X..... O")
	buf := make([]Move, 0, MaxMoves)
	var sink Position
	allocs := testing.AllocsPerRun(200, func() {
		for _, m := range p.LegalMoves(buf) {
			sink = p.Apply(m)
		}
		_ = p.CountMoves()
	})
	if allocs != 0 {
		t.Fatalf("move generation and apply allocate %v times per run", allocs)
	}
	_ = sink
}

func BenchmarkPerft6(b *testing.B) { contracttest.BenchPerft(b, Start(), 6, Perft) }

func BenchmarkLegalMovesApply(b *testing.B) {
	p, _ := ParseBoard("..O...X/.O...X./....X.X/.XX.XXX/.X..X../O.....X/.X..... O")
	contracttest.BenchMovesApply(b, p, MaxMoves)
}

// TestOwnTurnsLeft counts the turns of the side to move from each turn to the cap.
func TestOwnTurnsLeft(t *testing.T) {
	for turn := 0; turn <= MaxTurns; turn++ {
		want := 0
		for u := turn; u < MaxTurns; u += 2 {
			want++
		}
		p, err := ParseBoard(fmt.Sprintf("O....../......./......./......./......./......./......X O %d", turn))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.OwnTurnsLeft(); got != want {
			t.Fatalf("turn %d: OwnTurnsLeft %d, want %d", turn, got, want)
		}
	}
}

func TestMovesLeft(t *testing.T) {
	if n := Start().MovesLeft(); n < 15 || n > 30 {
		t.Errorf("start: %d moves left", n)
	}
	late, err := ParseBoard("OOOOOOO/OOOOOOO/XXXXXXX/XXXXXXX/OOOOOOO/XXXXXXX/OOOOX.. O")
	if err != nil {
		t.Fatal(err)
	}
	if n := late.MovesLeft(); n < 1 || n > 3 {
		t.Errorf("two empty cells: %d moves left", n)
	}
	capped, _ := ParseBoard("O....../......./......./......./......./......./......X O 398")
	if n := capped.MovesLeft(); n != 1 {
		t.Errorf("two turns before the cap: %d moves left, want 1", n)
	}
}
