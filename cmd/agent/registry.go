package main

import (
	"fmt"
	"sort"

	"colony/engine"
	"colony/engine/alphabeta"
	"colony/engine/greedy"
	"colony/engine/random"
	"colony/game/ataxx"
)

// AtaxxEngine is an engine for Bacteria War.
type AtaxxEngine = engine.Engine[ataxx.Position, ataxx.Move]

// Options are what an engine constructor may use; an engine ignores what it does not need.
type Options struct {
	Seed  uint64 // random choices (tie-breaks, sampling)
	Model string // weights file; "" means the embedded default, where an engine has one
	// Value blending of the "mcts" engine (see mctsengine.ValueBlend): the leaf value is
	// (1-BlendWeight)*network + BlendWeight*tanh(alpha-beta score at BlendDepth / BlendScale).
	BlendWeight float64
	BlendDepth  int
	BlendScale  float64
	CPuct       float64 // "mcts" exploration constant (0: the search default)
	// EndgameEmpty: "mcts" hands the rest of the game to alphabeta once at most this many
	// cells are empty (0: never).
	EndgameEmpty int
	// EndgameWeight: with EndgameEmpty, the mcts phase plans its clock as if each move after
	// the handoff cost this share of one of its own (0: plan as if it played to the end).
	EndgameWeight float64
}

// Factory builds an engine. It may be slow (loading weights): the protocols call it off the
// reading path.
type Factory func(Options) (AtaxxEngine, error)

// ataxxEngines maps a -engine name to its constructor.
var ataxxEngines = map[string]Factory{
	"random": func(o Options) (AtaxxEngine, error) { return random.New(o.Seed), nil },
	"greedy": func(o Options) (AtaxxEngine, error) { return greedy.New(o.Seed), nil },
	"alphabeta": func(o Options) (AtaxxEngine, error) {
		return alphabeta.NewWithOptions(alphabeta.Options{Seed: o.Seed}), nil
	},
	"mcts":         newMCTS,
	"mcts-rollout": newRolloutMCTS,
}

// defaultEngine is the -engine used when none is given: the strongest one registered (mcts on
// the embedded 000002 scored 67% against alphabeta over 200 games at the judge's clock).
const defaultEngine = "mcts"

// lookupEngine returns the factory registered under name.
func lookupEngine(name string) (Factory, error) {
	f, ok := ataxxEngines[name]
	if !ok {
		return nil, fmt.Errorf("unknown engine %q (known: %v)", name, engineNames())
	}
	return f, nil
}

// engineNames lists the registered engines, sorted.
func engineNames() []string {
	names := make([]string, 0, len(ataxxEngines))
	for n := range ataxxEngines {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
