//go:build unix && !linux

package arena

import (
	"os"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// residentBytes is unavailable off Linux: the RSS watchdog never fires there.
func residentBytes(pid int) (uint64, bool) { return 0, false }

func maxRSS(st *os.ProcessState) uint64 { return 0 }

func exited(pid int) bool { return false }
