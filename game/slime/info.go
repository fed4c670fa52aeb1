package slime

import "colony/contract"

// Info describes Slime to the pipeline: the name in model and shard files, the four
// players, the encoder grid (NumPlanes planes of 16x16, every board size centred on it), the
// policy size, and Scored: the referee reports average cells held, not an Elo.
var Info = contract.Info{
	Name:           "slime",
	PlayerNames:    []string{"1", "2", "3", "4"},
	Height:         Grid,
	Width:          Grid,
	Planes:         NumPlanes,
	EncoderVersion: EncoderVersion,
	PolicySize:     PolicySize,
	MaxMoves:       MaxMoves,
	Scored:         true,
}
