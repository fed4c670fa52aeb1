package main

import (
	"errors"
	"fmt"
	"os"

	"colony/engine/alphabeta"
	"colony/engine/mctsengine"
	"colony/game/ataxx"
	"colony/mcts"
	"colony/models"
	"colony/nn"
)

// mctsBatch is the number of leaves the agent's search evaluates per network call: batch 8
// is where the forward pass is most efficient per position on one core.
const mctsBatch = 8

// Defaults of the value blend (see Options): measured in matches against alphabeta, see the
// README's strength table. Weight 0 (the network's value alone) since 000002, whose value head
// learned alphabeta's depth-5 scores (2 s screens of 200 games against alphabeta: blend 0
// 64%, blend 0.5 58.5%); 000001 needed 0.5.
const (
	defaultBlendWeight = 0
	defaultBlendDepth  = 1
	defaultBlendScale  = 300
	blendHashMB        = 16
	// defaultEndgameEmpty: with this many empty cells or fewer, alpha-beta plays the rest
	// (2 s screens of 200 games against alphabeta: 14 cells 49.5%, 20 cells 56.5%, 26 cells
	// 54%, never 28%).
	defaultEndgameEmpty = 20
	// defaultEndgameWeight: 0 plans the mcts phase's clock as if it played to the end (same
	// screens: weight 0.5 48%, 0.7 57.5%, 0 56.5%: no clear gain from a split).
	defaultEndgameWeight = 0
)

// untrainedArch is the network used when no model file is given and none is embedded.
var untrainedArch = nn.AtaxxArch(4, 32)

// newMCTS builds the "mcts" engine: PUCT over the network of o.Model, or the embedded best
// model. With neither, it says so on stderr and plays with an untrained network.
func newMCTS(o Options) (AtaxxEngine, error) {
	m, name, err := models.Load(nn.AtaxxGame, ataxx.EncoderVersion, o.Model)
	if errors.Is(err, models.ErrNoModel) {
		fmt.Fprintf(os.Stderr, "agent: mcts: no model file given and none embedded: running with an UNTRAINED %dx%d network\n",
			untrainedArch.Blocks, untrainedArch.Channels)
		m, name, err = nn.NewRandom(untrainedArch, o.Seed), "untrained", nil
	}
	if err != nil {
		return nil, err
	}
	net, err := nn.NewNet(m, mctsBatch)
	if err != nil {
		return nil, fmt.Errorf("mcts: model %s: %w", name, err)
	}
	var eval mcts.Evaluator[ataxx.Position, ataxx.Move] = nn.NewEvaluator[ataxx.Position, ataxx.Move](net)
	if o.BlendWeight > 0 {
		ab := alphabeta.NewWithOptions(alphabeta.Options{HashMB: blendHashMB})
		depth, scale := o.BlendDepth, o.BlendScale
		eval = &mctsengine.ValueBlend{Inner: eval, Weight: float32(o.BlendWeight), Score: func(p *ataxx.Position) float32 {
			return mctsengine.Squash(ab.Score(p, depth), scale, alphabeta.WinBound)
		}}
	}
	eo := mctsengine.Options{BatchSize: mctsBatch, Seed: o.Seed, CPuct: float32(o.CPuct)}
	if o.EndgameEmpty <= 0 {
		return mctsengine.New(eval, eo), nil
	}
	if o.EndgameWeight > 0 {
		eo.MovesLeft = mctsengine.MovesLeftWithEndgame(o.EndgameEmpty, o.EndgameWeight)
	}
	e := mctsengine.New(eval, eo)
	return mctsengine.WithEndgame(e, alphabeta.NewWithOptions(alphabeta.Options{Seed: o.Seed}), o.EndgameEmpty), nil
}

// newRolloutMCTS builds "mcts-rollout": PUCT with random-rollout leaf values, no network.
func newRolloutMCTS(o Options) (AtaxxEngine, error) {
	var eval mcts.Evaluator[ataxx.Position, ataxx.Move] = mctsengine.NewRollout(o.Seed, 0)
	return renamed{mctsengine.New(eval, mctsengine.Options{Seed: o.Seed}), "mcts-rollout"}, nil
}

// renamed gives an engine the name it is registered under.
type renamed struct {
	AtaxxEngine
	name string
}

func (r renamed) Name() string { return r.name }
