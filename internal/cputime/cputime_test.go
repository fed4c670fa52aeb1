package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestCPUTimeAdvancesWithWork(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0 := Process()
	t0, ok := Thread()
	x := 1.0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for range 1000 {
			x = x*1.0000001 + 1e-9
		}
	}
	if x == 0 {
		t.Fatal("unreachable")
	}
	if Process() <= p0 {
		t.Error("process CPU time did not advance")
	}
	if t1, ok2 := Thread(); ok && ok2 && t1 <= t0 {
		t.Error("thread CPU time did not advance")
	}
}
