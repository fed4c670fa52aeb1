package nn

import (
	"fmt"
	"runtime"
	"testing"

	"colony/game/ataxx"
	"colony/internal/cputime"
)

// BenchmarkForward measures one forward pass of the Ataxx nets on encoded positions, reporting
// microseconds per position and the achieved GFLOP/s (Arch.FLOPs per position). Run it on one
// core: go test -bench Forward -cpu 1 ./nn (add GOEXPERIMENT=simd for the AVX2 kernels).
// On Linux it also reports the thread's CPU time per position (cpu-us/pos), and GFLOP/s is
// computed from that CPU time, which stays meaningful when other processes share the cores.
func BenchmarkForward(b *testing.B) {
	for _, size := range [][2]int{{4, 32}, {6, 64}} {
		a := ArchFor(ataxx.Info, size[0], size[1])
		m := testModel(a, 1)
		for _, batch := range []int{1, 8} {
			b.Run(fmt.Sprintf("%dx%d/batch%d", size[0], size[1], batch), func(b *testing.B) {
				net, err := NewNet(m, batch)
				if err != nil {
					b.Fatal(err)
				}
				ps := randomPositions(batch, 1)
				in := make([]float32, batch*ataxx.InputSize)
				for i, p := range ps {
					p.Encode(in[i*ataxx.InputSize:])
				}
				pol := make([]float32, batch*ataxx.PolicySize)
				val := make([]float32, batch*ataxx.NumPlayers)
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0, cpuOK := cputime.Thread()
				for b.Loop() {
					if err := net.Forward(in, batch, pol, val); err != nil {
						b.Fatal(err)
					}
				}
				cpu1, _ := cputime.Thread()
				pos := float64(b.N) * float64(batch)
				sec := b.Elapsed().Seconds() / pos
				b.ReportMetric(sec*1e6, "us/pos")
				if cpuOK {
					// CPU time of this thread: immune to waiting for a core on a shared machine.
					sec = (cpu1 - cpu0).Seconds() / pos
					b.ReportMetric(sec*1e6, "cpu-us/pos")
				}
				b.ReportMetric(float64(a.FLOPs())/sec/1e9, "GFLOP/s")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
