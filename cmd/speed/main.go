// Command speed compares the Go engine's search speed with the C++ export's, on the same
// searches: `make speed` runs it on `agent -bench` (the C++ file's --bench searches in Go)
// of two Go builds and on the C++ file's `--bench`.
//
//	speed [-n N] CMD [CMD...]        each command N times, alternating, then the medians
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
	"slices"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("speed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 7, "rounds: each command runs this many times, in turn")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || *n < 1 {
		fmt.Fprintln(stderr, "speed: want commands to compare (the last one the baseline) and -n >= 1")
		return 2
	}
	if err := compare(fs.Args(), *n, stdout); err != nil {
		fmt.Fprintf(stderr, "speed: %v\n", err)
		return 1
	}
	return 0
}

// totalLine is the last line of --bench (the C++ file) and of agent -bench.
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
