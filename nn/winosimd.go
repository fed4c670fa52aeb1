package nn

// Winograd F(4x4,3x3) pipeline of the AVX2 build (the kernels are in kernel_simd.go).
//
// It computes the same transforms as winograd.go, but every buffer keeps the channels
// innermost so that the kernels work on 8 channels per vector:
//
//	activations          zlen zeros, then [H*W][B][C]   (C padded to a multiple of 8)
//	transformed inputs   [36][T][Cin]                   (ξ-stride winoStride(Cin, T))
//	products             [36][T][Cout]                  (ξ-stride winoStride(Cout, T))
//
// with T = tiles*B and the tile index outside the batch index. The ξ-strides use T rounded up
// to a multiple of 4, the row block of the product kernel. The padding channels carry
// zero weights and zero bias, so they stay zero through the trunk and add nothing.

// padWino returns a copy of w with in and out zero-padded to inp and outp channels (u laid
// out [36][inp][outp]).
func padWino(w *wino, inp, outp int) wino {
	p := wino{out: outp, in: inp, u: make([]float32, 36*inp*outp), bias: make([]float32, outp)}
	copy(p.bias, w.bias)
	for xi := range 36 {
		for i := range w.in {
			copy(p.u[(xi*inp+i)*outp:(xi*inp+i)*outp+w.out], w.u[(xi*w.in+i)*w.out:(xi*w.in+i+1)*w.out])
		}
	}
	return p
}

// padConv1 returns a copy of c whose input is zero-padded to inp channels.
func padConv1(c *conv1, inp int) conv1 {
	p := conv1{out: c.out, in: inp, w: make([]float32, c.out*inp), bias: c.bias}
	for o := range c.out {
		copy(p.w[o*inp:o*inp+c.in], c.w[o*c.in:(o+1)*c.in])
	}
	return p
}

// simdWino holds what the AVX2 pipeline needs beyond the portable Net.
type simdWino struct {
	cp, pp       int // channels and input planes, padded to multiples of 8
	geom         winoGeom
	stem         wino
	blocks       [][2]wino
	pconv, vconv conv1
	in, x, h     []float32 // activations: input planes, trunk, block hidden
	v, m         []float32 // transformed inputs and products
}

// initSIMD builds n.sw from the portable Winograd weights.
func (n *Net) initSIMD() {
	a := &n.arch
	s := &n.sw
	s.cp, s.pp = roundUp(a.Channels, 8), roundUp(a.Planes, 8)
	s.geom = newWinoGeom(a.Height, a.Width, max(s.cp, s.pp), n.maxBatch)
	s.stem = padWino(&n.wstem, s.pp, s.cp)
	s.blocks = make([][2]wino, len(n.wblocks))
	for b := range n.wblocks {
		s.blocks[b] = [2]wino{padWino(&n.wblocks[b][0], s.cp, s.cp), padWino(&n.wblocks[b][1], s.cp, s.cp)}
	}
	s.pconv = padConv1(&n.pconv, s.cp)
	s.vconv = padConv1(&n.vconv, s.cp)
	T := roundUp(s.geom.tiles*n.maxBatch, 4)
	s.in = make([]float32, s.geom.zlen+n.hw*s.pp*n.maxBatch)
	s.x = make([]float32, s.geom.zlen+n.hw*s.cp*n.maxBatch)
	s.h = make([]float32, s.geom.zlen+n.hw*s.cp*n.maxBatch)
	s.v = make([]float32, 36*winoStride(max(s.cp, s.pp), T))
	s.m = make([]float32, 36*winoStride(s.cp, T))
}

// forwardSIMD is the AVX2 forward pass of the trunk and the head convolutions: it leaves the
// head features in n.pflat and n.vflat.
func (n *Net) forwardSIMD(input []float32, B int) {
	a := &n.arch
	s := &n.sw
	hw := n.hw
	z := s.geom.zlen
	// The padding planes are never written, so they stay zero.
	for b := range B {
		for p := range a.Planes {
			src := input[(b*a.Planes+p)*hw : (b*a.Planes+p+1)*hw]
			for pos, v := range src {
				s.in[z+(pos*B+b)*s.pp+p] = v
			}
		}
	}
	n.winoConvSIMD(&s.stem, s.in, s.x, nil, B)
	for i := range s.blocks {
		n.winoConvSIMD(&s.blocks[i][0], s.x, s.h, nil, B)
		n.winoConvSIMD(&s.blocks[i][1], s.h, s.x, s.x, B)
	}
	conv1x1SIMD(&s.pconv, s.x[z:], n.pflat, hw, B)
	conv1x1SIMD(&s.vconv, s.x[z:], n.vflat, hw, B)
}

// winoConvSIMD computes dst = relu(conv(src) + bias [+ res]); res may alias dst.
func (n *Net) winoConvSIMD(k *wino, src, dst, res []float32, B int) {
	s := &n.sw
	winoInputSIMD(&s.geom, src, k.in, B, s.v)
	winoProductsSIMD(k, s.v, s.m, roundUp(s.geom.tiles*B, 4))
	winoOutputSIMD(&s.geom, k, s.m, dst, res, B)
}
