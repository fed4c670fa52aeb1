package arena

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"colony/judge"
)

// maxLine bounds one protocol line from an agent; a longer line is a protocol error (RE).
const maxLine = 4096

// stderrTail is how many bytes of the end of an agent's stderr are kept for the game record
// (with half as many from its start).
const stderrTail = 2048

// errLineTooLong is reported by the reader when an agent prints a line longer than maxLine.
var errLineTooLong = errors.New("line longer than 4096 bytes")

// SplitCommand splits an agent command on whitespace, without a shell: no quoting, no
// variables, no redirections (the same convention as the Petri Dish driver). Wrap a command
// in `sh -c` yourself if you need a shell, knowing that its words are split here too.
func SplitCommand(cmd string) ([]string, error) {
	argv := strings.Fields(cmd)
	if len(argv) == 0 {
		return nil, fmt.Errorf("arena: empty agent command")
	}
	return argv, nil
}

// lineEvent is one line read from an agent's stdout (without its newline), stamped with the
// time it was read, or the error that ended the stream (io.EOF when the agent closed it).
type lineEvent struct {
	text string
	at   time.Time
	err  error
}

// process is one running agent: its own process group (so that the referee can kill it and
// every child it started), stdin for the referee's lines, a goroutine reading stdout
// line by line, and the tail of its stderr.
type process struct {
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     *os.File
	lines      chan lineEvent
	stop       chan struct{}
	watchStop  chan struct{} // closed to stop the memory watchdog
	watchDone  chan struct{} // closed when the watchdog has stopped
	readerDone chan struct{}
	stderr     *tailWriter
	eof        bool // the stdout stream ended (crash or exit)
	killed     bool
	waited     bool
	exit       string
	peakRSS    uint64        // maximum resident set of the agent, from its rusage after exit
	overRSS    atomic.Uint64 // resident bytes seen by the watchdog when it killed the agent
}

// Limits are the memory limits of an agent process.
type Limits struct {
	// RSS caps the resident memory of the agent process in bytes (0: none). A watchdog reads
	// /proc/<pid>/statm every rssPoll and kills the agent's process group when it is over.
	RSS uint64
	// AS caps the address space (RLIMIT_AS, through `sh -c 'ulimit -v'` before exec) in
	// bytes (0: none). Go reserves address space it never touches, so RLIMIT_AS is much
	// stricter than RSS for Go agents: it is a backstop, not the judge's limit.
	AS uint64
}

// rssPoll is how often the memory watchdog samples an agent's resident memory.
const rssPoll = 10 * time.Millisecond

// startProcess starts argv in a new process group under the limits lim.
func startProcess(argv []string, lim Limits) (*process, error) {
	name := argv[0]
	if lim.AS > 0 {
		// Fail here, not inside the shell, when the agent cannot be found.
		if _, err := exec.LookPath(name); err != nil {
			return nil, fmt.Errorf("arena: starting agent %q: %w", name, err)
		}
		// The shell sets the limit on itself and execs the agent in its place (same pid,
		// same process group); the agent's words are passed as arguments, never parsed.
		script := fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, lim.AS>>10)
		argv = append([]string{"/bin/sh", "-c", script}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = sysProcAttr()
	// Wait stops waiting for the stderr copy after this delay, even if an escaped grandchild
	// still holds the pipe.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("arena: %s: stdin: %w", argv[0], err)
	}
	// stdout is our own pipe (not StdoutPipe) so that Wait never closes it under the reader.
	r, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, fmt.Errorf("arena: %s: stdout: %w", argv[0], err)
	}
	cmd.Stdout = w
	tail := &tailWriter{max: stderrTail}
	cmd.Stderr = tail
	if err := cmd.Start(); err != nil {
		stdin.Close()
		r.Close()
		w.Close()
		return nil, fmt.Errorf("arena: starting agent %q: %w", name, err)
	}
	w.Close()
	p := &process{
		cmd:        cmd,
		stdin:      stdin,
		stdout:     r,
		lines:      make(chan lineEvent, 16),
		stop:       make(chan struct{}),
		watchStop:  make(chan struct{}),
		watchDone:  make(chan struct{}),
		readerDone: make(chan struct{}),
		stderr:     tail,
	}
	go p.read()
	if lim.RSS > 0 {
		go p.watchRSS(lim.RSS)
	} else {
		close(p.watchDone)
	}
	return p, nil
}

// watchRSS kills the agent's process group when its resident memory exceeds limit.
func (p *process) watchRSS(limit uint64) {
	defer close(p.watchDone)
	t := time.NewTicker(rssPoll)
	defer t.Stop()
	pid := p.cmd.Process.Pid
	for {
		select {
		case <-p.watchStop:
			return
		case <-t.C:
		}
		rss, ok := residentBytes(pid)
		if !ok {
			continue // not readable (exiting, or not Linux)
		}
		if rss > limit {
			p.overRSS.Store(rss)
			killGroup(pid) // safe: reap stops the watchdog before it reaps the pid
			return
		}
	}
}

func (p *process) read() {
	defer close(p.readerDone)
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 0, 256), maxLine)
	send := func(ev lineEvent) bool {
		select {
		case p.lines <- ev:
			return true
		case <-p.stop:
			return false
		}
	}
	for sc.Scan() {
		if !send(lineEvent{text: strings.TrimRight(sc.Text(), "\r"), at: time.Now()}) {
			return
		}
	}
	err := sc.Err()
	switch {
	case errors.Is(err, bufio.ErrTooLong):
		err = errLineTooLong
	case err == nil:
		err = io.EOF
	}
	send(lineEvent{at: time.Now(), err: err})
}

// send writes one line to the agent's stdin.
func (p *process) send(line string) error {
	_, err := io.WriteString(p.stdin, line+"\n")
	return err
}

// next returns the next line, or timedOut when none arrived before deadline.
func (p *process) next(deadline time.Time) (ev lineEvent, timedOut bool) {
	if p.eof {
		return lineEvent{at: time.Now(), err: io.EOF}, false
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case ev = <-p.lines:
		if ev.err != nil {
			p.eof = true
		}
		return ev, false
	case <-t.C:
		// A line that arrived exactly at the deadline still counts.
		select {
		case ev = <-p.lines:
			if ev.err != nil {
				p.eof = true
			}
			return ev, false
		default:
		}
		return lineEvent{}, true
	}
}

// kill sends SIGKILL to the agent's whole process group. It must run before reap, while the
// leader's pid (the group id) is still held by it, zombie or not.
func (p *process) kill() {
	if p.waited {
		return
	}
	p.killed = true
	killGroup(p.cmd.Process.Pid)
}

// finish ends the agent after the game: stdin is closed, the agent gets grace to exit on
// its own (its stdout reaching EOF), then its process group is killed and it is reaped. It
// returns how the process ended.
func (p *process) finish(grace time.Duration) string {
	p.stdin.Close()
	if !p.eof && grace > 0 {
		t := time.NewTimer(grace)
	drain:
		for {
			select {
			case ev := <-p.lines:
				if ev.err != nil {
					p.eof = true
					break drain
				}
			case <-t.C:
				break drain
			}
		}
		t.Stop()
		if p.eof {
			// stdout closes just before exit: give the exit a moment too.
			p.waitExit(grace)
		}
	}
	if !p.waited {
		p.kill()
	}
	p.reap()
	return p.exit
}

// waitExit waits up to d for the agent to exit by itself and reaps it if it did.
func (p *process) waitExit(d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if exited(p.cmd.Process.Pid) {
			killGroup(p.cmd.Process.Pid) // children it left behind
			p.reap()
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// reap waits for the agent, stops the reader goroutine and closes the pipes.
func (p *process) reap() {
	if p.waited {
		return
	}
	p.waited = true
	close(p.watchStop)
	<-p.watchDone
	err := p.cmd.Wait()
	p.exit = describeExit(p.cmd.ProcessState, err, p.killed || p.overRSS.Load() > 0)
	if st := p.cmd.ProcessState; st != nil {
		p.peakRSS = maxRSS(st)
	}
	close(p.stop)
	p.stdout.Close()
	<-p.readerDone
	p.stdin.Close()
}

func describeExit(st *os.ProcessState, err error, killed bool) string {
	if st == nil {
		if err != nil {
			return err.Error()
		}
		return "unknown"
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		if killed && ws.Signal() == syscall.SIGKILL {
			return "killed by the referee"
		}
		return "signal " + ws.Signal().String()
	}
	return fmt.Sprintf("exit %d", st.ExitCode())
}

// tailWriter keeps the first max/2 and the last max bytes written to it (a Go crash says
// why at the top and where at the bottom). Info lines (judge.ParseInfo: an agent's account
// of its moves) are kept apart, up to maxInfos, and not in the text.
type tailWriter struct {
	mu      sync.Mutex
	max     int
	head    []byte
	buf     []byte
	dropped bool
	line    []byte // the unfinished last line, while it may be an info line
	plain   bool   // the unfinished last line is no info line (kept as it comes)
	infos   []judge.Info
}

// maxInfos bounds the info lines kept from one process (a game has fewer moves).
const maxInfos = 1 << 14

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		seg := b
		k := bytes.IndexByte(b, '\n')
		if k >= 0 {
			seg = b[:k+1]
		}
		b = b[len(seg):]
		if t.plain { // the rest of a line that is no info line
			t.keep(seg)
			t.plain = k < 0
			continue
		}
		t.line = append(t.line, seg...)
		switch {
		case !maybeInfo(t.line) || len(t.line) > maxLine:
			t.keep(t.line)
			t.plain = k < 0
		case k < 0:
			continue // wait for the rest of the line
		default:
			if in, ok := judge.ParseInfo(string(t.line)); ok && len(t.infos) < maxInfos {
				t.infos = append(t.infos, in)
			} else {
				t.keep(t.line)
			}
		}
		t.line = t.line[:0]
	}
	return n, nil
}

// maybeInfo reports whether line may begin an info line.
func maybeInfo(line []byte) bool {
	const p = judge.InfoWord + " "
	k := min(len(line), len(p))
	return string(line[:k]) == p[:k]
}

// keep adds b to the text.
func (t *tailWriter) keep(b []byte) {
	if room := t.max/2 - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.dropped = true
	}
}

// Infos returns the info lines read so far.
func (t *tailWriter) Infos() []judge.Info {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.infos)
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return string(t.head) + "\n[...]\n" + string(t.buf) + string(t.line)
	}
	return string(t.head) + string(t.buf) + string(t.line)
}
