// Package splitmix is Colony's one splitmix64 (Vigna): the generator of the games' Zobrist
// keys, the searches' tie-breaks and random streams, and the referee's per-game seeds. Its
// outputs are part of the hashes' definitions: they never change.
package splitmix

// Gamma is the generator's step: the golden ratio as a 64-bit fraction.
const Gamma = 0x9E3779B97F4A7C15

// Finalize is splitmix64's output function (a bijection of 64-bit words that mixes every bit
// into every other).
func Finalize(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Mix is the output of the generator whose state is z: z advanced by Gamma, then finalised.
func Mix(z uint64) uint64 { return Finalize(z + Gamma) }

// Next returns the next output of the generator of state s and advances it.
func Next(s *uint64) uint64 {
	*s += Gamma
	return Finalize(*s)
}
