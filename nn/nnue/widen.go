package nnue

import (
	"fmt"
	"math"
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

// Split returns m with twice its accumulator lanes: lanes j and H+j both start as lane j, and
// every weight that reads lane j is halved between them, so the net computes the same
// function. To let the two halves learn different things (an optimiser sees two equal lanes
// alike forever), their feature-transformer weights are nudged apart, lane j by +e and lane
// H+j by -e, e drawn per weight from N(0, (noise·rms)²) with rms that of all the start's
// feature weights: the first-order changes cancel, so (away from the activation's clamps,
// where one twin may cross and the other not) the function moves only by the second order
// in e. Unlike Widen's random new lanes, every new lane starts as a feature the net already
// reads. The step and metadata carry over.
func Split(m *Model, noise float64, seed uint64) (*Model, error) {
	a := m.Arch
	b := a
	b.Hidden = 2 * a.Hidden
	if noise < 0 || noise > 1 {
		return nil, fmt.Errorf("nnue: split %s: noise %g, want 0..1", a, noise)
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	out := derive(m, b, "split_from")
	rng := rand.New(rand.NewPCG(seed, seed^0x73706c74))
	H, H2 := a.Hidden, b.Hidden
	w, v := &m.Weights, &out.Weights
	var ss float64
	for _, x := range w.FT {
		ss += float64(x) * float64(x)
	}
	sd := noise * math.Sqrt(ss/float64(max(len(w.FT), 1)))
	for f := range a.Features() {
		for j := range H {
			x := float64(w.FT[f*H+j])
			e := 0.0
			if sd > 0 && x != 0 { // a feature the start never moved stays untouched
				e = rng.NormFloat64() * sd
			}
			v.FT[f*H2+j], v.FT[f*H2+H+j] = float32(x+e), float32(x-e)
		}
	}
	copy(v.FTBias[:H], w.FTBias)
	copy(v.FTBias[H:], w.FTBias)
	if a.L1 == 0 {
		B := a.OutputBuckets() // out.w is [inputs][B]
		for p := range a.Perspectives() {
			for j := range H {
				for k := range B {
					h := w.OutW[(p*H+j)*B+k] / 2
					v.OutW[(p*H2+j)*B+k], v.OutW[(p*H2+H+j)*B+k] = h, h
				}
			}
		}
	} else {
		for p := range a.Perspectives() {
			for j := range H {
				for k := range a.L1 {
					h := w.L1W[(p*H+j)*a.L1+k] / 2
					v.L1W[(p*H2+j)*a.L1+k], v.L1W[(p*H2+H+j)*a.L1+k] = h, h
				}
			}
		}
		copy(v.L1B, w.L1B)
		copy(v.OutW, w.OutW)
	}
	copy(v.OutB, w.OutB)
	return out, nil
}
