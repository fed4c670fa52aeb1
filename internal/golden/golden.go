// Package golden compares what a test computes, one line per result, with a committed golden
// file: a regression check that a refactoring leaves results identical. The file's first line
// is a header naming the magic, the format version and the game, checked before anything
// else; a file is (re)written only when the environment variable COLONY_GOLDEN_UPDATE is 1,
// and then by whoever knows the code that runs is the reference.
package golden

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"colony/internal/atomicfile"
)

// Magic and Version open every golden file's header line.
const (
	Magic   = "colony-golden"
	Version = 1
)

// Header is the header line for a game and a test's own name for what the lines hold.
func Header(game, what string) string {
	return fmt.Sprintf("%s v%d game=%s what=%s", Magic, Version, game, what)
}

// maxReported bounds the differing lines a failure lists.
const maxReported = 10

// Check compares lines with the golden file at path (header first), failing t on any
// difference: a missing or foreign file, a count or a line that differs.
func Check(t testing.TB, path, header string, lines []string) {
	t.Helper()
	if os.Getenv("COLONY_GOLDEN_UPDATE") == "1" {
		data := header + "\n" + strings.Join(lines, "\n") + "\n"
		if err := atomicfile.WriteFile(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d lines", path, len(lines))
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (COLONY_GOLDEN_UPDATE=1 writes it from the code that runs)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if want[0] != header {
		t.Fatalf("%s: header %q, want %q", path, want[0], header)
	}
	want = want[1:]
	if len(want) != len(lines) {
		t.Errorf("%s: %d lines, this run has %d", path, len(want), len(lines))
	}
	bad := 0
	for i := range min(len(want), len(lines)) {
		if want[i] != lines[i] {
			if bad < maxReported {
				t.Errorf("%s:%d:\n golden %s\n now    %s", path, i+2, want[i], lines[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d lines differ", path, bad, len(lines))
	}
}

// Positions returns n positions of a game, each reached by uniformly random moves from start
// (seeded: the same positions on every run): game i stops after a drawn number of plies below
// maxPly, or at the last position before the game's end.
func Positions[P, M any](n int, seed uint64, start P, maxPly int, moves func(P, []M) []M, apply func(P, M) P, terminal func(P) bool) []P {
	rng := rand.New(rand.NewPCG(seed, seed^0x676f6c64656e)) // "golden"
	var buf []M
	ps := make([]P, 0, n)
	for range n {
		p := start
		for range rng.IntN(maxPly) {
			buf = moves(p, buf[:0])
			c := apply(p, buf[rng.IntN(len(buf))])
			if terminal(c) {
				break
			}
			p = c
		}
		ps = append(ps, p)
	}
	return ps
}
