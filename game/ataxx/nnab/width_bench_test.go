package nnab

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"colony/nn/nnue"
)

// BenchmarkNetWidth: the unpruned midgame search (depth 6) on nets of each accumulator
// width, to weigh a wider net's evaluation against its speed. NNAB_BENCH_NETS=a.nnue,b.nnue
// benchmarks those files instead of random nets (NNAB_PORTABLE=1: the portable kernels).
func BenchmarkNetWidth(b *testing.B) {
	var nets []*nnue.Net
	var names []string
	if files := os.Getenv("NNAB_BENCH_NETS"); files != "" {
		for _, f := range strings.Split(files, ",") {
			m, err := nnue.Load(f)
			if err != nil {
				b.Fatal(err)
			}
			n, err := nnue.Quantize(m, 0)
			if err != nil {
				b.Fatal(err)
			}
			nets, names = append(nets, n), append(names, fmt.Sprintf("%s-%d", m.Arch, len(nets)))
		}
	} else {
		for _, h := range []int{64, 128, 256} {
			nets, names = append(nets, testNet(b, h, 0)), append(names, fmt.Sprintf("hidden%d", h))
		}
	}
	for i, n := range nets {
		if os.Getenv("NNAB_PORTABLE") != "" {
			n.SetSIMD(false)
		}
		b.Run(names[i], func(b *testing.B) { benchSearch(b, benchMidgame(b), 6, n, true) })
	}
}
