package ataxxab

import (
	"testing"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/engine/enginetest"
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
	type v = enginetest.Variant[ataxx.Position, ataxx.Move]
	lines := enginetest.Trees(ps, ataxx.Position.FEN, []v{
		{Name: "default", Engine: NewWithOptions(Options{Options: ab.Options{HashMB: 4}}), Lims: enginetest.Depths(1, 2, 3, 4, 5, 6)},
		{Name: "nolmr", Engine: NewWithOptions(Options{Options: ab.Options{HashMB: 4, NoLMR: true}}), Lims: enginetest.Depths(2, 4, 5)},
		{Name: "seed", Engine: NewWithOptions(Options{Options: ab.Options{Seed: 17}}), Lims: enginetest.Depths(4)},
		{Name: "notable", Engine: NewWithOptions(Options{Options: ab.Options{HashMB: -1}}), Lims: enginetest.Depths(4)},
		{Name: "nodes", Engine: NewWithOptions(Options{Options: ab.Options{HashMB: 4, Nodes: 5000}}), Lims: []engine.Limits{{}}},
	}, NewWithOptions(Options{Options: ab.Options{HashMB: 4}}).Score)
	golden.Check(t, "testdata/golden.txt", golden.Header(ataxx.Info.Name, "alphabeta-trees"), lines)
}
