package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"colony/engine"
	"colony/engine/greedy"
	"colony/game/ataxx"
)

// maxLineLen is the longest input line a protocol reads; longer lines are reported and
// skipped whole.
const maxLineLen = 4096

// lineReader splits input into lines, dropping over-long ones.
type lineReader struct {
	r   *bufio.Reader
	log io.Writer
}

func newLineReader(r io.Reader, log io.Writer) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, maxLineLen+1), log: log}
}

// next returns the next line without its newline, or io.EOF when the input is exhausted
// (a last line without a newline is returned first). Other read errors are returned as is.
func (lr *lineReader) next() (string, error) {
	for {
		b, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			fmt.Fprintf(lr.log, "agent: skipping a line longer than %d bytes\n", maxLineLen)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = lr.r.ReadSlice('\n')
			}
			if err != nil {
				return "", err
			}
			continue
		}
		if err != nil {
			if len(b) > 0 && errors.Is(err, io.EOF) {
				return string(b), nil
			}
			return "", err
		}
		return string(b[:len(b)-1]), nil
	}
}

// asciiUpper upper-cases ASCII letters only, so that no exotic rune folds into a command.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// lazyEngine builds an engine in the background so that a protocol can answer at once.
type lazyEngine struct {
	done chan struct{}
	eng  AtaxxEngine
	err  error
}

func startEngine(factory func() (AtaxxEngine, error)) *lazyEngine {
	l := &lazyEngine{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer func() {
			if r := recover(); r != nil {
				l.eng, l.err = nil, fmt.Errorf("engine constructor panicked: %v", r)
			}
		}()
		l.eng, l.err = factory()
		if l.err == nil && l.eng == nil {
			l.err = errors.New("engine constructor returned no engine")
		}
	}()
	return l
}

// get waits at most wait for the engine; it returns nil if the engine failed or is not ready.
func (l *lazyEngine) get(wait time.Duration) AtaxxEngine {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-l.done:
		if l.err != nil {
			return nil
		}
		return l.eng
	case <-t.C:
		return nil
	}
}

// mover chooses the agent's moves: the engine's when it is ready and legal, a greedy move
// otherwise. It never returns a move that is illegal in the position it reports.
type mover struct {
	lazy     *lazyEngine
	fallback *greedy.Engine
	log      io.Writer
	reported bool // the engine's failure was reported
	newGame  bool // NewGame is owed to the engine
}

func newMover(factory func() (AtaxxEngine, error), seed uint64, log io.Writer) *mover {
	return &mover{lazy: startEngine(factory), fallback: greedy.New(seed ^ 0xFA11BAC4), log: log}
}

// engineWait is how long a move waits for a slow engine constructor: an eighth of the
// remaining clock, at most 2 s (0 for an unknown clock means 2 s).
func engineWait(lim engine.Limits) time.Duration {
	w := 2 * time.Second
	if lim.MyTime > 0 {
		w = min(w, lim.MyTime/8)
	}
	return w
}

// engine returns the engine if it is ready within wait, nil otherwise.
func (mv *mover) engine(wait time.Duration) AtaxxEngine {
	eng := mv.lazy.get(wait)
	if eng == nil {
		select {
		case <-mv.lazy.done:
			if !mv.reported {
				fmt.Fprintf(mv.log, "agent: engine unavailable, playing greedy moves: %v\n", mv.lazy.err)
				mv.reported = true
			}
		default:
			fmt.Fprintln(mv.log, "agent: engine not ready yet, playing a greedy move")
		}
		return nil
	}
	if mv.newGame {
		mv.newGame = false
		mv.safely(func() { eng.NewGame() })
	}
	return eng
}

// startGame tells the engine (now, or when it is ready) that a new game starts.
func (mv *mover) startGame() {
	select {
	case <-mv.lazy.done:
		if mv.lazy.err == nil {
			mv.newGame = false
			mv.safely(func() { mv.lazy.eng.NewGame() })
			return
		}
	default:
	}
	mv.newGame = true
}

// safely runs f, reporting a panic instead of dying; it returns false after a panic.
func (mv *mover) safely(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(mv.log, "agent: engine panicked: %v\n%s", r, debug.Stack())
			ok = false
		}
	}()
	f()
	return true
}

// playable returns the position to move in when the agent is asked for a move in p: p itself
// when the game goes on; when p is over only by the turn cap (the tracked turn count is
// wrong: the other side still plays), p one turn before the cap. A position with a player
// without pieces, or a full board, is returned as is: it has no move but a pass.
func playable(p ataxx.Position) ataxx.Position {
	if !p.Terminal() || p.Turns() < ataxx.MaxTurns {
		return p
	}
	return ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), p.ToMove(), ataxx.MaxTurns-1)
}

// choose returns the position it plays in and a legal move there (a pass when that
// position is over).
func (mv *mover) choose(p ataxx.Position, lim engine.Limits) (ataxx.Position, ataxx.Move) {
	p = playable(p)
	if p.Terminal() {
		return p, ataxx.Pass
	}
	m := ataxx.NoMove
	if eng := mv.engine(engineWait(lim)); eng != nil {
		mv.safely(func() { m = eng.BestMove(p, lim) })
		if !p.IsLegal(m) {
			fmt.Fprintf(mv.log, "agent: engine %s answered illegal move %v in %s; playing a greedy move\n",
				eng.Name(), m, p)
			m = ataxx.NoMove
		}
	}
	if m == ataxx.NoMove {
		m = mv.fallback.BestMove(p, lim)
	}
	return p, m
}
