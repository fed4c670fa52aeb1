package train

import (
	"fmt"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

// BenchmarkTrainStep measures training throughput (samples/s, batcher included) for the
// production-sized nets.
func BenchmarkTrainStep(b *testing.B) {
	for _, tc := range []struct{ blocks, channels, batch int }{{4, 32, 256}, {1, 8, 4}} {
		b.Run(fmt.Sprintf("%dx%d/b%d", tc.blocks, tc.channels, tc.batch), func(b *testing.B) {
			m := nn.NewRandom(nn.ArchFor(ataxx.Info, tc.blocks, tc.channels), 1)
			tr, err := NewTrainer(m, Config{Batch: tc.batch})
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			d := syntheticData(512, 2)
			d.arch = m.Arch
			c := &cycler{d: d}
			if _, err := tr.Step(c); err != nil { // first run allocates the machine's values
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := tr.Step(c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(tc.batch*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}
