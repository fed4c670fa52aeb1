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

// A split net has twice the lanes and, without the nudge, computes exactly what the original
// computes (bucketed, one or two perspectives, an L1 layer); with the nudge its two halves
// differ while the function moves only by about the nudge's square: at noise 0.05 well below
// the quantization tolerance, and clearly more at noise 0.5 (so the bound can fail).
func TestSplitKeepsTheFunction(t *testing.T) {
	for _, a := range append(bucketArches(), screlu(testArch(32, 8))) {
		m := NewRandom(a, 3)
		worst := func(s *Model) float64 {
			rng := rand.New(rand.NewPCG(1, 2))
			d := 0.0
			for range 500 {
				pieces, stm := randomPieces(rng, a.Cells)
				d = max(d, math.Abs(float64(m.Forward(pieces, stm)-s.Forward(pieces, stm))))
			}
			return d
		}
		var err error
		s := map[float64]*Model{}
		for _, noise := range []float64{0, 0.05, 0.5} {
			if s[noise], err = Split(m, noise, 9); err != nil {
				t.Fatal(err)
			}
			if h := s[noise].Arch.Hidden; h != 2*a.Hidden || s[noise].Step != m.Step || s[noise].CheckShapes() != nil {
				t.Fatalf("%s: split to %d lanes, step %d", a, h, s[noise].Step)
			}
		}
		if d := worst(s[0]); d > 1e-5 {
			t.Errorf("%s: split without a nudge moves the logit by %g", a, d)
		}
		small, big := worst(s[0.05]), worst(s[0.5])
		if small > logitTolerance/4 || big < 4*small {
			t.Errorf("%s: the nudge moves the logit by %g at 0.05 and %g at 0.5", a, small, big)
		}
		H, H2, v := a.Hidden, 2*a.Hidden, s[0.05].Weights.FT
		differ := 0
		for f := range a.Features() {
			for j := range H {
				if v[f*H2+j] != v[f*H2+H+j] {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Errorf("%s: the two halves are equal", a)
		}
	}
	if _, err := Split(NewRandom(testArch(32, 0), 1), 2, 1); err == nil {
		t.Error("noise 2: want an error")
	}
}
