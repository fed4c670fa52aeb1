// Package contracttest holds the checks that every game package's tests make of its rules,
// stated once for any game: perft tables (the start position, a file of positions, divide),
// hash and apply consistency along random games, policy indices, a plain minimax win check for
// the search engines' tests, and the move-generation benchmarks. It imports no game and no
// engine (the engines' own checks are colony/engine/enginetest).
package contracttest

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"math/rand/v2"

	"colony/contract"
)

// PerftCase is a position in a game's board notation and its perft counts from depth 1 on.
type PerftCase struct {
	Board  string
	Counts []uint64
}

// ParsePerft reads perft lines `board;count1;count2;...`, skipping blank lines and # comments.
func ParsePerft(t testing.TB, lines []string) []PerftCase {
	t.Helper()
	var cases []PerftCase
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		c := PerftCase{Board: parts[0]}
		for _, s := range parts[1:] {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatalf("bad count in %q: %v", line, err)
			}
			c.Counts = append(c.Counts, n)
		}
		cases = append(cases, c)
	}
	return cases
}

// ReadPerft reads a perft file (ParsePerft) and fails unless it holds exactly want positions.
func ReadPerft(t testing.TB, path string, want int) []PerftCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	cases := ParsePerft(t, lines)
	if len(cases) != want {
		t.Fatalf("read %d perft positions from %s, want %d", len(cases), path, want)
	}
	return cases
}

// CheckPerftCases parses each case's board, checks that it formats back to the same string and
// that perft gives every count.
func CheckPerftCases[P interface{ String() string }](t testing.TB, cases []PerftCase, parse func(string) (P, error), perft func(P, int) uint64) {
	t.Helper()
	for _, c := range cases {
		p, err := parse(c.Board)
		if err != nil {
			t.Fatal(err)
		}
		if p.String() != c.Board {
			t.Errorf("format round trip: %q -> %q", c.Board, p.String())
		}
		for d, want := range c.Counts {
			if got := perft(p, d+1); got != want {
				t.Errorf("%s: perft(%d) = %d, want %d", c.Board, d+1, got, want)
			}
		}
	}
}

// CheckStartPerft checks perft of start against want at depths 1 to shortDepth, or longDepth
// outside -short.
func CheckStartPerft[P any](t testing.TB, start P, perft func(P, int) uint64, want []uint64, shortDepth, longDepth int) {
	t.Helper()
	maxDepth := shortDepth
	if !testing.Short() {
		maxDepth = longDepth
	}
	for d := 1; d <= maxDepth; d++ {
		if got := perft(start, d); got != want[d-1] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d-1])
		}
	}
}

// CheckDivide checks a divide: rootMoves entries whose counts add up to total.
func CheckDivide[M any](t testing.TB, div []contract.DivideEntry[M], rootMoves int, total uint64) {
	t.Helper()
	if len(div) != rootMoves {
		t.Fatalf("%d root moves, want %d", len(div), rootMoves)
	}
	var sum uint64
	for _, e := range div {
		sum += e.Nodes
	}
	if sum != total {
		t.Fatalf("divide sums to %d, want %d", sum, total)
	}
}

// RandomGames plays n games of uniformly random moves from start (generator seeded by seed)
// and calls check (if not nil) after every move with the position before, the move and the
// position after, and end (if not nil) with each finished game. A position's hash must be the
// same however the position was reached (computeHash from scratch), the side to move must
// change and so must the hash: RandomGames checks those itself.
func RandomGames[P contract.Position[P, M], M contract.Move](t testing.TB, seed uint64, n int, start P, computeHash func(P) uint64, check func(before P, m M, after P), end func(P)) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	var buf []M
	for range n {
		p := start
		for !p.Terminal() {
			buf = p.LegalMoves(buf)
			m := buf[r.IntN(len(buf))]
			before := p
			p = p.Apply(m)
			if p.Hash() != computeHash(p) {
				t.Fatalf("incremental hash differs after %v from %s", m, before)
			}
			if p.ToMove() == before.ToMove() {
				t.Fatalf("side not switched by %v from %s", m, before)
			}
			if p.Hash() == before.Hash() {
				t.Fatalf("hash unchanged by %v from %s", m, before)
			}
			if check != nil {
				check(before, m, p)
			}
		}
		if end != nil {
			end(p)
		}
	}
}

// CheckPolicyIndices checks that moves have distinct indices below size and that inverse maps
// each index back to its move.
func CheckPolicyIndices[M contract.Move](t testing.TB, moves []M, size int, inverse func(int) M) {
	t.Helper()
	seen := map[int]M{}
	for _, m := range moves {
		idx := m.PolicyIndex()
		if idx < 0 || idx >= size {
			t.Fatalf("%v: index %d out of range", m, idx)
		}
		if prev, dup := seen[idx]; dup {
			t.Fatalf("%v and %v share index %d", m, prev, idx)
		}
		seen[idx] = m
		if inverse(idx) != m {
			t.Fatalf("inverse(%d) = %v, want %v", idx, inverse(idx), m)
		}
	}
}

// WinsWithin reports whether player me can force a finished game that it wins (a positive
// value) within plies plies from p: plain exhaustive minimax, independent of any engine.
func WinsWithin[P contract.Position[P, M], M comparable](p P, plies int, me int) bool {
	if p.Terminal() {
		return p.Values()[me] > 0
	}
	if plies == 0 {
		return false
	}
	moves := p.LegalMoves(nil)
	mine := p.ToMove() == me
	for _, m := range moves {
		if WinsWithin(p.Apply(m), plies-1, me) == mine {
			return mine
		}
	}
	return !mine
}

// BenchPerft benchmarks perft of p to depth and reports nodes per second.
func BenchPerft[P any](b *testing.B, p P, depth int, perft func(P, int) uint64) {
	var nodes uint64
	for b.Loop() {
		nodes += perft(p, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchMovesApply benchmarks generating p's moves into a buffer of maxMoves and applying each,
// and reports moves per second.
func BenchMovesApply[P contract.Position[P, M], M comparable](b *testing.B, p P, maxMoves int) {
	buf := make([]M, 0, maxMoves)
	var sink P
	n := 0
	for b.Loop() {
		for _, m := range p.LegalMoves(buf) {
			sink = p.Apply(m)
			n++
		}
	}
	_ = sink
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}
