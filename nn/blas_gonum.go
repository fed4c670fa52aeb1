//go:build !purego

package nn

import gblas "gonum.org/v1/gonum/blas/gonum"

// The default build runs the portable forward pass's two BLAS kernels in gonum (SSE assembly
// on amd64); `-tags purego` (the exporter's build) swaps in the plain-Go loops of
// blas_purego.go.

// portableBackend is what Net.Backend reports without the AVX2 kernels.
const portableBackend = "gonum"

var blas32 gblas.Implementation

// saxpy computes y += a*x over len(y) values (len(x) >= len(y)).
func saxpy(a float32, x, y []float32) { blas32.Saxpy(len(y), a, x, 1, y, 1) }

// sger computes the rank-1 update a += x yᵀ of the m x n row-major matrix a (row stride n).
func sger(m, n int, x, y, a []float32) { blas32.Sger(m, n, 1, x, 1, y, 1, a, n) }
