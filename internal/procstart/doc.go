// Package procstart tells how long ago the running process was started, as the kernel
// counts it: from the fork, before the Go runtime and the package initialisers ran. A program
// started once per move (the King-of-the-Hill controller's contract) uses it to count its time
// from the controller's start of the process rather than from its own main, which a loaded
// machine can delay by tens of milliseconds.
package procstart
