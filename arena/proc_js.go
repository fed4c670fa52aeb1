//go:build js

package arena

import (
	"os"
	"syscall"
)

// The browser build (colony/web) reads and writes game records only: it starts no agent, so
// the process controls are stubs there.

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func killGroup(int) {}

func residentBytes(int) (uint64, bool) { return 0, false }

func maxRSS(*os.ProcessState) uint64 { return 0 }

func exited(int) bool { return false }
