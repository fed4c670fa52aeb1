package mouse

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"colony/contract/contracttest"
)

// startPerft are the perft counts of the start position (docs/rules.md §2).
var startPerft = []uint64{11, 595, 6433, 381796, 4078531, 247539753, 2618375760}

func TestPerftStart(t *testing.T) { contracttest.CheckStartPerft(t, Start(), Perft, startPerft, 6, 7) }

func loadPerftFile(t testing.TB) []contracttest.PerftCase {
	return contracttest.ReadPerft(t, "testdata/catch-the-mouse-perft.txt", 30)
}

func mustParse(t testing.TB, s string) Position {
	t.Helper()
	p, err := ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Valid() {
		t.Fatalf("%q is not valid", s)
	}
	return p
}

func checkPerftCases(t *testing.T, cases []contracttest.PerftCase) {
	t.Helper()
	contracttest.CheckPerftCases(t, cases, parseValid, Perft)
}

func TestPerftFile(t *testing.T) { checkPerftCases(t, loadPerftFile(t)) }

// ownPerft are positions of this package's own, reached by random play (captures favoured)
// and a few made by hand (a forced pass, finished games, mice about to win). Their counts came
// from naivePerft (naive_test.go), the rules written out independently on a grid, and
// agree with Perft: TestOwnPerftNaive re-checks them with the naive generator.
var ownPerft = contracttest.ParsePerft(&testing.T{}, strings.Split(ownPerftTable, "\n"))

const ownPerftTable = `
....R.R.RRR/RRRR.R.R.../....C.C..../.........../......C..../.....N.C.../........... N;56;605;35125;370238
.RRR....R.R/R...R.RRCR./.....R...../.........../....N.C..../C.........C/........... N;64;640;38484;385194
....RR.R.R./.RR...RCR../R..R......./........C.R/.........../...CCN...../........... N;54;540;29128;290178
.........../.R...RC..../RCRR......./....R.....N/.........../..C...C..../........... R;5;259;1311;70688
..RR...R.../.R..N.....R/R.....R.RR./.......C.../.......C.../.....C...C./........... R;9;519;4586;265248
.....R...R./R.R....R.../...RR...RCR/......N..../.R......C.C/...C......./........... R;10;558;5340;278598
RR.RRRR..RR/..R.C...R../.........../.......R.../...C......./.....NCC.../........... N;64;643;38297;384289
.........../.R..RR..RRR/R.R..C.R.../...R..R..../C.......C../..C..N...../........... R;10;504;4946;232857
........R../.........../.....R...../.RN..CRRCR./R...C...C../..........R/........... R;7;293;2046;85689
RRR.RRRRRRR/...R......./....C....../.........../.........../...CCNC..../........... R;11;668;7180;434930
.........../......C..../R........../.RR.R.....R/..C.....NR./C..R...C.../........... N;55;335;14829;91343
.R.RRRR..RR/..R....RR../R........../..C......../...C..C..../...C.N...../........... N;62;673;41856;447047
RRR.RRRR..R/...R...CRR./.........../....C....../.........../...C.NC..../........... R;10;626;6268;383320
R........../.C..R....../.R..C..R.../..RR.....R./.C....N.RC./..........R/........... N;38;275;9788;72324
.RR..RRRR../...R.....RR/R..CR....../.......C.../.....N...../....C..C.../........... N;61;612;36884;371205
.R.R.....R./R..C.RRRRCR/.CR.R....../C........../.....N...../.........../........... R;9;418;3750;176153
R.RRR..R.RR/.R...R..R../...CC.R..../.........../..C......../.....N...C./........... R;11;657;7033;415965
....R....../.R...R...../R.RR..R.R../C........../....N..R.R./....C..CC.R/........... N;49;455;18155;172089
.RRRRRRRRRR/R........../.........../.........../.........../...CCNCC.../........... N;54;584;34856;372526
.........../.R..R...RR./...R.RR..C./C.R....R..R/.....C...../R....N...C./........... N;45;450;17601;175279
R....R..R../.R........./......RC.R./C........../..RRRN.R.CR/..C......../........... R;10;483;4746;216920
R..RRR...RR/.RR.C.RRR../.........../.....C...../.........C./.....NC..../........... R;10;706;7103;459312
R.R.R.R.R.R/.R.R.R.R.R./.........../.........../.........../.........../........... N;1;11;11;121
R.R.R.R.R.R/.R.R.R.R.R./.........../.........../.........../.........../........... R;11;11;121;121
RRRRR.RRRRR/.........../.........../.........../...CC.CC.../.....R...N./........... R;11;578;6240;343016
RRRRR.RRRRR/.........../.........../.........../...CC.CC.../.....RN..../........... N;55;592;31954;338991
.........../RRR......../CCC......../.........../.........../.....N...../........... R;0;0;0;0
.........../RRR......../CCC......../.........../.........../.....N...../........... N;34;29;1115;1506
RRRRRRRRRR./.........../.........../.........../.........../...CCNCC.../..........R N;0;0;0;0
.....R...../R.RR.C.RR.R/.C..RNR..C./.R......C../.........../.........../........... N;42;366;15919;136173
`

func TestOwnPerft(t *testing.T) {
	if len(ownPerft) < 20 {
		t.Fatalf("%d own perft positions, want at least 20", len(ownPerft))
	}
	checkPerftCases(t, ownPerft)
}

// TestOwnPerftNaive recomputes the own table with the naive generator (depths 1..3; 4 in
// long mode).
func TestOwnPerftNaive(t *testing.T) {
	maxDepth := 3
	if !testing.Short() {
		maxDepth = 4
	}
	for _, c := range ownPerft {
		b := naiveParse(c.Board)
		for d, want := range c.Counts[:min(maxDepth, len(c.Counts))] {
			if got := naivePerft(b, d+1); got != want {
				t.Errorf("%s: naive perft(%d) = %d, want %d", c.Board, d+1, got, want)
			}
		}
	}
}

// randomGame plays a game from the start with random moves (Nadori takes a mouse when it can
// with probability capture) and returns every position of it, the final one included.
func randomGame(r *rand.Rand, capture float64) []Position {
	p := Start()
	out := []Position{p}
	buf := make([]Move, 0, MaxMoves)
	for !p.Terminal() {
		moves := p.LegalMoves(buf)
		m := moves[r.IntN(len(moves))]
		if r.Float64() < capture {
			for _, c := range moves {
				if p.IsCapture(c) {
					m = c
					break
				}
			}
		}
		p = p.Apply(m)
		out = append(out, p)
	}
	return out
}

// randomPositions returns positions of n random games (various capture appetites).
func randomPositions(seed uint64, games int) []Position {
	r := rand.New(rand.NewPCG(seed, 99))
	var out []Position
	for range games {
		out = append(out, randomGame(r, r.Float64())...)
	}
	return out
}

func TestMoveGenAgainstNaive(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 60
	}
	buf := make([]Move, 0, MaxMoves)
	n := 0
	for _, p := range randomPositions(1, games) {
		b := naiveParse(p.String())
		if got, want := fastMoveSet(p), naiveMoveSet(b); got != want {
			t.Fatalf("move sets differ\n%sfast  %s\nnaive %s", p.Diagram(), got, want)
		}
		over, who := b.over()
		if p.Terminal() != over {
			t.Fatalf("Terminal %v, naive %v\n%s", p.Terminal(), over, p.Diagram())
		}
		if over && p.Winner() != map[byte]int{'R': Mice, 'N': Team}[who] {
			t.Fatalf("winner %d, naive %c\n%s", p.Winner(), who, p.Diagram())
		}
		moves := p.LegalMoves(buf)
		if p.CountMoves() != len(moves) || len(moves) > MaxMoves {
			t.Fatalf("CountMoves %d, LegalMoves %d\n%s", p.CountMoves(), len(moves), p.Diagram())
		}
		for _, m := range moves {
			if !p.IsLegal(m) {
				t.Fatalf("%v not IsLegal", m)
			}
			if got, want := p.Apply(m).String(), b.apply(naiveMoveOf(m)).String(); got != want {
				t.Fatalf("after %v: %s, naive %s", m, got, want)
			}
		}
		n++
	}
	t.Logf("%d positions", n)
}

func naiveMoveOf(m Move) naiveMove {
	if m == Pass {
		return naivePass
	}
	r1, c1, r2, c2 := JudgeCoords(m)
	return naiveMove{r1 - 1, c1 - 1, r2 - 1, c2 - 1}
}

// TestNaivePerftOnRandomPositions compares perft counts of both generators at low depth.
func TestNaivePerftOnRandomPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ps := randomPositions(2, 40)
	for range 60 {
		p := ps[r.IntN(len(ps))]
		if got, want := Perft(p, 3), naivePerft(naiveParse(p.String()), 3); got != want {
			t.Fatalf("perft(3) fast %d naive %d\n%s", got, want, p.Diagram())
		}
	}
}

func TestHashInRandomGames(t *testing.T) {
	contracttest.RandomGames(t, 3, 300, Start(), Position.ComputeHash, func(before Position, m Move, p Position) {
		if !p.Valid() {
			t.Fatalf("invalid position after %v from\n%s", m, before.Diagram())
		}
	}, nil)
}

func TestStartAndParse(t *testing.T) {
	p := Start()
	want := "RRRRRRRRRRR/.........../.........../.........../.........../...CCNCC.../........... R"
	if p.String() != want {
		t.Fatalf("start %q", p.String())
	}
	if q := mustParse(t, want); q != p {
		t.Fatal("parse of the start differs from Start")
	}
	d, err := ParseDiagram(`
		R R R R R R R R R R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . C C N C C . . .
		. . . . . . . . . . .`, Mice)
	if err != nil || d != p {
		t.Fatalf("diagram: %v\n%s", err, d.Diagram())
	}
	if p.At(0, 0) != MousePiece || p.At(5, 3) != CatPiece || p.At(5, 5) != NadoriPiece || p.At(6, 0) != Empty {
		t.Fatal("At")
	}
	for _, q := range randomPositions(7, 50) {
		back, err := ParseBoard(q.String())
		if err != nil || back != q {
			t.Fatalf("round trip %q: %v", q.String(), err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	row := "..........."
	rows := func(rs ...string) string { return strings.Join(rs, "/") }
	for _, bad := range []string{
		"", "R", rows(row, row, row, row, row, row, row),
		rows(row, row, row, row, row, row, row) + " X",
		rows(row, row, row, row, row, row, "..........") + " R",
		rows(row, row, row, row, row, row) + " R",
		rows("C..........", row, row, row, row, row, row) + " R",
		rows(row, row, row, row, row, row, ".....N.....") + " N",
		rows(row, row, row, row, row, row, "....Q......") + " N",
		rows(row, row, row, row, row, row, row) + " R extra",
	} {
		if _, err := ParseBoard(bad); err == nil {
			t.Errorf("ParseBoard(%q) accepted", bad)
		}
	}
	def := Def()
	for _, invalid := range []string{
		rows("R..........", "R..........", row, row, row, row, row) + " R", // two mice in a column
		rows(row, "CCCCC......", row, row, row, row, row) + " N",           // five cats
		rows(row, "NN.........", row, row, row, row, row) + " N",           // two Nadoris
	} {
		if _, err := ParseBoard(invalid); err != nil {
			t.Errorf("ParseBoard(%q): %v", invalid, err)
		}
		if _, err := def.Parse(invalid); err == nil {
			t.Errorf("Def.Parse(%q) accepted an impossible position", invalid)
		}
	}
}

func mustDiagram(t testing.TB, d string, side int) Position {
	t.Helper()
	p, err := ParseDiagram(d, side)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Valid() {
		t.Fatalf("invalid diagram\n%s", d)
	}
	return p
}

func TestTerminalAndValues(t *testing.T) {
	win := [4]float32{1, -1}
	loss := [4]float32{-1, 1}
	for _, c := range []struct {
		name     string
		diagram  string
		side     int
		terminal bool
		values   [4]float32
	}{
		{"a mouse on row 7: the mice won", `
			R R R R R . R R R R R
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . C C . C C . . .
			. . . . . . . . N . .
			. . . . . R . . . . .`, Team, true, win},
		{"no mice left: the team won", `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . C C . C C . . .
			. . . . . . . . N . .
			. . . . . . . . . . .`, Mice, true, loss},
		{"the mice cannot move: the team won", `
			. . . . . . . . . . .
			. . . . R . . R . . .
			. . . . C . . C . . .
			. . R . . . . . . . .
			. . C . . . . . . . .
			. . . . . . . . N . .
			. . . . . . . . . . .`, Mice, true, loss},
		{"the same with the team to move: it plays on", `
			. . . . . . . . . . .
			. . . . R . . R . . .
			. . . . C . . C . . .
			. . R . . . . . . . .
			. . C . . . . . . . .
			. . . . . . . . N . .
			. . . . . . . . . . .`, Team, false, [4]float32{}},
		{"a mouse on row 6 with the mice to move is not over yet", `
			R R R R R . R R R R R
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . C C . C C . . .
			. . . . . R . . N . .
			. . . . . . . . . . .`, Mice, false, [4]float32{}},
	} {
		p := mustDiagram(t, c.diagram, c.side)
		if p.Terminal() != c.terminal || p.Values() != c.values {
			t.Errorf("%s: terminal %v values %v\n%s", c.name, p.Terminal(), p.Values(), p.Diagram())
		}
		if c.terminal && (len(p.LegalMoves(nil)) != 0 || Perft(p, 2) != 0) {
			t.Errorf("%s: a finished game has moves", c.name)
		}
		if !strings.Contains(p.Outcome(), map[bool]string{true: "win", false: "in progress"}[c.terminal]) {
			t.Errorf("%s: outcome %q", c.name, p.Outcome())
		}
	}
	// The mouse on row 6 steps to row 7 and wins.
	p := mustDiagram(t, `
		R R R R R . R R R R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . C C . C C . . .
		. . . . . R . . N . .
		. . . . . . . . . . .`, Mice)
	m, err := p.JudgeMove(6, 6, 7, 6)
	if err != nil {
		t.Fatal(err)
	}
	if q := p.Apply(m); !q.Terminal() || q.Winner() != Mice {
		t.Fatalf("stepping onto row 7 does not win\n%s", q.Diagram())
	}
}

func TestCaptureAndQueenRays(t *testing.T) {
	p := mustDiagram(t, `
		R R R . R R R R R R R
		. . . . . . . . . . .
		. . . R . . . . . . .
		. . . N . . . . . . .
		. . . C C . C C . . .
		. . . . . . . . . . .
		. . . . . . . . . . .`, Team)
	// Nadori takes the mouse above it.
	m, err := p.JudgeMove(4, 4, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !p.IsCapture(m) {
		t.Fatal("not a capture")
	}
	q := p.Apply(m)
	if q.NumMice() != 10 || q.At(2, 3) != NadoriPiece || q.At(3, 3) != Empty || q.Hash() != q.ComputeHash() {
		t.Fatalf("after the capture\n%s", q.Diagram())
	}
	// Nadori may not step onto a cat, nor onto row 7 or row 1; cats may not leave rows 2..6,
	// jump over pieces, or land on a mouse.
	for _, bad := range [][4]int{{4, 4, 5, 4}, {5, 4, 7, 4}, {5, 4, 1, 4}, {5, 5, 2, 2}, {5, 4, 3, 4}, {5, 4, 2, 4}, {5, 5, 5, 9}, {5, 4, 5, 6}} {
		if _, err := p.JudgeMove(bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("illegal move %v accepted", bad)
		}
	}
	for _, good := range [][4]int{{5, 5, 2, 8}, {5, 4, 6, 3}, {5, 4, 5, 1}, {5, 8, 5, 11}, {5, 8, 2, 11}, {5, 7, 6, 7}, {4, 4, 3, 5}} {
		if _, err := p.JudgeMove(good[0], good[1], good[2], good[3]); err != nil {
			t.Errorf("legal move %v refused: %v", good, err)
		}
	}
	// The mice: one step down, never onto a piece, never a pass.
	pm := p.WithToMove(Mice)
	if _, err := pm.JudgeMove(1, 1, 2, 1); err != nil {
		t.Error(err)
	}
	for _, bad := range [][4]int{{1, 1, 3, 1}, {1, 1, 2, 2}, {3, 4, 4, 4}, {-1, -1, -1, -1}, {2, 1, 3, 1}} {
		if _, err := pm.JudgeMove(bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("illegal mouse move %v accepted", bad)
		}
	}
}

func TestForcedPass(t *testing.T) {
	// Nadori's team has no piece at all: its only move is the pass.
	p := mustParse(t, "R.R.R.R.R.R/.R.R.R.R.R./.........../.........../.........../.........../........... N")
	moves := p.LegalMoves(nil)
	if len(moves) != 1 || moves[0] != Pass {
		t.Fatalf("want a lone pass, got %v", moves)
	}
	if m, err := p.JudgeMove(-1, -1, -1, -1); err != nil || m != Pass {
		t.Fatalf("judge pass refused: %v", err)
	}
	if r1, c1, r2, c2 := JudgeCoords(Pass); r1 != -1 || c1 != -1 || r2 != -1 || c2 != -1 {
		t.Fatal("pass coordinates")
	}
	q := p.Apply(Pass)
	if q.ToMove() != Mice || q.WithToMove(Team) != p || q.Hash() != q.ComputeHash() {
		t.Fatal("pass changed the board")
	}
	if _, err := Start().Apply(Start().LegalMoves(nil)[0]).JudgeMove(-1, -1, -1, -1); err == nil {
		t.Fatal("a pass with moves available was accepted")
	}
}

func TestJudgeCoordsRoundTrip(t *testing.T) {
	for _, p := range randomPositions(8, 60) {
		for _, m := range p.LegalMoves(nil) {
			r1, c1, r2, c2 := JudgeCoords(m)
			back, err := p.JudgeMove(r1, c1, r2, c2)
			if err != nil || back != m {
				t.Fatalf("%v -> %d %d %d %d -> %v (%v)\n%s", m, r1, c1, r2, c2, back, err, p.Diagram())
			}
			if s, err := p.ParseMove(m.String()); err != nil || s != m {
				t.Fatalf("%q -> %v (%v)", m.String(), s, err)
			}
			if f, ok := p.Force(r1, c1, r2, c2); m != Pass && (!ok || f != p.Apply(m)) {
				t.Fatalf("Force(%v) differs from Apply", m)
			}
		}
	}
	if m := MouseStep(0); m.String() != "a1a2" {
		t.Errorf("a1a2 spelled %q", m.String())
	}
}

func TestForce(t *testing.T) {
	p := Start().Apply(MouseStep(5)) // f1f2: the team to move
	// A cat leaping over Nadori (illegal, geometrically fine) is applied.
	q, ok := p.Force(6, 4, 6, 9)
	if !ok || q.At(5, 8) != CatPiece || q.At(5, 3) != Empty || q.ToMove() != Mice || !q.Valid() {
		t.Fatalf("forced leap: %v\n%s", ok, q.Diagram())
	}
	// Nadori two cells away onto the mouse takes it.
	q, ok = p.Force(6, 6, 2, 6)
	if !ok || q.NumMice() != 10 || q.At(1, 5) != NadoriPiece {
		t.Fatalf("forced capture: %v\n%s", ok, q.Diagram())
	}
	for _, bad := range [][4]int{{1, 1, 2, 1}, {6, 4, 6, 5}, {6, 4, 7, 4}, {6, 4, 1, 4}, {3, 3, 4, 4}, {6, 4, 6, 4}, {0, 4, 6, 4}} {
		if _, ok := p.Force(bad[0], bad[1], bad[2], bad[3]); ok {
			t.Errorf("Force(%v) accepted", bad)
		}
	}
	if _, ok := Start().Force(1, 1, 3, 1); ok {
		t.Error("a mouse forced two rows down")
	}
	if q, ok := Start().Force(1, 1, 2, 1); !ok || q.At(1, 0) != MousePiece {
		t.Error("a mouse step refused by Force")
	}
}

func TestMirror(t *testing.T) {
	in := make([]float32, InputSize)
	got := make([]float32, InputSize)
	want := make([]float32, InputSize)
	cases := loadPerftFile(t)
	for i, c := range cases {
		p := mustParse(t, c.Board)
		q := p.Mirror()
		if q.Mirror() != p || !q.Valid() {
			t.Fatalf("mirror twice is not the identity for %s", c.Board)
		}
		depth := 3
		if !testing.Short() || i%5 == 0 {
			depth = 4
		}
		if n := Perft(q, depth); n != c.Counts[depth-1] {
			t.Errorf("mirror of %s: perft(%d) = %d, want %d", c.Board, depth, n, c.Counts[depth-1])
		}
	}
	for _, p := range randomPositions(9, 80) {
		q := p.Mirror()
		legal := map[Move]bool{}
		for _, m := range q.LegalMoves(nil) {
			legal[m] = true
		}
		moves := p.LegalMoves(nil)
		if len(moves) != len(legal) {
			t.Fatalf("the mirror changes the move count\n%s", p.Diagram())
		}
		for _, m := range moves {
			mm := m.Mirror()
			if !legal[mm] {
				t.Fatalf("mirror %v of %v is not legal", mm, m)
			}
			if MirrorPolicyIndex(m.PolicyIndex()) != mm.PolicyIndex() || SymPolicyIndex(1, m.PolicyIndex()) != mm.PolicyIndex() {
				t.Fatalf("policy index of %v maps to %d, want %d", m, MirrorPolicyIndex(m.PolicyIndex()), mm.PolicyIndex())
			}
			if q.Apply(mm) != p.Apply(m).Mirror() {
				t.Fatalf("the mirror does not commute with applying %v", m)
			}
		}
		p.Encode(in)
		q.Encode(want)
		Symmetries{}.TransformInput(1, in, got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("mirrored input differs from the encoding of the mirror at %d\n%s", i, p.Diagram())
			}
		}
		Symmetries{}.TransformInput(0, in, got)
		for i := range in {
			if got[i] != in[i] {
				t.Fatal("symmetry 0 is not the identity")
			}
		}
		if (Symmetries{}).Seat(1, Mice) != Mice || (Symmetries{}).Seat(1, Team) != Team {
			t.Fatal("Seat")
		}
		if p.Transform(1) != q || p.Transform(0) != p {
			t.Fatal("Transform")
		}
	}
}

func TestPolicyIndex(t *testing.T) {
	var ms []Move
	for sq := range 6 * Cols {
		ms = append(ms, MouseStep(sq))
	}
	for f := range InnerCells {
		for to := range InnerCells {
			if QueenAttacks(f, 0)>>to&1 != 0 {
				ms = append(ms, NewMove(Team, f+Cols, to+Cols))
			}
		}
	}
	contracttest.CheckPolicyIndices(t, ms, PassIndex, MoveOfPolicyIndex)
	if len(ms) != PassIndex {
		t.Fatalf("%d indices, want %d", len(ms), PassIndex)
	}
	if Pass.PolicyIndex() != PassIndex || MoveOfPolicyIndex(PassIndex) != Pass || PolicySize != PassIndex+1 {
		t.Fatal("pass index")
	}
	img := map[int]bool{}
	for idx := range PolicySize {
		img[MirrorPolicyIndex(idx)] = true
		if MirrorPolicyIndex(MirrorPolicyIndex(idx)) != idx {
			t.Fatalf("mirror of index %d is not an involution", idx)
		}
	}
	if len(img) != PolicySize {
		t.Fatal("the mirror is not a permutation of policy indices")
	}
	// Every legal move of random positions has an index, distinct within the position.
	for _, p := range randomPositions(10, 30) {
		idx := map[int]bool{}
		for _, m := range p.LegalMoves(nil) {
			if idx[m.PolicyIndex()] || (m != Pass && m.PolicyIndex() == PassIndex) {
				t.Fatalf("%v: index %d repeated or missing", m, m.PolicyIndex())
			}
			idx[m.PolicyIndex()] = true
		}
	}
	if err := Info.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestEncode(t *testing.T) {
	p := Start()
	in := make([]float32, InputSize)
	p.Encode(in)
	sum := func(plane int) (s float32) {
		for _, v := range in[plane*NumCells : (plane+1)*NumCells] {
			s += v
		}
		return s
	}
	if sum(0) != 11 || sum(1) != 4 || sum(2) != 1 || sum(3) != 61 || sum(4) != 77 || sum(5) != 0 {
		t.Fatalf("plane sums %v %v %v %v %v %v", sum(0), sum(1), sum(2), sum(3), sum(4), sum(5))
	}
	if in[0] != 1 || in[NumCells+5*Cols+3] != 1 || in[2*NumCells+5*Cols+5] != 1 || in[3*NumCells+Cols] != 1 {
		t.Fatal("planes misplaced")
	}
	q := p.Apply(MouseStep(0))
	q.Encode(in)
	if sum(4) != 0 || sum(5) != 77 || in[0] != 0 || in[Cols] != 1 {
		t.Fatal("after a1a2")
	}
	won := mustParse(t, "RRRRRRRRRR./.........../.........../.........../.........../...CCNCC.../..........R N")
	won.Encode(in)
	if in[6*Cols+10] != 1 || sum(0) != 11 {
		t.Fatal("row 7 mouse")
	}
}

func TestDivide(t *testing.T) {
	contracttest.CheckDivide(t, Divide(Start(), 3), 11, startPerft[2])
	if len(Divide(Start(), 0)) != 0 {
		t.Fatal("divide 0")
	}
}

func TestZeroAllocs(t *testing.T) {
	ps := []Position{
		mustParse(t, ".....R...../R.RR.C.RR.R/.C..RNR..C./.R......C../.........../.........../........... N"),
		mustParse(t, ".....R...../R.RR.C.RR.R/.C..RNR..C./.R......C../.........../.........../........... R"),
	}
	buf := make([]Move, 0, MaxMoves)
	var sink Position
	allocs := testing.AllocsPerRun(200, func() {
		for _, p := range ps {
			for _, m := range p.LegalMoves(buf) {
				sink = p.Apply(m)
			}
			_ = p.CountMoves()
			_ = p.Terminal()
		}
	})
	if allocs != 0 {
		t.Fatalf("move generation and apply allocate %v times per run", allocs)
	}
	_ = sink
}

func TestMovesLeftAndHeuristic(t *testing.T) {
	if n := Start().MovesLeft(); n < 25 || n > 35 {
		t.Errorf("start: %d moves left", n)
	}
	late := mustParse(t, ".........../.........../.........../.........../...CC.CC.../.....R..N../........... R")
	if n := late.MovesLeft(); n != 1 {
		t.Errorf("one mouse on row 6: %d moves left, want 1", n)
	}
	mid := mustParse(t, ".RRR....R.R/R...R.RRCR./.....R...../.........../....N.C..../C.........C/........... N")
	if n := mid.MovesLeft(); n < MovesLeftFloor || n > 25 {
		t.Errorf("middle game: %d moves left", n)
	}
	for _, p := range randomPositions(11, 50) {
		h := p.Heuristic()
		if h[0] < -1 || h[0] > 1 || h[0] != -h[1] || h[2] != 0 {
			t.Fatalf("heuristic %v\n%s", h, p.Diagram())
		}
		if n := p.MovesLeft(); n < 1 || n > 40 {
			t.Fatalf("moves left %d", n)
		}
	}
	far := mustParse(t, "RRRRR.RRRRR/.........../.........../.........../.........../.....R.CCCN/........... N")
	caught := mustParse(t, "RRRRR..RRRR/.........../.........../.........../.........../.......CCCN/........... R")
	if !(far.Heuristic()[Mice] > Start().Heuristic()[Mice] && Start().Heuristic()[Mice] > caught.Heuristic()[Mice]) {
		t.Errorf("heuristic: far mouse %v, start %v, a mouse caught %v", far.Heuristic(), Start().Heuristic(), caught.Heuristic())
	}
}

func BenchmarkPerft6(b *testing.B) { contracttest.BenchPerft(b, Start(), 6, Perft) }

func BenchmarkLegalMovesApply(b *testing.B) {
	p, _ := ParseBoard(".....R...../R.RR.C.RR.R/.C..RNR..C./.R......C../.........../.........../........... N")
	contracttest.BenchMovesApply(b, p, MaxMoves)
}

func TestFreeMiceAndPathBelow(t *testing.T) {
	for c := range Cols {
		if bits.OnesCount64(PathBelow(0, c)) != 5 || PathBelow(5, c) != 0 || PathBelow(6, c) != 0 {
			t.Fatalf("column %d: paths %x %x", c, PathBelow(0, c), PathBelow(5, c))
		}
		if PathBelow(2, c)&^PathBelow(1, c) != 0 || bits.OnesCount64(PathBelow(2, c)) != 3 {
			t.Fatalf("column %d: path from row 2 %x", c, PathBelow(2, c))
		}
	}
	// At the start the team's five pieces stand below the mice of columns d..h.
	if got := Start().FreeMice(); got != 0b111_0000_0111 {
		t.Fatalf("start: free mice %b", got)
	}
	// Columns a, b and d have a cat or Nadori somewhere below their mouse, c has no mouse.
	p := mustParse(t, "R..RRRRRRRR/.........../.R........./.........../.C........./CCCN......./........... R")
	if got, want := p.FreeMice(), uint16(0b111_1111_0000); got != want {
		t.Fatalf("free mice %b, want %b\n%s", got, want, p.Diagram())
	}
}
