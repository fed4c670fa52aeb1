package nn

import (
	"fmt"
	"math"
)

// Net is a model compiled for fast CPU inference: BatchNorm folded into the convolutions,
// weights repacked, and every buffer a forward pass needs allocated up front for batches of
// up to maxBatch positions. Forward allocates nothing.
//
// A Net is NOT safe for concurrent use: it owns its scratch buffers. Build one Net per
// goroutine (they may share nothing but the Model they were built from).
//
// Both backends run each 3x3 convolution of the trunk as a Winograd F(4x4,3x3) convolution:
// the portable one (n.simd false) on pos-major activations with gonum's Sger for the products
// (see winograd.go), the AVX2 one on channel-innermost activations with archsimd kernels (see
// winosimd.go and kernel_simd.go).
type Net struct {
	arch     Arch
	maxBatch int
	simd     bool // use the archsimd kernels (only when built with GOEXPERIMENT=simd and the CPU has AVX2+FMA)

	hw int

	stem            conv3
	blocks          [][2]conv3
	pconv, vconv    conv1
	pfc, vfc1, vfc2 dense

	pflat, vflat []float32 // maxBatch x (channels*hw), NCHW-flattened head features
	vhid         []float32 // maxBatch x ValueHidden

	// Portable (Winograd) path: see winograd.go.
	geom        winoGeom
	wstem       wino
	wblocks     [][2]wino
	win, wx, wh []float32 // pos-major activations: input planes, trunk, block hidden
	wv, wm      []float32 // transformed inputs and products
	acc         []float32 // maxBatch scratch

	sw simdWino // AVX2 path (see winosimd.go); built only when simd is set
}

type conv3 struct {
	out, in int
	wt      []float32 // folded weights [9 taps][out][in]
	bias    []float32 // folded bias [out]
}

type conv1 struct {
	out, in int
	w       []float32 // folded [out][in]
	bias    []float32
}

type dense struct {
	in, out int
	w       []float32 // [in][out]
	b       []float32
}

// simdOK is set by the archsimd build when the CPU supports the kernels.
var simdOK bool

// fold returns the BatchNorm scale and shift of c: y = scale*conv(x) + shift.
func fold(c *Conv) (scale, shift []float64) {
	scale = make([]float64, c.Out)
	shift = make([]float64, c.Out)
	for o := range c.Out {
		s := float64(c.Gamma[o]) / math.Sqrt(float64(c.Var[o])+BNEps)
		scale[o] = s
		shift[o] = float64(c.Beta[o]) - float64(c.Mean[o])*s
	}
	return scale, shift
}

func newConv3(c *Conv) conv3 {
	scale, shift := fold(c)
	k := conv3{out: c.Out, in: c.In, wt: make([]float32, 9*c.Out*c.In), bias: make([]float32, c.Out)}
	for o := range c.Out {
		k.bias[o] = float32(shift[o])
		for i := range c.In {
			for t := range 9 {
				k.wt[(t*c.Out+o)*c.In+i] = float32(float64(c.W[(o*c.In+i)*9+t]) * scale[o])
			}
		}
	}
	return k
}

func newConv1(c *Conv) conv1 {
	scale, shift := fold(c)
	k := conv1{out: c.Out, in: c.In, w: make([]float32, c.Out*c.In), bias: make([]float32, c.Out)}
	for o := range c.Out {
		k.bias[o] = float32(shift[o])
		for i := range c.In {
			k.w[o*c.In+i] = float32(float64(c.W[o*c.In+i]) * scale[o])
		}
	}
	return k
}

func newDenseLayer(d *Dense) dense {
	return dense{in: d.In, out: d.Out, w: append([]float32(nil), d.W...), b: append([]float32(nil), d.B...)}
}

// NewNet compiles m for batches of at most maxBatch positions. The Net copies what it needs:
// later changes to m do not affect it.
func NewNet(m *Model, maxBatch int) (*Net, error) {
	if maxBatch < 1 {
		return nil, fmt.Errorf("nn: NewNet: maxBatch %d < 1", maxBatch)
	}
	a := m.Arch
	if err := m.Weights.CheckShapes(a); err != nil {
		return nil, fmt.Errorf("nn: NewNet: %w", err)
	}
	for _, c := range append([]*Conv{&m.Weights.Stem, &m.Weights.PolicyConv, &m.Weights.ValueConv}, blockConvs(&m.Weights)...) {
		for o, v := range c.Var {
			if !(v >= 0) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("nn: NewNet: BatchNorm variance %g of channel %d is not a finite non-negative number", v, o)
			}
		}
	}
	n := &Net{arch: a, maxBatch: maxBatch}
	n.simd = simdOK
	n.hw = a.Height * a.Width
	w := &m.Weights
	n.stem = newConv3(&w.Stem)
	n.blocks = make([][2]conv3, len(w.Blocks))
	for b := range w.Blocks {
		n.blocks[b] = [2]conv3{newConv3(&w.Blocks[b][0]), newConv3(&w.Blocks[b][1])}
	}
	n.geom = newWinoGeom(a.Height, a.Width, max(a.Channels, a.Planes), maxBatch)
	n.wstem = newWino(&n.stem)
	n.wblocks = make([][2]wino, len(n.blocks))
	for b := range n.blocks {
		n.wblocks[b] = [2]wino{newWino(&n.blocks[b][0]), newWino(&n.blocks[b][1])}
	}
	n.win = make([]float32, n.geom.zlen+n.hw*a.Planes*maxBatch)
	n.wx = make([]float32, n.geom.zlen+n.hw*a.Channels*maxBatch)
	n.wh = make([]float32, n.geom.zlen+n.hw*a.Channels*maxBatch)
	n.wv = make([]float32, 36*winoStride(max(a.Channels, a.Planes), n.geom.tiles*maxBatch))
	n.wm = make([]float32, 36*winoStride(a.Channels, n.geom.tiles*maxBatch))
	n.acc = make([]float32, maxBatch)
	n.pconv = newConv1(&w.PolicyConv)
	n.vconv = newConv1(&w.ValueConv)
	n.pfc = newDenseLayer(&w.PolicyFC)
	n.vfc1 = newDenseLayer(&w.ValueFC1)
	n.vfc2 = newDenseLayer(&w.ValueFC2)
	n.pflat = make([]float32, maxBatch*a.PolicyChannels*n.hw)
	n.vflat = make([]float32, maxBatch*a.ValueChannels*n.hw)
	n.vhid = make([]float32, maxBatch*a.ValueHidden)
	if n.simd {
		n.initSIMD()
	}
	return n, nil
}

func blockConvs(w *Weights) []*Conv {
	var cs []*Conv
	for b := range w.Blocks {
		cs = append(cs, &w.Blocks[b][0], &w.Blocks[b][1])
	}
	return cs
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }

// Arch returns the architecture of the network.
func (n *Net) Arch() Arch { return n.arch }

// MaxBatch is the largest batch Forward accepts.
func (n *Net) MaxBatch() int { return n.maxBatch }

// Backend names the convolution kernels in use: "avx2" (archsimd build on an AVX2+FMA CPU),
// "gonum" (portable) or "purego" (portable, plain-Go loops: the single-file export).
func (n *Net) Backend() string {
	if n.simd {
		return "avx2"
	}
	return portableBackend
}

// InputSize is the number of input values per position (Planes*Height*Width).
func (n *Net) InputSize() int { return n.arch.Planes * n.hw }

// Forward evaluates batch positions. input holds batch*Planes*Height*Width values (NCHW);
// policy receives batch*PolicySize logits (not softmaxed) and value batch*NumPlayers values in
// [-1, 1]. It allocates nothing.
func (n *Net) Forward(input []float32, batch int, policy, value []float32) error {
	a := &n.arch
	if batch < 1 || batch > n.maxBatch {
		return fmt.Errorf("nn: Forward: batch %d outside [1, %d]", batch, n.maxBatch)
	}
	if len(input) < batch*a.Planes*n.hw {
		return fmt.Errorf("nn: Forward: input has %d values, batch %d needs %d", len(input), batch, batch*a.Planes*n.hw)
	}
	if len(policy) < batch*a.PolicySize {
		return fmt.Errorf("nn: Forward: policy has room for %d values, batch %d needs %d", len(policy), batch, batch*a.PolicySize)
	}
	if len(value) < batch*a.NumPlayers {
		return fmt.Errorf("nn: Forward: value has room for %d values, batch %d needs %d", len(value), batch, batch*a.NumPlayers)
	}
	if n.simd {
		n.forwardSIMD(input, batch)
	} else {
		n.forwardWino(input, batch)
	}
	n.heads(batch, policy, value)
	return nil
}

// heads runs the dense layers of the policy and value heads on n.pflat and n.vflat.
func (n *Net) heads(batch int, policy, value []float32) {
	n.dense(&n.pfc, n.pflat, policy, batch, false)
	n.dense(&n.vfc1, n.vflat, n.vhid, batch, true)
	n.dense(&n.vfc2, n.vhid, value, batch, false)
	for i := range batch * n.arch.NumPlayers {
		value[i] = float32(math.Tanh(float64(value[i])))
	}
}

// axpy computes y += a*x over len(y) values.
func (n *Net) axpy(a float32, x, y []float32) {
	if n.simd {
		axpySIMD(a, x[:len(y)], y)
		return
	}
	saxpy(a, x, y)
}

// dense computes out[b] = x[b] W + B for every b < batch, with ReLU when relu is set.
func (n *Net) dense(d *dense, x, out []float32, batch int, relu bool) {
	for b := range batch {
		copy(out[b*d.out:(b+1)*d.out], d.b)
	}
	for i := range d.in {
		wrow := d.w[i*d.out : (i+1)*d.out]
		for b := range batch {
			if v := x[b*d.in+i]; v != 0 {
				n.axpy(v, wrow, out[b*d.out:(b+1)*d.out])
			}
		}
	}
	if relu {
		for i := range out[:batch*d.out] {
			out[i] = max(out[i], 0)
		}
	}
}
