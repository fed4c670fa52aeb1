package slime

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a position in the controller's argv notation "P,row0,row1,...": P is the player
// to move (1..4), then the rows from top to bottom, each of n cells '.', '1', '2', '3' or '4',
// with n rows (MinSize <= n <= MaxSize). The controller sends no turn count: the position
// gets turn 0, unless the notation ends with a space and the number of turns played (Colony's
// own extension for records and tests, which the controller never sends).
func Parse(s string) (Position, error) {
	s = strings.TrimSpace(s)
	turns := 0
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		t, err := strconv.Atoi(strings.TrimSpace(s[i+1:]))
		if err != nil || t < 0 || t > MaxTurns {
			return Position{}, fmt.Errorf("slime: %q: bad turn count after the board", s)
		}
		turns, s = t, s[:i]
	}
	f := strings.Split(s, ",")
	if len(f) < 1+MinSize || len(f) > 1+MaxSize {
		return Position{}, fmt.Errorf("slime: %q: want \"P,row0,row1,...\" with %d to %d rows", s, MinSize, MaxSize)
	}
	if len(f[0]) != 1 || f[0][0] < '1' || f[0][0] > '4' {
		return Position{}, fmt.Errorf("slime: %q: the player to move is %q, want 1..4", s, f[0])
	}
	side := int(f[0][0] - '1')
	rows := f[1:]
	n := len(rows)
	var bb [NumPlayers]Bitboard
	for r, row := range rows {
		if len(row) != n {
			return Position{}, fmt.Errorf("slime: %q: row %d has %d cells, want %d (a square board)", s, r, len(row), n)
		}
		for c := range n {
			switch ch := row[c]; {
			case ch == '.':
			case ch >= '1' && ch <= '4':
				setBit(&bb[ch-'1'], r*n+c)
			default:
				return Position{}, fmt.Errorf("slime: %q: bad cell %q at row %d col %d", s, ch, r, c)
			}
		}
	}
	return NewPosition(n, bb, side, turns), nil
}

// String formats p in the controller's argv notation (Parse): "P,row0,row1,...", exactly the
// argument the controller gives a program; the turn count is not written.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(2 + int(p.n)*(int(p.n)+1))
	b.WriteByte('1' + p.side)
	b.WriteByte(',')
	p.writeRows(&b, ",")
	return b.String()
}

// Record is String followed by a space and the turn count when it is not 0 (Parse reads it).
func (p Position) Record() string {
	if p.turn == 0 {
		return p.String()
	}
	return fmt.Sprintf("%s %d", p.String(), p.turn)
}

// Diagram returns the board as n lines of n cells, then a line with the player to move, the
// turn and the cells held, for humans and test failures.
func (p Position) Diagram() string {
	var b strings.Builder
	p.writeRows(&b, "\n")
	s := p.Scores()
	fmt.Fprintf(&b, "\n%d to move, turn %d, cells 1:%d 2:%d 3:%d 4:%d\n", p.side+1, p.turn, s[0], s[1], s[2], s[3])
	return b.String()
}

func (p Position) writeRows(b *strings.Builder, sep string) {
	n := int(p.n)
	for r := range n {
		if r > 0 {
			b.WriteString(sep)
		}
		for c := range n {
			switch pl := p.At(r, c); pl {
			case -1:
				b.WriteByte('.')
			default:
				b.WriteByte(byte('1' + pl))
			}
		}
	}
}

// ParseDiagram reads a board drawn as text lines (blank lines and spaces ignored) with the
// player to move (0..3): boards written as ASCII diagrams in tests.
func ParseDiagram(diagram string, side int) (Position, error) {
	var rows []string
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if line != "" {
			rows = append(rows, line)
		}
	}
	return Parse(fmt.Sprintf("%d,%s", side+1, strings.Join(rows, ",")))
}

// String spells m as the controller reads it: "r1 c1 r2 c2" (0-based rows and columns of
// the source and the target); Pass is "0 0 0 0".
func (m Move) String() string {
	r1, c1, r2, c2 := m.Coords()
	return fmt.Sprintf("%d %d %d %d", r1, c1, r2, c2)
}

// ParseMove reads four 0-based numbers "r1 c1 r2 c2" as a move of p (MoveOf); "0 0 0 0" and
// any other numbers that are no move of p are an error, except that "0 0 0 0" reads as Pass
// when p offers it.
func (p Position) ParseMove(s string) (Move, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return Pass, fmt.Errorf("slime: move %q: want four numbers", s)
	}
	var v [4]int
	for i, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil {
			return Pass, fmt.Errorf("slime: move %q: %v", s, err)
		}
		v[i] = n
	}
	if m, ok := p.MoveOf(v[0], v[1], v[2], v[3]); ok {
		return m, nil
	}
	if v == [4]int{} && p.IsLegal(Pass) {
		return Pass, nil
	}
	return Pass, fmt.Errorf("slime: %q is not a move of player %d in %s", s, p.side+1, p)
}
