package slime

import "colony/contract"

// NumSymmetries is the number of symmetries of the square board.
//
// Symmetry k maps (row, col): first transpose if k&4, then mirror rows if k&1, then mirror
// columns if k&2. Symmetry 0 is the identity.
//
// Seats. The rules never look at where a player started: the moves are the same under every
// symmetry of the board and the turn order goes by player number. So the image of a position
// under a symmetry, with the same player numbers and the same player to move, is a position
// of the same game with the same values for every player: the encoding, in absolute seats,
// only has its cells moved, and Seat is the identity. (Relabelling the players so that each
// keeps its start corner would not do: a rotation turns the start order 1-2-3-4, which reads
// top-left, top-right, bottom-left, bottom-right, into an order that is no longer the turn
// order.)
const NumSymmetries = 8

// InverseSymmetry returns the symmetry that undoes k (the two with a transpose and one
// mirror are each other's inverse; every other symmetry is its own).
func InverseSymmetry(k int) int {
	if k == 5 || k == 6 {
		return 11 - k
	}
	return k
}

// SymSquare maps cell sq of an n x n board through symmetry k.
func SymSquare(k, n, sq int) int {
	r, c := contract.SquareCell(k, sq/n, sq%n, n-1)
	return r*n + c
}

// SymBitboard maps every cell of b (an n x n board) through symmetry k.
func SymBitboard(k, n int, b Bitboard) Bitboard {
	var out Bitboard
	for w := range words {
		for x := b[w]; x != 0; x &= x - 1 {
			setBit(&out, SymSquare(k, n, w<<6|trailingZeros(x)))
		}
	}
	return out
}

// Transform returns the image of p under symmetry k (same player to move and turn count).
func (p Position) Transform(k int) Position {
	var bb [NumPlayers]Bitboard
	for pl := range NumPlayers {
		bb[pl] = SymBitboard(k, int(p.n), p.bb[pl])
	}
	return NewPosition(int(p.n), bb, int(p.side), int(p.turn))
}

// TransformMove returns the image under symmetry k of m, a move of p, as a move of
// p.Transform(k) (a spread from its canonical source there).
func (p Position) TransformMove(k int, m Move) Move {
	if m == Pass {
		return Pass
	}
	n := int(p.n)
	r1, c1, r2, c2 := m.Coords()
	r1, c1 = contract.SquareCell(k, r1, c1, n-1)
	r2, c2 = contract.SquareCell(k, r2, c2, n-1)
	raw := makeMove(n, r1, c1, r2, c2, m.kind())
	if m.kind() == kindSpread {
		return p.Transform(k).Canonical(raw)
	}
	return raw
}

// SymPolicyIndex maps a policy index through symmetry k, consistently with TransformMove:
// the slot's grid cell moves by the grid symmetry of its block (mirror constant 15 for even
// boards, 14 for odd ones) and the source offset turns with it. Slots that no move uses
// (the odd block's row and column 15) map to themselves.
func SymPolicyIndex(k, idx int) int {
	if idx < 0 || idx >= PassIndex {
		return idx
	}
	slot, kk := idx/25, idx%25
	b, cell := slot/GridCells, slot%GridCells
	gi, gj := cell/Grid, cell%Grid
	m := Grid - 1 - b
	if gi > m || gj > m {
		return idx
	}
	gi, gj = contract.SquareCell(k, gi, gj, m)
	if kk != 0 {
		var off [2]int
		if kk <= 8 {
			off = Offsets1[kk-1]
		} else {
			off = Offsets2[kk-9]
		}
		dr, dc := contract.SquareOffset(k, off[0], off[1])
		kk = int(offsetIndex[dr+2][dc+2])
	}
	return (b*GridCells+gi*Grid+gj)*25 + kk
}

// SymInput writes into dst the encoding of the position whose encoding is src, mapped through
// symmetry k: every plane's board cells move like the board's cells (the board's size is read
// from the board plane). It equals p.Transform(k).Encode(dst) for src = p.Encode(...).
func SymInput(k int, src, dst []float32) {
	src, dst = src[:InputSize], dst[:InputSize]
	cells := 0
	for _, v := range src[planeBoard*GridCells : (planeBoard+1)*GridCells] {
		if v != 0 {
			cells++
		}
	}
	n := 0
	for n*n < cells {
		n++
	}
	clear(dst)
	o := gridOffset(n)
	m := n - 1 + 2*o
	for plane := range NumPlanes {
		s := src[plane*GridCells : (plane+1)*GridCells]
		d := dst[plane*GridCells : (plane+1)*GridCells]
		for gi := o; gi < o+n; gi++ {
			for gj := o; gj < o+n; gj++ {
				ti, tj := contract.SquareCell(k, gi, gj, m)
				d[ti*Grid+tj] = s[gi*Grid+gj]
			}
		}
	}
}

// Symmetries are the 8 symmetries of the board (contract.Symmetries); Seat is the identity (see
// NumSymmetries).
type Symmetries struct{}

func (Symmetries) NumSymmetries() int                       { return NumSymmetries }
func (Symmetries) TransformInput(k int, src, dst []float32) { SymInput(k, src, dst) }
func (Symmetries) TransformPolicyIndex(k, idx int) int      { return SymPolicyIndex(k, idx) }
func (Symmetries) Seat(_, p int) int                        { return p }
