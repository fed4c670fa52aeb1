// Package arena is Colony's referee. Judge-protocol games (docs/rules.md, "Judge protocol")
// are played between two agent processes (Play, Run): the referee enforces the whole-game
// clock, the READY limit and a memory cap and keeps score with an Elo. Any registered game,
// with any number of players, can also be refereed in-process between engines (PlayLocal,
// RunLocal), with a per-seat score and average-score summaries.
//
// The referee only talks to a game through contract.Rules and contract.State, which the game's
// registration provides; it imports no game.
package arena

import "colony/contract"

// Coords, State and Rules are the game contract's (package games).
type (
	Coords = contract.Coords
	State  = contract.State
	Rules  = contract.Rules
)

// PassCoords is the judge's spelling of a pass.
var PassCoords = contract.PassCoords
