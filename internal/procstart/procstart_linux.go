//go:build linux

package procstart

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// clockTick is the unit of /proc/<pid>/stat's start time: USER_HZ, 100 on every Linux
// architecture Go supports (the kernel's ABI fixes it; sysconf(_SC_CLK_TCK) reports it).
const clockTick = 10 * time.Millisecond

// clockBoottime is CLOCK_BOOTTIME, the clock the kernel measures a process's start on.
const clockBoottime = 7

// Elapsed is the time since the process started (the fork of the process that exec'd this
// program, which is when a controller's spawn begins). The kernel keeps the start in clock
// ticks, rounded down, so Elapsed errs on the long side by less than 10 ms. ok is false when
// it cannot be read.
func Elapsed() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	ticks, ok := startTicks(b)
	if !ok {
		return 0, false
	}
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockBoottime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	d := time.Duration(ts.Nano()) - time.Duration(ticks)*clockTick
	if d < 0 {
		return 0, false
	}
	return d, true
}

// startTicks reads field 22 (starttime) of a /proc/<pid>/stat line. The command name (field
// 2) is in parentheses and may hold spaces and parentheses itself: the fields are counted
// from its last ')'.
func startTicks(stat []byte) (uint64, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(f[19]), 10, 64)
	return v, err == nil
}
