// Package koth is the King-of-the-Hill program's side of Slime (docs/rules.md §3): the
// controller starts the program once per move with one argument, the position
// "P,row0,row1,...", and reads the first line it prints, "r1 c1 r2 c2", within about 0.1 s.
// Answer is the protocol's games.ProtocolSpec.Argv: the agent calls it with its positional
// arguments (agent -game slime ARG).
package koth

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"colony/engine"
	"colony/game/slime"
	"colony/game/slime/bots"
	"colony/internal/procstart"
)

const (
	// Limit is the controller's time per move, process start included.
	Limit = 100 * time.Millisecond
	// MoveTime is when the engine's search must end, counted from the process's start as the
	// kernel records it (procstart: before the Go runtime and this program's initialisation,
	// which a loaded machine can delay by tens of milliseconds; the kernel's 10 ms ticks put
	// that start up to 10 ms early, so the search ends 25 to 35 ms after the true start). The
	// rest of Limit is the margin for printing, the controller's side of the process start
	// and a loaded machine (on this repository's 2-core machine at load 4.7 the greedy
	// program's 99th percentile was 83 ms: see game/slime/README.md).
	MoveTime = 35 * time.Millisecond
	// Deadline is when, counted from the same start, the fallback move is printed if the
	// engine has not answered (an engine that overruns its time, or hangs): 45 ms before
	// Limit.
	Deadline = 55 * time.Millisecond
	// MinSearch: with less search time than this left when the position has been read (the
	// process started late), the fallback move is printed at once.
	MinSearch = 5 * time.Millisecond
	// memoryLimit caps the heap while the collector is off (Answer turns it off: a process
	// that lives for one move has no use for it).
	memoryLimit = 1 << 30
)

// started is when this move's time began: the process's start when the process was started
// for this move (its command line ends with the position args), else now (a long-running
// caller: a test, an in-process referee).
func started(now time.Time, args []string) time.Time {
	if len(os.Args) < len(args) || !slices.Equal(os.Args[len(os.Args)-len(args):], args) {
		return now
	}
	if d, ok := procstart.Elapsed(); ok {
		return now.Add(-d)
	}
	return now
}

// Name is the protocol's name (agent -protocol).
const Name = "koth"

// Answer reads the position from args (exactly one argument) and prints the move of the
// engine that build makes, searched until MoveTime after the start (see started), as
// "r1 c1 r2 c2\n". It never prints an illegal move: a move the engine gets wrong, an engine
// that cannot be built, fails or is late, and a process that starts too late to search, get
// GreedySlime's move (computed first, in microseconds), or a pass where the mover has no
// spread and no jump (GreedySlime would merge there, losing a cell for nothing). The collector
// is off while it runs. A pass is printed as "0 0 0 0" (which the controller reads as an
// invalid move: a pass), only where the position offers a pass. A position that
// cannot be read gets "0 0 0 0" too, and an error.
func Answer(args []string, out, log io.Writer, engineName string, build func() (engine.Engine[slime.Position, slime.Move], error), _ uint64) error {
	start := started(time.Now(), args)
	// No collection in a process that lives for one move (a cycle would take CPU from the
	// search and the exit); the limit collects only if something runs away.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	if len(args) != 1 {
		fmt.Fprintln(out, slime.Pass)
		return fmt.Errorf("koth: want one argument, the position \"P,row0,row1,...\", got %q", strings.Join(args, " "))
	}
	p, err := slime.Parse(args[0])
	if err == nil && !p.Valid() {
		err = errors.New("koth: not a valid position")
	}
	if err != nil {
		fmt.Fprintln(out, slime.Pass)
		return err
	}
	fallback := bots.GreedyMove(p)
	if !p.CanGrow() {
		// No spread and no jump: every merge left fills nothing and only gives up a cell
		// (the emptied source opens a spread into it to the opponents). The search engines
		// pass there (paranoid never plays a merge that fills nothing; LegalMoves offers
		// the pass exactly there), and so does the fallback.
		fallback = slime.Pass
	}
	m := fallback
	if !p.Terminal() {
		m = think(p, engineName, build, start, fallback, log)
	}
	if m != slime.Pass && !p.IsLegal(p.Canonical(m)) {
		fmt.Fprintf(log, "koth: engine %s answered %v, not a move of %s: playing %v\n", engineName, m, p, fallback)
		m = fallback
	}
	_, err = fmt.Fprintln(out, m)
	return err
}

// think runs the engine in a goroutine and returns its move, or fallback at Deadline.
func think(p slime.Position, engineName string, build func() (engine.Engine[slime.Position, slime.Move], error), start time.Time, fallback slime.Move, log io.Writer) slime.Move {
	done := make(chan slime.Move, 1)
	if left := MoveTime - time.Since(start); left < MinSearch {
		fmt.Fprintf(log, "koth: late: %v since the process started, %v left to search: playing %v\n",
			time.Since(start).Round(time.Millisecond), left.Round(time.Millisecond), fallback)
		return fallback
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(log, "koth: engine %s panicked: %v\n", engineName, r)
				done <- fallback
			}
		}()
		e, err := build()
		if err != nil {
			fmt.Fprintf(log, "koth: %v\n", err)
			done <- fallback
			return
		}
		done <- e.BestMove(p, engine.Limits{MoveTime: MoveTime - time.Since(start)})
	}()
	t := time.NewTimer(Deadline - time.Since(start))
	defer t.Stop()
	select {
	case m := <-done:
		return m
	case <-t.C:
		fmt.Fprintf(log, "koth: late: engine %s did not answer within %v: playing %v\n", engineName, Deadline, fallback)
		return fallback
	}
}
