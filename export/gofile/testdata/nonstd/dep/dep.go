// Package dep stands for a third-party package.
package dep

// X is 1.
func X() int { return 1 }
