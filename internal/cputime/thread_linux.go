//go:build linux

package cputime

import (
	"syscall"
	"time"
)

// Thread is the CPU time consumed by the calling OS thread (RUSAGE_THREAD): lock the goroutine
// to its thread (runtime.LockOSThread) around the measured code.
func Thread() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
