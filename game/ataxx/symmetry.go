package ataxx

import (
	"math/bits"

	"colony/contract"
)

// NumSymmetries is the number of symmetries of the square board.
const NumSymmetries = 8

// Symmetry k maps (row, col): first transpose if k&4, then mirror rows if k&1, then mirror
// columns if k&2. Symmetry 0 is the identity.
var (
	symSq  [NumSymmetries][NumSquares]int8
	symInv [NumSymmetries]int
)

func init() {
	for k := range NumSymmetries {
		for sq := range NumSquares {
			r, c := symCell(k, sq/Size, sq%Size)
			symSq[k][sq] = int8(r*Size + c)
		}
	}
	for k := range NumSymmetries {
		for j := range NumSymmetries {
			ok := true
			for sq := range NumSquares {
				if int(symSq[j][symSq[k][sq]]) != sq {
					ok = false
					break
				}
			}
			if ok {
				symInv[k] = j
			}
		}
	}
	initPolicy()
}

// SymSquare maps square sq through symmetry k.
func SymSquare(k, sq int) int { return int(symSq[k][sq]) }

// InverseSymmetry returns the symmetry that undoes k.
func InverseSymmetry(k int) int { return symInv[k] }

// SymBitboard maps every bit of b through symmetry k.
func SymBitboard(k int, b uint64) uint64 {
	var out uint64
	for ; b != 0; b &= b - 1 {
		out |= 1 << symSq[k][bits.TrailingZeros64(b)]
	}
	return out
}

// Transform returns the image of p under symmetry k (same side to move and turn count).
func (p Position) Transform(k int) Position {
	return NewPosition(SymBitboard(k, p.bb[O]), SymBitboard(k, p.bb[X]), int(p.side), int(p.turn))
}

// Transform returns the image of m under symmetry k.
func (m Move) Transform(k int) Move {
	if m >= NoMove {
		return m
	}
	return Move(int(symSq[k][m.To()]) | int(symSq[k][m.From()])<<6)
}

// symCell maps (r, c) of the board through symmetry k.
func symCell(k, r, c int) (int, int) { return contract.SquareCell(k, r, c, Size-1) }
