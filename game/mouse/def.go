package mouse

import (
	"fmt"

	"colony/contract"
)

// Def returns Catch The Mouse's contract with everything that the game package itself knows:
// facts, notation, symmetries, clock hints and the judge notation. The registration adds the
// engines (greedy, alphabeta), which live in their own packages.
//
// The game has no turn cap (CapLeft nil): the mice must step every turn and only forward, so
// a game lasts at most 66 mouse moves. Nadori's team passes when it has no move at all
// (-1 -1 -1 -1); the mice never pass (no move loses). The judge notation has no Playable:
// a position is over by its board alone (no turn count can run ahead of the judge's).
func Def() *contract.Def[Position, Move] {
	return &contract.Def[Position, Move]{
		Info:       Info,
		Start:      Start,
		Parse:      parseValid,
		Symmetries: Symmetries{},
		MovesLeft:  Position.MovesLeft,
		Heuristic:  Position.Heuristic,
		Outcome:    Position.Outcome,
		Picture:    Position.Picture,
		Perft:      Perft,
		Judge: &contract.Judge[Position, Move]{
			Move: func(p Position, c contract.Coords) (Move, error) { return p.JudgeMove(c[0], c[1], c[2], c[3]) },
			Coords: func(_ Position, m Move) contract.Coords {
				r1, c1, r2, c2 := JudgeCoords(m)
				return contract.Coords{r1, c1, r2, c2}
			},
			WithToMove: Position.WithToMove,
			Force:      func(p Position, c contract.Coords) (Position, bool) { return p.Force(c[0], c[1], c[2], c[3]) },
			Pass:       Position.ForcePass,
		},
	}
}

// parseValid reads a board (ParseBoard) and refuses positions that cannot occur.
func parseValid(s string) (Position, error) {
	p, err := ParseBoard(s)
	if err != nil {
		return p, err
	}
	if !p.Valid() {
		return p, fmt.Errorf("mouse: %q is not a valid position (at most 4 cats, one Nadori, one mouse per column)", s)
	}
	return p, nil
}

// Picture draws p for the replay viewer: mice 'R' (player 0), cats 'C' and Nadori 'N'
// (player 1).
func (p Position) Picture() contract.Picture {
	return contract.GridPicture(Rows, Cols, NumPlayers, p.ToMove(), p.Terminal(), func(r, c int) (byte, int) {
		switch pc := p.At(r, c); pc {
		case MousePiece:
			return 'R', Mice
		case CatPiece, NadoriPiece:
			return pieceChars[pc], Team
		}
		return '.', -1
	})
}
