package ataxx

import (
	"fmt"

	"colony/contract"
)

// Def returns Bacteria War's contract with everything that the game package itself knows:
// facts, notation, symmetries, clock hints and the judge notation. The registration adds the
// engines (alphabeta, greedy) and the UAI protocol, which live in their own packages.
func Def() *contract.Def[Position, Move] {
	return &contract.Def[Position, Move]{
		Info:       Info,
		Start:      Start,
		Parse:      parseValid,
		Symmetries: Symmetries{},
		MovesLeft:  Position.MovesLeft,
		CapLeft:    Position.OwnTurnsLeft,
		Heuristic:  Position.Material,
		Outcome:    Position.Outcome,
		Picture:    Position.Picture,
		Perft:      Perft,
		Phase:      Position.EmptyCount,
		Judge: &contract.Judge[Position, Move]{
			Move: func(p Position, c contract.Coords) (Move, error) { return p.JudgeMove(c[0], c[1], c[2], c[3]) },
			Coords: func(p Position, m Move) contract.Coords {
				r1, c1, r2, c2 := p.JudgeCoords(m)
				return contract.Coords{r1, c1, r2, c2}
			},
			WithToMove: func(p Position, pl int) Position { return NewPosition(p.bb[O], p.bb[X], pl, p.Turns()) },
			Force:      Position.Force,
			Pass:       Position.ForcePass,
			Playable:   Position.Playable,
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
		return p, fmt.Errorf("ataxx: %q is not a valid position", s)
	}
	return p, nil
}

// Outcome describes a finished game for humans, e.g. "board full, O 30 X 19".
func (p Position) Outcome() string {
	o, x := p.Count(O), p.Count(X)
	why := "in progress"
	switch {
	case o == 0 || x == 0:
		why = "a side has no pieces"
	case p.Empty() == 0:
		why = "board full"
	case p.Turns() >= MaxTurns:
		why = fmt.Sprintf("%d-turn cap", MaxTurns)
	}
	return fmt.Sprintf("%s, O %d X %d", why, o, x)
}

// Playable returns the position to move in when an agent is asked for a move in p: p itself
// when the game goes on; when p is over only by the turn cap (the tracked turn count is wrong:
// the other side still plays), p one turn before the cap. A position with a player without
// pieces, or a full board, is returned as is: it has no move but a pass.
func (p Position) Playable() Position {
	if !p.Terminal() || p.Turns() < MaxTurns {
		return p
	}
	return NewPosition(p.bb[O], p.bb[X], p.ToMove(), MaxTurns-1)
}

// ForcePass gives the turn to the other side without touching the pieces.
func (p Position) ForcePass() Position {
	return NewPosition(p.bb[O], p.bb[X], p.ToMove()^1, min(p.Turns()+1, MaxTurns))
}

// Force plays the judge move c (x1 y1 x2 y2) for the side to move whatever the rules say: its
// piece lands on the destination, a leap empties the source, the destination's neighbours are
// infected. It fails when the coordinates are off the board or not at distance 1 or 2.
func (p Position) Force(c contract.Coords) (Position, bool) {
	r1, c1, r2, c2 := c[0], c[1], c[2], c[3]
	for _, v := range c {
		if v < 1 || v > Size {
			return p, false
		}
	}
	d := max(abs(r1-r2), abs(c1-c2))
	if d != 1 && d != 2 {
		return p, false
	}
	from := uint64(1) << ((r1-1)*Size + c1 - 1)
	toSq := (r2-1)*Size + c2 - 1
	to := uint64(1) << toSq
	me := p.ToMove()
	own, other := p.bb[me], p.bb[me^1]
	if d == 2 {
		own &^= from
		other &^= from
	}
	own |= to
	other &^= to
	flips := adj1[toSq] & other
	own |= flips
	other &^= flips
	o, x := own, other
	if me == X {
		o, x = other, own
	}
	return NewPosition(o, x, me^1, min(p.Turns()+1, MaxTurns)), true
}

// Picture draws p for the replay viewer: 'O' and 'X' pieces, owned by player 0 and 1.
func (p Position) Picture() contract.Picture {
	return contract.GridPicture(Size, Size, NumPlayers, p.ToMove(), p.Terminal(), func(r, c int) (byte, int) {
		bit := uint64(1) << (r*Size + c)
		switch {
		case p.bb[O]&bit != 0:
			return 'O', O
		case p.bb[X]&bit != 0:
			return 'X', X
		}
		return '.', -1
	})
}
