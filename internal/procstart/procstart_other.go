//go:build !linux

package procstart

import "time"

// Elapsed is not known on this system: ok is false, and a caller counts from its own start.
func Elapsed() (time.Duration, bool) { return 0, false }
