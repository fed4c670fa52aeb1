package arena

import (
	"colony/judge"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Process-per-move referees (the King-of-the-Hill argv contract and the stdin-per-action
// contract) share how one program run is timed and read, how games are spread over workers
// and how invocation times are summed up.

// onceResult is one run of a program for one move.
type onceResult struct {
	line   string // the first line, newline included if read
	took   time.Duration
	why    string // why there is no line to parse: start failure, timeout, no output, memory
	exit   string // how it ended when it did not just get killed after its line
	stderr string
	infos  []judge.Info // the info lines of its stderr
	rss    uint64
}

// runFirstLine starts cmd (its arguments and stdin already set), reads the first line of its
// stdout (at most maxLine bytes) within limit, then kills its process group and reaps it.
// rss > 0 kills the process when its resident memory goes over rss bytes. The time runs from
// just before the process starts to the first line (or the end of its output).
func runFirstLine(cmd *exec.Cmd, maxLine int, limit time.Duration, rss uint64) onceResult {
	var res onceResult
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = time.Second
	r, w, err := os.Pipe()
	if err != nil {
		res.why = "pipe: " + err.Error()
		return res
	}
	defer r.Close()
	cmd.Stdout = w
	tail := &tailWriter{max: 512}
	cmd.Stderr = tail
	start := time.Now()
	if err := cmd.Start(); err != nil {
		w.Close()
		res.why = "cannot start: " + err.Error()
		return res
	}
	w.Close()
	pid := cmd.Process.Pid
	// Memory watchdog.
	var over sync.Once
	overRSS := false
	stopWatch := make(chan struct{})
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		if rss == 0 {
			return
		}
		t := time.NewTicker(rssPoll)
		defer t.Stop()
		for {
			select {
			case <-stopWatch:
				return
			case <-t.C:
			}
			if b, ok := residentBytes(pid); ok && b > rss {
				over.Do(func() { overRSS = true })
				killGroup(pid)
				return
			}
		}
	}()
	_ = r.SetReadDeadline(start.Add(limit))
	buf := make([]byte, 0, maxLine+1)
	chunk := make([]byte, maxLine)
	var readErr error
	for len(buf) < maxLine {
		n, err := r.Read(chunk[:maxLine-len(buf)])
		buf = append(buf, chunk[:n]...)
		if k := slices.Index(buf, '\n'); k >= 0 {
			buf = buf[:k+1]
			break
		}
		if err != nil {
			readErr = err
			break
		}
	}
	res.took = time.Since(start)
	res.line = string(buf)
	killGroup(pid)
	close(stopWatch)
	<-watchDone
	werr := cmd.Wait()
	res.stderr, res.infos = tail.String(), tail.Infos()
	// The process is killed once its line is read; an exit of its own is noted when it failed.
	if st := cmd.ProcessState; st != nil {
		res.rss = maxRSS(st)
		if st.Exited() && st.ExitCode() != 0 {
			res.exit = fmt.Sprintf("exit %d", st.ExitCode())
		}
	} else if werr != nil {
		res.exit = werr.Error()
	}
	switch {
	case overRSS:
		res.why = fmt.Sprintf("resident memory over %d MB", rss>>20)
	case len(buf) == 0 && errors.Is(readErr, os.ErrDeadlineExceeded):
		res.why = fmt.Sprintf("no line after %v", limit)
	case len(buf) == 0:
		res.why = "no output"
	}
	return res
}

// playGames plays games 0..n-1 on parallel workers and hands each finished game to done in
// the order they finish, writing it to outDir as game-NNNN.json first when outDir is set.
// The first error (of a game or of a write) is returned after all games are played.
func playGames[R any](n, parallel int, outDir string, play func(i int) (R, error), index func(R) int, done func(R)) error {
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	type result struct {
		rec R
		err error
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range max(parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec, err := play(i)
				results <- result{rec, err}
			}
		}()
	}
	go func() {
		for i := range n {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		if outDir != "" {
			if err := WriteJSON(filepath.Join(outDir, fmt.Sprintf("game-%04d.json", index(r.rec))), r.rec); err != nil && firstErr == nil {
				firstErr = err
			}
		}
		done(r.rec)
	}
	return firstErr
}

// writeSummary writes sum as outDir/summary.json when outDir is set and nothing failed.
func writeSummary(outDir string, sum any, err error) error {
	if outDir != "" && err == nil {
		err = WriteJSON(filepath.Join(outDir, "summary.json"), sum)
	}
	return err
}

// InvocationTimes sums up a program's invocation times (process start to first line), in ms.
type InvocationTimes struct {
	Slow   int     `json:"slow"` // invocations slower than the referee's SlowLimit
	MaxMs  float64 `json:"max_ms"`
	P99Ms  float64 `json:"p99_ms"`
	P50Ms  float64 `json:"p50_ms"`
	MeanMs float64 `json:"mean_ms"`
	times  []float64
}

func (t *InvocationTimes) add(slow time.Duration, msList ...float64) {
	for _, v := range msList {
		if v > ms(slow) {
			t.Slow++
		}
	}
	t.times = append(t.times, msList...)
}

func (t *InvocationTimes) finish() {
	if len(t.times) == 0 {
		return
	}
	s := slices.Clone(t.times)
	slices.Sort(s)
	t.MaxMs, t.P99Ms, t.P50Ms = s[len(s)-1], quantile(s, 0.99), quantile(s, 0.5)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	t.MeanMs = sum / float64(len(s))
}

// quantile is the q-quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(k, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// noteStderr keeps the last stderr of each seat that wrote any.
func noteStderr(m *map[string]string, seat int, stderr string) {
	if stderr == "" {
		return
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[fmt.Sprint(seat)] = stderr
}
