package train

import (
	"fmt"
	"math"
)

// optimizer is Colony's own Adam / SGD-with-momentum, applied to the graph's weight and gradient
// slices in place. (gorgonia's solvers keep their moments in unexported fields and fix the
// learning rate at construction, so they can neither be checkpointed nor scheduled.)
type optimizer struct {
	Kind string      // Adam or SGD
	T    int64       // updates applied so far (Adam bias correction)
	M    [][]float32 // Adam first moments / SGD velocity, one per learnable
	V    [][]float32 // Adam second moments (nil for SGD)
}

func newOptimizer(kind string, sizes []int) *optimizer {
	o := &optimizer{Kind: kind, M: make([][]float32, len(sizes))}
	if kind == Adam {
		o.V = make([][]float32, len(sizes))
	}
	for i, n := range sizes {
		o.M[i] = make([]float32, n)
		if o.V != nil {
			o.V[i] = make([]float32, n)
		}
	}
	return o
}

// check verifies that o fits learnables of the given sizes (used after loading a checkpoint).
func (o *optimizer) check(kind string, sizes []int) error {
	if o.Kind != kind {
		return fmt.Errorf("train: checkpoint optimizer is %q, config wants %q", o.Kind, kind)
	}
	if len(o.M) != len(sizes) || (kind == Adam && len(o.V) != len(sizes)) {
		return fmt.Errorf("train: checkpoint optimizer has %d tensors, net has %d", len(o.M), len(sizes))
	}
	for i, n := range sizes {
		if len(o.M[i]) != n || (kind == Adam && len(o.V[i]) != n) {
			return fmt.Errorf("train: checkpoint optimizer tensor %d has %d values, want %d", i, len(o.M[i]), n)
		}
	}
	return nil
}

// addL2 adds the gradient of l2*sum(w^2) to g for the decayed tensors and returns that L2 term.
func addL2(l2 float64, ws, gs [][]float32, decay []bool) float64 {
	if l2 <= 0 {
		return 0
	}
	var sum float64
	c := float32(2 * l2)
	for i, w := range ws {
		if !decay[i] {
			continue
		}
		g := gs[i][:len(w)]
		var s float32
		for j, x := range w {
			s += x * x
			g[j] += c * x
		}
		sum += float64(s)
	}
	return l2 * sum
}

// clipGrads scales all gradients so that their global L2 norm is at most maxNorm; it returns
// the norm before clipping.
func clipGrads(maxNorm float64, gs [][]float32) float64 {
	var ss float64
	for _, g := range gs {
		var s float32
		for _, x := range g {
			s += x * x
		}
		ss += float64(s)
	}
	norm := math.Sqrt(ss)
	if maxNorm > 0 && norm > maxNorm {
		f := float32(maxNorm / norm)
		for _, g := range gs {
			for j := range g {
				g[j] *= f
			}
		}
	}
	return norm
}

// step applies one update with learning rate lr to ws given gradients gs.
func (o *optimizer) step(c *Config, lr float64, ws, gs [][]float32) {
	o.T++
	switch o.Kind {
	case Adam:
		b1, b2 := float32(c.Beta1), float32(c.Beta2)
		// Bias corrections folded into the step size and epsilon.
		c1 := 1 - math.Pow(c.Beta1, float64(o.T))
		c2 := 1 - math.Pow(c.Beta2, float64(o.T))
		alpha := float32(lr * math.Sqrt(c2) / c1)
		eps := float32(c.Eps * math.Sqrt(c2))
		for i, w := range ws {
			g, m, v := gs[i][:len(w)], o.M[i][:len(w)], o.V[i][:len(w)]
			for j := range w {
				gj := g[j]
				mj := b1*m[j] + (1-b1)*gj
				vj := b2*v[j] + (1-b2)*gj*gj
				m[j], v[j] = mj, vj
				w[j] -= alpha * mj / (float32(math.Sqrt(float64(vj))) + eps)
			}
		}
	case SGD:
		mu, eta := float32(c.Momentum), float32(lr)
		for i, w := range ws {
			g, m := gs[i][:len(w)], o.M[i][:len(w)]
			for j := range w {
				m[j] = mu*m[j] + g[j]
				w[j] -= eta * m[j]
			}
		}
	}
}
