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

	"colony/engine"
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

// Engine is what Searches asks of an engine.
type Engine[P, M any] interface {
	NewGame()
	BestMove(p P, lim engine.Limits) M
	Stats() (depth int, score int32, nodes int64)
}

// Searches searches each position under each of lims in turn (from a new game at each
// position: the table and statistics carry over from one limit to the next) and returns a
// line per search: the engine's name, the position's index, the limits, the move and Stats.
func Searches[P any, M fmt.Stringer](name string, e Engine[P, M], ps []P, lims ...engine.Limits) []string {
	var lines []string
	for i, p := range ps {
		e.NewGame()
		for _, lim := range lims {
			m := e.BestMove(p, lim)
			depth, score, nodes := e.Stats()
			lines = append(lines, fmt.Sprintf("%s pos=%d lim=%s move=%v score=%d nodes=%d depth=%d", name, i, limString(lim), m, score, nodes, depth))
		}
	}
	return lines
}

// Depths are fixed-depth limits, one per depth.
func Depths(ds ...int) []engine.Limits {
	lims := make([]engine.Limits, len(ds))
	for i, d := range ds {
		lims[i].Depth = d
	}
	return lims
}

func limString(l engine.Limits) string {
	s := fmt.Sprintf("d%d", l.Depth)
	if l.Nodes != 0 || l.SoftNodes != 0 {
		s += fmt.Sprintf("/n%d/s%d", l.Nodes, l.SoftNodes)
	}
	if l.MyTime != 0 || l.MoveTime != 0 {
		s += "/timed" // not reproducible: tests should not record these
	}
	return s
}

// Variant is one engine configuration of a golden tree test and the limits its searches get.
type Variant[P, M any] struct {
	Name   string
	Engine Engine[P, M]
	Lims   []engine.Limits
}

// Trees returns the lines of a golden tree test: each position's notation, each variant's
// Searches, and score's values (a fixed-depth search: an engine's Score) at depths 0 to 3
// along the positions.
func Trees[P any, M fmt.Stringer](ps []P, notation func(P) string, vs []Variant[P, M], score func(p *P, depth int) int32) []string {
	var lines []string
	for i, p := range ps {
		lines = append(lines, fmt.Sprintf("pos %d %s", i, notation(p)))
	}
	for _, v := range vs {
		lines = append(lines, Searches(v.Name, v.Engine, ps, v.Lims...)...)
	}
	for i := range ps {
		for d := range 4 {
			lines = append(lines, fmt.Sprintf("score pos=%d d=%d score=%d", i, d, score(&ps[i], d)))
		}
	}
	return lines
}
