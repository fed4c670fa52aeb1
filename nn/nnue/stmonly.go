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

// Untie returns the STMOnly net with twice m's lanes that computes exactly m's function: m's
// two perspectives share one feature transformer, and the other side's accumulator reads the
// position with the colours swapped, which is the side to move's features through a
// permutation (own and other exchanged in every feature). So lane j of the new net is m's lane
// j, and lane H+j is m's lane j read through that permutation; the tail's weights keep their
// order (the side to move's lanes, then the other's). What the two perspectives shared
// becomes two sets of weights that training can move apart: a net of twice the feature
// transformer (the shape of a one-perspective net of 2·Hidden lanes) warm from a trained
// two-perspective one. The step and metadata carry over.
func Untie(m *Model) (*Model, error) {
	a := m.Arch
	if a.STMOnly {
		return nil, fmt.Errorf("nnue: untie %s: it reads one perspective already", a)
	}
	b := a
	b.STMOnly = true
	b.Hidden = 2 * a.Hidden
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("nnue: untie %s: %w", a, err)
	}
	out := derive(m, b, "untied_from")
	H, H2 := a.Hidden, b.Hidden
	w, v := &m.Weights, &out.Weights
	for f := range a.Features() {
		copy(v.FT[f*H2:f*H2+H], w.FT[f*H:(f+1)*H])
		g := a.swapColours(f)
		copy(v.FT[f*H2+H:(f+1)*H2], w.FT[g*H:(g+1)*H])
	}
	copy(v.FTBias[:H], w.FTBias)
	copy(v.FTBias[H:], w.FTBias)
	// m's tail reads [own lanes, other lanes]; the untied one reads lanes 0..2H-1 in that order.
	copy(v.L1W, w.L1W)
	copy(v.L1B, w.L1B)
	copy(v.OutW, w.OutW)
	copy(v.OutB, w.OutB)
	return out, nil
}

// swapColours is the feature f of a position seen by the other player: a cell feature's own
// and other halves exchanged, or a window's state with each cell's own and other exchanged.
func (a Arch) swapColours(f int) int {
	if a.Input != WindowInput {
		if f < a.Cells {
			return f + a.Cells
		}
		return f - a.Cells
	}
	return f - f%WindowStates + int(swapCode[f%WindowStates])
}
