package mctsengine

import (
	"runtime"
	"testing"

	"colony/game/ataxx"
	"colony/internal/cputime"
	"colony/mcts"
	"colony/nn"
)

// BenchmarkSearchNet measures whole PUCT playouts per second with a real network evaluator
// (random weights: the speed does not depend on them) from a midgame position, on one core.
// Build with GOEXPERIMENT=simd for the AVX2 kernel (the Makefile's `bench` does both).
func BenchmarkSearchNet(b *testing.B) {
	mid, err := ataxx.ParseBoard("..O...X/.O...X./....X.X/.XX.XXX/.X..X../O.....X/.X..... O")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name            string
		blocks, channel int
	}{{"4x32", 4, 32}, {"6x64", 6, 64}} {
		b.Run(c.name+"/b8", func(b *testing.B) {
			net, err := nn.NewNet(nn.NewRandom(nn.ArchFor(ataxx.Info, c.blocks, c.channel), 1), 8)
			if err != nil {
				b.Fatal(err)
			}
			cfg := mcts.DefaultConfig()
			cfg.BatchSize = 8
			s := mcts.New[ataxx.Position, ataxx.Move](cfg, nn.NewEvaluator[ataxx.Position, ataxx.Move](net))
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, cpuOK := cputime.Thread()
			playouts := 0
			for b.Loop() {
				s.Reset()
				res, err := s.Search(mid, mcts.Limit{Playouts: 800})
				if err != nil {
					b.Fatal(err)
				}
				playouts += res.Playouts
			}
			b.ReportMetric(float64(playouts)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(playouts), "us/playout")
			if cpu1, ok := cputime.Thread(); ok && cpuOK {
				cpu := (cpu1 - cpu0).Seconds()
				b.ReportMetric(float64(playouts)/cpu, "cpu-playouts/s")
			}
			b.Logf("backend %s", net.Backend())
		})
	}
}
