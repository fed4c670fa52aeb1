package koth

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"colony/engine"
	"colony/game/slime"
	"colony/internal/procstart"
)

const board = "3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,333....4"

// withArgs runs f with the process's command line ending in args, as the agent's does.
func withArgs(args []string, f func()) {
	saved := os.Args
	defer func() { os.Args = saved }()
	os.Args = append(append([]string{}, saved...), args...)
	f()
}

// TestStartedCountsFromTheProcess: the move's time counts from the process's start only when
// the process was started for this position.
func TestStartedCountsFromTheProcess(t *testing.T) {
	now := time.Now()
	if s := started(now, []string{board}); !s.Equal(now) {
		t.Errorf("a caller started for something else counts from %v before the call", now.Sub(s))
	}
	d, ok := procstart.Elapsed()
	if !ok {
		t.Skip("no process start on this system")
	}
	withArgs([]string{board}, func() {
		s := started(now, []string{board})
		if back := now.Sub(s); back < d-time.Second || back > d+time.Second || back <= 0 {
			t.Errorf("started %v before the call, the process %v before", back, d)
		}
	})
}

type hang struct{}

func (hang) Name() string { return "hang" }
func (hang) NewGame()     {}
func (hang) BestMove(slime.Position, engine.Limits) slime.Move {
	time.Sleep(time.Hour)
	return slime.Pass
}

// TestLateProcess: a process whose search time is gone when it reads the position prints
// the fallback at once, without building the engine.
func TestLateProcess(t *testing.T) {
	for {
		d, ok := procstart.Elapsed()
		if !ok {
			t.Skip("no process start on this system")
		}
		if d > MoveTime+20*time.Millisecond {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	withArgs([]string{board}, func() {
		var out, log bytes.Buffer
		built := false
		start := time.Now()
		err := Answer([]string{board}, &out, &log, "hang", func() (engine.Engine[slime.Position, slime.Move], error) {
			built = true
			return hang{}, nil
		}, 1)
		if took := time.Since(start); err != nil || out.String() != "4 0 2 2\n" || built || !strings.HasPrefix(log.String(), "koth: late:") || took > Deadline {
			t.Errorf("late process: %q, %v, built %v, log %q, %v", out.String(), err, built, log.String(), took)
		}
	})
}
