package ataxxab

import (
	"math/rand/v2"
	"testing"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
)

// negamax is the plain minimax value of p searched to depth with the same leaf and terminal
// scores as the engine's hooks h: the reference for Score.
func negamax(h *hooks, p ataxx.Position, depth, ply int) int32 {
	if p.Terminal() {
		return abrules.TerminalScore(&p, ply)
	}
	if depth <= 0 {
		return h.Leaf(p, ply)
	}
	best := int32(-32000)
	for _, m := range p.LegalMoves(nil) {
		best = max(best, -negamax(h, p.Apply(m), depth-1, ply+1))
	}
	return best
}

func TestScoreIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	e := NewWithOptions(Options{Options: ab.Options{HashMB: 4, NoLMR: true}})
	e.ab.ExactTT = true
	for i := range 60 {
		p := randomPosition(rng, rng.IntN(40))
		for depth := range 3 {
			want := negamax(&hooks{w: &e.weights}, p, depth, 0)
			if got := e.Score(&p, depth); got != want {
				t.Fatalf("position %d %s depth %d: Score %d, minimax %d", i, p, depth, got, want)
			}
		}
	}
}

func TestScoreNoAllocs(t *testing.T) {
	p := mustDiagram(t, midgame, ataxx.O)
	e := NewWithOptions(Options{Options: ab.Options{HashMB: 1}})
	e.Score(&p, 2)
	if n := testing.AllocsPerRun(20, func() { e.Score(&p, 2) }); n != 0 {
		t.Fatalf("Score allocates %v times per call", n)
	}
}
