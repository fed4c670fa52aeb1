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
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"colony/games"
	"colony/judge"
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
	if err := run(g.Rules(), *mode, *after, *seed, *think, *hogMB); err != nil {
		fmt.Fprintln(os.Stderr, "testagent:", err)
		os.Exit(1)
	}
}

var hoard [][]byte // keeps the hog's memory reachable

func run(rules games.Rules, mode string, after int, seed uint64, think time.Duration, hogMB int) error {
	switch mode {
	case "random", "garbage", "illegal", "pass", "sleep", "slow", "crash", "hog", "silent", "spawn":
	default:
		return fmt.Errorf("unknown -mode %q", mode)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	pos := rules.Start()
	turns := 0
	me := -1 // our player, from READY
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "READY":
			if len(f) != 2 || (f[1] != "FIRST" && f[1] != "SECOND") || me >= 0 {
				return fmt.Errorf("bad READY line %q", in.Text())
			}
			me = 0
			if f[1] == "SECOND" {
				me = 1
			}
			if mode == "silent" {
				time.Sleep(time.Hour)
			}
			say("OK")
		case "POSITION":
			p, err := rules.Parse(strings.Join(f[1:], " "))
			if err != nil {
				return err
			}
			pos = p
		case "OPP":
			if me < 0 || pos.ToMove() == me {
				return fmt.Errorf("OPP when it is our turn (or before READY): %q", in.Text())
			}
			if len(f) != 6 {
				return fmt.Errorf("bad OPP line %q", in.Text())
			}
			var c games.Coords
			for i := range c {
				v, err := strconv.Atoi(f[i+1])
				if err != nil {
					return fmt.Errorf("bad OPP line %q", in.Text())
				}
				c[i] = v
			}
			next, err := pos.Play(c)
			if err != nil {
				return fmt.Errorf("OPP: %v", err)
			}
			pos = next
		case "TURN":
			if me < 0 || pos.ToMove() != me {
				return fmt.Errorf("TURN when the opponent is to move (or before READY)")
			}
			if len(f) != 3 {
				return fmt.Errorf("bad TURN line %q", in.Text())
			}
			for _, v := range f[1:] {
				if _, err := strconv.Atoi(v); err != nil {
					return fmt.Errorf("bad TURN line %q", in.Text())
				}
			}
			turns++
			if turns > after {
				switch mode {
				case "garbage":
					say("HELLO THERE 1 2 3")
					continue
				case "illegal":
					say(illegal(pos))
					continue
				case "pass":
					if pos.RandomMove(rng) != games.PassCoords {
						say("MOVE -1 -1 -1 -1")
						continue
					}
				case "sleep":
					time.Sleep(time.Hour)
				case "spawn":
					c := exec.Command("sleep", "3600")
					if err := c.Start(); err != nil {
						return err
					}
					fmt.Fprintf(os.Stderr, "child %d\n", c.Process.Pid)
					time.Sleep(time.Hour)
				case "crash":
					os.Exit(3)
				case "hog":
					for len(hoard) < hogMB/16 {
						b := make([]byte, 16<<20)
						for i := 0; i < len(b); i += 4096 {
							b[i] = 1
						}
						hoard = append(hoard, b)
					}
				case "slow":
					time.Sleep(think)
				}
			}
			if pos.Terminal() {
				return fmt.Errorf("TURN in a finished game: %s", pos)
			}
			c := pos.RandomMove(rng)
			next, err := pos.Play(c)
			if err != nil {
				return fmt.Errorf("own random move %v: %v", c, err)
			}
			pos = next
			say(judge.MoveLine(c))
		case "FINISH":
			return nil
		default:
			return fmt.Errorf("unknown line %q", in.Text())
		}
	}
	return in.Err()
}

// illegal returns a well-formed MOVE that the rules refuse in p: the first of a few
// coordinate sets (a move of zero length, leaps along the edges) that p does not accept.
func illegal(p games.State) string {
	for _, c := range []games.Coords{{1, 1, 1, 1}, {1, 1, 3, 1}, {3, 1, 1, 1}, {1, 1, 1, 3}, {2, 2, 2, 2}} {
		if _, err := p.Play(c); err != nil {
			return judge.MoveLine(c)
		}
	}
	return "MOVE 0 0 0 0" // off every board
}
