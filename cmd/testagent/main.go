// Command testagent is a deliberately misbehaving Bacteria War judge-protocol agent for
// testing the referee (cmd/arena). It keeps the position from READY, POSITION and OPP lines
// and, on TURN, does what -mode says:
//
//	random   play a uniformly random legal move (the well-behaved baseline)
//	garbage  print a line that is not a MOVE
//	illegal  print a well-formed but illegal MOVE (a jump from an opponent's piece)
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
// Usage: testagent -mode MODE [-after N] [-seed S] [-think D] [-hog MB]
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

	"colony/game/ataxx"
)

func main() {
	mode := flag.String("mode", "random", "garbage|illegal|pass|sleep|slow|crash|hog|silent|spawn|random")
	after := flag.Int("after", 0, "play random moves for this many turns before misbehaving")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	think := flag.Duration("think", 100*time.Millisecond, "thinking time per move in -mode slow")
	hogMB := flag.Int("hog", 1536, "megabytes to allocate in -mode hog")
	flag.Parse()
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	if err := run(*mode, *after, *seed, *think, *hogMB); err != nil {
		fmt.Fprintln(os.Stderr, "testagent:", err)
		os.Exit(1)
	}
}

var hoard [][]byte // keeps the hog's memory reachable

func run(mode string, after int, seed uint64, think time.Duration, hogMB int) error {
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
	pos := ataxx.Start()
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
			me = ataxx.O
			if f[1] == "SECOND" {
				me = ataxx.X
			}
			if mode == "silent" {
				time.Sleep(time.Hour)
			}
			say("OK")
		case "POSITION":
			p, err := ataxx.ParseBoard(strings.Join(f[1:], " "))
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
			var c [4]int
			for i := range c {
				v, err := strconv.Atoi(f[i+1])
				if err != nil {
					return fmt.Errorf("bad OPP line %q", in.Text())
				}
				c[i] = v
			}
			m, err := pos.JudgeMove(c[0], c[1], c[2], c[3])
			if err != nil {
				return fmt.Errorf("OPP: %v", err)
			}
			pos = pos.Apply(m)
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
					if pos.HasMove() {
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
			var buf [ataxx.MaxMoves]ataxx.Move
			moves := pos.LegalMoves(buf[:0])
			if len(moves) == 0 {
				return fmt.Errorf("TURN in a finished game:\n%s", pos.Diagram())
			}
			m := moves[rng.IntN(len(moves))]
			r1, c1, r2, c2 := pos.JudgeCoords(m)
			pos = pos.Apply(m)
			say(fmt.Sprintf("MOVE %d %d %d %d", r1, c1, r2, c2))
		case "FINISH":
			return nil
		default:
			return fmt.Errorf("unknown line %q", in.Text())
		}
	}
	return in.Err()
}

// illegal returns a well-formed MOVE that is illegal in p: a leap from an opponent's piece
// (or, if the opponent has none, from an empty cell) to a cell two rows away.
func illegal(p ataxx.Position) string {
	src := p.Pieces(1 - p.ToMove())
	if src == 0 {
		src = p.Empty()
	}
	sq := 0
	for src&(1<<sq) == 0 {
		sq++
	}
	r, c := sq/ataxx.Size+1, sq%ataxx.Size+1
	r2 := r + 2
	if r2 > ataxx.Size {
		r2 = r - 2
	}
	return fmt.Sprintf("MOVE %d %d %d %d", r, c, r2, c)
}
