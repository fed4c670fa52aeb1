// Command speed compares the Go engine's search speed with the C++ export's, on the same
// searches (issue 78): `make speed` runs it.
//
//	speed -run                       the searches of the C++ file's --bench in this build
//	speed [-n N] CMD [CMD...]        each command N times, alternating, then the medians
//
// -run searches the C++ file's --bench positions with nnab on the embedded net, as the
// C++ file does (the start to depth 10 and a middle game to depth 8, each from a new game
// with a 16 MB table, allocated outside the timing), and prints the same lines: nodes, wall
// seconds, nodes per second and nodes per CPU-second of the searching thread.
//
// Given commands (each one string, split at spaces, no shell), it runs them in turn N times
// over, so that a machine's load falls on all of them alike, reads each run's "total" line
// and prints every command's median nodes per CPU-second and its ratio to the last
// command's (the C++ file), both as the ratio of the medians and as the median of the
// rounds' ratios. The node counts of all commands must agree: they search the same trees.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/internal/cputime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("speed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	search := fs.Bool("run", false, "run the searches of the C++ file's --bench in this build and print its lines")
	n := fs.Int("n", 7, "rounds: each command runs this many times, in turn")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *search {
		if err := bench(stdout); err != nil {
			fmt.Fprintf(stderr, "speed: %v\n", err)
			return 1
		}
		return 0
	}
	if fs.NArg() == 0 || *n < 1 {
		fmt.Fprintln(stderr, "speed: want -run, or commands to compare (the last one the baseline) and -n >= 1")
		return 2
	}
	if err := compare(fs.Args(), *n, stdout); err != nil {
		fmt.Fprintf(stderr, "speed: %v\n", err)
		return 1
	}
	return 0
}

// benchMidgame is the C++ file's --bench middle game (O to move).
const benchMidgame = "OO...XX/OOO.XX./.O...X./......./.X...O./XXX.OOO/XX...OO O"

// bench runs the C++ file's --bench searches and prints its lines.
func bench(w io.Writer) error {
	net, _, err := nnab.LoadNet("")
	if err != nil {
		return err
	}
	mid, err := ataxx.ParseBoard(benchMidgame)
	if err != nil {
		return err
	}
	e, err := nnab.New(nnab.Options{Options: ab.Options{HashMB: 16}, Net: net})
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

// totalLine is the last line of --bench (the C++ file) and of -run.
var totalLine = regexp.MustCompile(`(?m)^total\s+nodes (\d+)\s+\d+ nodes/s\s+(\d+) nodes/cpu-s`)

// compare runs cmds n times in turn and prints the medians and ratios to the last one.
func compare(cmds []string, n int, w io.Writer) error {
	rates := make([][]float64, len(cmds))
	nodes := make([]int64, len(cmds))
	for round := range n {
		for i, c := range cmds {
			f := strings.Fields(c)
			if len(f) == 0 {
				return fmt.Errorf("an empty command")
			}
			out, err := exec.Command(f[0], f[1:]...).CombinedOutput()
			if err != nil {
				return fmt.Errorf("%s: %v\n%s", c, err, out)
			}
			m := totalLine.FindSubmatch(out)
			if m == nil {
				return fmt.Errorf("%s: no total line in\n%s", c, out)
			}
			nd, _ := strconv.ParseInt(string(m[1]), 10, 64)
			r, _ := strconv.ParseFloat(string(m[2]), 64)
			if round == 0 {
				nodes[i] = nd
			} else if nd != nodes[i] {
				return fmt.Errorf("%s: %d nodes, %d in the first round", c, nd, nodes[i])
			}
			rates[i] = append(rates[i], r)
		}
	}
	base := len(cmds) - 1
	for i, c := range cmds {
		if nodes[i] != nodes[base] {
			fmt.Fprintf(w, "warning: %s searched %d nodes, %s %d: not the same trees\n", c, nodes[i], cmds[base], nodes[base])
		}
	}
	fmt.Fprintf(w, "nodes per CPU-second, median of %d alternating runs (ratio to %s: of the medians; median of the rounds' ratios)\n", n, cmds[base])
	for i, c := range cmds {
		ratios := make([]float64, n)
		for r := range n {
			ratios[r] = rates[i][r] / rates[base][r]
		}
		fmt.Fprintf(w, "  %-40s %10.0f  %.3f  %.3f\n", c, median(rates[i]), median(rates[i])/median(rates[base]), median(ratios))
	}
	return nil
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
