package nnue

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A widened net computes what the original computes, on random positions, with and
// without an L1 layer; its new lanes are not all zero (they can learn).
func TestWidenKeepsTheFunction(t *testing.T) {
	for _, l1 := range []int{0, 8} {
		a := testArch(32, l1)
		m := NewRandom(a, 3)
		w, err := Widen(m, 64, 9)
		if err != nil {
			t.Fatal(err)
		}
		if w.Arch.Hidden != 64 || w.Step != m.Step {
			t.Fatalf("widened arch %s step %d", w.Arch, w.Step)
		}
		if err := w.CheckShapes(); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 500 {
			var pieces [2]uint64
			for c := range a.Cells {
				switch rng.IntN(3) {
				case 0:
					pieces[0] |= 1 << c
				case 1:
					pieces[1] |= 1 << c
				}
			}
			stm := rng.IntN(2)
			x, y := m.Forward(pieces, stm), w.Forward(pieces, stm)
			if math.Abs(float64(x-y)) > 1e-5 {
				t.Fatalf("l1 %d: widened logit %v, original %v", l1, y, x)
			}
		}
		nonzero := false
		for f := range a.Features() {
			for j := 32; j < 64; j++ {
				nonzero = nonzero || w.Weights.FT[f*64+j] != 0
			}
		}
		if !nonzero {
			t.Errorf("l1 %d: the new lanes' weights are all zero", l1)
		}
	}
	if _, err := Widen(NewRandom(testArch(32, 0), 1), 32, 1); err == nil {
		t.Error("widening to the same width: want an error")
	}
}
