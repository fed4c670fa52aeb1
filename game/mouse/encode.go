package mouse

import "math/bits"

// Input encoding for neural networks.
//
// EncoderVersion 1 writes NumPlanes planes of 7x11 float32 values, plane-major
// (index = plane*77 + row*11 + col, row 0 at the top where the mice start), in absolute
// roles (the mice are always plane 0 whoever moves):
//
//	0  mice
//	1  cats
//	2  Nadori
//	3  empty cells
//	4  all ones when the mice are to move
//	5  all ones when Nadori's team is to move
const (
	EncoderVersion = 1
	NumPlanes      = 6
	InputSize      = NumPlanes * NumCells
)

// Policy indices.
//
// Index sq, sq < 66, is the mouse step from cell sq (rows 1..6) to the cell below. Index
// 66 + k is the k-th team move in a fixed list of every (from, to) pair of distinct cells of
// rows 2..6 on one row, column or diagonal (a cat's queen move; Nadori's king steps are the
// pairs at distance 1, told apart from a cat's by the piece on the source cell), ordered by
// source cell, then destination cell. There are NumTeamPairs = 1130 such pairs. PassIndex =
// 1196 is the pass and PolicySize = 1197.
const (
	NumMouseIndices = 6 * Cols
	NumTeamPairs    = 1130
	PassIndex       = NumMouseIndices + NumTeamPairs
	PolicySize      = PassIndex + 1
)

var (
	// pairIndex[from][to] is the policy index of the team move between inner cells from and
	// to (-1: not on one line); pairMove is its inverse.
	pairIndex [InnerCells][InnerCells]int16
	pairMove  [NumTeamPairs]Move
	policyMir [PolicySize]int16
)

func initPolicy() {
	k := 0
	for f := range InnerCells {
		for t := range InnerCells {
			pairIndex[f][t] = -1
			dr, dc := t/Cols-f/Cols, t%Cols-f%Cols
			if f != t && (dr == 0 || dc == 0 || dr == dc || dr == -dc) {
				pairIndex[f][t] = int16(NumMouseIndices + k)
				pairMove[k] = NewMove(Team, f+Cols, t+Cols)
				k++
			}
		}
	}
	if k != NumTeamPairs {
		panic("mouse: team pair count")
	}
	for sq := range NumMouseIndices {
		policyMir[sq] = int16(MirrorCell(sq))
	}
	for k, m := range pairMove {
		mm := m.Mirror()
		policyMir[NumMouseIndices+k] = pairIndex[mm.From()-Cols][mm.To()-Cols]
	}
	policyMir[PassIndex] = PassIndex
}

// PolicyIndex returns the policy index of m (see the constants above). A move that is not a
// mouse step nor a pair on one line of rows 2..6 has none: it is never legal, and gets
// PassIndex.
func (m Move) PolicyIndex() int {
	if m >= NoMove {
		return PassIndex
	}
	from, to := m.From(), m.To()
	if !m.IsTeam() {
		if to != from+Cols || from >= NumMouseIndices {
			return PassIndex
		}
		return from
	}
	f, t := from-Cols, to-Cols
	if f < 0 || t < 0 || f >= InnerCells || t >= InnerCells || pairIndex[f][t] < 0 {
		return PassIndex
	}
	return int(pairIndex[f][t])
}

// MoveOfPolicyIndex is the inverse of PolicyIndex.
func MoveOfPolicyIndex(idx int) Move {
	switch {
	case idx < 0 || idx >= PassIndex:
		return Pass
	case idx < NumMouseIndices:
		return MouseStep(idx)
	}
	return pairMove[idx-NumMouseIndices]
}

// MirrorPolicyIndex maps a policy index through the left-right mirror.
func MirrorPolicyIndex(idx int) int { return int(policyMir[idx]) }

// Encode writes the InputSize input values of p into dst[:InputSize].
func (p Position) Encode(dst []float32) {
	dst = dst[:InputSize]
	clear(dst)
	for b := p.top; b != 0; b &= b - 1 {
		dst[bits.TrailingZeros16(b)] = 1
	}
	for b := p.bot; b != 0; b &= b - 1 {
		dst[6*Cols+bits.TrailingZeros16(b)] = 1
	}
	for plane, bb := range [3]uint64{p.mice, p.cats, p.nad} {
		base := plane*NumCells + Cols
		for b := bb; b != 0; b &= b - 1 {
			dst[base+bits.TrailingZeros64(b)] = 1
		}
	}
	empty := dst[3*NumCells : 4*NumCells]
	for sq := range empty {
		if dst[sq]+dst[NumCells+sq]+dst[2*NumCells+sq] == 0 {
			empty[sq] = 1
		}
	}
	side := dst[(4+int(p.side&1))*NumCells : (5+int(p.side&1))*NumCells]
	for i := range side {
		side[i] = 1
	}
}

// MirrorInput writes into dst the encoding of the mirrored position whose encoding is src:
// every plane's columns are reversed. It equals p.Mirror().Encode(dst) for src = p.Encode(...).
func MirrorInput(src, dst []float32) {
	for plane := range NumPlanes {
		for r := range Rows {
			s := src[plane*NumCells+r*Cols:][:Cols]
			d := dst[plane*NumCells+r*Cols:][:Cols]
			for c, v := range s {
				d[Cols-1-c] = v
			}
		}
	}
}
