package alphabeta

import (
	"fmt"
	"testing"

	"colony/engine"
	"colony/game/ataxx"
	"colony/internal/golden"
)

// TestGoldenTrees: fixed-depth and node-bounded searches and Score on 50 positions of random
// games give the best move, score, depth and node count recorded in testdata/golden.txt,
// written by engine/alphabeta as it was before nnab's search was folded into it: the fold
// left this engine's trees exactly as they were. Rewrite it (COLONY_GOLDEN_UPDATE=1) only
// for a change meant to alter the trees.
func TestGoldenTrees(t *testing.T) {
	ps := golden.Positions(50, 41, ataxx.Start(), 140,
		func(p ataxx.Position, b []ataxx.Move) []ataxx.Move { return p.LegalMoves(b) },
		ataxx.Position.Apply, ataxx.Position.Terminal)
	var lines []string
	for i, p := range ps {
		lines = append(lines, fmt.Sprintf("pos %d %s", i, p.FEN()))
	}
	for _, v := range []struct {
		name string
		o    Options
		lims []engine.Limits
	}{
		{"default", Options{HashMB: 4}, golden.Depths(1, 2, 3, 4, 5, 6)},
		{"nolmr", Options{HashMB: 4, NoLMR: true}, golden.Depths(2, 4, 5)},
		{"seed", Options{Seed: 17}, golden.Depths(4)},
		{"notable", Options{HashMB: -1}, golden.Depths(4)},
		{"nodes", Options{HashMB: 4, Nodes: 5000}, []engine.Limits{{}}},
	} {
		lines = append(lines, golden.Searches(v.name, NewWithOptions(v.o), ps, v.lims...)...)
	}
	e := NewWithOptions(Options{HashMB: 4})
	for i, p := range ps {
		for d := range 4 {
			lines = append(lines, fmt.Sprintf("score pos=%d d=%d score=%d", i, d, e.Score(&p, d)))
		}
	}
	golden.Check(t, "testdata/golden.txt", golden.Header(ataxx.Info.Name, "alphabeta-trees"), lines)
}
