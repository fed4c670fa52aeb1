package data

import "colony/game/ataxx"

// Augmenter maps training examples through a game's board symmetries. Symmetry 0 must be the
// identity. TransformInput writes the image of the input src into dst (no aliasing);
// TransformPolicyIndex maps a dense policy index so that the policy entry of a move becomes
// the entry of the transformed move.
type Augmenter interface {
	NumSymmetries() int
	TransformInput(k int, src, dst []float32)
	TransformPolicyIndex(k, idx int) int
}

// NoAugment is the Augmenter with only the identity.
type NoAugment struct{}

func (NoAugment) NumSymmetries() int                       { return 1 }
func (NoAugment) TransformInput(_ int, src, dst []float32) { copy(dst, src) }
func (NoAugment) TransformPolicyIndex(_, idx int) int      { return idx }

// AtaxxAugmenter applies the 8 symmetries of the 7x7 Bacteria War board to examples encoded
// by ataxx encoder version ataxx.EncoderVersion.
type AtaxxAugmenter struct{}

func (AtaxxAugmenter) NumSymmetries() int                       { return ataxx.NumSymmetries }
func (AtaxxAugmenter) TransformInput(k int, src, dst []float32) { ataxx.SymInput(k, src, dst) }
func (AtaxxAugmenter) TransformPolicyIndex(k, idx int) int      { return ataxx.SymPolicyIndex(k, idx) }

// AtaxxMeta returns a Meta with the header fields of ataxx examples filled in (game "bacteria-war",
// the current encoder version, sizes, one plane per board cell set); the caller adds the
// provenance fields.
func AtaxxMeta() Meta {
	return Meta{
		Game:           AtaxxGame,
		EncoderVersion: ataxx.EncoderVersion,
		InputSize:      ataxx.InputSize,
		PolicySize:     ataxx.PolicySize,
		PlaneSize:      ataxx.NumSquares,
		NumPlayers:     ataxx.NumPlayers,
	}
}

// AtaxxGame is the game name stored in Bacteria War shards.
const AtaxxGame = "bacteria-war"
