//go:build !linux

package enginetest

import "time"

// threadTime runs f; without a per-thread CPU clock it reports nothing (ok false) and the
// caller charges wall time.
func threadTime(f func()) (time.Duration, bool) {
	f()
	return 0, false
}
