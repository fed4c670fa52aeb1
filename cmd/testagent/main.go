// Command testagent is a deliberately misbehaving judge-protocol agent (any registered game,
// -game) for testing the referee (cmd/arena). It keeps the position from READY, POSITION and
// OPP lines and, on TURN, does what -mode says:
//
//	random   play a uniformly random legal move (the well-behaved baseline)
//	garbage  print a line that is not a MOVE
//	illegal  print a well-formed MOVE that the rules refuse
//	pass     pass although a move exists (illegal: a pass only when forced)
//	sleep    sleep for an hour instead of answering (runs past its clock)
//	slow     like random, but think for -think before each move
//	crash    exit with status 3 without answering
//	hog      allocate and touch more than -hog MB (default 1536) before answering
//	silent   never answer READY (past the 3000 ms limit)
//	spawn    like sleep, after starting a child `sleep 3600` in its process group; prints
//	         the child's pid on stderr as "child <pid>"
//
// Whatever the mode, it checks the referee: a line out of order (a TURN when the opponent is
// to move, an OPP when it is to move, a TURN whose clocks are not two integers, an illegal
// OPP move) makes it exit with status 1 and the complaint on stderr.
//
// With -after N the agent plays random moves for its first N turns and misbehaves from then on.
//
// Usage: testagent [-game G] -mode MODE [-after N] [-seed S] [-think D] [-hog MB]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"colony/arena"
	"colony/registry"
)

func main() {
	mode := flag.String("mode", "random", "garbage|illegal|pass|sleep|slow|crash|hog|silent|spawn|random")
	after := flag.Int("after", 0, "play random moves for this many turns before misbehaving")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	think := flag.Duration("think", 100*time.Millisecond, "thinking time per move in -mode slow")
	hogMB := flag.Int("hog", 1536, "megabytes to allocate in -mode hog")
	game := flag.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	flag.Parse()
	g, err := registry.Lookup(*game)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testagent:", err)
		os.Exit(2)
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	a := arena.MisbehavingAgent{Rules: g.Rules(), Mode: *mode, After: *after, Seed: *seed, Think: *think, HogMB: *hogMB}
	if err := a.Run(os.Stdin, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, arena.ErrCrash) {
			os.Exit(3)
		}
		fmt.Fprintln(os.Stderr, "testagent:", err)
		os.Exit(1)
	}
}
