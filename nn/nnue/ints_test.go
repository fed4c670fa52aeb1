package nnue

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// evalInts is Net.Evaluate computed from Ints the way its documentation says (the reference
// that ports such as the C++ export follow).
func evalInts(v Ints, pieces [2]uint64, stm int) int32 {
	H, C := v.Arch.Hidden, v.Arch.Cells
	b := v.Arch.Bucket(pieces)
	out := v.OutB[b]
	ow := v.OutW[b*v.Arch.Perspectives()*H:]
	for persp := range v.Arch.Perspectives() {
		p := stm ^ persp
		acc := make([]int32, H)
		for j := range acc {
			acc[j] = int32(v.FTBias[j])
		}
		for who, off := range [2]int{0, C} {
			for b := pieces[p^who]; b != 0; b &= b - 1 {
				row := v.FT[off+bits.TrailingZeros64(b)]
				for j := range acc {
					acc[j] += int32(row[j])
				}
			}
		}
		for j, x := range acc {
			c := min(max(int32(int16(x)), 0), v.QA)
			if v.Arch.Activation == SCReLU {
				c = c * c >> v.Shift
			}
			out += int64(c) * int64(ow[persp*H+j])
		}
	}
	return int32((out * v.ScoreMul) >> 32)
}

// TestInts: the integers of nets without a hidden layer (CReLU and SCReLU, several widths)
// evaluate 2,000 random positions exactly as the Net does.
func TestInts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, a := range []Arch{testArch(16, 0), testArch(64, 0), testArch(128, 0), screlu(testArch(64, 0))} {
		m := NewRandom(a, 11)
		for i := range m.Weights.OutW {
			m.Weights.OutW[i] *= 8
		}
		n, err := Quantize(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		v := n.Ints()
		if len(v.FT) != 2*a.Cells || len(v.FTBias) != a.Hidden || len(v.OutW) != 2*a.Hidden {
			t.Fatalf("%s: shapes %d %d %d", a, len(v.FT), len(v.FTBias), len(v.OutW))
		}
		acc := n.NewAcc()
		for range 2000 {
			pieces, stm := randomPieces(rng, a.Cells)
			n.Refresh(acc, pieces)
			if got, want := evalInts(v, pieces, stm), n.Evaluate(acc, stm, 0); got != want {
				t.Fatalf("%s: Ints evaluate %d, Net %d", a, got, want)
			}
		}
	}
}
