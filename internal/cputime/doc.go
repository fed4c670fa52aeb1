// Package cputime reads CPU time for benchmarks: on a shared, oversubscribed machine the CPU
// time of the measured code says how much work it did, where the wall clock also counts the
// time spent waiting for a core.
package cputime
