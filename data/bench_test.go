package data

import (
	"colony/game/ataxx"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

const benchExamples = 4096

var benchPool []Example

func benchSet() []Example {
	if benchPool == nil {
		benchPool = genAtaxx(1234, benchExamples)
	}
	return benchPool
}

// benchMetas: "packed" stores each 49-cell plane as zero/one/constant/bitmap/raw; "raw"
// makes the whole input one plane, so nearly every example is stored as 294 raw float32s
// and only zstd squeezes them.
func benchMetas() map[string]Meta {
	packed := testMeta()
	raw := packed
	raw.PlaneSize = 0
	return map[string]Meta{"packed": packed, "raw": raw}
}

func reportShard(b *testing.B, n, size int) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "examples/s")
	b.ReportMetric(float64(size)/float64(n), "bytes/example")
}

func BenchmarkEncodeShard(b *testing.B) {
	exs := benchSet()
	for _, name := range []string{"packed", "raw"} {
		meta := benchMetas()[name]
		b.Run(name, func(b *testing.B) {
			var size int
			for b.Loop() {
				buf, err := EncodeShard(meta, exs)
				if err != nil {
					b.Fatal(err)
				}
				size = len(buf)
			}
			reportShard(b, len(exs), size)
		})
	}
}

func BenchmarkDecodeShard(b *testing.B) {
	exs := benchSet()
	for _, name := range []string{"packed", "raw"} {
		buf, err := EncodeShard(benchMetas()[name], exs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				s, err := decodeShard(buf, &Expect{Game: "bacteria-war", EncoderVersion: 1})
				if err != nil {
					b.Fatal(err)
				}
				if len(s.examples()) != len(exs) {
					b.Fatal("count")
				}
			}
			reportShard(b, len(exs), len(buf))
		})
	}
}

// BenchmarkWriteReadShardFile goes through the file system: WriteShard (temp file, fsync,
// rename, directory fsync) and ReadShard.
func BenchmarkWriteReadShardFile(b *testing.B) {
	exs := benchSet()
	meta := testMeta()
	dir := b.TempDir()
	b.Run("write", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if err := WriteShard(filepath.Join(dir, fmt.Sprintf("w%d.shard", i%4)), meta, exs); err != nil {
				b.Fatal(err)
			}
			i++
		}
		st, _ := os.Stat(filepath.Join(dir, "w0.shard"))
		reportShard(b, len(exs), int(st.Size()))
	})
	b.Run("read", func(b *testing.B) {
		path := filepath.Join(dir, "w0.shard")
		st, _ := os.Stat(path)
		for b.Loop() {
			if _, _, err := ReadShard(path); err != nil {
				b.Fatal(err)
			}
		}
		reportShard(b, len(exs), int(st.Size()))
	})
}

// BenchmarkWindowSample draws augmented batches of 256 and fills trainer buffers.
func BenchmarkWindowSample(b *testing.B) {
	dir := b.TempDir()
	if err := WriteShard(filepath.Join(dir, "a.shard"), testMeta(), benchSet()); err != nil {
		b.Fatal(err)
	}
	w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: benchExamples, Augmenter: ataxx.Symmetries{}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		b.Fatal(err)
	}
	const batch = 256
	rng := rand.New(rand.NewPCG(1, 2))
	var exs []Example
	in, pol, val := make([]float32, batch*294), make([]float32, batch*834), make([]float32, batch*2)
	start := time.Now()
	for b.Loop() {
		exs, _ = w.Sample(rng, batch, exs)
		if err := FillBatch(exs, in, pol, val); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(batch)*float64(b.N)/time.Since(start).Seconds(), "examples/s")
}

// BenchmarkWindowHeld measures the heap a loaded window holds per example, plain and values
// only, over scored shards that carry their games' moves (as self-play writes them):
// go test -run - -bench WindowHeld -benchtime 3x ./data
func BenchmarkWindowHeld(b *testing.B) {
	dir := b.TempDir()
	exs := genAtaxx(77, benchExamples)
	for i := range exs {
		exs[i].GameID = uint64(i / 80)
		exs[i].Ply = i % 80
		exs[i].Scores = [4]float32{0.25, -0.25}
		exs[i].Policy = append(exs[i].Policy[:0], PolicyEntry{Index: exs[i].Policy[0].Index, Prob: 1}) // the move played
	}
	meta := testMeta()
	meta.Scored = true
	meta.Moves = gameMoves(exs)
	const shards = 8
	for k := range shards {
		if err := WriteShard(filepath.Join(dir, fmt.Sprintf("s%d.shard", k)), meta, exs); err != nil {
			b.Fatal(err)
		}
	}
	for _, valuesOnly := range []bool{false, true} {
		b.Run(fmt.Sprintf("valuesOnly=%v", valuesOnly), func(b *testing.B) {
			var held float64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: 1 << 30, ValuesOnly: valuesOnly})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Refresh(); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				held = float64(after.HeapAlloc-before.HeapAlloc) / float64(w.Len())
				runtime.KeepAlive(w)
			}
			b.ReportMetric(held, "heap-B/example")
		})
	}
}
