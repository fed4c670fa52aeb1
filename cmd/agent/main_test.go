package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The test binary is the agent when agentEnv is set: the tests run it as a process, so that
// they see what the judge sees (the exit status from os.Exit, the process's stdin and
// stdout).
const agentEnv = "COLONY_CMD_AGENT_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) != "" {
		main()
		return
	}
	os.Exit(m.Run())
}

// runAgent runs the program with args and stdin; it returns the exit status, stdout and stderr.
func runAgent(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), agentEnv+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String(), errOut.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

func TestFlagsAndExitCodes(t *testing.T) {
	for _, c := range []struct {
		stdin      string
		args       []string
		code       int
		out, inErr string // wanted in stdout and in stderr
	}{
		{"", []string{"-h"}, 0, "", "-engine"},
		{"", []string{"-nonesuch"}, 2, "", "flag provided but not defined"},
		{"", []string{"-game", "chess"}, 2, "", "unknown game"},
		{"", []string{"-game", "bacteria-war", "-engine", "nonesuch"}, 2, "", "unknown engine"},
		{"", []string{"-game", "bacteria-war", "-engine", "greedy", "-cpuct", "2"}, 2, "", "does not use -cpuct"},
		{"", []string{"-game", "bacteria-war", "-engines"}, 0, "alphabeta", ""},
		{"", []string{"-game", "bacteria-war", "-perft", "1"}, 0, "16\n", "perft 1"},
		{"", []string{"-game", "catch-the-mouse", "-perft", "1", "-board", "nonsense"}, 2, "", "-board"},
		// A judge session: OK, a move, then FINISH ends it with status 0.
		{"READY FIRST\nTURN 10000 10000\nFINISH\n", []string{"-game", "bacteria-war", "-engine", "greedy"}, 0, "OK\nMOVE ", ""},
		// A line the protocol does not know is skipped, and said on stderr.
		{"READY FIRST\nHELLO\nFINISH\n", []string{"-game", "bacteria-war", "-engine", "greedy"}, 0, "OK\n", "HELLO"},
		{"READY FIRST\nPOSITION nonsense\nFINISH\n", []string{"-game", "bacteria-war", "-engine", "greedy"}, 0, "OK\n", "skipping POSITION"},
		// An answer on input it cannot read: the safe answer (a pass, a REST), then status 1.
		{"", []string{"-game", "slime", "garbage"}, 1, "0 0 0 0\n", "garbage"},
		{"nonsense\n", []string{"-game", "petri"}, 1, "REST\n", "nonsense"},
		// Slime's program answers the position in its argument.
		{"", []string{"-game", "slime", "-engine", "greedy", "1,1...,....,....,...2"}, 0, "", ""},
	} {
		code, out, errOut := runAgent(t, c.stdin, c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.inErr) {
			t.Errorf("agent %q with stdin %q: exit %d, stdout %q, stderr %q; want exit %d, %q in stdout, %q in stderr",
				c.args, c.stdin, code, out, errOut, c.code, c.out, c.inErr)
		}
	}
}

// TestBuildProfile checks the profile `go build` applies to this command and to selfplay
// (default.pgo, written by `make pgo` from nnab's BenchmarkGame): one file for both, a
// gzipped CPU profile of the search, its evaluation and its hooks.
func TestBuildProfile(t *testing.T) {
	raw, err := os.ReadFile("default.pgo")
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.ReadFile("../selfplay/default.pgo")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, other) {
		t.Error("cmd/agent/default.pgo and cmd/selfplay/default.pgo differ: run make pgo")
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("default.pgo is not a gzipped profile: %v", err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("default.pgo: %v", err)
	}
	for _, fn := range []string{"colony/engine/alphabeta.", "colony/nn/nnue.", "colony/game/ataxx/nnab."} {
		if !bytes.Contains(body, []byte(fn)) {
			t.Errorf("default.pgo names no function of %s: not a profile of the search", strings.TrimSuffix(fn, "."))
		}
	}
}
