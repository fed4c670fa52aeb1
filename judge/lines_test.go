package judge

import (
	"testing"

	"colony/contract"
)

func TestParseMove(t *testing.T) {
	for line, want := range map[string]contract.Coords{
		"MOVE 1 2 3 4":       {1, 2, 3, 4},
		"MOVE -1 -1 -1 -1":   contract.PassCoords,
		"  MOVE 7 7 6 6   ":  {7, 7, 6, 6},
		"MOVE\t1 1\t2 2":     {1, 1, 2, 2},
		"MOVE 100 0 -5 3000": {100, 0, -5, 3000}, // well-formed; legality is the game's
	} {
		if got, err := ParseMove(line); err != nil || got != want {
			t.Errorf("ParseMove(%q) = %v, %v", line, got, err)
		}
	}
	for _, line := range []string{"", "MOVE", "MOVE 1 2 3", "MOVE 1 2 3 4 5", "move 1 2 3 4", "MOVE a b c d", "OK", "MOVE 1.0 2 3 4"} {
		if _, err := ParseMove(line); err == nil {
			t.Errorf("ParseMove(%q) accepted", line)
		}
	}
}
