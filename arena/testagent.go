package arena

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"colony/judge"
)

// MisbehavingAgent is a deliberately misbehaving judge-protocol agent for testing the referee
// (cmd/testagent documents the modes). It keeps the position from READY, POSITION and OPP
// lines and, on TURN, does what Mode says, after After turns of random moves. A line out of
// order from the referee is an error.
type MisbehavingAgent struct {
	Rules Rules
	Mode  string
	After int
	Seed  uint64
	Think time.Duration // thinking time per move in mode slow
	HogMB int           // megabytes to allocate in mode hog
}

// ErrCrash is what Run returns in mode crash: the program exits with status 3 at once.
var ErrCrash = errors.New("testagent: crash")

// Run plays one session from in to out (spawn reports its child's pid on log).
func (a MisbehavingAgent) Run(in io.Reader, out, log io.Writer) error {
	rules, mode, after, seed, think, hogMB := a.Rules, a.Mode, a.After, a.Seed, a.Think, a.HogMB
	var hoard [][]byte // the hog's memory, reachable until Run returns
	defer runtime.KeepAlive(&hoard)
	switch mode {
	case "random", "garbage", "illegal", "pass", "sleep", "slow", "crash", "hog", "silent", "spawn":
	default:
		return fmt.Errorf("unknown -mode %q", mode)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	sc := bufio.NewScanner(in)
	w := bufio.NewWriter(out)
	say := func(s string) {
		w.WriteString(s + "\n")
		w.Flush()
	}
	pos := rules.Start()
	turns := 0
	me := -1 // our player, from READY
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "READY":
			if len(f) != 2 || (f[1] != "FIRST" && f[1] != "SECOND") || me >= 0 {
				return fmt.Errorf("bad READY line %q", sc.Text())
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
				return fmt.Errorf("OPP when it is our turn (or before READY): %q", sc.Text())
			}
			if len(f) != 6 {
				return fmt.Errorf("bad OPP line %q", sc.Text())
			}
			var c Coords
			for i := range c {
				v, err := strconv.Atoi(f[i+1])
				if err != nil {
					return fmt.Errorf("bad OPP line %q", sc.Text())
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
				return fmt.Errorf("bad TURN line %q", sc.Text())
			}
			for _, v := range f[1:] {
				if _, err := strconv.Atoi(v); err != nil {
					return fmt.Errorf("bad TURN line %q", sc.Text())
				}
			}
			turns++
			if turns > after {
				switch mode {
				case "garbage":
					say("HELLO THERE 1 2 3")
					continue
				case "illegal":
					say(illegalMove(pos))
					continue
				case "pass":
					if pos.RandomMove(rng) != PassCoords {
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
					fmt.Fprintf(log, "child %d\n", c.Process.Pid)
					time.Sleep(time.Hour)
				case "crash":
					return ErrCrash
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
			return fmt.Errorf("unknown line %q", sc.Text())
		}
	}
	return sc.Err()
}

// illegalMove returns a well-formed MOVE that the rules refuse in p: the first of a few
// coordinate sets (a move of zero length, leaps along the edges) that p does not accept.
func illegalMove(p State) string {
	for _, c := range []Coords{{1, 1, 1, 1}, {1, 1, 3, 1}, {3, 1, 1, 1}, {1, 1, 1, 3}, {2, 2, 2, 2}} {
		if _, err := p.Play(c); err != nil {
			return judge.MoveLine(c)
		}
	}
	return "MOVE 0 0 0 0" // off every board
}
