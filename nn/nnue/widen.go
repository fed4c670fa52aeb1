package nnue

import (
	"fmt"
	"math/rand/v2"
)

// Widen returns m with hidden accumulator lanes added up to hidden, computing the same
// function: the new lanes get small random feature-transformer weights (seeded) and a zero
// bias, and every weight that reads them (the output, or the L1 layer) is zero, so the
// trainer can grow them from there. It is how a net moves to a bigger architecture without
// losing what it learned (a warm start across widths). The step and metadata carry over.
func Widen(m *Model, hidden int, seed uint64) (*Model, error) {
	a := m.Arch
	if hidden <= a.Hidden {
		return nil, fmt.Errorf("nnue: widen %s to %d lanes: not wider", a, hidden)
	}
	b := a
	b.Hidden = hidden
	if err := b.Validate(); err != nil {
		return nil, err
	}
	out := derive(m, b, "widened_from")
	rng := rand.New(rand.NewPCG(seed, seed^0x77696465))
	H, H2 := a.Hidden, hidden
	w, v := &m.Weights, &out.Weights
	for f := range a.Features() {
		copy(v.FT[f*H2:f*H2+H], w.FT[f*H:(f+1)*H])
		for j := H; j < H2; j++ {
			v.FT[f*H2+j] = float32((rng.Float64()*2 - 1) * 0.05)
		}
	}
	copy(v.FTBias, w.FTBias)
	// The tail reads [own lanes, other lanes] (own only when STMOnly): lane j of perspective p
	// is input p*H + j.
	if a.L1 == 0 {
		B := a.OutputBuckets() // out.w is [inputs][B]
		for p := range a.Perspectives() {
			copy(v.OutW[p*H2*B:(p*H2+H)*B], w.OutW[p*H*B:(p+1)*H*B])
		}
	} else {
		for p := range a.Perspectives() {
			for j := range H {
				copy(v.L1W[(p*H2+j)*a.L1:][:a.L1], w.L1W[(p*H+j)*a.L1:][:a.L1])
			}
		}
		copy(v.L1B, w.L1B)
		copy(v.OutW, w.OutW)
	}
	copy(v.OutB, w.OutB)
	return out, nil
}

// derive returns a zero model of arch b that carries m's step and metadata, with m's arch
// recorded under key: the start of a net moved to another architecture (Widen, ToWindows).
func derive(m *Model, b Arch, key string) *Model {
	out := NewModel(b)
	out.Step = m.Step
	for k, v := range m.Meta {
		out.Meta[k] = v
	}
	out.Meta[key] = m.Arch.String()
	return out
}
