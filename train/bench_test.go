package train

import (
	"fmt"
	"testing"

	"colony/game/ataxx"
	"colony/internal/cputime"
	"colony/nn"
	"colony/nn/nnue"
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

// BenchmarkNNUETrainStep measures the nnue trainer's throughput (Step on a filled batch of
// 1024; samples per wall second and per process CPU second) for cell input, window input with
// its sparse first layer (on one graph, and split between two run side by side), and window
// input through the dense product (the reference); CReLU, 128 lanes.
func BenchmarkNNUETrainStep(b *testing.B) {
	for _, c := range []struct {
		name    string
		in      nnue.Input
		dense   bool
		threads int
	}{{"cells", nnue.CellInput, true, 1}, {"windows", nnue.WindowInput, false, 1}, {"windows-2threads", nnue.WindowInput, false, 2},
		{"windows-dense", nnue.WindowInput, true, 1}} {
		b.Run(c.name, func(b *testing.B) {
			a := nnueArch(128, 0)
			if c.in == nnue.WindowInput {
				a.Input, a.Width = c.in, ataxx.Size
			}
			const B = 1024
			tr, err := newNNUETrainer(nnue.NewRandom(a, 1), Config{Batch: B, LR: 1e-3}, c.dense, c.threads)
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			fillNNUE(b, tr, a, randomPositions(B, 3))
			if _, err := tr.Step(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			c0 := cputime.Process()
			for range b.N {
				if _, err := tr.Step(); err != nil {
					b.Fatal(err)
				}
			}
			cpu := (cputime.Process() - c0).Seconds()
			b.ReportMetric(float64(B*b.N)/b.Elapsed().Seconds(), "samples/s")
			b.ReportMetric(float64(B*b.N)/cpu, "samples/cpu-s")
		})
	}
}

// BenchmarkNNUEValidate measures the validation pass (the training graph's forward-only
// subgraph, validate.go) against a training step, on 4,096 positions through batches of 1024:
// window input, 256 lanes, SCReLU.
func BenchmarkNNUEValidate(b *testing.B) {
	a := windowArch(256, 0)
	a.Activation = nnue.SCReLU
	const B = 1024
	tr, err := NewNNUETrainer(nnue.NewRandom(a, 1), Config{Batch: B, LR: 1e-3})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	in := make([]float32, ataxx.InputSize)
	v := &valSet{}
	for _, p := range randomPositions(4*B, 3) {
		p.Encode(in)
		pc, stm, err := a.Pieces(in)
		if err != nil {
			b.Fatal(err)
		}
		v.pieces, v.stm, v.target, v.result = append(v.pieces, pc), append(v.stm, uint8(stm)), append(v.target, 0.1), append(v.result, 0)
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"validate", func() error { _, _, err := tr.validate(v); return err }},
		{"train-step", func() error {
			for range 4 {
				if _, err := tr.Step(); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if err := c.run(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			c0 := cputime.Process()
			for range b.N {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(4*B*b.N)/b.Elapsed().Seconds(), "samples/s")
			b.ReportMetric(float64(4*B*b.N)/(cputime.Process()-c0).Seconds(), "samples/cpu-s")
		})
	}
}
