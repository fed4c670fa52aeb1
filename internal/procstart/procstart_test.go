//go:build linux

package procstart

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// helperEnv makes the test binary print Elapsed and exit (TestCountsFromTheFork).
const helperEnv = "PROCSTART_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		d, ok := Elapsed()
		if !ok {
			os.Exit(3)
		}
		os.Stdout.WriteString(strconv.FormatInt(int64(d), 10) + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCountsFromTheFork: a shell sleeps, then execs this binary; exec keeps the process, so
// the binary must count the sleep, which its own clock never saw.
func TestCountsFromTheFork(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	const sleep = 300 * time.Millisecond
	start := time.Now()
	cmd := exec.Command("sh", "-c", `sleep 0.3; exec "$0"`, os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	n, err := strconv.ParseInt(string(out[:len(out)-1]), 10, 64)
	if err != nil {
		t.Fatalf("helper printed %q", out)
	}
	if d := time.Duration(n); d < sleep || d > wall+clockTick {
		t.Errorf("Elapsed %v in a process that slept %v before its exec and ended %v after its fork", d, sleep, wall)
	}
}

func TestElapsedGrows(t *testing.T) {
	a, ok := Elapsed()
	if !ok {
		t.Fatal("Elapsed unavailable on linux")
	}
	time.Sleep(30 * time.Millisecond)
	b, _ := Elapsed()
	if b-a < 25*time.Millisecond || b-a > 10*time.Second {
		t.Errorf("Elapsed went from %v to %v over a 30 ms sleep", a, b)
	}
}

func TestStartTicks(t *testing.T) {
	line := "4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 123456 789 18446744073709551615\n"
	if v, ok := startTicks([]byte(line)); !ok || v != 987654 {
		t.Errorf("startTicks = %d, %v; want 987654", v, ok)
	}
	if _, ok := startTicks([]byte("4242 (x) S 1 2 3")); ok {
		t.Error("a short line was read")
	}
}
