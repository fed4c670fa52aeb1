package registry

import (
	"colony/agentdef"
	"colony/engine"
	"colony/game/mouse"
	"colony/game/mouse/mouseab"
	"colony/game/mouse/mousegreedy"
	"colony/game/mouse/mousesolve"
	"colony/game/mouse/solve"
)

// Catch The Mouse (7x11, mice against cats and Nadori): the game package's contract plus its
// engines. random, mcts and mcts-rollout come with every game.
func init() {
	registerTool("mousesolve", mousesolve.Main)
	type (
		pos  = mouse.Position
		move = mouse.Move
		eng  = engine.Engine[pos, move]
	)
	def := &agentdef.Def[pos, move]{Def: mouse.Def()}
	def.Engines = []agentdef.EngineSpec[pos, move]{
		{Name: "greedy", Doc: "one-ply rules of thumb for either side (win, capture, block the runner, advance the safe mouse)",
			New: func(o agentdef.EngineOptions) (eng, error) { return mousegreedy.New(o.Seed), nil }},
		{Name: "alphabeta", Doc: "PVS alpha-beta with a transposition table and an evaluation of the race to row 7; once 50 mouse steps or fewer are left, a prover (game/mouse/solve) plays forced wins and rules out proven losses",
			Flags: []string{"hash"}, New: func(o agentdef.EngineOptions) (eng, error) {
				so, err := abOptions(o)
				if err != nil {
					return nil, err
				}
				return mouseab.NewWithOptions(mouseab.Options{Options: so}), nil
			}},
	}
	def.Fallback = "greedy"
	// mcts on the embedded network with the prover in front is the default, the strongest
	// engine; alphabeta stays as the baseline (the matches: docs/results.md, "Catch The
	// Mouse: the network").
	def.DefaultEngine = "mcts"
	// The prover of the alphabeta engine runs in front of mcts too: forced wins are played
	// and proven losses left out of the search, on up to three tenths of each move once
	// proofs are within reach (solve.ProveFrom mouse steps left).
	def.Prover = func() engine.Prover[pos, move] { return solve.NewProver(proverMB, false) }
	// -endgame N hands the game's end to alphabeta (its prover included) from N mouse steps
	// left; off by default (why: docs/results.md, "Catch The Mouse: the network").
	def.Defaults = agentdef.EngineOptions{ProverShare: 0.3}
	def.Finisher = "alphabeta"
	def.Phase = pos.MouseStepsLeft
	// No turn cap, but a bound on the game's length: every move the side to move may still
	// make keeps engine.MinMoveCost of the clock in reserve, in mcts as in alphabeta.
	def.CapLeft = func(p pos) int { return p.MouseStepsLeft() + 1 }
	Register(def)
}

// proverMB is the table of the prover in front of mcts (as alphabeta's).
const proverMB = 16
