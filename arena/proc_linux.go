package arena

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// sysProcAttr puts the agent in its own process group and kills it if the referee dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to process group pgid.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// residentBytes returns the resident memory of pid from /proc/<pid>/statm.
func residentBytes(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * uint64(os.Getpagesize()), true
}

// maxRSS is the peak resident memory of an exited process in bytes.
func maxRSS(st *os.ProcessState) uint64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 0 {
		return uint64(ru.Maxrss) << 10 // Linux reports KiB
	}
	return 0
}

// exited reports whether child pid has exited, without reaping it (waitid with WNOWAIT), so
// that its pid, which is also its process group's id, stays reserved until Wait.
func exited(pid int) bool {
	const pPID = 1
	var info [128]byte // siginfo_t; si_signo (offset 0) is set to SIGCHLD when pid has exited
	_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
	return e == 0 && *(*int32)(unsafe.Pointer(&info[0])) == int32(syscall.SIGCHLD)
}
