package nnab

import (
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
)

// What a port of nnab to another language (colony/export's C++ agent) reads from this
// package, so that the port's constants come from here.

// SearchConfig returns nnab's search configuration (engine/alphabeta).
func SearchConfig() ab.Config[ataxx.Move] { return config }

// DefaultHashMB is the table size of an engine whose Options.HashMB is 0.
const DefaultHashMB = defaultHashMB

// TurnKey is the key mixed into the table key of a position after turns turns (Key).
func TurnKey(turns int) uint64 { return turnKeys[turns] }

// TurnKeys is the number of turn keys (turns 0 to ataxx.MaxTurns+1).
const TurnKeys = len(turnKeys)

// QuietLeap is what the hooks take off the ordering value of a leap that captures nothing
// (abrules.Rules.QuietLeap).
const QuietLeap = quietLeap

// NewWithConfig is New with the search configuration c in place of nnab's own (SearchConfig):
// a test hook, for the C++ export's parity tests of settings nnab's default leaves off. Engines
// that play use New.
func NewWithConfig(o Options, c ab.Config[ataxx.Move]) (*Engine, error) { return newWithConfig(o, c) }
