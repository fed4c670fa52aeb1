package ataxx

import "colony/contract"

// Info describes Bacteria War to the pipeline: the name in model and shard files, the
// players, the encoder grid (EncoderVersion, NumPlanes planes of 7x7) and the policy size.
var Info = contract.Info{
	Name:           "bacteria-war",
	PlayerNames:    []string{"O", "X"},
	Height:         Size,
	Width:          Size,
	Planes:         NumPlanes,
	EncoderVersion: EncoderVersion,
	PolicySize:     PolicySize,
	MaxMoves:       MaxMoves,
}

// Symmetries are the 8 symmetries of the board (contract.Symmetries); none swaps the players.
type Symmetries struct{}

func (Symmetries) NumSymmetries() int                       { return NumSymmetries }
func (Symmetries) TransformInput(k int, src, dst []float32) { SymInput(k, src, dst) }
func (Symmetries) TransformPolicyIndex(k, idx int) int      { return SymPolicyIndex(k, idx) }
func (Symmetries) Seat(_, p int) int                        { return p }
