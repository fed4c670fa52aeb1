package nnue

// Ints is a quantized net as plain integers, for ports of the integer evaluation to other
// languages (colony/export's C++ agent): Output is OutB[b] plus, over the 2*Hidden lanes of
// [acc[stm], acc[1-stm]], A(lane)*OutW[b*2*Hidden+i] with A the clipped lane (CReLU:
// min(max(v, 0), QA)) or, for SCReLU, its square shifted right by Shift (an STMOnly net: over
// the Hidden lanes of acc[stm] only, Hidden weights per bucket), b the position's output
// bucket (Arch.Bucket: 0 for an unbucketed net); Evaluate is (Output*ScoreMul) >> 32. A
// perspective's accumulator is FTBias plus the rows FT[f] of its active features (f = c for
// its own piece on cell c, Cells+c for the other player's), in int16 lanes. Nets with a
// hidden layer (L1 > 0) are not described (L1 is set and the tail fields are empty). For a
// window-input net FT has a row per feature (Arch.ActiveFeatures) and the accumulator is
// FTBias plus the rows of the active ones.
type Ints struct {
	Arch     Arch
	QA       int32     // the accumulator's 1.0
	Shift    uint      // QA = 1 << Shift
	FT       [][]int16 // [Features][Hidden]
	FTBias   []int16   // [Hidden]
	OutW     []int32   // [B][P*Hidden], P = Arch.Perspectives(), B = Arch.OutputBuckets()
	OutB     []int64   // [B]
	ScoreMul int64
}

// Ints returns n's integers (see Ints).
func (n *Net) Ints() Ints {
	a := n.arch
	H, C := a.Hidden, a.Cells
	v := Ints{Arch: a, QA: n.qa, Shift: n.shift, OutB: append([]int64(nil), n.outB...), ScoreMul: n.scoreMul}
	lanes := func(words []uint64) []int16 {
		out := make([]int16, 4*len(words))
		unpackRow(words, out)
		return out
	}
	v.FT = make([][]int16, a.Features())
	if a.Input == WindowInput {
		rw := n.win.rowW
		for f := range v.FT { // row f holds feature f for player 0's perspective
			v.FT[f] = lanes(n.win.rows[f*rw : f*rw+rw])[:H]
		}
	}
	for c := 0; c < C && a.Input == CellInput; c++ {
		row := lanes(n.placeRow(0, c)) // player 0's piece: feature c for perspective 0, C+c for 1
		v.FT[c], v.FT[C+c] = row[:H], row[H:]
	}
	for _, w := range n.init[:n.words] {
		for l := range 4 {
			v.FTBias = append(v.FTBias, int16(int32(uint16(w>>(16*l)))-laneBias))
		}
	}
	if a.L1 == 0 {
		v.OutW = append([]int32(nil), n.outW...)
	}
	return v
}
