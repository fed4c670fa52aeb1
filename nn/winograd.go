package nn

import "math"

// Winograd F(4x4, 3x3) convolutions for the portable build (the AVX2 build runs the same
// transforms with its own layout: see winosimd.go).
//
// A 3x3 convolution over an HxW board is split into output tiles of 4x4 (the board is covered
// by ceil(H/4) x ceil(W/4) tiles; outputs outside the board are computed and dropped). Each tile
// reads a 6x6 input patch, which the input transform V = Bᵀ d B turns into 36 values per input
// channel; the weights are transformed once at load time into U = G g Gᵀ (36 values per output
// and input channel). The convolution then becomes 36 independent matrix products
// M[ξ] = U[ξ]ᵀ V[ξ] over the channels (one per transformed point ξ), and the output transform
// Y = Aᵀ M A gives the 4x4 outputs of each tile. That takes 36 multiply-adds per tile, output
// and input channel instead of 9*16 = 144 for the direct method (3.06x fewer on a 7x7 board,
// counting the tile overhang), and the products run as rank-1 updates in gonum's SSE Sger
// kernel, which keeps a 4x8 block of the product in registers.
//
// Activation layout ("pos-major"): a trunk activation with C channels for a batch of B
// positions is stored as [H*W][C][B] (after a square of zeros), so the B values of one channel at one square are
// contiguous. Transformed inputs are stored as [36][Cin][T] and products as [36][Cout][T],
// with T = tiles*B and the tile index outside the batch index.

// Transform matrices (Lavin & Gray, interpolation points 0, ±1, ±2):
//
//	Bᵀ = [4  0 -5  0 1 0; 0 -4 -4  1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1]
//	G  = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]
//	Aᵀ = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1]
var winoG = [6][3]float64{
	{1.0 / 4, 0, 0},
	{-1.0 / 6, -1.0 / 6, -1.0 / 6},
	{-1.0 / 6, 1.0 / 6, -1.0 / 6},
	{1.0 / 24, 1.0 / 12, 1.0 / 6},
	{1.0 / 24, -1.0 / 12, 1.0 / 6},
	{0, 0, 1},
}

// wino holds the transformed weights of one folded 3x3 convolution.
type wino struct {
	out, in int
	u       []float32 // [36][in][out]
	bias    []float32 // [out]
}

// newWino transforms the folded weights of k (wt laid out [9 taps][out][in]).
func newWino(k *conv3) wino {
	w := wino{out: k.out, in: k.in, u: make([]float32, 36*k.out*k.in), bias: k.bias}
	for o := range k.out {
		for i := range k.in {
			var g [3][3]float64
			for t := range 9 {
				g[t/3][t%3] = float64(k.wt[(t*k.out+o)*k.in+i])
			}
			// tmp = G g (6x3), U = tmp Gᵀ (6x6).
			var tmp [6][3]float64
			for r := range 6 {
				for c := range 3 {
					tmp[r][c] = winoG[r][0]*g[0][c] + winoG[r][1]*g[1][c] + winoG[r][2]*g[2][c]
				}
			}
			for r := range 6 {
				for c := range 6 {
					v := tmp[r][0]*winoG[c][0] + tmp[r][1]*winoG[c][1] + tmp[r][2]*winoG[c][2]
					w.u[((r*6+c)*k.in+i)*k.out+o] = float32(v)
				}
			}
		}
	}
	return w
}

// winoGeom is the tiling of the board.
// Pos-major buffers start with zlen zeros (enough for one square of any layer at the largest
// batch), which the input transform reads for the squares off the board.
type winoGeom struct {
	h, w, tilesH, tilesW, tiles int
	zlen                        int
}

func newWinoGeom(h, w, maxChannels, maxBatch int) winoGeom {
	g := winoGeom{h: h, w: w, tilesH: (h + 3) / 4, tilesW: (w + 3) / 4, zlen: maxChannels * maxBatch}
	g.tiles = g.tilesH * g.tilesW
	return g
}

// winoInput computes the transformed input v ([36][cin][tiles*B]) of x (g.zlen zeros, which
// stand for the squares off the board, then [H*W][cin][B]).
// tileOffsets fills offs with the offset in x of each cell of the 6x6 input tile (ty, tx),
// cellStride values per board cell; cells off the board point at the zero area at offset 0.
func (g *winoGeom) tileOffsets(ty, tx, cellStride int, offs *[36]int) {
	for r := range 6 {
		row := 4*ty - 1 + r
		for c := range 6 {
			col := 4*tx - 1 + c
			offs[r*6+c] = 0
			if row >= 0 && row < g.h && col >= 0 && col < g.w {
				offs[r*6+c] = g.zlen + (row*g.w+col)*cellStride
			}
		}
	}
}

func winoInput(g *winoGeom, x []float32, cin, B int, v []float32) {
	T := g.tiles * B
	st := winoStride(cin, T) // stride between transformed points in v
	var offs [36]int
	var t [36]float32
	for ty := range g.tilesH {
		for tx := range g.tilesW {
			tile := ty*g.tilesW + tx
			g.tileOffsets(ty, tx, cin*B, &offs)
			for ch := range cin {
				for b := range B {
					cb := ch*B + b
					// Columns: t := Bᵀ d.
					for c := range 6 {
						d0 := x[offs[c]+cb]
						d1 := x[offs[6+c]+cb]
						d2 := x[offs[12+c]+cb]
						d3 := x[offs[18+c]+cb]
						d4 := x[offs[24+c]+cb]
						d5 := x[offs[30+c]+cb]
						t[c] = 4*d0 - 5*d2 + d4
						t[6+c] = (d3 + d4) - 4*(d1+d2)
						t[12+c] = (d4 - d3) + 4*(d1-d2)
						t[18+c] = (d4 - d2) + 2*(d3-d1)
						t[24+c] = (d4 - d2) - 2*(d3-d1)
						t[30+c] = 4*d1 - 5*d3 + d5
					}
					// Rows: v := t B, one value per transformed point.
					o := ch*T + tile*B + b
					for r := range 6 {
						d0, d1, d2, d3, d4, d5 := t[r*6], t[r*6+1], t[r*6+2], t[r*6+3], t[r*6+4], t[r*6+5]
						q := v[o+r*6*st : o+r*6*st+5*st+1]
						q[0] = 4*d0 - 5*d2 + d4
						q[st] = (d3 + d4) - 4*(d1+d2)
						q[2*st] = (d4 - d3) + 4*(d1-d2)
						q[3*st] = (d4 - d2) + 2*(d3-d1)
						q[4*st] = (d4 - d2) - 2*(d3-d1)
						q[5*st] = 4*d1 - 5*d3 + d5
					}
				}
			}
		}
	}
}

// winoStride is the distance between two transformed points in v or m for ch channels and T
// tile-positions: a cache line more than ch*T, so that the 36 values of one tile do not all
// fall into the same L1 cache set when ch*T*4 is a multiple of 4 KiB.
func winoStride(ch, T int) int { return ch*T + 16 }

// winoProducts computes m[ξ] = U[ξ]ᵀ v[ξ] ([36][out][T], ξ-stride winoStride) as rank-1 updates.
func winoProducts(k *wino, v, m []float32, T int) {
	sv, sm := winoStride(k.in, T), winoStride(k.out, T)
	for xi := range 36 {
		mx := m[xi*sm : xi*sm+k.out*T]
		clear(mx)
		for i := range k.in {
			u := k.u[(xi*k.in+i)*k.out : (xi*k.in+i+1)*k.out]
			vr := v[xi*sv+i*T : xi*sv+(i+1)*T]
			sger(k.out, T, u, vr, mx)
		}
	}
}

// outputTile returns the output tile (ty, tx): its index, its rows and columns inside the
// board, and in offs[r*4+c] the offset of its cell (r, c) in an output of g.zlen zeros, then
// [H*W][cout][B].
func (g *winoGeom) outputTile(ty, tx, cout, B int, offs *[16]int) (tile, rows, cols int) {
	rows, cols = min(4, g.h-4*ty), min(4, g.w-4*tx)
	for r := range rows {
		for c := range cols {
			offs[r*4+c] = g.zlen + ((4*ty+r)*g.w+4*tx+c)*cout*B
		}
	}
	return ty*g.tilesW + tx, rows, cols
}

// winoOutput applies the output transform to m ([36][out][T]) and writes
// relu(conv + bias [+ res]) into dst (g.zlen zeros, then [H*W][out][B]). res may alias dst.
func winoOutput(g *winoGeom, k *wino, m, dst, res []float32, B int) {
	T := g.tiles * B
	cout := k.out
	st := winoStride(cout, T)
	var t [24]float32
	var offs [16]int
	for ty := range g.tilesH {
		for tx := range g.tilesW {
			tile, rows, cols := g.outputTile(ty, tx, cout, B, &offs)
			for o := range cout {
				bias := k.bias[o]
				for b := range B {
					q := m[o*T+tile*B+b:]
					q = q[:35*st+1]
					// Columns: t := Aᵀ m (4x6).
					for c := range 6 {
						m0, m1, m2, m3, m4, m5 := q[c*st], q[(6+c)*st], q[(12+c)*st], q[(18+c)*st], q[(24+c)*st], q[(30+c)*st]
						a, s := m1+m2, m1-m2
						p, u := m3+m4, m3-m4
						t[c] = m0 + a + p
						t[6+c] = s + 2*u
						t[12+c] = a + 4*p
						t[18+c] = s + 8*u + m5
					}
					ob := o*B + b
					// Rows: y := t A (4x4), then bias, residual and ReLU.
					for r := range rows {
						m0, m1, m2, m3, m4, m5 := t[r*6], t[r*6+1], t[r*6+2], t[r*6+3], t[r*6+4], t[r*6+5]
						a, s := m1+m2, m1-m2
						p, u := m3+m4, m3-m4
						y := [4]float32{m0 + a + p + bias, s + 2*u + bias, a + 4*p + bias, s + 8*u + m5 + bias}
						if res != nil {
							for c := range cols {
								idx := offs[r*4+c] + ob
								dst[idx] = relu32(y[c] + res[idx])
							}
						} else {
							for c := range cols {
								dst[offs[r*4+c]+ob] = relu32(y[c])
							}
						}
					}
				}
			}
		}
	}
}

// conv1x1Pos runs a folded 1x1 convolution + bias + ReLU of a pos-major trunk output x
// (zlen zeros, then [H*W][in][B]) and writes it NCHW-flattened into flat (B x out*hw).
func conv1x1Pos(c *conv1, x, flat []float32, zlen, hw, B int, acc []float32) {
	acc = acc[:B]
	for pos := range hw {
		xp := x[zlen+pos*c.in*B : zlen+(pos+1)*c.in*B]
		for o := range c.out {
			b0 := c.bias[o]
			for b := range acc {
				acc[b] = b0
			}
			w := c.w[o*c.in : (o+1)*c.in]
			for i, wv := range w {
				xs := xp[i*B : i*B+B]
				for b := range acc {
					acc[b] += wv * xs[b]
				}
			}
			for b, v := range acc {
				flat[(b*c.out+o)*hw+pos] = max(v, 0)
			}
		}
	}
}

// forwardWino is the portable forward pass of the trunk and the head convolutions: it leaves
// the head features in n.pflat and n.vflat.
func (n *Net) forwardWino(input []float32, B int) {
	a := &n.arch
	hw := n.hw
	for b := range B {
		for p := range a.Planes {
			src := input[(b*a.Planes+p)*hw : (b*a.Planes+p+1)*hw]
			for pos, v := range src {
				n.win[n.geom.zlen+(pos*a.Planes+p)*B+b] = v
			}
		}
	}
	n.winoConv(&n.wstem, n.win, n.wx, nil, B)
	for i := range n.wblocks {
		n.winoConv(&n.wblocks[i][0], n.wx, n.wh, nil, B)
		n.winoConv(&n.wblocks[i][1], n.wh, n.wx, n.wx, B)
	}
	conv1x1Pos(&n.pconv, n.wx, n.pflat, n.geom.zlen, hw, B, n.acc)
	conv1x1Pos(&n.vconv, n.wx, n.vflat, n.geom.zlen, hw, B, n.acc)
}

// winoConv computes dst = relu(conv(src) + bias [+ res]) on pos-major activations.
func (n *Net) winoConv(k *wino, src, dst, res []float32, B int) {
	winoInput(&n.geom, src, k.in, B, n.wv)
	winoProducts(k, n.wv, n.wm, n.geom.tiles*B)
	winoOutput(&n.geom, k, n.wm, dst, res, B)
}

// relu32 is max(v, 0) without branches (clears v when its sign bit is set; -0 becomes +0).
func relu32(v float32) float32 {
	b := math.Float32bits(v)
	return math.Float32frombits(b &^ uint32(int32(b)>>31))
}
