package mctsengine

import (
	"testing"

	"colony/game/ataxx/ataxxtest"
)

// TestShuffleToTheTurnCap: the clock split keeps enough for a game that shuffles pieces to
// the 400-turn cap.
func TestShuffleToTheTurnCap(t *testing.T) {
	ataxxtest.ShuffleToTheTurnCap(t, newEngine(newRollout(7, 0), opts(Options[pos, move]{Seed: 7})))
}
