package mouse

import "math/bits"

// The board has one symmetry besides the identity: the left-right mirror (column c to column
// 10-c). The mice and Nadori's team keep their roles (Seat is the identity); a top-bottom
// mirror is no symmetry (the mice walk down).
const NumSymmetries = 2

// MirrorCell maps cell sq through the left-right mirror.
func MirrorCell(sq int) int { return sq/Cols*Cols + Cols - 1 - sq%Cols }

// mirrorRow reverses the 11 columns of each 11-bit row packed from bit 0 of b (nrows rows).
func mirrorRows(b uint64, nrows int) uint64 {
	var out uint64
	for r := range nrows {
		row := b >> (r * Cols) & uint64(RowFull)
		out |= uint64(bits.Reverse16(uint16(row))>>(16-Cols)) << (r * Cols)
	}
	return out
}

func mirrorRow(b uint16) uint16 { return bits.Reverse16(b) >> (16 - Cols) }

// Mirror returns the left-right mirror image of p (same side to move).
func (p Position) Mirror() Position {
	return NewPosition(mirrorRow(p.top), mirrorRows(p.mice, 5), mirrorRows(p.cats, 5), mirrorRows(p.nad, 5), mirrorRow(p.bot), int(p.side))
}

// Mirror returns the left-right mirror image of m.
func (m Move) Mirror() Move {
	if m >= NoMove {
		return m
	}
	return Move(MirrorCell(m.From())|MirrorCell(m.To())<<7) | m&teamBit
}

// Transform returns the image of p under symmetry k (0 identity, 1 mirror).
func (p Position) Transform(k int) Position {
	if k == 0 {
		return p
	}
	return p.Mirror()
}

// Transform returns the image of m under symmetry k.
func (m Move) Transform(k int) Move {
	if k == 0 {
		return m
	}
	return m.Mirror()
}

// SymInput writes into dst the encoding src mapped through symmetry k.
func SymInput(k int, src, dst []float32) {
	if k == 0 {
		copy(dst, src[:InputSize])
		return
	}
	MirrorInput(src, dst)
}

// SymPolicyIndex maps a policy index through symmetry k, consistently with Move.Transform.
func SymPolicyIndex(k, idx int) int {
	if k == 0 {
		return idx
	}
	return MirrorPolicyIndex(idx)
}
