package ataxx

import (
	"fmt"
	"strconv"
	"strings"

	"colony/contract"
)

// ParseBoard reads the testdata notation "rows/.../rows side": seven rows of seven cells from
// top to bottom separated by '/', cells 'O', 'X' or '.', then the side to move ('O' or 'X').
// An optional third field gives the turns already played (default 0).
func ParseBoard(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 3 {
		return Position{}, fmt.Errorf("ataxx: board %q: want \"rows side [turns]\"", s)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != Size {
		return Position{}, fmt.Errorf("ataxx: board %q: %d rows, want %d", s, len(rows), Size)
	}
	var o, x uint64
	for r, row := range rows {
		if len(row) != Size {
			return Position{}, fmt.Errorf("ataxx: board %q: row %d has %d cells, want %d", s, r+1, len(row), Size)
		}
		for c := range Size {
			bit := uint64(1) << (r*Size + c)
			switch row[c] {
			case 'O', 'o':
				o |= bit
			case 'X', 'x':
				x |= bit
			case '.', '-':
			default:
				return Position{}, fmt.Errorf("ataxx: board %q: bad cell %q at row %d col %d", s, row[c], r+1, c+1)
			}
		}
	}
	side := contract.SideOf(f[1], Info.PlayerNames)
	if side < 0 {
		return Position{}, fmt.Errorf("ataxx: board %q: side %q, want O or X", s, f[1])
	}
	turns := 0
	if len(f) == 3 {
		t, err := strconv.Atoi(f[2])
		if err != nil || t < 0 || t > MaxTurns {
			return Position{}, fmt.Errorf("ataxx: board %q: bad turn count %q", s, f[2])
		}
		turns = t
	}
	return NewPosition(o, x, side, turns), nil
}

// String formats p in the notation of ParseBoard (the turn count is written when non-zero).
func (p Position) String() string {
	var b strings.Builder
	p.writeRows(&b, "/")
	b.WriteByte(' ')
	b.WriteByte("OX"[p.side])
	if p.turn != 0 {
		fmt.Fprintf(&b, " %d", p.turn)
	}
	return b.String()
}

// Diagram returns the board as seven lines of seven cells, for humans and test failures.
func (p Position) Diagram() string {
	var b strings.Builder
	p.writeRows(&b, "\n")
	fmt.Fprintf(&b, "\n%c to move, turn %d, O %d X %d\n", "OX"[p.side], p.turn, p.Count(O), p.Count(X))
	return b.String()
}

func (p Position) writeRows(b *strings.Builder, sep string) {
	for r := range Size {
		if r > 0 {
			b.WriteString(sep)
		}
		for c := range Size {
			bit := uint64(1) << (r*Size + c)
			switch {
			case p.bb[O]&bit != 0:
				b.WriteByte('O')
			case p.bb[X]&bit != 0:
				b.WriteByte('X')
			default:
				b.WriteByte('.')
			}
		}
	}
}

// ParseDiagram reads a board drawn as seven text lines (spaces ignored) and a side to move.
// It is meant for tests: boards written as ASCII diagrams.
func ParseDiagram(diagram string, side int) (Position, error) {
	return ParseBoard(contract.DiagramRows(diagram) + " " + Info.PlayerNames[side&1])
}

// JudgeMove converts judge coordinates (1-based row, col; all -1 for a pass) into a move and
// checks that it is legal in p. A clone may name any own piece adjacent to the destination.
func (p Position) JudgeMove(r1, c1, r2, c2 int) (Move, error) {
	if r1 == -1 && c1 == -1 && r2 == -1 && c2 == -1 {
		if !p.IsLegal(Pass) {
			return NoMove, fmt.Errorf("ataxx: pass is illegal: the side to move has a move")
		}
		return Pass, nil
	}
	for _, v := range [4]int{r1, c1, r2, c2} {
		if v < 1 || v > Size {
			return NoMove, fmt.Errorf("ataxx: coordinate %d off the board in %d %d %d %d", v, r1, c1, r2, c2)
		}
	}
	from := (r1-1)*Size + c1 - 1
	to := (r2-1)*Size + c2 - 1
	if p.bb[p.side]&(1<<from) == 0 {
		return NoMove, fmt.Errorf("ataxx: (%d,%d) does not hold a piece of the side to move", r1, c1)
	}
	var m Move
	switch max(abs(r1-r2), abs(c1-c2)) {
	case 1:
		m = CloneMove(to)
	case 2:
		m = JumpMove(from, to)
	default:
		return NoMove, fmt.Errorf("ataxx: (%d,%d)->(%d,%d) is not at distance 1 or 2", r1, c1, r2, c2)
	}
	if !p.IsLegal(m) {
		return NoMove, fmt.Errorf("ataxx: move %d %d %d %d is illegal", r1, c1, r2, c2)
	}
	return m, nil
}

// JudgeCoords returns the judge coordinates of m in p: (-1,-1,-1,-1) for a pass; for a clone,
// the lowest-numbered own piece adjacent to the destination is named as the source.
func (p Position) JudgeCoords(m Move) (r1, c1, r2, c2 int) {
	if m >= NoMove {
		return -1, -1, -1, -1
	}
	to, from := m.To(), m.From()
	if from == to {
		src := adj1[to] & p.bb[p.side]
		if src != 0 {
			from = trailingZeros(src)
		}
	}
	return from/Size + 1, from%Size + 1, to/Size + 1, to%Size + 1
}

// SquareName is the UAI name of sq: file a..g is the column, rank 1 is the bottom row.
func SquareName(sq int) string {
	return string([]byte{byte('a' + sq%Size), byte('1' + (Size - 1 - sq/Size))})
}

// ParseSquare reads a UAI square name.
func ParseSquare(s string) (int, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'a'+Size-1 || s[1] < '1' || s[1] > '0'+Size {
		return 0, fmt.Errorf("ataxx: bad square %q", s)
	}
	return (Size-1-int(s[1]-'1'))*Size + int(s[0]-'a'), nil
}

// UAI returns the UAI spelling of m: "b2" for a clone, "a1c3" for a jump, "0000" for a pass.
func (m Move) UAI() string {
	switch {
	case m == Pass:
		return "0000"
	case m >= NoMove:
		return "(none)"
	case m.IsClone():
		return SquareName(m.To())
	}
	return SquareName(m.From()) + SquareName(m.To())
}

// String is the UAI spelling.
func (m Move) String() string { return m.UAI() }

// ParseUAIMove reads a UAI move and checks it is legal in p. A clone written as a two-square
// move ("a1b2") is accepted too.
func (p Position) ParseUAIMove(s string) (Move, error) {
	var m Move
	switch len(s) {
	case 4:
		if s == "0000" {
			m = Pass
			break
		}
		from, err := ParseSquare(s[:2])
		if err != nil {
			return NoMove, err
		}
		to, err := ParseSquare(s[2:])
		if err != nil {
			return NoMove, err
		}
		fr, fc, tr, tc := from/Size, from%Size, to/Size, to%Size
		switch max(abs(fr-tr), abs(fc-tc)) {
		case 1:
			if p.bb[p.side]&(1<<from) == 0 {
				return NoMove, fmt.Errorf("ataxx: move %q: no own piece on %s", s, s[:2])
			}
			m = CloneMove(to)
		case 2:
			m = JumpMove(from, to)
		default:
			return NoMove, fmt.Errorf("ataxx: move %q: distance must be 1 or 2", s)
		}
	case 2:
		to, err := ParseSquare(s)
		if err != nil {
			return NoMove, err
		}
		m = CloneMove(to)
	default:
		return NoMove, fmt.Errorf("ataxx: bad move %q", s)
	}
	if !p.IsLegal(m) {
		return NoMove, fmt.Errorf("ataxx: move %q is illegal in %s", s, p)
	}
	return m, nil
}

// ParseFEN reads an Ataxx FEN such as "x5o/7/7/7/7/7/o5x x 0 1". Ranks run from 7 (our top
// row) to 1; 'x' is our first player O and 'o' our second player X; digits are empty runs.
// Blockers ('-') do not exist in Bacteria War and are refused. The half-move clock is read
// and ignored (Bacteria War has no 50-move rule); the full-move number sets the turn count.
func ParseFEN(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return Position{}, fmt.Errorf("ataxx: fen %q: want at least board and side", s)
	}
	rows := strings.Split(f[0], "/")
	if len(rows) != Size {
		return Position{}, fmt.Errorf("ataxx: fen %q: %d ranks, want %d", s, len(rows), Size)
	}
	var o, x uint64
	for r, row := range rows {
		c := 0
		for i := 0; i < len(row); i++ {
			ch := row[i]
			if ch >= '1' && ch <= '7' {
				c += int(ch - '0')
				continue
			}
			if c >= Size {
				return Position{}, fmt.Errorf("ataxx: fen %q: rank %d too long", s, Size-r)
			}
			bit := uint64(1) << (r*Size + c)
			switch ch {
			case 'x', 'X', 'b', 'B':
				o |= bit
			case 'o', 'O', 'w', 'W':
				x |= bit
			default:
				return Position{}, fmt.Errorf("ataxx: fen %q: bad character %q", s, ch)
			}
			c++
		}
		if c != Size {
			return Position{}, fmt.Errorf("ataxx: fen %q: rank %d has %d cells", s, Size-r, c)
		}
	}
	side := O
	switch f[1] {
	case "x", "X", "b", "B":
	case "o", "O", "w", "W":
		side = X
	default:
		return Position{}, fmt.Errorf("ataxx: fen %q: bad side %q", s, f[1])
	}
	turns := 0
	if len(f) >= 4 {
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 {
			return Position{}, fmt.Errorf("ataxx: fen %q: bad move number %q", s, f[3])
		}
		turns = min(2*(n-1)+side, MaxTurns)
	}
	return NewPosition(o, x, side, turns), nil
}

// FEN formats p as an Ataxx FEN (our O is 'x').
func (p Position) FEN() string {
	var b strings.Builder
	for r := range Size {
		if r > 0 {
			b.WriteByte('/')
		}
		run := 0
		for c := range Size {
			bit := uint64(1) << (r*Size + c)
			ch := byte(0)
			switch {
			case p.bb[O]&bit != 0:
				ch = 'x'
			case p.bb[X]&bit != 0:
				ch = 'o'
			}
			if ch == 0 {
				run++
				continue
			}
			if run > 0 {
				b.WriteByte(byte('0' + run))
				run = 0
			}
			b.WriteByte(ch)
		}
		if run > 0 {
			b.WriteByte(byte('0' + run))
		}
	}
	fmt.Fprintf(&b, " %c 0 %d", "xo"[p.side], int(p.turn)/2+1)
	return b.String()
}
