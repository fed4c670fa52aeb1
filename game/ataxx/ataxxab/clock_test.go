package ataxxab

import (
	"testing"

	"colony/game/ataxx/ataxxtest"
)

// TestShuffleToTheTurnCap: the clock split keeps enough for a game that shuffles pieces to
// the 400-turn cap.
func TestShuffleToTheTurnCap(t *testing.T) {
	ataxxtest.ShuffleToTheTurnCap(t, NewWithOptions(Options{HashMB: 1}))
}
