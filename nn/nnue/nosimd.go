//go:build !(goexperiment.simd && amd64)

package nnue

import "unsafe"

// Without GOEXPERIMENT=simd on amd64 only the portable kernels exist.

const cpuSIMD = false

func addRowSIMD(dst, src []uint64, row []int16)         { panic("nnue: no SIMD kernels in this build") }
func subRowSIMD(dst, src []uint64, row []int16)         { panic("nnue: no SIMD kernels in this build") }
func dotClipSIMD(a []uint64, w []int16, qa int16) int64 { panic("nnue: no SIMD kernels in this build") }
func dotSqSIMD(a []uint64, w []int16, qa int16, shift uint64) int64 {
	panic("nnue: no SIMD kernels in this build")
}
func tradeRowsSIMD(dst, src []uint64, add, sub []unsafe.Pointer) {
	panic("nnue: no SIMD kernels in this build")
}
func dotSq2SIMD(us, them []uint64, w []int16, qa int16, shift uint64) int64 {
	panic("nnue: no SIMD kernels in this build")
}
