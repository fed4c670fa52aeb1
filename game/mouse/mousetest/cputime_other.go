//go:build !linux

package mousetest

import "time"

// threadTime runs f; without a per-thread CPU clock it reports nothing (ok false) and the
// caller charges wall time.
func threadTime(f func()) (time.Duration, bool) {
	f()
	return 0, false
}
