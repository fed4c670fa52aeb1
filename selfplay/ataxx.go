package selfplay

import "colony/game/ataxx"

// AtaxxGame describes Bacteria War for self-play (game name as in model and shard files).
func AtaxxGame() Game[ataxx.Position] {
	return Game[ataxx.Position]{
		Name:           "bacteria-war",
		EncoderVersion: ataxx.EncoderVersion,
		InputSize:      ataxx.InputSize,
		PolicySize:     ataxx.PolicySize,
		PlaneSize:      ataxx.NumSquares,
		NumPlayers:     ataxx.NumPlayers,
		Start:          ataxx.Start,
	}
}
