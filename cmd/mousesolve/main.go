// Command mousesolve proves Catch The Mouse results with game/mouse/solve.
//
//	mousesolve [-board 'rows side'] [-depth D] [-time T] [-nodes N] [-hash MB]
//	    solves one position (default: the start): the fastest forced win, or that neither side
//	    forces one within the depth reached; -each prints every depth's nodes and time.
//	mousesolve -file testdata.txt [-depth D] [-time T]
//	    solves every board of a file (first field of a line, ';'-separated like the perft data).
//	mousesolve -survey G [-players random|alphabeta] [-player-nodes N] [-time T]
//	    plays G games and solves every position of them: the share proven, by plies played,
//	    mice left, the most advanced mouse and mouse steps left.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"colony/engine"
	"colony/game/mouse"
	"colony/game/mouse/alphabeta"
	"colony/game/mouse/solve"
)

func main() {
	board := flag.String("board", "", "position 'rows side' (default: the start)")
	depth := flag.Int("depth", 0, "deepest depth in plies (0: to the end of the game)")
	limit := flag.Duration("time", 0, "time budget per position (0: none)")
	nodes := flag.Int64("nodes", 0, "node budget per position (0: none)")
	hash := flag.Int("hash", 256, "transposition table in MB")
	each := flag.Bool("each", false, "print every depth (one position)")
	file := flag.String("file", "", "solve every board of this file")
	survey := flag.Int("survey", 0, "play this many games and solve all their positions")
	players := flag.String("players", "alphabeta", "survey players: random or alphabeta")
	playerNodes := flag.Int64("player-nodes", 20000, "survey: alphabeta nodes a move")
	seed := flag.Uint64("seed", 1, "survey: seed")
	flag.Parse()

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
			a := alphabeta.NewWithOptions(alphabeta.Options{Seed: *seed, HashMB: 16})
			b := alphabeta.NewWithOptions(alphabeta.Options{Seed: *seed + 1, HashMB: 16})
			mice, team = solve.EngineMover(a, l), solve.EngineMover(b, l)
		default:
			fail("-players %q: random or alphabeta", *players)
		}
		var sv solve.Survey
		sv.Run(s, *survey, mice, team, lim, os.Stderr)
		sv.Print(os.Stdout)
	case *file != "":
		f, err := os.Open(*file)
		if err != nil {
			fail("%v", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(strings.SplitN(sc.Text(), ";", 2)[0])
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p := parse(line)
			s.Clear()
			report(line, p, s.Solve(p, lim))
		}
	default:
		p := mouse.Start()
		if *board != "" {
			p = parse(*board)
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
				report(fmt.Sprintf("depth %2d", d), p, r)
				if r.Winner >= 0 || !r.Complete {
					break
				}
			}
			return
		}
		report(p.String(), p, s.Solve(p, lim))
	}
}

func parse(s string) mouse.Position {
	p, err := mouse.ParseBoard(s)
	if err != nil {
		fail("%v", err)
	}
	if !p.Valid() {
		fail("invalid position %q", s)
	}
	return p
}

func report(name string, p mouse.Position, r solve.Result) {
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
	fmt.Printf("%s: %s; %d nodes, %v, %.0f knps (steps left %d)\n", name, what, r.Nodes, r.Elapsed.Round(time.Millisecond),
		float64(r.Nodes)/max(r.Elapsed.Seconds(), 1e-9)/1000, p.MouseStepsLeft())
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "mousesolve: "+format+"\n", a...)
	os.Exit(2)
}
