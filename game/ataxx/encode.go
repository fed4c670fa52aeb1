package ataxx

import (
	"math/bits"

	"colony/contract"
)

// Input encoding for neural networks.
//
// EncoderVersion 1 writes NumPlanes planes of 7x7 float32 values, plane-major
// (index = plane*49 + row*7 + col), in absolute colours (no side-to-move flipping):
//
//	0  O pieces
//	1  X pieces
//	2  empty cells
//	3  all ones when O is to move
//	4  all ones when X is to move
//	5  turns played / 400, on every cell
const (
	EncoderVersion = 1
	NumPlanes      = 6
	InputSize      = NumPlanes * NumSquares
)

// Policy indices.
//
// Index to*17 + 0 is the clone (division) to square to; index to*17 + k, k = 1..16, is the
// jump to square to from the square at offset JumpOffsets[k-1] (from = to + offset, in rows and
// columns). PassIndex = 833 is the pass. PolicySize = 834.
const (
	PolicySize = NumSquares*17 + 1
	PassIndex  = NumSquares * 17
)

// JumpOffsets lists the 16 (drow, dcol) offsets at Chebyshev distance 2, in a fixed order.
var JumpOffsets [16][2]int

var (
	offsetIndex [5][5]int8 // [dr+2][dc+2] -> k (1..16) for jumps
	policySym   [NumSymmetries][PolicySize]int16
)

func initPolicy() {
	k := 0
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			if max(abs(dr), abs(dc)) == 2 {
				JumpOffsets[k] = [2]int{dr, dc}
				offsetIndex[dr+2][dc+2] = int8(k + 1)
				k++
			}
		}
	}
	for s := range NumSymmetries {
		policySym[s][PassIndex] = PassIndex
		for to := range NumSquares {
			sto := int(symSq[s][to])
			policySym[s][to*17] = int16(sto * 17)
			for k, off := range JumpOffsets {
				dr, dc := contract.SquareOffset(s, off[0], off[1])
				policySym[s][to*17+k+1] = int16(sto*17 + int(offsetIndex[dr+2][dc+2]))
			}
		}
	}
}

// PolicyIndex returns the policy index of m (see the constants above).
func (m Move) PolicyIndex() int {
	if m >= NoMove {
		return PassIndex
	}
	to, from := m.To(), m.From()
	if to == from {
		return to * 17
	}
	dr := from/Size - to/Size
	dc := from%Size - to%Size
	return to*17 + int(offsetIndex[dr+2][dc+2])
}

// MoveOfPolicyIndex is the inverse of PolicyIndex. A jump index whose source is off the board
// yields a move with an out-of-range source; such indices are never legal.
func MoveOfPolicyIndex(idx int) Move {
	if idx >= PassIndex {
		return Pass
	}
	to, k := idx/17, idx%17
	if k == 0 {
		return CloneMove(to)
	}
	off := JumpOffsets[k-1]
	r, c := to/Size+off[0], to%Size+off[1]
	if r < 0 || r >= Size || c < 0 || c >= Size {
		return Move(to | 63<<6)
	}
	return JumpMove(r*Size+c, to)
}

// SymPolicyIndex maps a policy index through symmetry k, consistently with Move.Transform.
func SymPolicyIndex(k, idx int) int { return int(policySym[k][idx]) }

// Encode writes the InputSize input values of p into dst[:InputSize].
func (p Position) Encode(dst []float32) {
	dst = dst[:InputSize]
	clear(dst)
	empty := p.Empty()
	for plane, b := range [3]uint64{p.bb[O], p.bb[X], empty} {
		base := plane * NumSquares
		for ; b != 0; b &= b - 1 {
			dst[base+bits.TrailingZeros64(b)] = 1
		}
	}
	side := dst[(3+int(p.side))*NumSquares : (4+int(p.side))*NumSquares]
	for i := range side {
		side[i] = 1
	}
	t := float32(p.turn) / MaxTurns
	turn := dst[5*NumSquares : 6*NumSquares]
	for i := range turn {
		turn[i] = t
	}
}

// SymInput writes into dst the encoding of the position whose encoding is src, mapped through
// symmetry k: every plane's cells are permuted like the squares (constant planes stay constant).
// It equals p.Transform(k).Encode(dst) for src = p.Encode(...).
func SymInput(k int, src, dst []float32) {
	for plane := range NumPlanes {
		s := src[plane*NumSquares : (plane+1)*NumSquares]
		d := dst[plane*NumSquares : (plane+1)*NumSquares]
		for sq, v := range s {
			d[symSq[k][sq]] = v
		}
	}
}
