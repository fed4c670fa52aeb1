package nnab

import (
	"fmt"
	"testing"

	"colony/engine"
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
// reductions, null moves, the table; a seed; node budgets, soft ones included) and Score on
// 50 positions give the best move, score, depth and node count recorded in
// testdata/golden.txt. The file was written by the search as it was before nnab became a set
// of hooks on engine/alphabeta (its own parallel copy of the search), so this test is the
// evidence that the fold kept every tree exactly; it must not be rewritten to make a change
// pass unless the change is meant to alter nnab's trees (which breaks the C++ port's parity).
func TestGoldenTrees(t *testing.T) {
	m, _, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, goldenNet)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nnue.Quantize(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	variants := []struct {
		name string
		o    Options
		lims []engine.Limits
	}{
		{"default", Options{HashMB: 4}, golden.Depths(1, 2, 3, 4, 5, 6, 7)},
		{"noprune", Options{HashMB: 4, NoPrune: true}, golden.Depths(1, 2, 3, 4, 5)},
		{"nolmr", Options{HashMB: 4, NoLMR: true}, golden.Depths(1, 2, 3, 4, 5)},
		{"plain", Options{HashMB: 4, NoLMR: true, NoPrune: true}, golden.Depths(2, 4)},
		{"null", Options{HashMB: 4, Null: true}, golden.Depths(3, 5, 7)},
		{"nullplain", Options{HashMB: 4, Null: true, NoPrune: true, NoLMR: true}, golden.Depths(4)},
		{"seed", Options{Seed: 99}, golden.Depths(5)},
		{"notable", Options{HashMB: -1}, golden.Depths(4)},
		{"optdepth", Options{HashMB: 4, Depth: 3}, golden.Depths(5)},
		{"nodes", Options{HashMB: 4, Nodes: 4000}, []engine.Limits{{}}},
		{"softnodes", Options{HashMB: 4}, []engine.Limits{{Nodes: 20000, SoftNodes: 3000}}},
	}
	var lines []string
	ps := goldenPositions(t)
	for i, p := range ps {
		lines = append(lines, fmt.Sprintf("pos %d %s", i, p.FEN()))
	}
	for _, v := range variants {
		v.o.Net = net
		e, err := New(v.o)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, golden.Searches(v.name, e, ps, v.lims...)...)
	}
	// Score: fixed-depth values without iterative deepening, on one engine along the positions.
	e, err := New(Options{Net: net, HashMB: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		for d := range 4 {
			lines = append(lines, fmt.Sprintf("score pos=%d d=%d score=%d", i, d, e.Score(&p, d)))
		}
	}
	golden.Check(t, "testdata/golden.txt", golden.Header(ataxx.Info.Name, "nnab-trees"), lines)
}
