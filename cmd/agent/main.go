// Command agent plays Colony's games as a contestant: the judge protocol on stdin/stdout by
// default, or UAI for matches against public Ataxx engines. It also counts perft.
//
//	agent -game bacteria-war -engine NAME [-protocol judge|uai] [-seed S] [-model FILE]
//	agent -game bacteria-war -perft D [-board 'rows side']
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"colony/game/ataxx"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// plannedGames are the games Colony will play but the agent does not yet.
var plannedGames = map[string]bool{"catch-the-mouse": true, "slime": true, "petri-dish": true}

// run is the whole program: it returns the exit status (0 fine, 1 I/O failure, 2 usage).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "bacteria-war", "game to play: bacteria-war")
	engineName := fs.String("engine", defaultEngine, "engine: "+strings.Join(engineNames(), ", "))
	protocol := fs.String("protocol", "judge", "protocol on stdin/stdout: judge or uai")
	seed := fs.Uint64("seed", 1, "seed of the engine's random choices")
	model := fs.String("model", "", "weights file for engines that use one (default: embedded)")
	blendW := fs.Float64("value-blend", defaultBlendWeight, "mcts: weight of the alpha-beta value blended into the network's (0: network only)")
	blendD := fs.Int("value-depth", defaultBlendDepth, "mcts: depth of the alpha-beta search behind -value-blend (0: static evaluation)")
	blendS := fs.Float64("value-scale", defaultBlendScale, "mcts: alpha-beta score (hundredths of a piece) mapped to value tanh(score/scale)")
	cpuct := fs.Float64("cpuct", 0, "mcts: exploration constant (0: the search default)")
	endgameW := fs.Float64("endgame-weight", defaultEndgameWeight, "mcts with -endgame: clock share of a move after the handoff, relative to one before it (0: no split)")
	endgame := fs.Int("endgame", defaultEndgameEmpty, "mcts: hand the game to alphabeta once at most this many cells are empty (0: never)")
	perft := fs.Int("perft", -1, "print the perft count to this depth and exit")
	board := fs.String("board", "", "with -perft: position as 'rows side' (rows top to bottom, '/'-separated, O X .)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "agent: unexpected arguments %q\n", fs.Args())
		return 2
	}
	switch {
	case *game == "bacteria-war":
	case plannedGames[*game]:
		fmt.Fprintf(stderr, "agent: game %q: not implemented yet\n", *game)
		return 2
	default:
		fmt.Fprintf(stderr, "agent: unknown game %q (bacteria-war; planned: catch-the-mouse, slime, petri-dish): not implemented yet\n", *game)
		return 2
	}
	if *perft >= 0 {
		return runPerft(*perft, *board, stdout, stderr)
	}
	if *board != "" {
		fmt.Fprintln(stderr, "agent: -board only goes with -perft")
		return 2
	}
	factory, err := lookupEngine(*engineName)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	if *blendW < 0 || *blendW > 1 || *blendD < 0 || *blendD > 8 || *blendS <= 0 || *cpuct < 0 || *endgame < 0 || *endgame > ataxx.NumSquares || *endgameW < 0 {
		fmt.Fprintln(stderr, "agent: -value-blend must be in [0, 1], -value-depth in [0, 8], -value-scale > 0, -cpuct >= 0, -endgame in [0, 49], -endgame-weight >= 0")
		return 2
	}
	opts := Options{Seed: *seed, Model: *model, BlendWeight: *blendW, BlendDepth: *blendD, BlendScale: *blendS, CPuct: *cpuct, EndgameEmpty: *endgame, EndgameWeight: *endgameW}
	build := func() (AtaxxEngine, error) { return factory(opts) }
	switch *protocol {
	case "judge":
		err = RunJudge(stdin, stdout, stderr, build, *seed)
	case "uai":
		err = RunUAI(stdin, stdout, stderr, *engineName, build, *seed)
	default:
		fmt.Fprintf(stderr, "agent: unknown protocol %q (judge or uai)\n", *protocol)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// runPerft prints the perft count of board (the start position when empty) to depth.
func runPerft(depth int, board string, stdout, stderr io.Writer) int {
	p := ataxx.Start()
	if board != "" {
		var err error
		if p, err = ataxx.ParseBoard(board); err != nil {
			fmt.Fprintf(stderr, "agent: -board: %v\n", err)
			return 2
		}
		if !p.Valid() {
			fmt.Fprintf(stderr, "agent: -board %q is not a valid position\n", board)
			return 2
		}
	}
	start := time.Now()
	n := ataxx.Perft(p, depth)
	el := time.Since(start)
	fmt.Fprintln(stdout, n)
	fmt.Fprintf(stderr, "perft %d: %d nodes in %v (%.0f nodes/s)\n", depth, n, el.Round(time.Millisecond), float64(n)/max(el.Seconds(), 1e-9))
	return 0
}
