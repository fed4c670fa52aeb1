package nnab

import (
	"fmt"
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

// TestMoveNumberKeepsTheTable: a client that sends every position with the same move number
// (UAI FENs with move number 1) gets the same search as one that counts the turns: after the
// same first search, the position two plies later searched at turn 0 and at its true turn
// give the same move, score and nodes, so the table of the first search serves both alike.
func TestMoveNumberKeepsTheTable(t *testing.T) {
	net := benchNet(t)
	a := ataxx.Start().Apply(ataxx.CloneMove(8))
	b := a
	for _, s := range []string{"f6", "b5"} {
		m, err := b.ParseUAIMove(s)
		if err != nil {
			t.Fatal(err)
		}
		b = b.Apply(m)
	}
	atTurn := func(p ataxx.Position, turns int) ataxx.Position {
		return ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), p.ToMove(), turns)
	}
	var got [2]string
	for i, fen := range []bool{false, true} {
		ta, tb := a.Turns(), b.Turns()
		if fen {
			ta, tb = 0, 0
		}
		e := newEngine(t, Options{Net: net, Options: ab.Options{HashMB: 16}})
		e.BestMove(atTurn(a, ta), engine.Limits{Depth: 8})
		m := e.BestMove(atTurn(b, tb), engine.Limits{Depth: 8})
		d, v, n := e.Stats()
		got[i] = fmt.Sprintf("%v %d %d %d", m, d, v, n)
	}
	if b.Turns() != a.Turns()+2 || got[0] != got[1] {
		t.Errorf("true turns %d, %d: %s; turns 0, 0: %s", a.Turns(), b.Turns(), got[0], got[1])
	}
}
