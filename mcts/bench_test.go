package mcts

import (
	"testing"

	"colony/game/ataxx"
	"colony/internal/cputime"
)

// benchSearch runs fresh-tree searches of playouts each and reports playouts/s and ns/playout
// by the wall clock, and cpu-ns/playout by the process's CPU time (on a loaded machine the
// wall clock also counts time spent waiting for a core).
func benchSearch(b *testing.B, pos apos, eval Evaluator[apos, amov], batch, playouts int) {
	cfg := DefaultConfig()
	cfg.BatchSize = batch
	s := New(cfg, eval)
	if _, err := s.Search(pos, Limit{Playouts: playouts}); err != nil { // grow the arena
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		s.Reset()
		res, err := s.Search(pos, Limit{Playouts: playouts})
		if err != nil {
			b.Fatal(err)
		}
		total += res.Playouts
	}
	cpu := cputime.Process() - cpu0
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(total)/sec, "playouts/s")
	b.ReportMetric(sec*1e9/float64(total), "ns/playout")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(total), "cpu-ns/playout")
}

func BenchmarkSearchUniform(b *testing.B) {
	mid, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("start/b1", func(b *testing.B) { benchSearch(b, ataxx.Start(), Uniform[apos, amov]{}, 1, 20000) })
	b.Run("mid/b1", func(b *testing.B) { benchSearch(b, mid, Uniform[apos, amov]{}, 1, 20000) })
	b.Run("mid/b32", func(b *testing.B) { benchSearch(b, mid, Uniform[apos, amov]{}, 32, 20000) })
}

func BenchmarkSearchRollout(b *testing.B) {
	mid, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("start", func(b *testing.B) {
		benchSearch(b, ataxx.Start(), NewRollout[apos, amov](1, 0, nil), 1, 2000)
	})
	b.Run("mid", func(b *testing.B) {
		benchSearch(b, mid, NewRollout[apos, amov](1, 0, nil), 1, 2000)
	})
}

// BenchmarkRolloutPlay measures one random game to the end from the start position.
func BenchmarkRolloutPlay(b *testing.B) {
	r := NewRollout[apos, amov](1, 0, nil)
	plies := 0
	for b.Loop() {
		v := r.Play(ataxx.Start())
		_ = v
		plies++
	}
}
