package nnue

import "fmt"

// ToSTMOnly returns the STMOnly net whose tail reads the side to move's accumulator with m's
// weights for it: m's feature transformer, its tail's weights of the side to move's lanes (the
// first Hidden output weights, or the first Hidden rows of L1) and the biases; the other
// perspective's weights are dropped. It is not the same function (what the other accumulator
// added is gone): a warm start for training a one-perspective net from a trained
// two-perspective one. The step and metadata carry over.
func ToSTMOnly(m *Model) (*Model, error) {
	a := m.Arch
	if a.STMOnly {
		return nil, fmt.Errorf("nnue: to stm-only: %s already reads one perspective", a)
	}
	b := a
	b.STMOnly = true
	out := derive(m, b, "stm_only_from")
	w, v := &m.Weights, &out.Weights
	copy(v.FT, w.FT)
	copy(v.FTBias, w.FTBias)
	if a.L1 == 0 {
		copy(v.OutW, w.OutW[:a.Hidden*a.OutputBuckets()]) // out.w is [inputs][B]
	} else {
		copy(v.L1W, w.L1W[:a.Hidden*a.L1])
		copy(v.L1B, w.L1B)
		copy(v.OutW, w.OutW)
	}
	copy(v.OutB, w.OutB)
	return out, nil
}
