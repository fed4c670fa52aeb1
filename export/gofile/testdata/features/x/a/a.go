// Package a (example.com/feat/x/a) shares its name with example.com/feat/a.
package a

// Name is declared in several packages.
const Name = "x/a"
