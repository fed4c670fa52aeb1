package slime

import (
	"fmt"
	"sort"
	"strings"
)

// A deliberately simple second implementation of the rules (docs/rules.md §3), written from
// the rules alone on a grid of bytes with plain loops, to cross-check the bitboard engine.

type naiveBoard struct {
	n     int
	cell  [MaxSize][MaxSize]byte // '.', '1'..'4'
	side  int                    // 0..3
	turns int
}

type naiveMove struct {
	r1, c1, r2, c2 int
	pass           bool
}

func (m naiveMove) String() string {
	if m.pass {
		return "pass"
	}
	return fmt.Sprintf("%d %d %d %d", m.r1, m.c1, m.r2, m.c2)
}

func naiveFrom(p Position) naiveBoard {
	rows := strings.Split(p.String(), ",")
	b := naiveBoard{n: len(rows) - 1, side: int(rows[0][0] - '1'), turns: p.Turns()}
	for r, row := range rows[1:] {
		for c := range row {
			b.cell[r][c] = row[c]
		}
	}
	return b
}

func (b naiveBoard) String() string {
	var s strings.Builder
	s.WriteByte(byte('1' + b.side))
	for r := 0; r < b.n; r++ {
		s.WriteByte(',')
		for c := 0; c < b.n; c++ {
			s.WriteByte(b.cell[r][c])
		}
	}
	return s.String()
}

func (b naiveBoard) on(r, c int) bool { return r >= 0 && r < b.n && c >= 0 && c < b.n }

func dist(r1, c1, r2, c2 int) int {
	dr, dc := r1-r2, c1-c2
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	if dr > dc {
		return dr
	}
	return dc
}

func (b naiveBoard) over() bool {
	if b.turns >= MaxTurns {
		return true
	}
	for r := 0; r < b.n; r++ {
		for c := 0; c < b.n; c++ {
			if b.cell[r][c] == '.' {
				return false
			}
		}
	}
	return true
}

// moves lists the moves: one spread per empty target next to the mover's slime (from the
// first own neighbour in reading order: every source gives the same result), every merge and
// jump, and a pass when there is no spread and no jump.
func (b naiveBoard) moves() []naiveMove {
	if b.over() {
		return nil
	}
	me := byte('1' + b.side)
	var out []naiveMove
	grow := false
	// Spreads, by target.
	for r := 0; r < b.n; r++ {
		for c := 0; c < b.n; c++ {
			if b.cell[r][c] != '.' {
				continue
			}
			found := false
			for r1 := r - 1; r1 <= r+1 && !found; r1++ {
				for c1 := c - 1; c1 <= c+1 && !found; c1++ {
					if b.on(r1, c1) && b.cell[r1][c1] == me {
						out = append(out, naiveMove{r1: r1, c1: c1, r2: r, c2: c})
						found = true
						grow = true
					}
				}
			}
		}
	}
	// Merges and jumps, by source and target.
	for r1 := 0; r1 < b.n; r1++ {
		for c1 := 0; c1 < b.n; c1++ {
			if b.cell[r1][c1] != me {
				continue
			}
			for r2 := 0; r2 < b.n; r2++ {
				for c2 := 0; c2 < b.n; c2++ {
					d := dist(r1, c1, r2, c2)
					if d == 1 && b.cell[r2][c2] == me {
						out = append(out, naiveMove{r1: r1, c1: c1, r2: r2, c2: c2})
					}
					if d == 2 && b.cell[r2][c2] == '.' {
						out = append(out, naiveMove{r1: r1, c1: c1, r2: r2, c2: c2})
						grow = true
					}
				}
			}
		}
	}
	if !grow {
		out = append(out, naiveMove{pass: true})
	}
	return out
}

func (b naiveBoard) apply(m naiveMove) naiveBoard {
	me := byte('1' + b.side)
	if !m.pass {
		d := dist(m.r1, m.c1, m.r2, m.c2)
		if b.cell[m.r2][m.c2] == me {
			// Merge: every empty neighbour of the target becomes ours, then the source empties.
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					r, c := m.r2+dr, m.c2+dc
					if b.on(r, c) && b.cell[r][c] == '.' {
						b.cell[r][c] = me
					}
				}
			}
			b.cell[m.r1][m.c1] = '.'
		} else {
			// Spread or jump: a new slime on the target, enemies around it convert.
			b.cell[m.r2][m.c2] = me
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					r, c := m.r2+dr, m.c2+dc
					if b.on(r, c) && b.cell[r][c] != '.' {
						b.cell[r][c] = me
					}
				}
			}
			if d == 2 {
				b.cell[m.r1][m.c1] = '.'
			}
		}
	}
	b.side = (b.side + 1) % 4
	b.turns++
	return b
}

func (b naiveBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.moves() {
		n += b.apply(m).perft(depth - 1)
	}
	return n
}

func naiveMoveStrings(b naiveBoard) []string {
	var s []string
	for _, m := range b.moves() {
		s = append(s, m.String())
	}
	sort.Strings(s)
	return s
}

func engineMoveStrings(p Position) []string {
	var s []string
	for _, m := range p.LegalMoves(nil) {
		if m == Pass {
			s = append(s, "pass")
		} else {
			s = append(s, m.String())
		}
	}
	sort.Strings(s)
	return s
}
