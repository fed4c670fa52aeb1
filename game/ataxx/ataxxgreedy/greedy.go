// Package ataxxgreedy is a one-ply Bacteria War engine: it plays the move after which it owns the
// most pieces. It is the baseline every search must beat.
package ataxxgreedy

import (
	"colony/engine"
	"colony/game/ataxx"
)

// Engine plays the move that leaves the most own pieces (Gain): a division adds one piece plus
// its captures, a leap adds only its captures. Ties are broken uniformly at random.
type Engine = engine.OnePly[ataxx.Position, ataxx.Move]

var _ engine.Engine[ataxx.Position, ataxx.Move] = (*Engine)(nil)

// New returns a greedy engine whose tie-breaks are determined by seed. It plays ataxx.Pass when
// the side to move is stuck or the game is over.
func New(seed uint64) *Engine {
	return engine.NewOnePly("greedy", seed, ataxx.MaxMoves, ataxx.Pass, Gain)
}

// Gain returns how many pieces the side to move gains with m in pos: 1 + captures for a
// division, the captures for a leap, 0 for a pass.
func Gain(pos ataxx.Position, m ataxx.Move) int {
	switch {
	case m.IsClone():
		return 1 + pos.Captures(m)
	case m.IsJump():
		return pos.Captures(m)
	}
	return 0
}
