// Package export holds what the single-file exports of the agent share: a program built from
// one source file, as the judge builds it, is started and asked READY (CheckReady). Each
// language has its package: export/gofile writes the agent as one Go file (its own packages
// rewritten into package main), export/cpp as one C++17 file (a game's template filled from
// the Go side). cmd/export wires them to the command line.
package export

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// CheckReady starts bin, sends the judge's "READY FIRST" and waits for "OK" up to limit; it
// returns the time from the start of the process to the answer.
func CheckReady(bin string, limit time.Duration) (time.Duration, error) {
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	if _, err := io.WriteString(stdin, "READY FIRST\n"); err != nil {
		return 0, err
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		el := time.Since(start)
		if strings.TrimSpace(s) != "OK" {
			return el, fmt.Errorf("export: READY FIRST answered %q, want OK", s)
		}
		io.WriteString(stdin, "FINISH\n")
		return el, nil
	case <-time.After(limit):
		cmd.Process.Kill()
		return limit, errors.New("export: no OK to READY within " + limit.String())
	}
}
