package mouse

import (
	"fmt"
	"math/bits"
	"strings"

	"colony/contract"
)

// Piece is what a cell holds.
type Piece uint8

// The cell contents.
const (
	Empty Piece = iota
	MousePiece
	CatPiece
	NadoriPiece
)

// pieceChars spells the pieces in the board notation.
const pieceChars = ".RCN"

// At returns the content of cell (row, col), both 0-based.
func (p Position) At(row, col int) Piece {
	switch {
	case row == 0:
		if p.top>>col&1 != 0 {
			return MousePiece
		}
	case row == Rows-1:
		if p.bot>>col&1 != 0 {
			return MousePiece
		}
	default:
		i := (row-1)*Cols + col
		switch {
		case p.mice>>i&1 != 0:
			return MousePiece
		case p.cats>>i&1 != 0:
			return CatPiece
		case p.nad>>i&1 != 0:
			return NadoriPiece
		}
	}
	return Empty
}

// ParseBoard reads the testdata notation "rows side": seven rows of eleven cells from top to
// bottom separated by '/', cells '.', 'R' (mouse), 'C' (cat), 'N' (Nadori), then the side to
// move, 'R' (the mice) or 'N' (Nadori's team). Cats and Nadori on row 1 or 7 are refused;
// other impossibilities (too many pieces, two mice in a column) are left to Valid.
func ParseBoard(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return Position{}, fmt.Errorf("mouse: board %q: want \"rows side\"", s)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != Rows {
		return Position{}, fmt.Errorf("mouse: board %q: %d rows, want %d", s, len(rows), Rows)
	}
	var top, bot uint16
	var mice, cats, nad uint64
	for r, row := range rows {
		if len(row) != Cols {
			return Position{}, fmt.Errorf("mouse: board %q: row %d has %d cells, want %d", s, r+1, len(row), Cols)
		}
		for c := range Cols {
			ch := row[c]
			if ch >= 'a' && ch <= 'z' {
				ch -= 'a' - 'A'
			}
			inner := r >= 1 && r <= 5
			i := uint64(1) << max((r-1)*Cols+c, 0)
			switch {
			case ch == '.' || ch == '-':
			case ch == 'R' && r == 0:
				top |= 1 << c
			case ch == 'R' && r == Rows-1:
				bot |= 1 << c
			case ch == 'R':
				mice |= i
			case (ch == 'C' || ch == 'N') && !inner:
				return Position{}, fmt.Errorf("mouse: board %q: %c on row %d (cats and Nadori stay in rows 2..6)", s, ch, r+1)
			case ch == 'C':
				cats |= i
			case ch == 'N':
				nad |= i
			default:
				return Position{}, fmt.Errorf("mouse: board %q: bad cell %q at row %d col %d", s, row[c], r+1, c+1)
			}
		}
	}
	side := contract.SideOf(f[1], Info.PlayerNames)
	if side < 0 {
		return Position{}, fmt.Errorf("mouse: board %q: side %q, want R or N", s, f[1])
	}
	return NewPosition(top, mice, cats, nad, bot, side), nil
}

// String formats p in the notation of ParseBoard.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(NumCells + 9)
	p.writeRows(&b, "/", "")
	b.WriteByte(' ')
	b.WriteByte("RN"[p.side&1])
	return b.String()
}

// Diagram returns the board as seven lines of eleven cells (spaced), with row and column
// numbers and the side to move, for humans and test failures.
func (p Position) Diagram() string {
	var b strings.Builder
	b.WriteString("   1 2 3 4 5 6 7 8 9 0 1\n")
	for r := range Rows {
		fmt.Fprintf(&b, "%d ", r+1)
		for c := range Cols {
			b.WriteByte(' ')
			b.WriteByte(pieceChars[p.At(r, c)])
		}
		b.WriteByte('\n')
	}
	who := "mice (R)"
	if p.side == Team {
		who = "Nadori's team (N)"
	}
	fmt.Fprintf(&b, "%s to move, %d mice\n", who, p.NumMice())
	return b.String()
}

func (p Position) writeRows(b *strings.Builder, sep, cellSep string) {
	for r := range Rows {
		if r > 0 {
			b.WriteString(sep)
		}
		for c := range Cols {
			if c > 0 {
				b.WriteString(cellSep)
			}
			b.WriteByte(pieceChars[p.At(r, c)])
		}
	}
}

// ParseDiagram reads a board drawn as seven text lines of eleven cells (spaces ignored) and a
// side to move (Mice or Team). It is meant for tests: boards written as ASCII diagrams.
func ParseDiagram(diagram string, side int) (Position, error) {
	return ParseBoard(contract.DiagramRows(diagram) + " " + Info.PlayerNames[side&1])
}

// CellName is the name of cell sq: column letter a..k, then the judge's row 1..7 (row 1 at
// the top, where the mice start).
func CellName(sq int) string {
	return fmt.Sprintf("%c%d", 'a'+sq%Cols, sq/Cols+1)
}

// String spells m as its source and destination cells ("c1c2"), "0000" for a pass.
func (m Move) String() string {
	switch {
	case m == Pass:
		return "0000"
	case m >= NoMove:
		return "(none)"
	}
	return CellName(m.From()) + CellName(m.To())
}

// JudgeMove converts judge coordinates (1-based row, col; all -1 for a pass) into a move and
// checks that it is legal in p.
func (p Position) JudgeMove(r1, c1, r2, c2 int) (Move, error) {
	if r1 == -1 && c1 == -1 && r2 == -1 && c2 == -1 {
		if !p.IsLegal(Pass) {
			return NoMove, fmt.Errorf("mouse: pass is illegal: the side to move has a move")
		}
		return Pass, nil
	}
	if r1 < 1 || r1 > Rows || r2 < 1 || r2 > Rows || c1 < 1 || c1 > Cols || c2 < 1 || c2 > Cols {
		return NoMove, fmt.Errorf("mouse: move %d %d %d %d is off the board", r1, c1, r2, c2)
	}
	m := NewMove(int(p.side), (r1-1)*Cols+c1-1, (r2-1)*Cols+c2-1)
	if !p.IsLegal(m) {
		return NoMove, fmt.Errorf("mouse: move %d %d %d %d is illegal in %s", r1, c1, r2, c2, p)
	}
	return m, nil
}

// JudgeCoords returns the judge coordinates of m: 1-based (row, col) of the source and the
// destination, all -1 for a pass.
func JudgeCoords(m Move) (r1, c1, r2, c2 int) {
	if m >= NoMove {
		return -1, -1, -1, -1
	}
	from, to := m.From(), m.To()
	return from/Cols + 1, from%Cols + 1, to/Cols + 1, to%Cols + 1
}

// ParseMove reads a move in the spelling of Move.String and checks that it is legal in p.
func (p Position) ParseMove(s string) (Move, error) {
	if s == "0000" {
		if !p.IsLegal(Pass) {
			return NoMove, fmt.Errorf("mouse: pass is illegal in %s", p)
		}
		return Pass, nil
	}
	cell := func(t string) (int, bool) {
		if len(t) != 2 || t[0] < 'a' || t[0] >= 'a'+Cols || t[1] < '1' || t[1] >= '1'+Rows {
			return 0, false
		}
		return int(t[1]-'1')*Cols + int(t[0]-'a'), true
	}
	if len(s) != 4 {
		return NoMove, fmt.Errorf("mouse: bad move %q", s)
	}
	from, ok1 := cell(s[:2])
	to, ok2 := cell(s[2:])
	if !ok1 || !ok2 {
		return NoMove, fmt.Errorf("mouse: bad move %q", s)
	}
	m := NewMove(int(p.side), from, to)
	if !p.IsLegal(m) {
		return NoMove, fmt.Errorf("mouse: move %q is illegal in %s", s, p)
	}
	return m, nil
}

// WithToMove returns p with player to move, pieces kept.
func (p Position) WithToMove(player int) Position {
	return NewPosition(p.top, p.mice, p.cats, p.nad, p.bot, player&1)
}

// ForcePass gives the turn to the other side without touching the pieces.
func (p Position) ForcePass() Position { return p.WithToMove(int(p.side) ^ 1) }

// Force plays the judge move c for the side to move whatever the rules say, when it makes
// geometric sense: the source holds a piece of the side to move and the destination does not
// hold one of its own; a mouse only steps straight down (onto an empty cell), a cat or Nadori
// lands anywhere in rows 2..6 and takes a mouse it lands on. It fails otherwise.
func (p Position) Force(r1, c1, r2, c2 int) (Position, bool) {
	if r1 < 1 || r1 > Rows || r2 < 1 || r2 > Rows || c1 < 1 || c1 > Cols || c2 < 1 || c2 > Cols {
		return p, false
	}
	from, to := (r1-1)*Cols+c1-1, (r2-1)*Cols+c2-1
	if p.side == Mice {
		if to != from+Cols || p.At(r1-1, c1-1) != MousePiece || p.At(r2-1, c2-1) != Empty {
			return p, false
		}
		return p.Apply(MouseStep(from)), true
	}
	if r1 < 2 || r1 > 6 || r2 < 2 || r2 > 6 || from == to {
		return p, false
	}
	fb, tb := uint64(1)<<(from-Cols), uint64(1)<<(to-Cols)
	if (p.cats|p.nad)&fb == 0 || (p.cats|p.nad)&tb != 0 {
		return p, false
	}
	q := p
	q.mice &^= tb
	if q.cats&fb != 0 {
		q.cats ^= fb | tb
	} else {
		q.nad ^= fb | tb
	}
	return NewPosition(q.top, q.mice, q.cats, q.nad, q.bot, Mice), true
}

// Outcome describes a position for humans, e.g. "a mouse reached row 7, 6 mice left".
func (p Position) Outcome() string {
	n := p.NumMice()
	switch {
	case p.bot != 0:
		return fmt.Sprintf("a mouse reached row 7 (column %d), %d mice left: the mice win", bits.TrailingZeros16(p.bot)+1, n)
	case n == 0:
		return "every mouse was caught: Nadori's team wins"
	case p.Terminal():
		return fmt.Sprintf("the %d mice left cannot move: Nadori's team wins", n)
	}
	return fmt.Sprintf("in progress, %d mice", n)
}
