package nnab

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/internal/cputime"
)

// BenchMidgame is the middle game of Bench and of the C++ export's --bench (O to move).
const BenchMidgame = "OO...XX/OOO.XX./.O...X./......./.X...O./XXX.OOO/XX...OO O"

// Bench runs the C++ export's --bench searches with the embedded net, as that file does (the
// start to depth 10 and BenchMidgame to depth 8, each from a new game with a 16 MB table
// allocated outside the timing), and prints the same lines: nodes, wall seconds, nodes per
// second and nodes per CPU-second of the searching thread, then a "total" line.
func Bench(w io.Writer) error {
	net, _, err := LoadNet("")
	if err != nil {
		return err
	}
	mid, err := ataxx.ParseBoard(BenchMidgame)
	if err != nil {
		return err
	}
	e, err := New(Options{Options: ab.Options{HashMB: 16}, Net: net})
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The table is allocated by the first search: one outside the timing, as the C++ file
	// allocates its table before it.
	e.NewGame()
	e.BestMove(ataxx.Start(), engine.Limits{Depth: 1})
	cases := []struct {
		name  string
		p     ataxx.Position
		depth int
	}{{"start", ataxx.Start(), 10}, {"midgame", mid, 8}}
	var allNodes int64
	var allCPU, allWall time.Duration
	for _, c := range cases {
		e.NewGame()
		c0, ok0 := cputime.Thread()
		t0 := time.Now()
		m := e.BestMove(c.p, engine.Limits{Depth: c.depth})
		wall := time.Since(t0)
		c1, ok1 := cputime.Thread()
		if !ok0 || !ok1 {
			return fmt.Errorf("no CPU time of the thread on this system")
		}
		cpu := c1 - c0
		_, score, nodes := e.Stats()
		allNodes, allCPU, allWall = allNodes+nodes, allCPU+cpu, allWall+wall
		fmt.Fprintf(w, "%-8s depth %2d  move %-5v  score %6d  nodes %9d  %.3f s  %.0f nodes/s  %.0f nodes/cpu-s\n",
			c.name, c.depth, m, score, nodes, wall.Seconds(), perSecond(nodes, wall), perSecond(nodes, cpu))
	}
	fmt.Fprintf(w, "total    nodes %d  %.0f nodes/s  %.0f nodes/cpu-s  (go %s)\n",
		allNodes, perSecond(allNodes, allWall), perSecond(allNodes, allCPU), runtime.Version())
	return nil
}

func perSecond(n int64, d time.Duration) float64 { return float64(n) / max(d.Seconds(), 1e-9) }
