// Package b depends on a's init having run before its own variables are initialised.
package b

import (
	"math/rand/v2"

	"example.com/feat/a"
)

// Name is declared in several packages.
const Name = "b"

// Sum is initialised from a.Table, which a's init fills.
var Sum = sum()

func sum() int {
	s := 0
	for _, v := range a.Table {
		s += v
	}
	return s
}

var order []string

func init() { order = append(order, "b1") }

func init() { order = append(order, "b2") }

// Order lists b's init functions in the order they ran.
func Order() []string { return order }

// Thing embeds a's Base: the field keeps the type's name.
type Thing struct {
	a.Base
	Label string
}

// Local embeds a type of its own package.
type Local struct {
	*Thing
	N int
}

// Pick uses math/rand/v2, whose package name clashes with math/rand's.
func Pick(seed uint64) int { return rand.New(rand.NewPCG(seed, 1)).IntN(1000) }
