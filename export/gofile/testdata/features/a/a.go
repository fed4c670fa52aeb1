// Package a exercises the exporter: generics, init functions, embeds, a dot import, a name
// shared with other packages and a builtin shadowed at package level.
package a

import (
	_ "embed"
	"fmt"
	"math/rand"
	. "strings"
)

// Table is filled by init, before any package importing a initialises its variables.
var Table [8]int

// Name is declared in several packages.
const Name = "a"

func init() {
	for i := range Table {
		Table[i] = i * i
	}
}

// Set is a generic set.
type Set[T comparable] struct{ m map[T]struct{} }

// NewSet returns a set of xs.
func NewSet[T comparable](xs ...T) *Set[T] {
	s := &Set[T]{m: map[T]struct{}{}}
	for _, x := range xs {
		s.m[x] = struct{}{}
	}
	return s
}

// Len is the set's size.
func (s *Set[T]) Len() int { return len(s.m) }

// Apply applies f to xs.
func Apply[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// max shadows the builtin inside package a only.
func max(x, y int) int {
	if x > y {
		return x + 1000
	}
	return y + 1000
}

// Max uses the package's own max.
func Max(x, y int) int { return max(x, y) }

// Upper uses a dot import.
func Upper(s string) string { return ToUpper(TrimSpace(s)) }

// Roll uses math/rand (another file of another package uses math/rand/v2 as rand too).
func Roll(seed int64) int { return rand.New(rand.NewSource(seed)).Intn(1000) }

//go:embed data/greeting.txt
var Greeting string

//go:embed data/bytes.bin
var Bytes []byte

// Base is embedded in other packages' structs.
type Base struct{ ID int }

// Describe is promoted through embedding.
func (b Base) Describe() string { return fmt.Sprintf("base %d", b.ID) }
