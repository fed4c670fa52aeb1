//go:build purego

package nn

// portableBackend is what Net.Backend reports without the AVX2 kernels.
const portableBackend = "purego"

// Plain-Go replacements of the two BLAS kernels the portable forward pass uses (gonum's
// Saxpy and Sger): see blas_gonum.go for the default build.

// saxpy computes y += a*x over len(y) values (len(x) >= len(y)).
func saxpy(a float32, x, y []float32) {
	x = x[:len(y)]
	for len(y) >= 8 {
		xs := x[:8:8]
		ys := y[:8:8]
		ys[0] += a * xs[0]
		ys[1] += a * xs[1]
		ys[2] += a * xs[2]
		ys[3] += a * xs[3]
		ys[4] += a * xs[4]
		ys[5] += a * xs[5]
		ys[6] += a * xs[6]
		ys[7] += a * xs[7]
		x, y = x[8:], y[8:]
	}
	x = x[:len(y)]
	for i := range y {
		y[i] += a * x[i]
	}
}

// sger computes the rank-1 update a += x yᵀ of the m x n row-major matrix a (row stride n),
// four rows at a time so that each y value is loaded once per four rows.
func sger(m, n int, x, y, a []float32) {
	y = y[:n]
	x = x[:m]
	r := 0
	for ; r+4 <= m; r += 4 {
		x0, x1, x2, x3 := x[r], x[r+1], x[r+2], x[r+3]
		a0 := a[r*n:][:n]
		a1 := a[(r+1)*n:][:n]
		a2 := a[(r+2)*n:][:n]
		a3 := a[(r+3)*n:][:n]
		for j := 0; j < n; j++ {
			v := y[j]
			a0[j] += x0 * v
			a1[j] += x1 * v
			a2[j] += x2 * v
			a3[j] += x3 * v
		}
	}
	for ; r < m; r++ {
		saxpy(x[r], y, a[r*n:r*n+n])
	}
}
