package registry_test

import (
	"errors"
	"fmt"
	"strings"

	"colony/agentdef"
	"colony/contract"
)

// Tri is a toy game of the test's own, to prove that the pipeline is generic: three players
// take turns claiming an empty cell of a 3x3 board until it is full; the player whose largest
// orthogonally connected group is biggest wins (1), the others lose (-1); a shared first
// place scores 0 for those who share it. Nothing outside this file knows it.
const triSize, triCells, triPlayers = 3, 9, 3

type triPos struct {
	owner  [triCells]int8 // -1 empty, else the player
	toMove int8
	filled int8
}

type triMove int8 // the cell claimed

func (m triMove) PolicyIndex() int { return int(m) }
func (m triMove) String() string   { return fmt.Sprintf("c%d", int(m)) }

func triStart() triPos {
	var p triPos
	for i := range p.owner {
		p.owner[i] = -1
	}
	return p
}

func (p triPos) LegalMoves(dst []triMove) []triMove {
	dst = dst[:0]
	if p.Terminal() {
		return dst
	}
	for i, o := range p.owner {
		if o < 0 {
			dst = append(dst, triMove(i))
		}
	}
	return dst
}

func (p triPos) Apply(m triMove) triPos {
	p.owner[m] = p.toMove
	p.toMove = (p.toMove + 1) % triPlayers
	p.filled++
	return p
}

func (p triPos) ToMove() int     { return int(p.toMove) }
func (p triPos) NumPlayers() int { return triPlayers }
func (p triPos) Terminal() bool  { return p.filled == triCells }

// group is the size of the largest connected group of pl.
func (p triPos) group(pl int8) int {
	best := 0
	var seen [triCells]bool
	for start := range triCells {
		if p.owner[start] != pl || seen[start] {
			continue
		}
		n, stack := 0, []int{start}
		seen[start] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			r, col := c/triSize, c%triSize
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				r2, c2 := r+d[0], col+d[1]
				if r2 < 0 || r2 >= triSize || c2 < 0 || c2 >= triSize {
					continue
				}
				if n2 := r2*triSize + c2; p.owner[n2] == pl && !seen[n2] {
					seen[n2] = true
					stack = append(stack, n2)
				}
			}
		}
		best = max(best, n)
	}
	return best
}

func (p triPos) Values() contract.Values {
	var v contract.Values
	if !p.Terminal() {
		return v
	}
	var size [triPlayers]int
	top := 0
	for pl := range triPlayers {
		size[pl] = p.group(int8(pl))
		top = max(top, size[pl])
	}
	winners := 0
	for pl := range triPlayers {
		if size[pl] == top {
			winners++
		}
	}
	for pl := range triPlayers {
		switch {
		case size[pl] < top:
			v[pl] = -1
		case winners == 1:
			v[pl] = 1
		}
	}
	return v
}

func (p triPos) Hash() uint64 {
	h := uint64(p.toMove) + 1
	for _, o := range p.owner {
		h = h*1099511628211 ^ uint64(o+2)
	}
	return h
}

// Encode: planes 0-2 are each player's cells, planes 3-5 all ones for the player to move.
func (p triPos) Encode(dst []float32) {
	clear(dst[:6*triCells])
	for i, o := range p.owner {
		if o >= 0 {
			dst[int(o)*triCells+i] = 1
		}
	}
	for i := range triCells {
		dst[(3+int(p.toMove))*triCells+i] = 1
	}
}

// String is "rows side": rows of '.', '0', '1', '2' separated by '/', then the player to move.
func (p triPos) String() string {
	var b strings.Builder
	for i, o := range p.owner {
		if i > 0 && i%triSize == 0 {
			b.WriteByte('/')
		}
		b.WriteByte(".012"[o+1])
	}
	fmt.Fprintf(&b, " %d", p.toMove)
	return b.String()
}

func parseTri(s string) (triPos, error) {
	p := triStart()
	var rows string
	var side int
	if _, err := fmt.Sscanf(s, "%s %d", &rows, &side); err != nil || side < 0 || side >= triPlayers {
		return p, fmt.Errorf("tri: bad position %q", s)
	}
	cells := strings.ReplaceAll(rows, "/", "")
	if len(cells) != triCells {
		return p, fmt.Errorf("tri: %q has %d cells", s, len(cells))
	}
	for i, c := range cells {
		switch {
		case c == '.':
		case c >= '0' && c < '0'+triPlayers:
			p.owner[i] = int8(c - '0')
			p.filled++
		default:
			return p, fmt.Errorf("tri: bad cell %q", c)
		}
	}
	p.toMove = int8(side)
	return p, nil
}

// triMirror is the left-right mirror (symmetry 1; 0 is the identity).
type triMirror struct{}

func mirrorCell(c int) int { return c/triSize*triSize + triSize - 1 - c%triSize }

func (triMirror) NumSymmetries() int { return 2 }
func (triMirror) TransformInput(k int, src, dst []float32) {
	for plane := range 6 {
		for c := range triCells {
			d := c
			if k == 1 {
				d = mirrorCell(c)
			}
			dst[plane*triCells+d] = src[plane*triCells+c]
		}
	}
}
func (triMirror) TransformPolicyIndex(k, idx int) int {
	if k == 1 {
		return mirrorCell(idx)
	}
	return idx
}
func (triMirror) Seat(_, p int) int { return p }

// triDef is the toy game's registration.
func triDef(name string) *agentdef.Def[triPos, triMove] {
	return &agentdef.Def[triPos, triMove]{Def: &contract.Def[triPos, triMove]{
		Info: contract.Info{Name: name, PlayerNames: []string{"A", "B", "C"}, Height: triSize, Width: triSize,
			Planes: 6, EncoderVersion: 1, PolicySize: triCells, MaxMoves: triCells},
		Start:      triStart,
		Parse:      parseTri,
		Symmetries: triMirror{},
		MovesLeft:  func(p triPos) int { return (triCells - int(p.filled) + triPlayers - 1) / triPlayers },
		Judge: &contract.Judge[triPos, triMove]{
			// A claim is spelt as a move from the cell to itself.
			Move: func(p triPos, c contract.Coords) (triMove, error) {
				r, col := c[0]-1, c[1]-1
				if c[2] != c[0] || c[3] != c[1] || r < 0 || r >= triSize || col < 0 || col >= triSize {
					return 0, errors.New("tri: a claim is r c r c on the board")
				}
				if p.owner[r*triSize+col] >= 0 || p.Terminal() {
					return 0, errors.New("tri: the cell is taken")
				}
				return triMove(r*triSize + col), nil
			},
			Coords: func(_ triPos, m triMove) contract.Coords {
				r, c := int(m)/triSize+1, int(m)%triSize+1
				return contract.Coords{r, c, r, c}
			},
		},
	}}
}
