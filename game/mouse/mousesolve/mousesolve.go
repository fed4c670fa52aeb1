// Package mousesolve is the mousesolve program (cmd/mousesolve): it proves Catch The Mouse
// results with game/mouse/solve.
//
//	mousesolve [-board 'rows side'] [-depth D] [-time T] [-nodes N] [-hash MB]
//	    solves one position (default: the start): the fastest forced win, or that neither side
//	    forces one within the depth reached; -each prints every depth's nodes and time.
//	mousesolve -file testdata.txt [-depth D] [-time T]
//	    solves every board of a file (first field of a line, ';'-separated like the perft data).
//	mousesolve -survey G [-players random|alphabeta] [-player-nodes N] [-time T]
//	    plays G games and solves every position of them: the share proven, by plies played,
//	    mice left, the most advanced mouse and mouse steps left.
package mousesolve

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/mouseab"
	"colony/game/mouse/solve"
)

// Main is the whole program: it returns the exit status (0 fine, 2 a bad flag, position or
// file).
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mousesolve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	board := fs.String("board", "", "position 'rows side' (default: the start)")
	depth := fs.Int("depth", 0, "deepest depth in plies (0: to the end of the game)")
	limit := fs.Duration("time", 0, "time budget per position (0: none)")
	nodes := fs.Int64("nodes", 0, "node budget per position (0: none)")
	hash := fs.Int("hash", 256, "transposition table in MB")
	each := fs.Bool("each", false, "print every depth (one position)")
	file := fs.String("file", "", "solve every board of this file")
	survey := fs.Int("survey", 0, "play this many games and solve all their positions")
	players := fs.String("players", "alphabeta", "survey players: random or alphabeta")
	playerNodes := fs.Int64("player-nodes", 20000, "survey: alphabeta nodes a move")
	seed := fs.Uint64("seed", 1, "survey: seed")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "mousesolve:", err)
		return 2
	}

	s := solve.New(*hash)
	lim := solve.Limits{Depth: *depth, Nodes: *nodes, Time: *limit}
	switch {
	case *survey > 0:
		var mice, team solve.Mover
		switch *players {
		case "random":
			mice, team = solve.RandomMover(*seed), solve.RandomMover(*seed+1)
		case "alphabeta":
			l := engine.Limits{Nodes: *playerNodes}
			a := mouseab.NewWithOptions(mouseab.Options{Options: ab.Options{Seed: *seed, HashMB: 16}})
			b := mouseab.NewWithOptions(mouseab.Options{Options: ab.Options{Seed: *seed + 1, HashMB: 16}})
			mice, team = solve.EngineMover(a, l), solve.EngineMover(b, l)
		default:
			return fail(fmt.Errorf("-players %q: random or alphabeta", *players))
		}
		var sv solve.Survey
		sv.Run(s, *survey, mice, team, lim, stderr)
		sv.Print(stdout)
	case *file != "":
		f, err := os.Open(*file)
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(strings.SplitN(sc.Text(), ";", 2)[0])
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p, err := parse(line)
			if err != nil {
				return fail(err)
			}
			s.Clear()
			report(stdout, line, p, s.Solve(p, lim))
		}
		if err := sc.Err(); err != nil {
			return fail(err)
		}
	default:
		p := mouse.Start()
		if *board != "" {
			var err error
			if p, err = parse(*board); err != nil {
				return fail(err)
			}
		}
		if *each {
			max := *depth
			if max == 0 {
				max = 2*p.MouseStepsLeft() + 1
			}
			start := time.Now()
			for d := 1; d <= max; d++ {
				l := lim
				l.Depth = d
				if l.Time > 0 {
					l.Time -= time.Since(start)
					if l.Time <= 0 {
						break
					}
				}
				r := s.Solve(p, l)
				report(stdout, fmt.Sprintf("depth %2d", d), p, r)
				if r.Winner >= 0 || !r.Complete {
					break
				}
			}
			return 0
		}
		report(stdout, p.String(), p, s.Solve(p, lim))
	}
	return 0
}

func parse(s string) (mouse.Position, error) {
	p, err := mouse.ParseBoard(s)
	if err != nil {
		return p, err
	}
	if !p.Valid() {
		return p, fmt.Errorf("invalid position %q", s)
	}
	return p, nil
}

func report(w io.Writer, name string, p mouse.Position, r solve.Result) {
	what := fmt.Sprintf("no forced win within %d plies", r.Depth)
	if r.Winner >= 0 {
		what = fmt.Sprintf("%s win in %d plies", [2]string{"mice", "team"}[r.Winner], r.Depth)
		if r.Move != mouse.NoMove {
			what += ", move " + r.Move.String()
		}
	}
	if !r.Complete {
		what += " (budget ran out)"
	}
	fmt.Fprintf(w, "%s: %s; %d nodes, %v, %.0f knps (steps left %d)\n", name, what, r.Nodes, r.Elapsed.Round(time.Millisecond),
		float64(r.Nodes)/max(r.Elapsed.Seconds(), 1e-9)/1000, p.MouseStepsLeft())
}
