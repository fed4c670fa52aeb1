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
	_ = w[16*n-1]
	bias := archsimd.BroadcastInt16x16(-0x8000)
	zero := archsimd.BroadcastInt16x16(0)
	top := archsimd.BroadcastInt16x16(qa)
	var s archsimd.Int32x8
	for i := range n {
		v := archsimd.LoadInt16x16(lanes16(a, i)).Xor(bias)
		c := v.Max(zero).Min(top)
		s = s.Add(c.DotProductPairs(archsimd.LoadInt16x16((*[16]int16)(w[16*i:]))))
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
func dotSqSIMD(a []uint64, w []int16, qa int16, shift uint64) int64 {
	n := len(a) / 4
	_ = w[16*n-1]
	bias := archsimd.BroadcastInt16x16(-0x8000)
	zero := archsimd.BroadcastInt16x16(0)
	top := archsimd.BroadcastInt16x16(qa)
	m := archsimd.BroadcastInt16x16(int16(1 << (16 - shift)))
	mu := m.AsUint16x16()
	var s archsimd.Int32x8
	for i := range n {
		v := archsimd.LoadInt16x16(lanes16(a, i)).Xor(bias)
		c := v.Max(zero).Min(top)
		hi := c.MulHigh(c).Mul(m)
		lo := c.Mul(c).AsUint16x16().MulHigh(mu).AsInt16x16()
		s = s.Add(hi.Or(lo).DotProductPairs(archsimd.LoadInt16x16((*[16]int16)(w[16*i:]))))
	}
	return sumLanes(s)
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

// tradeRowsSIMD sets dst = src + sum_k (ft[add[k]:] - ft[sub[k]:]) lane-wise over one view's
// 4*len(dst) lanes: a move's window updates for that view in one pass, each accumulator lane
// loaded and stored once (ft is the feature transformer lane-wise, add and sub the lane
// offsets of each changed window's new and old feature rows). Four 16-lane chunks are kept in
// registers while the windows' rows stream through; a view of fewer than 64 lanes is done a
// chunk at a time.
func tradeRowsSIMD(dst, src []uint64, ft []int16, add, sub []int32) {
	n := len(dst) / 4
	_ = src[len(dst)-1]
	sub = sub[:len(add)]
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 := archsimd.LoadInt16x16(lanes16(src, i))
		s1 := archsimd.LoadInt16x16(lanes16(src, i+1))
		s2 := archsimd.LoadInt16x16(lanes16(src, i+2))
		s3 := archsimd.LoadInt16x16(lanes16(src, i+3))
		for k, a := range add {
			r := ft[int(a)+16*i:][:64]
			q := ft[int(sub[k])+16*i:][:64]
			s0 = s0.Add(archsimd.LoadInt16x16((*[16]int16)(r[0:16]))).Sub(archsimd.LoadInt16x16((*[16]int16)(q[0:16])))
			s1 = s1.Add(archsimd.LoadInt16x16((*[16]int16)(r[16:32]))).Sub(archsimd.LoadInt16x16((*[16]int16)(q[16:32])))
			s2 = s2.Add(archsimd.LoadInt16x16((*[16]int16)(r[32:48]))).Sub(archsimd.LoadInt16x16((*[16]int16)(q[32:48])))
			s3 = s3.Add(archsimd.LoadInt16x16((*[16]int16)(r[48:64]))).Sub(archsimd.LoadInt16x16((*[16]int16)(q[48:64])))
		}
		s0.Store(lanes16(dst, i))
		s1.Store(lanes16(dst, i+1))
		s2.Store(lanes16(dst, i+2))
		s3.Store(lanes16(dst, i+3))
	}
	for ; i < n; i++ {
		s := archsimd.LoadInt16x16(lanes16(src, i))
		for k, a := range add {
			r := (*[16]int16)(ft[int(a)+16*i:])
			q := (*[16]int16)(ft[int(sub[k])+16*i:])
			s = s.Add(archsimd.LoadInt16x16(r)).Sub(archsimd.LoadInt16x16(q))
		}
		s.Store(lanes16(dst, i))
	}
	archsimd.ClearAVXUpperBits()
}
