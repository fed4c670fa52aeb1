//go:build !unix

package cputime

import "time"

var start = time.Now()

// Process falls back to the wall clock where rusage is not available.
func Process() time.Duration { return time.Since(start) }
