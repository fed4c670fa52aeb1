package data

import "colony/contract"

// Augmenter maps training examples through a game's symmetries (contract.Symmetries: symmetry 0
// is the identity; inputs, policy indices and the seats of the values are mapped).
type Augmenter = contract.Symmetries

// NoAugment is the Augmenter with only the identity.
type NoAugment = contract.NoSymmetry

// MetaFor returns a Meta with the header fields of the game's examples filled in (name,
// encoder version, sizes, one packing plane per board cell set); the caller adds the
// provenance fields.
func MetaFor(info contract.Info) Meta {
	return Meta{
		Game:           info.Name,
		EncoderVersion: info.EncoderVersion,
		InputSize:      info.InputSize(),
		PolicySize:     info.PolicySize,
		PlaneSize:      info.PlaneSize(),
		NumPlayers:     info.Players(),
	}
}

// permuteSeats moves each player's value to its seat under symmetry k (a no-op for the
// symmetries of most games, which keep every player's role).
func permuteSeats(aug Augmenter, k int, v *[contract.MaxPlayers]float32) {
	var out [contract.MaxPlayers]float32
	moved := false
	for p := range contract.MaxPlayers {
		s := aug.Seat(k, p)
		out[s] = v[p]
		moved = moved || s != p
	}
	if moved {
		*v = out
	}
}
