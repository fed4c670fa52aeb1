package nnab

import (
	"strings"
	"testing"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
)

// depthLine is a midgame reached from the start by these UAI moves: the second position of
// the nodes-to-depth benchmark (the first is the start).
const depthLine = "b6 b2 f2 a3 g2 a2 a5 b4 b5 a3c5 a5c6 c4 d5 b4d6 d4 c7 f1 b4 d5c3 b3 d5 c3e2 c3 e2c2"

// depthPositions are the nodes-to-depth benchmark's positions: the start, the line above and
// the golden midgame diagram.
func depthPositions(tb testing.TB) (names []string, ps []ataxx.Position) {
	tb.Helper()
	p := ataxx.Start()
	for _, s := range strings.Fields(depthLine) {
		m, err := p.ParseUAIMove(s)
		if err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
		p = p.Apply(m)
	}
	mid, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		tb.Fatal(err)
	}
	return []string{"start", "line", "midgame"}, []ataxx.Position{ataxx.Start(), p, mid}
}

// BenchmarkNodesToDepth: the nodes (and time) the default search on the shipped net needs to
// finish depth 10 on each benchmark position, from a new game with a 16 MB table: what a node
// buys, immune to machine load. `go test -run - -bench NodesToDepth -benchtime 1x -v
// ./game/ataxx/nnab` prints a line per position and depth.
func BenchmarkNodesToDepth(b *testing.B) {
	const depth = 10
	net := benchNet(b)
	names, ps := depthPositions(b)
	for i, p := range ps {
		b.Run(names[i], func(b *testing.B) {
			e := newEngine(b, Options{Net: net, Options: ab.Options{HashMB: 16}})
			var nodes int64
			for b.Loop() {
				e.NewGame()
				var lines []string
				e.SetInfo(func(it engine.Iteration[ataxx.Move]) {
					lines = append(lines, it.Line(ataxx.Move.UAI))
				})
				t0 := time.Now()
				e.BestMove(p, engine.Limits{Depth: depth})
				el := time.Since(t0)
				d, _, n := e.Stats()
				if d != depth {
					b.Fatalf("finished depth %d, want %d", d, depth)
				}
				nodes += n
				for _, l := range lines {
					b.Log(l)
				}
				b.Logf("%s: depth %d in %d nodes, %v", names[i], d, n, el.Round(time.Millisecond))
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
