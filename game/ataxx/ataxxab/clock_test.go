package ataxxab

import (
	"testing"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx/ataxxtest"
)

// TestShuffleToTheTurnCap: the clock split keeps enough for a game that shuffles pieces to
// the 400-turn cap.
func TestShuffleToTheTurnCap(t *testing.T) {
	ataxxtest.ShuffleToTheTurnCap(t, NewWithOptions(Options{Options: ab.Options{HashMB: 1}}))
}
