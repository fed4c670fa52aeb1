package nnue

import "fmt"

// WithBuckets returns m with its output layer copied into buckets output buckets (Arch.Bucket),
// computing the same function: every bucket starts as m's output weights and bias, so the
// trainer can let each phase of the game move its own copy from there (a warm start into a
// bucketed net). m must have one output and no L1 layer. The step and metadata carry over.
func WithBuckets(m *Model, buckets int) (*Model, error) {
	a := m.Arch
	if a.Buckets > 1 {
		return nil, fmt.Errorf("nnue: with buckets: %s already has %d output buckets", a, a.Buckets)
	}
	b := a
	b.Buckets = buckets
	if err := b.Validate(); err != nil {
		return nil, err
	}
	out := derive(m, b, "buckets_from")
	w, v := &m.Weights, &out.Weights
	copy(v.FT, w.FT)
	copy(v.FTBias, w.FTBias)
	for i, x := range w.OutW { // out.w is [inputs][B]
		for k := range buckets {
			v.OutW[i*buckets+k] = x
		}
	}
	for k := range buckets {
		v.OutB[k] = w.OutB[0]
	}
	return out, nil
}
