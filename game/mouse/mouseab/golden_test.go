package mouseab

import (
	"testing"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/engine/enginetest"
	"colony/game/mouse"
	"colony/internal/golden"
)

// TestGoldenTrees: the searches (the prover off, but on for the node budget) and Score on
// 50 positions find the moves, scores, depths and nodes of testdata/golden.txt, which the
// search wrote before nnab's was folded into it (COLONY_GOLDEN_UPDATE=1 rewrites it: only
// for a change meant to alter the trees).
func TestGoldenTrees(t *testing.T) {
	legal := func(p mouse.Position, b []mouse.Move) []mouse.Move { return p.LegalMoves(b) }
	ps := golden.Positions(50, 43, mouse.Start(), 80, legal, mouse.Position.Apply, mouse.Position.Terminal)
	noProver := func(o Options) *Engine { o.SolveMB = -1; return NewWithOptions(o) }
	lines := enginetest.Trees(ps, mouse.Position.String, []enginetest.Variant[mouse.Position, mouse.Move]{
		{Name: "default", Engine: noProver(Options{Options: ab.Options{HashMB: 4}}), Lims: enginetest.Depths(1, 2, 3, 4, 5, 6, 7)},
		{Name: "seed", Engine: noProver(Options{Options: ab.Options{Seed: 17}}), Lims: enginetest.Depths(5)},
		{Name: "notable", Engine: noProver(Options{Options: ab.Options{HashMB: -1}}), Lims: enginetest.Depths(4)},
		{Name: "nodes", Engine: NewWithOptions(Options{Options: ab.Options{HashMB: 4, Nodes: 5000}}), Lims: []engine.Limits{{}}},
	}, noProver(Options{Options: ab.Options{HashMB: 4}}).Score)
	golden.Check(t, "testdata/golden.txt", golden.Header(mouse.Info.Name, "alphabeta-trees"), lines)
}
