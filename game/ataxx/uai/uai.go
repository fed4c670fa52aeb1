// Package uai speaks UAI, the protocol of public Ataxx engines and tools, for Bacteria War
// (`agent -protocol uai`).
package uai

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"colony/engine"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxgreedy"
	"colony/judge"
)

// startFEN is the Ataxx start position in UAI notation (no blockers).
const startFEN = "x5o/7/7/7/7/7/o5x x 0 1"

// bareGoTime is the time given to a "go" without limits, and to "go infinite": the engine
// interface has no stop, so an unbounded search could never be interrupted.
const bareGoTime = time.Second

// uaiSession speaks UAI, the Ataxx engines' protocol. FEN 'x' (black, moving first) is
// Colony's O, so btime/binc are O's clock and wtime/winc X's.
type uaiSession struct {
	in   *judge.LineReader
	out  *bufio.Writer
	log  io.Writer
	mv   *judge.Mover[ataxx.Position, ataxx.Move]
	name string
	pos  ataxx.Position

	// trace, when set, sees every bestmove with the position it was chosen in.
	trace func(before ataxx.Position, m ataxx.Move)
}

// Engine is an engine for Bacteria War.
type Engine = engine.Engine[ataxx.Position, ataxx.Move]

// Serve speaks UAI on r and w until quit or the end of the input. name is the engine's
// name for "id name"; the engine is built by factory in the background, and greedy answers
// while it is not there. It returns nil for a clean end and an error only when w fails or r
// fails with something but EOF.
func Serve(r io.Reader, w, log io.Writer, name string, factory func() (Engine, error), seed uint64) error {
	return newUAISession(r, w, log, name, factory, seed).run()
}

func newUAISession(r io.Reader, w, log io.Writer, name string, factory func() (Engine, error), seed uint64) *uaiSession {
	s := &uaiSession{
		in:   judge.NewLineReader(r, log),
		out:  bufio.NewWriter(w),
		log:  log,
		name: name,
		pos:  ataxx.Start(),
	}
	// An engine that deepens tells each finished iteration: an info line.
	withInfo := func() (Engine, error) {
		e, err := factory()
		if in, ok := e.(interface {
			SetInfo(func(engine.Iteration[ataxx.Move]))
		}); ok && err == nil {
			in.SetInfo(s.info)
		}
		return e, err
	}
	s.mv = judge.NewMover(withInfo, Engine(ataxxgreedy.New(seed^0xFA11BAC4)), log)
	return s
}

// info writes a finished iteration's info line (write errors surface with bestmove's).
func (s *uaiSession) info(it engine.Iteration[ataxx.Move]) {
	_ = s.println(it.Line(ataxx.Move.UAI))
}

func (s *uaiSession) println(lines ...string) error {
	return writeLines(s.out, "agent: writing UAI output", lines)
}

// writeLines writes each line and a newline to w and flushes it; a failure is wrapped in what.
// The server's answers and the client's commands both go out through it.
func writeLines(w *bufio.Writer, what string, lines []string) error {
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func (s *uaiSession) run() error {
	return s.in.Each("UAI input", func(line string, f []string) (stop bool, err error) {
		if len(f) == 0 {
			return false, nil // blank lines are usual in UAI sessions typed by hand
		}
		switch f[0] {
		case "uai":
			err = s.println("id name Colony "+s.name, "id author Colony", "uaiok")
		case "isready":
			// isready is where a GUI waits for slow initialisation: wait for the engine.
			if err := s.mv.Wait(); err != nil {
				fmt.Fprintf(s.log, "agent: engine unavailable, will play greedy moves: %v\n", err)
			}
			err = s.println("readyok")
		case "uainewgame":
			s.pos = ataxx.Start()
			s.mv.StartGame()
		case "position":
			s.position(f[1:])
		case "go":
			err = s.goCmd(f[1:])
		case "quit":
			return true, nil
		case "stop", "ponderhit", "setoption", "debug", "register":
			// The search is synchronous and has no options: nothing to do.
		default:
			fmt.Fprintf(s.log, "agent: skipping unknown UAI line %q\n", line)
		}
		return false, err
	})
}

// position sets the position; on an error it keeps the last good position reached.
func (s *uaiSession) position(args []string) {
	if len(args) == 0 {
		fmt.Fprintln(s.log, "agent: position without arguments: ignored")
		return
	}
	movesAt := len(args)
	for i, a := range args {
		if a == "moves" {
			movesAt = i
			break
		}
	}
	var p ataxx.Position
	var err error
	switch args[0] {
	case "startpos":
		p = ataxx.Start()
		if movesAt != 1 {
			fmt.Fprintf(s.log, "agent: position startpos: ignoring %q\n", strings.Join(args[1:movesAt], " "))
		}
	case "fen":
		p, err = ataxx.ParseFEN(strings.Join(args[1:movesAt], " "))
	default:
		err = fmt.Errorf("want startpos or fen, got %q", args[0])
	}
	if err == nil && !p.Valid() {
		err = fmt.Errorf("invalid position %s", p)
	}
	if err != nil {
		fmt.Fprintf(s.log, "agent: position %q: %v: keeping the previous position\n", strings.Join(args, " "), err)
		return
	}
	if movesAt < len(args) {
		for _, ms := range args[movesAt+1:] {
			// Standard Ataxx has no turn cap: play on past it.
			p = p.Playable()
			m, err := p.ParseUAIMove(ms)
			if err != nil {
				fmt.Fprintf(s.log, "agent: position: %v: stopping before it\n", err)
				break
			}
			p = p.Apply(m)
		}
	}
	s.pos = p
}

// goCmd reads the limits and answers bestmove.
func (s *uaiSession) goCmd(args []string) error {
	var lim engine.Limits
	var bt, wt, bi, wi time.Duration
	infinite := false
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "infinite" {
			infinite = true
			continue
		}
		if key == "ponder" {
			continue
		}
		if i+1 >= len(args) {
			fmt.Fprintf(s.log, "agent: go: %q without a value\n", key)
			break
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			fmt.Fprintf(s.log, "agent: go: bad value %q for %q\n", args[i+1], key)
			i++
			continue
		}
		i++
		const maxMillis = int64(24 * time.Hour / time.Millisecond)
		ms := time.Duration(max(0, min(n, maxMillis))) * time.Millisecond
		switch key {
		case "btime":
			bt = max(ms, time.Millisecond)
		case "wtime":
			wt = max(ms, time.Millisecond)
		case "binc":
			bi = ms
		case "winc":
			wi = ms
		case "movetime":
			lim.MoveTime = max(ms, time.Millisecond)
		case "nodes":
			lim.Nodes = max(1, n)
		case "depth":
			lim.Depth = int(max(1, min(n, 1000)))
		case "movestogo", "mate":
			// Not used.
		default:
			fmt.Fprintf(s.log, "agent: go: unknown key %q\n", key)
		}
	}
	if s.pos.ToMove() == ataxx.O { // FEN 'x', black
		lim.MyTime, lim.OppTime, lim.MyInc, lim.OppInc = bt, wt, bi, wi
	} else {
		lim.MyTime, lim.OppTime, lim.MyInc, lim.OppInc = wt, bt, wi, bi
	}
	if infinite || lim.Infinite() {
		lim = engine.Limits{MoveTime: bareGoTime}
	}
	before, m := s.pos.Playable(), ataxx.Pass
	if !before.Terminal() {
		m = s.mv.Choose(before, lim)
	}
	if s.trace != nil {
		s.trace(before, m)
	}
	return s.println("bestmove " + m.UAI())
}
