// Package enginetest holds the checks that the search engines' tests make, stated once for
// any game: golden search trees (the lines that internal/golden compares with a committed
// file) and determinism. Only tests import it.
package enginetest

import (
	"fmt"
	"testing"

	"colony/engine"
)

// Engine is what the checks ask of an engine: an engine.Engine's games and moves, and the
// account of its last search.
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

// CheckDeterministic checks that two engines made by newEngine agree on the move, score and
// node count of a search of p within lim, and that the first, after NewGame, repeats it.
func CheckDeterministic[P any, M comparable](t testing.TB, newEngine func() Engine[P, M], p P, lim engine.Limits) {
	t.Helper()
	a, b := newEngine(), newEngine()
	ma := a.BestMove(p, lim)
	mb := b.BestMove(p, lim)
	_, sa, na := a.Stats()
	_, sb, nb := b.Stats()
	if ma != mb || sa != sb || na != nb {
		t.Fatalf("two engines disagree: %v %d %d vs %v %d %d", ma, sa, na, mb, sb, nb)
	}
	a.NewGame()
	if m := a.BestMove(p, lim); m != ma {
		t.Fatalf("after NewGame: %v, want %v", m, ma)
	}
	if _, s, n := a.Stats(); s != sa || n != na {
		t.Fatalf("after NewGame: score %d nodes %d, want %d %d", s, n, sa, na)
	}
}
