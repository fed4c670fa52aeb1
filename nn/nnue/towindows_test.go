package nnue

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A cell-input net moved to window input computes the same logits, in float and quantized
// (within the quantizer's tolerance), on random positions; a window net and a width that does
// not divide the board are refused.
func TestToWindowsKeepsTheFunction(t *testing.T) {
	for _, a := range []Arch{testArch(64, 0), screlu(testArch(32, 0)), testArch(32, 16)} {
		m := NewRandom(a, 5)
		w, err := ToWindows(m, 7)
		if err != nil {
			t.Fatal(err)
		}
		if w.Arch.Input != WindowInput || w.Arch.Width != 7 || w.Arch.Hidden != a.Hidden || w.Step != m.Step {
			t.Fatalf("converted arch %s step %d", w.Arch, w.Step)
		}
		if err := w.CheckShapes(); err != nil {
			t.Fatal(err)
		}
		qm, err := Quantize(m, 300)
		if err != nil {
			t.Fatal(err)
		}
		qw, err := Quantize(w, 300)
		if err != nil {
			t.Fatal(err)
		}
		am, aw := qm.NewAcc(), qw.NewAcc()
		rng := rand.New(rand.NewPCG(4, 9))
		worst := 0.0
		for range 2000 {
			pieces, stm := randomPieces(rng, a.Cells)
			x, y := m.Forward(pieces, stm), w.Forward(pieces, stm)
			if math.Abs(float64(x-y)) > 1e-4 {
				t.Fatalf("%s: window logit %v, cell logit %v", a, y, x)
			}
			qm.Refresh(am, pieces)
			qw.Refresh(aw, pieces)
			d := math.Abs(float64(qm.Evaluate(am, stm, 0)-qw.Evaluate(aw, stm, 0))) / 300
			worst = max(worst, d)
		}
		if worst > logitTolerance {
			t.Errorf("%s: quantized window and cell nets differ by %.4f logit (limit %v)", a, worst, logitTolerance)
		}
	}
	w, _ := ToWindows(NewRandom(testArch(32, 0), 1), 7)
	if _, err := ToWindows(w, 7); err == nil {
		t.Error("a window net converted again: want an error")
	}
	if _, err := ToWindows(NewRandom(testArch(32, 0), 1), 6); err == nil {
		t.Error("width 6 on 49 cells: want an error")
	}
}
