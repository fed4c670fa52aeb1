package mctsengine

import (
	"colony/game/ataxx"
	"colony/mcts"
)

// The tests run the engine on Bacteria War.
type (
	pos  = ataxx.Position
	move = ataxx.Move
)

// opts fills in what the engine needs to know about Bacteria War, as its registration does.
func opts(o Options[pos, move]) Options[pos, move] {
	o.MovesLeft = pos.MovesLeft
	o.CapLeft = pos.OwnTurnsLeft
	return o
}

func newEngine(eval mcts.Evaluator[pos, move], o Options[pos, move]) *Engine[pos, move] {
	return New[pos, move](eval, o)
}

func newRollout(seed uint64, maxPlies int) *mcts.Rollout[pos, move] {
	return NewRollout[pos, move](seed, maxPlies, pos.Material)
}
