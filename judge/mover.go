package judge

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"colony/engine"
)

// lazyEngine builds an engine in the background so that a protocol can answer at once.
type lazyEngine[P, M any] struct {
	done chan struct{}
	eng  engine.Engine[P, M]
	err  error
}

func startEngine[P, M any](factory func() (engine.Engine[P, M], error)) *lazyEngine[P, M] {
	l := &lazyEngine[P, M]{done: make(chan struct{})}
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
func (l *lazyEngine[P, M]) get(wait time.Duration) engine.Engine[P, M] {
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

// Mover chooses an agent's moves: the engine's when it is ready and legal, the fallback
// engine's otherwise (a cheap one: greedy, random). It never returns a move that is illegal
// in the position it is given.
type Mover[P interface{ LegalMoves([]M) []M }, M comparable] struct {
	lazy     *lazyEngine[P, M]
	fallback engine.Engine[P, M]
	log      io.Writer
	reported bool // the engine's failure was reported
	newGame  bool // NewGame is owed to the engine
	buf      []M
	played   engine.Engine[P, M] // the engine whose move Choose returned last (nil: a fallback move)
}

// NewMover starts building the engine with factory (in the background) and answers with
// fallback while it is not there.
func NewMover[P interface{ LegalMoves([]M) []M }, M comparable](factory func() (engine.Engine[P, M], error), fallback engine.Engine[P, M], log io.Writer) *Mover[P, M] {
	return &Mover[P, M]{lazy: startEngine(factory), fallback: fallback, log: log}
}

// Wait waits for the engine constructor and returns its error (UAI's isready).
func (mv *Mover[P, M]) Wait() error {
	<-mv.lazy.done
	return mv.lazy.err
}

// engineWait is how long a move waits for a slow engine constructor: an eighth of the
// remaining clock, at most 2 s (0 for an unknown clock means 2 s); a minute on a node clock.
func engineWait(lim engine.Limits) time.Duration {
	if lim.NodeClock > 0 {
		// A node-clock game is the same game on any load: no fallback move for a slow start.
		return time.Minute
	}
	w := 2 * time.Second
	if lim.MyTime > 0 {
		w = min(w, lim.MyTime/8)
	}
	return w
}

// engine returns the engine if it is ready within wait, nil otherwise.
func (mv *Mover[P, M]) engine(wait time.Duration) engine.Engine[P, M] {
	eng := mv.lazy.get(wait)
	if eng == nil {
		select {
		case <-mv.lazy.done:
			if !mv.reported {
				fmt.Fprintf(mv.log, "agent: engine unavailable, playing %s moves: %v\n", mv.fallback.Name(), mv.lazy.err)
				mv.reported = true
			}
		default:
			fmt.Fprintf(mv.log, "agent: engine not ready yet, playing a %s move\n", mv.fallback.Name())
		}
		return nil
	}
	if mv.newGame {
		mv.newGame = false
		mv.safely(func() { eng.NewGame() })
	}
	return eng
}

// StartGame tells the engine (now, or when it is ready) that a new game starts.
func (mv *Mover[P, M]) StartGame() {
	mv.fallback.NewGame()
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
func (mv *Mover[P, M]) safely(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(mv.log, "agent: engine panicked: %v\n%s", r, debug.Stack())
			ok = false
		}
	}()
	f()
	return true
}

// legal reports whether m is among p's legal moves.
func (mv *Mover[P, M]) legal(p P, m M) bool {
	mv.buf = p.LegalMoves(mv.buf[:0])
	for _, l := range mv.buf {
		if l == m {
			return true
		}
	}
	return false
}

// Choose returns a legal move of p, which must have one.
func (mv *Mover[P, M]) Choose(p P, lim engine.Limits) M {
	mv.played = nil
	if eng := mv.engine(engineWait(lim)); eng != nil {
		var m M
		ok := mv.safely(func() { m = eng.BestMove(p, lim) })
		if ok && mv.legal(p, m) {
			mv.played = eng
			return m
		}
		fmt.Fprintf(mv.log, "agent: engine %s answered an illegal move %v; playing a %s move\n", eng.Name(), m, mv.fallback.Name())
	}
	var m M
	if mv.safely(func() { m = mv.fallback.BestMove(p, lim) }) && mv.legal(p, m) {
		return m
	}
	return mv.buf[0] // mv.legal filled buf with p's moves
}

// Report is the engine's account of the move Choose returned last (engine.ReportOf); none
// for a fallback move or an engine that gives none.
func (mv *Mover[P, M]) Report() (engine.Report, bool) {
	if mv.played == nil {
		return engine.Report{}, false
	}
	return engine.ReportOf(mv.played)
}
