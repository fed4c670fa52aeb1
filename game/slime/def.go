package slime

import (
	"errors"
	"fmt"

	"colony/contract"
)

// Def returns Slime's contract with everything that the game package itself knows: facts,
// notation, symmetries, clock hints and the referee's coordinates. The registration adds the
// engines (package bots) and the King-of-the-Hill program's protocol (package koth).
func Def() *contract.Def[Position, Move] {
	return &contract.Def[Position, Move]{
		Info:       Info,
		Start:      Start,
		Parse:      parseValid,
		Symmetries: Symmetries{},
		MovesLeft:  Position.MovesLeft,
		CapLeft:    Position.OwnTurnsLeft,
		Heuristic:  Position.Shares,
		Outcome:    Position.Outcome,
		Picture:    Position.Picture,
		Perft:      Perft,
		Phase:      Position.EmptyCount,
		// The referee's view (contract.State.Play) reads 1-based coordinates: the controller's
		// numbers plus one; all -1 is a pass, which the referee accepts at any time, as the
		// controller does.
		Judge: &contract.Judge[Position, Move]{
			Move: func(p Position, c contract.Coords) (Move, error) {
				if c == contract.PassCoords {
					return Pass, nil
				}
				m, ok := p.MoveOf(c[0]-1, c[1]-1, c[2]-1, c[3]-1)
				if !ok {
					return Pass, errors.New("slime: not a spread, jump or merge of the player to move")
				}
				return m, nil
			},
			Coords: func(_ Position, m Move) contract.Coords {
				if m == Pass {
					return contract.PassCoords
				}
				r1, c1, r2, c2 := m.Coords()
				return contract.Coords{r1 + 1, c1 + 1, r2 + 1, c2 + 1}
			},
		},
	}
}

// parseValid reads a position (Parse) and refuses one that cannot occur.
func parseValid(s string) (Position, error) {
	p, err := Parse(s)
	if err == nil && !p.Valid() {
		err = fmt.Errorf("slime: %q is not a valid position", s)
	}
	return p, err
}

// Outcome describes a position for humans, e.g. "board full, 1:30 2:10 3:12 4:12".
func (p Position) Outcome() string {
	why := "in progress"
	switch {
	case p.EmptyCount() == 0:
		why = "board full"
	case p.Turns() >= MaxTurns:
		why = fmt.Sprintf("%d-turn cap", MaxTurns)
	}
	s := p.Scores()
	return fmt.Sprintf("%s, 1:%d 2:%d 3:%d 4:%d", why, s[0], s[1], s[2], s[3])
}

// Picture draws p for the replay viewer: cells '1'..'4' held by players 0..3.
func (p Position) Picture() contract.Picture {
	n := p.Size()
	return contract.GridPicture(n, n, NumPlayers, p.ToMove(), p.Terminal(), func(r, c int) (byte, int) {
		if pl := p.At(r, c); pl >= 0 {
			return byte('1' + pl), pl
		}
		return '.', -1
	})
}
