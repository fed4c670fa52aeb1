package alphabeta

import (
	"fmt"
	"testing"

	"colony/engine"
	"colony/game/mouse"
	"colony/internal/golden"
)

// TestGoldenTrees: fixed-depth and node-bounded searches (the prover off, and on for the
// node budget) and Score on 50 positions of random games give the best move, score, depth
// and node count recorded in testdata/golden.txt, written by engine/alphabeta as it was
// before nnab's search was folded into it: the fold left this engine's trees exactly as
// they were. Rewrite it (COLONY_GOLDEN_UPDATE=1) only for a change meant to alter the trees.
func TestGoldenTrees(t *testing.T) {
	ps := golden.Positions(50, 43, mouse.Start(), 80,
		func(p mouse.Position, b []mouse.Move) []mouse.Move { return p.LegalMoves(b) },
		mouse.Position.Apply, mouse.Position.Terminal)
	var lines []string
	for i, p := range ps {
		lines = append(lines, fmt.Sprintf("pos %d %s", i, p.String()))
	}
	for _, v := range []struct {
		name string
		o    Options
		lims []engine.Limits
	}{
		{"default", Options{HashMB: 4, SolveMB: -1}, golden.Depths(1, 2, 3, 4, 5, 6, 7)},
		{"nolmr", Options{HashMB: 4, SolveMB: -1, exp: expNoLMR}, golden.Depths(3, 5)},
		{"seed", Options{SolveMB: -1, Seed: 17}, golden.Depths(5)},
		{"notable", Options{HashMB: -1, SolveMB: -1}, golden.Depths(4)},
		{"nodes", Options{HashMB: 4, Nodes: 5000}, []engine.Limits{{}}},
	} {
		lines = append(lines, golden.Searches(v.name, NewWithOptions(v.o), ps, v.lims...)...)
	}
	e := NewWithOptions(Options{HashMB: 4, SolveMB: -1})
	for i, p := range ps {
		for d := range 4 {
			lines = append(lines, fmt.Sprintf("score pos=%d d=%d score=%d", i, d, e.Score(&p, d)))
		}
	}
	golden.Check(t, "testdata/golden.txt", golden.Header(mouse.Info.Name, "alphabeta-trees"), lines)
}
