// Package arena is Colony's referee: it plays matches between two judge-protocol agents
// (RULES.md, "Judge protocol") as separate processes, enforces the whole-game clock, the
// READY limit and a memory cap, and keeps score.
//
// The referee only talks to a game through Rules and State, so the other ALPHANO game
// (Catch The Mouse) can reuse it by adding one adapter; Bacteria War is implemented.
package arena

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// Coords is a move in judge coordinates: x1 y1 x2 y2, 1-based (row, col); all -1 for a pass.
type Coords [4]int

// PassCoords is the judge's spelling of a pass.
var PassCoords = Coords{-1, -1, -1, -1}

// String formats c as the four numbers of a MOVE or OPP line.
func (c Coords) String() string { return fmt.Sprintf("%d %d %d %d", c[0], c[1], c[2], c[3]) }

// State is a game position as the referee sees it. Players are 0 (FIRST) and 1 (SECOND).
type State interface {
	// ToMove is the player to move.
	ToMove() int
	// Terminal reports whether the game is over.
	Terminal() bool
	// Winner is the winning player of a terminal state, or -1 for a draw.
	Winner() int
	// Play checks that c is legal for the player to move and returns the next state; an
	// error is an illegal move (the RE verdict).
	Play(c Coords) (State, error)
	// RandomMove returns a uniformly random legal move of a non-terminal state (openings).
	RandomMove(r *rand.Rand) Coords
	// String is the position in the game's board notation (the POSITION extension line).
	String() string
	// Outcome describes a terminal state for humans, e.g. "board full, O 30 X 19".
	Outcome() string
}

// Rules names a game and gives its start position.
type Rules interface {
	Name() string
	Start() State
	// PlayerNames are the short names of the two players ("O", "X").
	PlayerNames() [2]string
}

var games = map[string]Rules{}

func register(r Rules) { games[r.Name()] = r }

// knownGames are the judge-protocol games the referee is meant for; those not registered
// yet give "not implemented yet".
var knownGames = []string{"bacteria-war", "catch-the-mouse"}

// Lookup returns the rules of the named game.
func Lookup(name string) (Rules, error) {
	if r, ok := games[name]; ok {
		return r, nil
	}
	for _, k := range knownGames {
		if k == name {
			return nil, fmt.Errorf("arena: game %q: not implemented yet", name)
		}
	}
	var names []string
	for n := range games {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("arena: unknown game %q (implemented: %v)", name, names)
}
