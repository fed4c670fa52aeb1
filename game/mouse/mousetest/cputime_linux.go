package mousetest

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's own usage.
const rusageThread = 1

// threadTime runs f on one locked OS thread and returns the CPU time that thread spent in it:
// the work of a single-threaded search, whatever the load of a shared test machine (its
// wall time also counts the time it waited for a core). ok is false when the kernel does not
// tell.
func threadTime(f func()) (d time.Duration, ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var a, b syscall.Rusage
	if syscall.Getrusage(rusageThread, &a) != nil {
		f()
		return 0, false
	}
	f()
	if syscall.Getrusage(rusageThread, &b) != nil {
		return 0, false
	}
	cpu := func(r *syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return cpu(&b) - cpu(&a), true
}
