package mouse

import "colony/contract"

// Info describes Catch The Mouse to the pipeline: the name in model and shard files, the
// players (the mice "R" first, Nadori's team "N" second), the encoder grid (EncoderVersion,
// NumPlanes planes of 7x11) and the policy size.
var Info = contract.Info{
	Name:           "catch-the-mouse",
	PlayerNames:    []string{"R", "N"},
	Height:         Rows,
	Width:          Cols,
	Planes:         NumPlanes,
	EncoderVersion: EncoderVersion,
	PolicySize:     PolicySize,
	MaxMoves:       MaxMoves,
}

// Symmetries are the identity and the left-right mirror (contract.Symmetries); neither swaps
// the players.
type Symmetries struct{}

func (Symmetries) NumSymmetries() int                       { return NumSymmetries }
func (Symmetries) TransformInput(k int, src, dst []float32) { SymInput(k, src, dst) }
func (Symmetries) TransformPolicyIndex(k, idx int) int      { return SymPolicyIndex(k, idx) }
func (Symmetries) Seat(_, p int) int                        { return p }
