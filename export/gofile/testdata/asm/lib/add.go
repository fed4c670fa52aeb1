// Package lib has an assembly function.
package lib

// Add is written in assembly.
func Add(a, b int) int
