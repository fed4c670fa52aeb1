package nnab

import (
	"testing"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/engine/enginetest"
	"colony/game/ataxx"
	"colony/internal/golden"
	"colony/models"
	"colony/nn/nnue"
)

// goldenNet is the net the golden trees were searched with (a file, not "the newest
// embedded": a new net must not change this test).
const goldenNet = "../../../models/bacteria-war/nnue/000004.nnue"

// goldenPositions are the golden searches' positions: the start, the midgame diagram and 48
// positions of random games.
func goldenPositions(t testing.TB) []ataxx.Position {
	t.Helper()
	mid, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	return append([]ataxx.Position{ataxx.Start(), mid}, golden.Positions(48, 23, ataxx.Start(), 140,
		func(p ataxx.Position, b []ataxx.Move) []ataxx.Move { return p.LegalMoves(b) },
		ataxx.Position.Apply, ataxx.Position.Terminal)...)
}

// TestGoldenTrees: nnab's fixed-depth searches (with and without pruning, late-move
// reductions, the table; a seed; node budgets, soft ones included) and Score on
// 50 positions give the best move, score, depth and node count recorded in
// testdata/golden.txt. The file was last written when the search took its smaller tree
// (docs/search.md: quiet-leap pruning, futility, the log reductions and the rest, each decided
// by a fixed-node SPRT); it must not be rewritten to make a change pass unless the change is
// meant to alter nnab's trees, and then the C++ port follows (its parity tests).
func TestGoldenTrees(t *testing.T) {
	m, _, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, goldenNet)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nnue.Quantize(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	e := func(o ab.Options) *Engine {
		e, err := New(Options{Options: o, Net: net})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	lines := enginetest.Trees(goldenPositions(t), ataxx.Position.FEN, []enginetest.Variant[ataxx.Position, ataxx.Move]{
		{Name: "default", Engine: e(ab.Options{HashMB: 4}), Lims: enginetest.Depths(1, 2, 3, 4, 5, 6, 7)},
		{Name: "noprune", Engine: e(ab.Options{HashMB: 4, NoPrune: true}), Lims: enginetest.Depths(1, 2, 3, 4, 5)},
		{Name: "nolmr", Engine: e(ab.Options{HashMB: 4, NoLMR: true}), Lims: enginetest.Depths(1, 2, 3, 4, 5)},
		{Name: "plain", Engine: e(ab.Options{HashMB: 4, NoLMR: true, NoPrune: true}), Lims: enginetest.Depths(2, 4)},
		{Name: "seed", Engine: e(ab.Options{Seed: 99}), Lims: enginetest.Depths(5)},
		{Name: "notable", Engine: e(ab.Options{HashMB: -1}), Lims: enginetest.Depths(4)},
		{Name: "optdepth", Engine: e(ab.Options{HashMB: 4, Depth: 3}), Lims: enginetest.Depths(5)},
		{Name: "nodes", Engine: e(ab.Options{HashMB: 4, Nodes: 4000}), Lims: []engine.Limits{{}}},
		{Name: "softnodes", Engine: e(ab.Options{HashMB: 4}), Lims: []engine.Limits{{Nodes: 20000, SoftNodes: 3000}}},
	}, e(ab.Options{HashMB: 4}).Score)
	golden.Check(t, "testdata/golden.txt", golden.Header(ataxx.Info.Name, "nnab-trees"), lines)
}
