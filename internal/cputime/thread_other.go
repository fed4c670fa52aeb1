//go:build !linux

package cputime

import "time"

// Thread is not available on this platform.
func Thread() (time.Duration, bool) { return 0, false }
