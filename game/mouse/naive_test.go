package mouse

// A deliberately simple second implementation of the rules (docs/rules.md §2), written from
// the rules alone on a [7][11]byte grid with plain loops, to cross-check the bitboard
// generator: same move sets on random positions, same perft counts.

import (
	"fmt"
	"sort"
	"strings"
)

type naiveBoard struct {
	g    [Rows][Cols]byte // '.', 'R', 'C', 'N'
	side byte             // 'R' or 'N'
}

// naiveMove is a move in 0-based (row, col) pairs; a pass is all -1.
type naiveMove struct{ r1, c1, r2, c2 int }

var naivePass = naiveMove{-1, -1, -1, -1}

func naiveParse(s string) naiveBoard {
	f := strings.Fields(s)
	rows := strings.Split(f[0], "/")
	var b naiveBoard
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			b.g[r][c] = rows[r][c]
		}
	}
	b.side = f[1][0]
	return b
}

func (b naiveBoard) String() string {
	var rows []string
	for r := 0; r < Rows; r++ {
		rows = append(rows, string(b.g[r][:]))
	}
	return strings.Join(rows, "/") + " " + string(b.side)
}

func (b naiveBoard) count(piece byte) int {
	n := 0
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			if b.g[r][c] == piece {
				n++
			}
		}
	}
	return n
}

func (b naiveBoard) mouseMoves() []naiveMove {
	var out []naiveMove
	for r := 0; r < Rows-1; r++ {
		for c := 0; c < Cols; c++ {
			if b.g[r][c] == 'R' && b.g[r+1][c] == '.' {
				out = append(out, naiveMove{r, c, r + 1, c})
			}
		}
	}
	return out
}

// naiveOver reports whether the game is over and who won ('R' or 'N').
func (b naiveBoard) over() (bool, byte) {
	for c := 0; c < Cols; c++ {
		if b.g[Rows-1][c] == 'R' {
			return true, 'R'
		}
	}
	if b.count('R') == 0 {
		return true, 'N'
	}
	if b.side == 'R' && len(b.mouseMoves()) == 0 {
		return true, 'N'
	}
	return false, 0
}

// inCatRows: cats and Nadori stay in rows 2..6 (0-based 1..5).
func inCatRows(r, c int) bool { return r >= 1 && r <= 5 && c >= 0 && c < Cols }

func (b naiveBoard) moves() []naiveMove {
	if over, _ := b.over(); over {
		return nil
	}
	if b.side == 'R' {
		return b.mouseMoves()
	}
	var out []naiveMove
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			switch b.g[r][c] {
			case 'C':
				for dr := -1; dr <= 1; dr++ {
					for dc := -1; dc <= 1; dc++ {
						if dr == 0 && dc == 0 {
							continue
						}
						for k := 1; ; k++ {
							r2, c2 := r+k*dr, c+k*dc
							if !inCatRows(r2, c2) || b.g[r2][c2] != '.' {
								break
							}
							out = append(out, naiveMove{r, c, r2, c2})
						}
					}
				}
			case 'N':
				for dr := -1; dr <= 1; dr++ {
					for dc := -1; dc <= 1; dc++ {
						r2, c2 := r+dr, c+dc
						if (dr != 0 || dc != 0) && inCatRows(r2, c2) && (b.g[r2][c2] == '.' || b.g[r2][c2] == 'R') {
							out = append(out, naiveMove{r, c, r2, c2})
						}
					}
				}
			}
		}
	}
	if len(out) == 0 {
		out = append(out, naivePass)
	}
	return out
}

func (b naiveBoard) apply(m naiveMove) naiveBoard {
	if m != naivePass {
		b.g[m.r2][m.c2] = b.g[m.r1][m.c1]
		b.g[m.r1][m.c1] = '.'
	}
	if b.side == 'R' {
		b.side = 'N'
	} else {
		b.side = 'R'
	}
	return b
}

func naivePerft(b naiveBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.moves() {
		n += naivePerft(b.apply(m), depth-1)
	}
	return n
}

// naiveMoveSet spells the move set of b sorted, in judge coordinates.
func naiveMoveSet(b naiveBoard) string {
	var s []string
	for _, m := range b.moves() {
		if m == naivePass {
			s = append(s, "-1 -1 -1 -1")
			continue
		}
		s = append(s, fmt.Sprintf("%d %d %d %d", m.r1+1, m.c1+1, m.r2+1, m.c2+1))
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// fastMoveSet spells the move set of p like naiveMoveSet.
func fastMoveSet(p Position) string {
	var s []string
	for _, m := range p.LegalMoves(nil) {
		r1, c1, r2, c2 := JudgeCoords(m)
		s = append(s, fmt.Sprintf("%d %d %d %d", r1, c1, r2, c2))
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}
