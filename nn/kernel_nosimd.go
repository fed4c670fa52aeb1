//go:build !(goexperiment.simd && amd64)

package nn

// Without GOEXPERIMENT=simd on amd64 the Net always uses the portable kernels (gonum, or plain Go with -tags purego); simdOK
// stays false, so these are never called.

func axpySIMD(a float32, x, y []float32) {
	panic("nn: archsimd kernel called in a build without it")
}

func winoInputSIMD(g *winoGeom, x []float32, cin, B int, v []float32) {
	panic("nn: archsimd kernel called in a build without it")
}

func winoProductsSIMD(k *wino, v, m []float32, T int) {
	panic("nn: archsimd kernel called in a build without it")
}

func winoOutputSIMD(g *winoGeom, k *wino, m, dst, res []float32, B int) {
	panic("nn: archsimd kernel called in a build without it")
}

func conv1x1SIMD(c *conv1, x, flat []float32, hw, B int) {
	panic("nn: archsimd kernel called in a build without it")
}
