//go:build goexperiment.simd && amd64

package nnue

import (
	"simd/archsimd"
	"unsafe"
)

// AVX2 kernels (GOEXPERIMENT=simd): the accumulator's lanes are the same bytes as the portable
// path's words, read sixteen int16 lanes at a time; rows are kept lane-wise (int16 two's
// complement) for them, and the output weights as int16 (vpmaddwd). Used when the CPU has
// AVX2 and the net qualifies (Net.SIMD).
//
// Every kernel ends with vzeroupper (ClearAVXUpperBits), and no loop of theirs holds a
// legacy-SSE instruction (MOVQ to an XMM register, MOVUPS, ...): on CPUs that charge the
// switch from dirty 256-bit state to SSE code (seen here: an AMD EPYC guest, about 130 ns per
// switch) a single such MOVQ per iteration made the SCReLU output kernel ten times slower than
// the scalar one and the search 3.4 times slower than the portable build.
// TestSIMDKernelsNoLegacySSE reads the compiler's listing of this file to keep it so.

var cpuSIMD = archsimd.X86.AVX2()

// lanes16 views the 16 lanes at word offset 4*i of a.
func lanes16(a []uint64, i int) *[16]int16 {
	return (*[16]int16)(unsafe.Pointer(&a[4*i]))
}

// addRowSIMD sets dst = src + row lane-wise (len(dst) words, a multiple of 4; row has 4*len(dst) lanes).
func addRowSIMD(dst, src []uint64, row []int16) {
	n := len(dst) / 4
	_ = src[len(dst)-1]
	_ = row[16*n-1]
	for i := range n {
		s := archsimd.LoadInt16x16(lanes16(src, i))
		r := archsimd.LoadInt16x16((*[16]int16)(row[16*i:]))
		s.Add(r).Store(lanes16(dst, i))
	}
	archsimd.ClearAVXUpperBits()
}

// subRowSIMD sets dst = src - row lane-wise.
func subRowSIMD(dst, src []uint64, row []int16) {
	n := len(dst) / 4
	_ = src[len(dst)-1]
	_ = row[16*n-1]
	for i := range n {
		s := archsimd.LoadInt16x16(lanes16(src, i))
		r := archsimd.LoadInt16x16((*[16]int16)(row[16*i:]))
		s.Sub(r).Store(lanes16(dst, i))
	}
	archsimd.ClearAVXUpperBits()
}

// dotClipSIMD returns sum_i CReLU(lane i of a) * w[i] (w: 4*len(a) int16 weights).
func dotClipSIMD(a []uint64, w []int16, qa int16) int64 {
	n := len(a) / 4
	if n == 0 {
		return 0
	}
	_ = w[16*n-1]
	bias := archsimd.BroadcastInt16x16(-0x8000)
	zero := archsimd.BroadcastInt16x16(0)
	top := archsimd.BroadcastInt16x16(qa)
	var s archsimd.Int32x8
	pa := unsafe.Pointer(unsafe.SliceData(a)) // read unchecked, as dotSqSIMD
	pw := unsafe.Pointer(unsafe.SliceData(w))
	for i := range uintptr(n) {
		v := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pa, 32*i))).Xor(bias)
		c := v.Max(zero).Min(top)
		s = s.Add(c.DotProductPairs(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pw, 32*i)))))
	}
	return sumLanes(s)
}

// dotSqSIMD returns sum_i SCReLU(lane i of a) * w[i] (w: 4*len(a) int16 weights), equal to
// dotSq: each lane is clipped to c in [0, qa] (qa = 1 << shift, 1 <= shift <= 15), its
// square c*c is formed as its high and low 16 bits (vpmulhw, vpmullw) and put back together,
// s = (c*c) >> shift = hi << (16-shift) | lo >> shift (logical; s <= qa fits int16, exactly
// the scalar path's rounding down), then s times the weights goes through vpmaddwd as CReLU's
// c does. Both shifts are products with m = 1 << (16-shift): the low half of hi*m (vpmullw)
// and the unsigned high half of lo*m (vpmulhuw). A shift by a variable count would move the
// count into an XMM register in every iteration with a legacy-SSE MOVQ, which some CPUs
// charge hundreds of cycles after 256-bit code (the file's comment).
//
// The lanes and weights are read unchecked through pointers (the lengths are checked once):
// with checked slice expressions each load took a bounds check and more (40 instructions a
// chunk, now 18).
func dotSqSIMD(a []uint64, w []int16, qa int16, shift uint64) int64 {
	n := len(a) / 4
	if n == 0 {
		return 0
	}
	_ = w[16*n-1]
	bias := archsimd.BroadcastInt16x16(-0x8000)
	zero := archsimd.BroadcastInt16x16(0)
	top := archsimd.BroadcastInt16x16(qa)
	m := archsimd.BroadcastInt16x16(int16(1 << (16 - shift)))
	mu := m.AsUint16x16()
	var s archsimd.Int32x8
	pa := unsafe.Pointer(unsafe.SliceData(a))
	pw := unsafe.Pointer(unsafe.SliceData(w))
	for i := range uintptr(n) {
		v := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pa, 32*i))).Xor(bias)
		c := v.Max(zero).Min(top)
		hi := c.MulHigh(c).Mul(m)
		lo := c.Mul(c).AsUint16x16().MulHigh(mu).AsInt16x16()
		s = s.Add(hi.Or(lo).DotProductPairs(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pw, 32*i)))))
	}
	return sumLanes(s)
}

// dotSq2SIMD is dotSqSIMD(us, w[:16n]) + dotSqSIMD(them, w[16n:32n]) (n = len(us)/4 chunks,
// len(them) = len(us)) in one pass: the output layer of both views, with one call, one lane
// sum and one vzeroupper per evaluation. Each view keeps its own int32 lanes (outFitsSIMD
// bounds one view's sum).
func dotSq2SIMD(us, them []uint64, w []int16, qa int16, shift uint64) int64 {
	n := len(us) / 4
	if n == 0 {
		return 0
	}
	_ = them[4*n-1]
	_ = w[32*n-1]
	bias := archsimd.BroadcastInt16x16(-0x8000)
	zero := archsimd.BroadcastInt16x16(0)
	top := archsimd.BroadcastInt16x16(qa)
	m := archsimd.BroadcastInt16x16(int16(1 << (16 - shift)))
	mu := m.AsUint16x16()
	var s, t archsimd.Int32x8
	pa := unsafe.Pointer(unsafe.SliceData(us))
	pb := unsafe.Pointer(unsafe.SliceData(them))
	pw := unsafe.Pointer(unsafe.SliceData(w))
	off := uintptr(32 * n) // bytes from a view's weights to the other's
	for i := range uintptr(n) {
		o := 32 * i // the chunk's byte offset (no pointer is formed past a slice's end)
		v := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pa, o))).Xor(bias).Max(zero).Min(top)
		x := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pb, o))).Xor(bias).Max(zero).Min(top)
		vs := v.MulHigh(v).Mul(m).Or(v.Mul(v).AsUint16x16().MulHigh(mu).AsInt16x16())
		xs := x.MulHigh(x).Mul(m).Or(x.Mul(x).AsUint16x16().MulHigh(mu).AsInt16x16())
		s = s.Add(vs.DotProductPairs(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pw, o)))))
		t = t.Add(xs.DotProductPairs(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(pw, off+o)))))
	}
	return sumLanes2(s, t)
}

// sumLanes2 is sumLanes(s) + sumLanes(t).
func sumLanes2(s, t archsimd.Int32x8) int64 {
	var out [16]int32
	s.Store((*[8]int32)(out[:8]))
	t.Store((*[8]int32)(out[8:]))
	archsimd.ClearAVXUpperBits()
	var sum int64
	for i := 0; i < 16; i += 4 {
		sum += int64(out[i]) + int64(out[i+1]) + int64(out[i+2]) + int64(out[i+3])
	}
	return sum
}

// sumLanes returns the sum of s's eight int32 lanes (in int64), the end of the output
// kernels. The lanes go through memory and are read back one by one: the store orders the
// clearing of the upper halves after the last 256-bit instruction (the compiler is free to
// move it among register operations), and indexing, unlike ranging over the array, makes no
// copy of it with legacy-SSE moves.
func sumLanes(s archsimd.Int32x8) int64 {
	var out [8]int32
	s.Store(&out)
	archsimd.ClearAVXUpperBits()
	return int64(out[0]) + int64(out[1]) + int64(out[2]) + int64(out[3]) +
		int64(out[4]) + int64(out[5]) + int64(out[6]) + int64(out[7])
}

// tradeRowsSIMD sets dst = src + sum_k (add[k] - sub[k]) lane-wise over one view's
// 4*len(dst) lanes: a move's window updates for that view in one pass, each accumulator lane
// loaded and stored once (add and sub point at the changed windows' new and old feature rows
// of that view in the lane-wise feature transformer, each row 4*len(dst) lanes, which the
// caller checks). A view of 128 lanes (the shipped nets') keeps all eight of its 16-lane
// chunks in registers while the windows' rows stream through; other widths go four chunks,
// then one, at a time. The rows come as pointers, so that each load is one instruction with
// its offset folded in: from a table plus a scaled index the compiler forms every load's
// address with two LEAQs, and through checked slice expressions (the kernel before) it ran
// three times the instructions of the C++ export's kernel.
func tradeRowsSIMD(dst, src []uint64, add, sub []unsafe.Pointer) {
	n := len(dst) / 4
	if n == 0 {
		return
	}
	_ = src[4*n-1]
	_ = dst[4*n-1]
	sub = sub[:len(add)]
	d := unsafe.Pointer(unsafe.SliceData(dst))
	s := unsafe.Pointer(unsafe.SliceData(src))
	if n == 8 {
		s0 := archsimd.LoadInt16x16((*[16]int16)(s))
		s1 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 32)))
		s2 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 64)))
		s3 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 96)))
		s4 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 128)))
		s5 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 160)))
		s6 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 192)))
		s7 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, 224)))
		for k, r := range add {
			q := sub[k]
			s0 = s0.Add(archsimd.LoadInt16x16((*[16]int16)(r)).Sub(archsimd.LoadInt16x16((*[16]int16)(q))))
			s1 = s1.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 32))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 32)))))
			s2 = s2.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 64))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 64)))))
			s3 = s3.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 96))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 96)))))
			s4 = s4.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 128))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 128)))))
			s5 = s5.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 160))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 160)))))
			s6 = s6.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 192))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 192)))))
			s7 = s7.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 224))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 224)))))
		}
		s0.Store((*[16]int16)(unsafe.Add(d, 0)))
		s1.Store((*[16]int16)(unsafe.Add(d, 32)))
		s2.Store((*[16]int16)(unsafe.Add(d, 64)))
		s3.Store((*[16]int16)(unsafe.Add(d, 96)))
		s4.Store((*[16]int16)(unsafe.Add(d, 128)))
		s5.Store((*[16]int16)(unsafe.Add(d, 160)))
		s6.Store((*[16]int16)(unsafe.Add(d, 192)))
		s7.Store((*[16]int16)(unsafe.Add(d, 224)))
		archsimd.ClearAVXUpperBits()
		return
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		o := uintptr(32 * i)
		s0 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, o+0)))
		s1 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, o+32)))
		s2 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, o+64)))
		s3 := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, o+96)))
		for k, r := range add {
			r, q := unsafe.Add(r, o), unsafe.Add(sub[k], o)
			s0 = s0.Add(archsimd.LoadInt16x16((*[16]int16)(r))).Sub(archsimd.LoadInt16x16((*[16]int16)(q)))
			s1 = s1.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 32)))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 32))))
			s2 = s2.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 64)))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 64))))
			s3 = s3.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, 96)))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(q, 96))))
		}
		s0.Store((*[16]int16)(unsafe.Add(d, o+0)))
		s1.Store((*[16]int16)(unsafe.Add(d, o+32)))
		s2.Store((*[16]int16)(unsafe.Add(d, o+64)))
		s3.Store((*[16]int16)(unsafe.Add(d, o+96)))
	}
	for ; i < n; i++ {
		o := uintptr(32 * i)
		v := archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(s, o)))
		for k, r := range add {
			v = v.Add(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(r, o)))).Sub(archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(sub[k], o))))
		}
		v.Store((*[16]int16)(unsafe.Add(d, o)))
	}
	archsimd.ClearAVXUpperBits()
}
