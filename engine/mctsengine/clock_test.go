package mctsengine

import (
	"testing"

	"colony/engine/enginetest"
)

// TestShuffleToTheTurnCap: the clock split keeps enough for a game that shuffles pieces to
// the 400-turn cap.
func TestShuffleToTheTurnCap(t *testing.T) {
	enginetest.ShuffleToTheTurnCap(t, New(NewRollout(7, 0), Options{Seed: 7}))
}
