//go:build goexperiment.simd && amd64

package nn

import (
	"simd/archsimd"
	"unsafe"
)

// AVX2/FMA kernels written with Go's experimental simd/archsimd package (build with
// GOEXPERIMENT=simd). They are used only when the CPU has AVX2 and FMA: the Winograd pipeline
// of winosimd.go and the axpy of the dense heads.
//
// The kernels use unchecked pointer arithmetic; each one checks the sizes of its buffers once
// on entry against the largest index it forms. Each ends with vzeroupper (and clears the
// upper halves before any scalar tail): on CPUs that charge the switch from dirty 256-bit
// state to legacy-SSE code (the nnue kernels' comment) the callers' SSE code would pay it.
// The Winograd transforms still copy vectors through their t and y arrays with the
// compiler's SSE moves (about 2x faster than the portable build here all the same).

func init() {
	simdOK = archsimd.X86.AVX2() && archsimd.X86.FMA()
}

// axpySIMD computes y += a*x (len(x) >= len(y)).
func axpySIMD(a float32, x, y []float32) {
	n := len(y)
	x = x[:n]
	av := archsimd.BroadcastFloat32x8(a)
	i := 0
	for ; i+8 <= n; i += 8 {
		xv := archsimd.LoadFloat32x8Slice(x[i : i+8])
		yv := archsimd.LoadFloat32x8Slice(y[i : i+8])
		xv.MulAdd(av, yv).StoreSlice(y[i : i+8])
	}
	archsimd.ClearAVXUpperBits() // before the scalar (SSE) tail
	for ; i < n; i++ {
		y[i] += a * x[i]
	}
}

// ld8 loads the 8 floats at p + 4*i bytes.
func ld8(p unsafe.Pointer, i int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(p, i*4)))
}

// st8 stores x at p + 4*i bytes.
func st8(x archsimd.Float32x8, p unsafe.Pointer, i int) {
	x.Store((*[8]float32)(unsafe.Add(p, i*4)))
}

// bc8 broadcasts the float at p + 4*i bytes.
func bc8(p unsafe.Pointer, i int) archsimd.Float32x8 {
	return archsimd.BroadcastFloat32x8(*(*float32)(unsafe.Add(p, i*4)))
}

// winoInputSIMD computes the transformed input v ([36][T][cin], ξ-stride winoStride(cin, T))
// of x (g.zlen zeros, then [H*W][B][cin]), 8 channels at a time. cin is a multiple of 8.
func winoInputSIMD(g *winoGeom, x []float32, cin, B int, v []float32) {
	T := g.tiles * B
	st := winoStride(cin, roundUp(T, 4))
	if cin%8 != 0 || g.zlen < cin*B || len(x) < g.zlen+g.h*g.w*cin*B || len(v) < 35*st+T*cin {
		panic("nn: winoInputSIMD: bad sizes")
	}
	xp := unsafe.Pointer(unsafe.SliceData(x))
	vp := unsafe.Pointer(unsafe.SliceData(v))
	p4, m4 := archsimd.BroadcastFloat32x8(4), archsimd.BroadcastFloat32x8(-4)
	m5 := archsimd.BroadcastFloat32x8(-5)
	p2, m2 := archsimd.BroadcastFloat32x8(2), archsimd.BroadcastFloat32x8(-2)
	var offs [36]int
	var t [36]archsimd.Float32x8
	for ty := range g.tilesH {
		for tx := range g.tilesW {
			tile := ty*g.tilesW + tx
			g.tileOffsets(ty, tx, cin*B, &offs)
			for b := range B {
				for c0 := 0; c0 < cin; c0 += 8 {
					cb := b*cin + c0
					// Columns: t := Bᵀ d.
					for c := range 6 {
						d0 := ld8(xp, offs[c]+cb)
						d1 := ld8(xp, offs[6+c]+cb)
						d2 := ld8(xp, offs[12+c]+cb)
						d3 := ld8(xp, offs[18+c]+cb)
						d4 := ld8(xp, offs[24+c]+cb)
						d5 := ld8(xp, offs[30+c]+cb)
						t[c] = d2.MulAdd(m5, d0.MulAdd(p4, d4))
						t[6+c] = d1.Add(d2).MulAdd(m4, d3.Add(d4))
						t[12+c] = d1.Sub(d2).MulAdd(p4, d4.Sub(d3))
						t[18+c] = d3.Sub(d1).MulAdd(p2, d4.Sub(d2))
						t[24+c] = d3.Sub(d1).MulAdd(m2, d4.Sub(d2))
						t[30+c] = d3.MulAdd(m5, d1.MulAdd(p4, d5))
					}
					// Rows: v := t B, one vector per transformed point.
					o := (tile*B+b)*cin + c0
					for r := range 6 {
						d0, d1, d2, d3, d4, d5 := t[r*6], t[r*6+1], t[r*6+2], t[r*6+3], t[r*6+4], t[r*6+5]
						q := o + r*6*st
						st8(d2.MulAdd(m5, d0.MulAdd(p4, d4)), vp, q)
						st8(d1.Add(d2).MulAdd(m4, d3.Add(d4)), vp, q+st)
						st8(d1.Sub(d2).MulAdd(p4, d4.Sub(d3)), vp, q+2*st)
						st8(d3.Sub(d1).MulAdd(p2, d4.Sub(d2)), vp, q+3*st)
						st8(d3.Sub(d1).MulAdd(m2, d4.Sub(d2)), vp, q+4*st)
						st8(d3.MulAdd(m5, d1.MulAdd(p4, d5)), vp, q+5*st)
					}
				}
			}
		}
	}
	archsimd.ClearAVXUpperBits()
}

// winoProductsSIMD computes m[ξ] = v[ξ] U[ξ] ([36][T][out] from [36][T][in] and k.u
// [36][in][out]) with 4 rows x 16 output channels of each product kept in registers.
// T is a multiple of 4 (callers round the row count up; the extra rows of v hold stale finite
// values and their products are never read) and k.out of 8.
func winoProductsSIMD(k *wino, v, m []float32, T int) {
	cin, cout := k.in, k.out
	sv, sm := winoStride(cin, T), winoStride(cout, T)
	if T%4 != 0 || cout%8 != 0 || len(v) < 35*sv+T*cin || len(m) < 35*sm+T*cout || len(k.u) < 36*cin*cout {
		panic("nn: winoProductsSIMD: bad sizes")
	}
	vp := unsafe.Pointer(unsafe.SliceData(v))
	mp := unsafe.Pointer(unsafe.SliceData(m))
	up := unsafe.Pointer(unsafe.SliceData(k.u))
	for xi := range 36 {
		ux := unsafe.Add(up, xi*cin*cout*4)
		for t0 := 0; t0 < T; t0 += 4 {
			v0 := unsafe.Add(vp, (xi*sv+t0*cin)*4)
			v1 := unsafe.Add(v0, cin*4)
			v2 := unsafe.Add(v1, cin*4)
			v3 := unsafe.Add(v2, cin*4)
			mo := xi*sm + t0*cout
			o := 0
			for ; o+16 <= cout; o += 16 {
				var a00, a01, a10, a11, a20, a21, a30, a31 archsimd.Float32x8
				// Offsets, not advancing pointers: a pointer stepped past the last
				// iteration could leave the allocation.
				u := o
				for i := range cin {
					u0 := ld8(ux, u)
					u1 := ld8(ux, u+8)
					b := bc8(v0, i)
					a00 = b.MulAdd(u0, a00)
					a01 = b.MulAdd(u1, a01)
					b = bc8(v1, i)
					a10 = b.MulAdd(u0, a10)
					a11 = b.MulAdd(u1, a11)
					b = bc8(v2, i)
					a20 = b.MulAdd(u0, a20)
					a21 = b.MulAdd(u1, a21)
					b = bc8(v3, i)
					a30 = b.MulAdd(u0, a30)
					a31 = b.MulAdd(u1, a31)
					u += cout
				}
				q := mo + o
				st8(a00, mp, q)
				st8(a01, mp, q+8)
				st8(a10, mp, q+cout)
				st8(a11, mp, q+cout+8)
				st8(a20, mp, q+2*cout)
				st8(a21, mp, q+2*cout+8)
				st8(a30, mp, q+3*cout)
				st8(a31, mp, q+3*cout+8)
			}
			if o < cout {
				var a0, a1, a2, a3 archsimd.Float32x8
				u := o
				for i := range cin {
					u0 := ld8(ux, u)
					a0 = bc8(v0, i).MulAdd(u0, a0)
					a1 = bc8(v1, i).MulAdd(u0, a1)
					a2 = bc8(v2, i).MulAdd(u0, a2)
					a3 = bc8(v3, i).MulAdd(u0, a3)
					u += cout
				}
				q := mo + o
				st8(a0, mp, q)
				st8(a1, mp, q+cout)
				st8(a2, mp, q+2*cout)
				st8(a3, mp, q+3*cout)
			}
		}
	}
	archsimd.ClearAVXUpperBits()
}

// winoOutputSIMD applies the output transform to m ([36][T][out]) and writes
// relu(conv + bias [+ res]) into dst (g.zlen zeros, then [H*W][B][out]), 8 channels at a time.
// res may alias dst.
func winoOutputSIMD(g *winoGeom, k *wino, m, dst, res []float32, B int) {
	T := g.tiles * B
	cout := k.out
	st := winoStride(cout, roundUp(T, 4))
	n := g.zlen + g.h*g.w*cout*B
	if cout%8 != 0 || len(m) < 35*st+T*cout || len(dst) < n || (res != nil && len(res) < n) || len(k.bias) < cout {
		panic("nn: winoOutputSIMD: bad sizes")
	}
	mp := unsafe.Pointer(unsafe.SliceData(m))
	dp := unsafe.Pointer(unsafe.SliceData(dst))
	var rp unsafe.Pointer
	if res != nil {
		rp = unsafe.Pointer(unsafe.SliceData(res))
	}
	bp := unsafe.Pointer(unsafe.SliceData(k.bias))
	p2, p4, p8 := archsimd.BroadcastFloat32x8(2), archsimd.BroadcastFloat32x8(4), archsimd.BroadcastFloat32x8(8)
	zero := archsimd.BroadcastFloat32x8(0)
	var t [24]archsimd.Float32x8
	var y [4]archsimd.Float32x8
	var offs [16]int
	for ty := range g.tilesH {
		for tx := range g.tilesW {
			tile, rows, cols := g.outputTile(ty, tx, cout, B, &offs)
			for b := range B {
				for o0 := 0; o0 < cout; o0 += 8 {
					bias := ld8(bp, o0)
					q := (tile*B+b)*cout + o0
					// Columns: t := Aᵀ m (4x6).
					for c := range 6 {
						m0 := ld8(mp, q+c*st)
						m1 := ld8(mp, q+(6+c)*st)
						m2 := ld8(mp, q+(12+c)*st)
						m3 := ld8(mp, q+(18+c)*st)
						m4 := ld8(mp, q+(24+c)*st)
						m5 := ld8(mp, q+(30+c)*st)
						a, s := m1.Add(m2), m1.Sub(m2)
						p, u := m3.Add(m4), m3.Sub(m4)
						t[c] = m0.Add(a).Add(p)
						t[6+c] = u.MulAdd(p2, s)
						t[12+c] = p.MulAdd(p4, a)
						t[18+c] = u.MulAdd(p8, s).Add(m5)
					}
					ob := b*cout + o0
					// Rows: y := t A (4x4), then bias, residual and ReLU.
					for r := range rows {
						m0, m1, m2, m3, m4, m5 := t[r*6], t[r*6+1], t[r*6+2], t[r*6+3], t[r*6+4], t[r*6+5]
						a, s := m1.Add(m2), m1.Sub(m2)
						p, u := m3.Add(m4), m3.Sub(m4)
						y[0] = m0.Add(a).Add(p).Add(bias)
						y[1] = u.MulAdd(p2, s).Add(bias)
						y[2] = p.MulAdd(p4, a).Add(bias)
						y[3] = u.MulAdd(p8, s).Add(m5).Add(bias)
						if rp != nil {
							for c := range cols {
								idx := offs[r*4+c] + ob
								st8(y[c].Add(ld8(rp, idx)).Max(zero), dp, idx)
							}
						} else {
							for c := range cols {
								st8(y[c].Max(zero), dp, offs[r*4+c]+ob)
							}
						}
					}
				}
			}
		}
	}
	archsimd.ClearAVXUpperBits()
}

// conv1x1SIMD runs a folded 1x1 convolution + bias + ReLU of x ([hw][B][c.in], c.in a
// multiple of 8) and writes it NCHW-flattened into flat (B x out*hw).
func conv1x1SIMD(c *conv1, x, flat []float32, hw, B int) {
	cin := c.in
	if cin%8 != 0 || len(x) < hw*B*cin || len(c.w) < c.out*cin || len(flat) < B*c.out*hw {
		panic("nn: conv1x1SIMD: bad sizes")
	}
	xp := unsafe.Pointer(unsafe.SliceData(x))
	wp := unsafe.Pointer(unsafe.SliceData(c.w))
	for pos := range hw {
		for b := range B {
			xb := (pos*B + b) * cin
			for o := range c.out {
				var acc archsimd.Float32x8
				for i := 0; i < cin; i += 8 {
					acc = ld8(xp, xb+i).MulAdd(ld8(wp, o*cin+i), acc)
				}
				q := acc.GetLo().Add(acc.GetHi())
				s := (q.GetElem(0) + q.GetElem(1)) + (q.GetElem(2) + q.GetElem(3))
				archsimd.ClearAVXUpperBits() // before the scalar (SSE) code
				flat[(b*c.out+o)*hw+pos] = max(s+c.bias[o], 0)
			}
		}
	}
}
