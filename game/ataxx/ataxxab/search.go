package ataxxab

import (
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
)

// turnKeys are the classical engine's turn keys (abrules.TurnKeys), drawn from "turnkeys".
var turnKeys = abrules.NewTurnKeys(0x7475726E6B657973)

// hooks are the classical engine's part of the generic search (engine/alphabeta): Bacteria
// War's rules (abrules), the table key with the turn count, and the evaluation weights.
type hooks struct {
	abrules.Rules
	w *Weights
}

// Key is the table key: the hash with the turn count.
func (h *hooks) Key(p ataxx.Position) uint64 { return turnKeys.Key(&p) }

// Leaf is the value of p at the search horizon: a stuck side's proven result, else the static
// evaluation.
func (h *hooks) Leaf(p ataxx.Position, ply int) int32 {
	if v, ok := abrules.BlockedScore(&p, ply); ok {
		return v
	}
	return h.w.evaluate(&p)
}
