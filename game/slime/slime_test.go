package slime

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// startPerft are the perft counts of the start position by board size (docs/rules.md §3),
// checked against the naive generator up to depth 4 (TestPerftStartNaive).
var startPerft = map[int][]uint64{
	4:  {8, 46, 205, 700, 3588},
	5:  {8, 61, 458, 3277, 25789},
	6:  {8, 64, 512, 4096, 55448},
	8:  {8, 64, 512, 4096, 74240, 1311744, 23123496},
	16: {8, 64, 512, 4096, 74240},
}

func TestPerftStart(t *testing.T) {
	for n, counts := range startPerft {
		for d, want := range counts {
			if d >= 5 && testing.Short() {
				break
			}
			if got := Perft(StartSize(n), d+1); got != want {
				t.Errorf("%dx%d: perft(%d) = %d, want %d", n, n, d+1, got, want)
			}
		}
	}
}

func TestPerftStartNaive(t *testing.T) {
	for n, counts := range startPerft {
		for d := range min(4, len(counts)) {
			if got := naiveFrom(StartSize(n)).perft(d + 1); got != counts[d] {
				t.Errorf("%dx%d: naive perft(%d) = %d, table says %d", n, n, d+1, got, counts[d])
			}
		}
	}
}

type perftCase struct {
	board  string
	counts []uint64
}

func loadPerftFile(t *testing.T) []perftCase {
	t.Helper()
	f, err := os.Open("testdata/slime-perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		c := perftCase{board: parts[0]}
		for _, s := range parts[1:] {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatalf("bad count in %q: %v", line, err)
			}
			c.counts = append(c.counts, n)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("read %d perft positions, want at least 20", len(cases))
	}
	return cases
}

// TestPerftFile checks the engine's counts on the file's positions, and the naive generator's
// on every depth small enough to count naively.
func TestPerftFile(t *testing.T) {
	sizes := map[int]bool{}
	for _, c := range loadPerftFile(t) {
		p, err := Parse(c.board)
		if err != nil {
			t.Fatal(err)
		}
		sizes[p.Size()] = true
		if p.Record() != c.board {
			t.Errorf("format round trip: %q -> %q", c.board, p.Record())
		}
		for d, want := range c.counts {
			if got := Perft(p, d+1); got != want {
				t.Errorf("%s: perft(%d) = %d, want %d", c.board, d+1, got, want)
			}
			limit := uint64(200000)
			if testing.Short() {
				limit = 20000
			}
			if want <= limit {
				if got := naiveFrom(p).perft(d + 1); got != want {
					t.Errorf("%s: naive perft(%d) = %d, want %d", c.board, d+1, got, want)
				}
			}
		}
	}
	if len(sizes) < 8 {
		t.Errorf("the file covers %d board sizes, want at least 8", len(sizes))
	}
}

// randomGame plays uniformly random legal moves from the start of an n x n board, calling
// visit on every position before its move, until the end or maxPlies.
func randomGame(r *rand.Rand, n, maxPlies int, visit func(p Position, m Move)) Position {
	p := StartSize(n)
	buf := make([]Move, 0, MaxMoves)
	for ply := 0; ply < maxPlies && !p.Terminal(); ply++ {
		buf = p.LegalMoves(buf)
		m := buf[r.IntN(len(buf))]
		visit(p, m)
		p = p.Apply(m)
	}
	return p
}

// TestAgainstNaive walks random games of every size and compares, position by position, the
// legal moves and every child with the naive implementation.
func TestAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	games, plies := 3, 400
	if testing.Short() {
		games, plies = 1, 100
	}
	for n := MinSize; n <= MaxSize; n++ {
		for range games {
			randomGame(r, n, plies, func(p Position, _ Move) {
				b := naiveFrom(p)
				if b.String() != p.String() {
					t.Fatalf("naive copy %s of %s", b, p)
				}
				got, want := engineMoveStrings(p), naiveMoveStrings(b)
				if !slices.Equal(got, want) {
					t.Fatalf("%s\nmoves %v\nnaive %v", p.Diagram(), got, want)
				}
				if p.CountMoves() != len(got) {
					t.Fatalf("%s: CountMoves %d, %d moves", p, p.CountMoves(), len(got))
				}
				for i, m := range b.moves() {
					var em Move
					if !m.pass {
						var ok bool
						if em, ok = p.MoveOf(m.r1, m.c1, m.r2, m.c2); !ok {
							t.Fatalf("%s: MoveOf(%v) refused", p, m)
						}
					}
					if !p.IsLegal(em) {
						t.Fatalf("%s: %v (naive move %d) is not IsLegal", p, em, i)
					}
					c, nc := p.Apply(em), b.apply(m)
					if c.String() != nc.String() || c.Turns() != nc.turns {
						t.Fatalf("%s\nafter %v: %s, naive %s", p.Diagram(), m, c, nc)
					}
					if g := c.Count(p.ToMove()) - p.Count(p.ToMove()); p.Gain(em) != g {
						t.Fatalf("%s: %v gains %d cells, Gain says %d", p, em, g, p.Gain(em))
					}
				}
			})
		}
	}
}

// The examples of the original contest page (4x5 boards there; here on 5x5 boards with an
// empty fifth row, which none of the moves touches).
func TestPageExamples(t *testing.T) {
	for _, c := range []struct {
		name, move     string
		before, after  string
		spread, merge  bool
		gain, captured int
	}{
		{"spread", "0 1 1 2",
			"11.22 1..22 ..22. ..... .....",
			"11.12 1.112 ..11. ..... .....", true, false, 5, 4},
		{"jump", "0 1 2 3",
			"11..2 1...2 ....2 ...22 .....",
			"1...2 1...1 ...11 ...11 .....", false, false, 4, 4},
		{"merge", "0 1 1 2",
			"11..2 1.1.2 ....2 ..222 .....",
			"1.112 11112 .1112 ..222 .....", false, true, 6, 0},
	} {
		p, err := ParseDiagram(strings.ReplaceAll(c.before, " ", "\n"), 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ParseDiagram(strings.ReplaceAll(c.after, " ", "\n"), 1)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.IsSpread() != c.spread || m.IsMerge() != c.merge || m.IsJump() != (!c.spread && !c.merge) {
			t.Errorf("%s: %v has the wrong kind", c.name, m)
		}
		if !slices.Contains(p.LegalMoves(nil), m) {
			t.Errorf("%s: %v is not among the legal moves", c.name, m)
		}
		if g := p.Gain(m); g != c.gain {
			t.Errorf("%s: gain %d, want %d", c.name, g, c.gain)
		}
		got := p.Apply(m)
		if got.String() != want.String() || got.Hash() != want.Hash() {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got.Diagram(), want.Diagram())
		}
		if got.Count(0)-p.Count(0) != c.gain {
			t.Errorf("%s: player 1 gained %d cells, Gain says %d", c.name, got.Count(0)-p.Count(0), c.gain)
		}
	}
}

// TestMoveOf checks the controller's reading of the four numbers.
func TestMoveOf(t *testing.T) {
	p, err := Parse("1,11..2,1.1.2,....2,..222,.....")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		move string
		ok   bool
		kind string
	}{
		{"0 0 0 0", false, ""},  // no distance: the controller's pass
		{"0 1 1 2", true, "m"},  // merge onto own slime at distance 1
		{"0 0 1 2", false, ""},  // own slime at distance 2: no move
		{"0 0 1 1", true, "s"},  // spread
		{"1 2 0 2", true, "s"},  // spread from another source
		{"0 1 0 3", true, "j"},  // jump
		{"0 1 0 4", false, ""},  // enemy target
		{"0 2 1 2", false, ""},  // empty source
		{"0 4 0 3", false, ""},  // enemy source
		{"0 1 3 1", false, ""},  // distance 3
		{"0 1 -1 1", false, ""}, // off the board
		{"4 4 5 5", false, ""},  // off the board
	} {
		f := strings.Fields(c.move)
		var v [4]int
		for i := range v {
			v[i], _ = strconv.Atoi(f[i])
		}
		m, ok := p.MoveOf(v[0], v[1], v[2], v[3])
		if ok != c.ok {
			t.Errorf("MoveOf(%s) ok = %v, want %v", c.move, ok, c.ok)
			continue
		}
		if !ok {
			if m != Pass {
				t.Errorf("MoveOf(%s) refused but returned %v", c.move, m)
			}
			continue
		}
		kind := map[bool]string{true: "s"}[m.IsSpread()] + map[bool]string{true: "m"}[m.IsMerge()] + map[bool]string{true: "j"}[m.IsJump()]
		if kind != c.kind || !p.IsLegal(m) {
			t.Errorf("MoveOf(%s) = %v kind %q legal %v, want kind %q", c.move, m, kind, p.IsLegal(m), c.kind)
		}
	}
	// Both spreads to (0,2) are the same move, from the lowest source.
	a, _ := p.MoveOf(1, 2, 0, 2)
	b, _ := p.MoveOf(0, 1, 0, 2)
	if a != b || a.String() != "0 1 0 2" {
		t.Errorf("spreads to (0,2): %v and %v, want both 0 1 0 2", a, b)
	}
}

func TestPass(t *testing.T) {
	for _, c := range []struct {
		board string
		moves []string
	}{
		// Player 2 has no slime: a pass only.
		{"2,1...,....,....,...4", []string{"pass"}},
		// Player 1 has only merges that fill nothing: they and a pass.
		{"1,11222,22222,22222,22222,2222.", []string{"0 0 0 1", "0 1 0 0", "pass"}},
		// Player 1 can spread: no pass.
		{"1,1...,....,....,...4", []string{"0 0 0 1", "0 0 1 0", "0 0 1 1", "0 0 0 2", "0 0 1 2", "0 0 2 0", "0 0 2 1", "0 0 2 2"}},
	} {
		p, err := Parse(c.board)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(c.moves)
		slices.Sort(want)
		if got := engineMoveStrings(p); !slices.Equal(got, want) {
			t.Errorf("%s: moves %v, want %v", c.board, got, want)
		}
		if p.IsLegal(Pass) != slices.Contains(want, "pass") {
			t.Errorf("%s: IsLegal(Pass) = %v", c.board, p.IsLegal(Pass))
		}
		// A pass is always playable (the controller's invalid output).
		q := p.Apply(Pass)
		if q.ToMove() != (p.ToMove()+1)%4 || q.Turns() != p.Turns()+1 || q.Hash() != q.ComputeHash() {
			t.Errorf("%s: pass gives %s", c.board, q.Record())
		}
	}
}

func TestTerminalAndValues(t *testing.T) {
	p, err := Parse("3,1122,1122,3344,334.")
	if err != nil {
		t.Fatal(err)
	}
	if p.Terminal() {
		t.Fatal("a board with an empty cell is over")
	}
	if m, err := p.ParseMove("3 1 3 3"); err != nil || !m.IsJump() {
		t.Fatalf("3 1 3 3 read as %v, %v; want a jump", m, err)
	}
	m, err := p.ParseMove("3 1 2 2")
	if err == nil {
		t.Fatalf("a spread onto an enemy cell read as %v", m)
	}
	q, err := Parse("3,1122,1122,3344,3344")
	if err != nil {
		t.Fatal(err)
	}
	if !q.Terminal() || len(q.LegalMoves(nil)) != 0 {
		t.Errorf("a full board is not over")
	}
	if v := q.Values(); v != [4]float32{-0.5, -0.5, -0.5, -0.5} {
		t.Errorf("values %v, want a quarter of the board each: -0.5", v)
	}
	r, _ := Parse("1,1111,1111,1111,1112")
	if v := r.Values(); v[0] != 2*15.0/16-1 || v[1] != 2*1.0/16-1 || v[2] != -1 || r.Winner() != 0 {
		t.Errorf("values %v winner %d", v, r.Winner())
	}
	capped, _ := Parse("2,1...,....,....,...4 " + strconv.Itoa(MaxTurns))
	if !capped.Terminal() || len(capped.LegalMoves(nil)) != 0 {
		t.Errorf("a position after %d turns is not over", MaxTurns)
	}
	if capped.Outcome() != "2000-turn cap, 1:1 2:0 3:0 4:1" {
		t.Errorf("outcome %q", capped.Outcome())
	}
	if q.Outcome() != "board full, 1:4 2:4 3:4 4:4" {
		t.Errorf("outcome %q", q.Outcome())
	}
}

// TestFullGameToCap: a game where nobody fills the board reaches the turn cap.
func TestTurnCap(t *testing.T) {
	p := StartSize(6)
	for !p.Terminal() {
		p = p.Apply(Pass)
	}
	if p.Turns() != MaxTurns || p.OwnTurnsLeft() != 0 {
		t.Errorf("passing forever ends after %d turns, own turns left %d", p.Turns(), p.OwnTurnsLeft())
	}
	if s := StartSize(6); s.OwnTurnsLeft() != 500 || s.Apply(Pass).OwnTurnsLeft() != 500 {
		t.Errorf("own turns left at the start: %d, %d", s.OwnTurnsLeft(), s.Apply(Pass).OwnTurnsLeft())
	}
}

func TestHashIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[uint64]string{}
	games := 4
	if testing.Short() {
		games = 1
	}
	for n := MinSize; n <= MaxSize; n++ {
		for range games {
			randomGame(r, n, 1000, func(p Position, m Move) {
				if p.Hash() != p.ComputeHash() {
					t.Fatalf("%s: hash %x, recomputed %x", p, p.Hash(), p.ComputeHash())
				}
				if s, ok := seen[p.Hash()]; ok && s != p.String() {
					t.Fatalf("hash collision: %s and %s", s, p)
				}
				seen[p.Hash()] = p.String()
				if c := p.Apply(m); c.Hash() != c.ComputeHash() {
					t.Fatalf("%s after %v: hash %x, recomputed %x", p, m, c.Hash(), c.ComputeHash())
				}
			})
		}
	}
}

func TestParseFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := MinSize; n <= MaxSize; n++ {
		randomGame(r, n, 300, func(p Position, m Move) {
			q, err := Parse(p.String())
			if err != nil || q.String() != p.String() || q.Hash() != p.Hash() || q.Turns() != 0 {
				t.Fatalf("%s: round trip %s, %v", p, q, err)
			}
			q, err = Parse(p.Record())
			if err != nil || q != p {
				t.Fatalf("%s: record round trip %s, %v", p.Record(), q.Record(), err)
			}
			d, err := ParseDiagram(p.Diagram()[:n*(n+1)], p.ToMove())
			if err != nil || d.String() != p.String() {
				t.Fatalf("%s: diagram round trip %s, %v", p, d, err)
			}
			mm, err := p.ParseMove(m.String())
			if m == Pass {
				if err != nil || mm != Pass {
					t.Fatalf("%s: pass reads as %v, %v", p, mm, err)
				}
			} else if err != nil || mm != m {
				t.Fatalf("%s: move %v reads as %v, %v", p, m, mm, err)
			}
		})
	}
	if s := Start().String(); s != "1,1......2,........,........,........,........,........,........,3......4" {
		t.Errorf("start %q", s)
	}
	for _, bad := range []string{
		"", "1", "5,....,....,....,....", "0,....,....,....,....", "1,...,...,...",
		"1,....,....,....", "1,.....,....,....,....", "1,....,....,....,...x",
		"12,....,....,....,....", "1,....,....,....,.... x", "1,....,....,....,.... 2001",
		"1," + strings.TrimSuffix(strings.Repeat(strings.Repeat(".", 17)+",", 17), ","),
	} {
		if p, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %s, want an error", bad, p.Diagram())
		}
	}
}

func TestAllocs(t *testing.T) {
	buf := make([]Move, 0, MaxMoves)
	for _, n := range []int{8, 13} {
		p := StartSize(n)
		r := rand.New(rand.NewPCG(1, 1))
		for range 30 {
			buf = p.LegalMoves(buf)
			p = p.Apply(buf[r.IntN(len(buf))])
		}
		allocs := testing.AllocsPerRun(100, func() {
			buf = p.LegalMoves(buf)
			for _, m := range buf {
				_ = p.Apply(m)
			}
			_ = p.CountMoves()
		})
		if allocs != 0 {
			t.Errorf("%dx%d: LegalMoves+Apply allocate %v times per run", n, n, allocs)
		}
	}
}

func BenchmarkPerft8(b *testing.B)  { benchPerft(b, 8, 5) }
func BenchmarkPerft16(b *testing.B) { benchPerft(b, 16, 4) }

// BenchmarkPerftMid counts from an 8x8 middle game (40 random plies from the start, every
// player still on the board).
func BenchmarkPerftMid(b *testing.B) {
	r := rand.New(rand.NewPCG(40, 40))
	p := randomGame(r, 8, 40, func(Position, Move) {})
	b.Logf("%s: %v", p.Record(), p.Scores())
	var nodes uint64
	for b.Loop() {
		nodes += Perft(p, 4)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func benchPerft(b *testing.B, n, depth int) {
	var nodes uint64
	for b.Loop() {
		nodes += Perft(StartSize(n), depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkGenApply measures LegalMoves plus Apply of every move on positions of random
// 8x8 games (no bulk counting): positions/s and moves applied/s.
func BenchmarkGenApply(b *testing.B) {
	r := rand.New(rand.NewPCG(8, 8))
	var ps []Position
	for range 20 {
		randomGame(r, 8, 60, func(p Position, _ Move) { ps = append(ps, p) })
	}
	buf := make([]Move, 0, MaxMoves)
	var positions, applied int
	var sink uint64
	for b.Loop() {
		for _, p := range ps {
			buf = p.LegalMoves(buf)
			for _, m := range buf {
				sink ^= p.Apply(m).Hash()
			}
			positions++
			applied += len(buf)
		}
	}
	_ = sink
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(applied)/b.Elapsed().Seconds(), "applies/s")
}

func TestDivide(t *testing.T) {
	p, err := Parse("3,..2.2..,.222...,2233...,..34.4.,....4..,3......,3...... 18") // from the perft file
	if err != nil {
		t.Fatal(err)
	}
	d := Divide(p, 2)
	var sum uint64
	for i, e := range d {
		sum += e.Nodes
		if i > 0 && d[i-1].Move.String() >= e.Move.String() {
			t.Errorf("divide not sorted: %v before %v", d[i-1].Move, e.Move)
		}
		if e.Nodes != Perft(p.Apply(e.Move), 1) {
			t.Errorf("%v: %d nodes", e.Move, e.Nodes)
		}
	}
	if len(d) != p.CountMoves() || len(d) != 60 || sum != 2397 {
		t.Errorf("divide: %d moves, %d nodes; want 60 and 2397", len(d), sum)
	}
	if Perft(p, 0) != 1 || len(Divide(p, 0)) != 0 {
		t.Error("depth 0")
	}
}
