package data

import (
	"math/rand/v2"
	"slices"
	"testing"

	"colony/game/ataxx"
)

// genAtaxx plays random Bacteria War games and returns n examples shaped like self-play
// output: the encoded position, a sparse policy over a random subset of the legal moves with
// visit counts out of 800 simulations, and the final result of the game.
func genAtaxx(seed uint64, n int) []Example {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []Example
	moves := make([]ataxx.Move, 0, 512)
	for game := uint64(0); len(out) < n; game++ {
		p := ataxx.Start()
		start := len(out)
		for ply := 0; !p.Terminal() && len(out) < n; ply++ {
			moves = p.LegalMoves(moves)
			in := make([]float32, ataxx.InputSize)
			p.Encode(in)
			out = append(out, Example{Input: in, Policy: visitPolicy(rng, moves), GameID: seed<<20 | game, Ply: ply})
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
		v := p.Values()
		if !p.Terminal() {
			v = [4]float32{}
		}
		for i := start; i < len(out); i++ {
			out[i].Values = v
		}
	}
	return out
}

// visitPolicy spreads 800 visits over up to 40 of the moves, skewed towards a few.
func visitPolicy(rng *rand.Rand, moves []ataxx.Move) []PolicyEntry {
	const sims = 800
	k := min(len(moves), 1+rng.IntN(40))
	perm := rng.Perm(len(moves))[:k]
	visits := make([]int, k)
	visits[0] = 1
	for range sims - 1 {
		// Preferential attachment: popular moves get more visits, like PUCT.
		visits[rng.IntN(k)]++
		if rng.IntN(2) == 0 {
			visits[rng.IntN(1+rng.IntN(k))]++
		}
	}
	total := 0
	for _, v := range visits {
		total += v
	}
	pol := make([]PolicyEntry, 0, k)
	for i, j := range perm {
		if visits[i] > 0 {
			pol = append(pol, PolicyEntry{Index: int32(moves[j].PolicyIndex()), Prob: float32(visits[i]) / float32(total)})
		}
	}
	slices.SortFunc(pol, func(a, b PolicyEntry) int { return int(a.Index - b.Index) })
	return pol
}

func testMeta() Meta {
	m := MetaFor(ataxx.Info)
	m.ModelSHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	m.Generation = 3
	m.Seed = 42
	m.Worker = 1
	m.GitRevision = "abc123"
	m.CreatedUnix = 1700000000
	m.Extra = map[string]string{"sims": "800", "temperature": "1.0"}
	return m
}

// sameExample reports whether a and b are equal to the bit.
func sameExample(t *testing.T, what string, a, b Example) bool {
	t.Helper()
	if a.GameID != b.GameID || a.Ply != b.Ply || len(a.Input) != len(b.Input) || len(a.Policy) != len(b.Policy) {
		t.Errorf("%s: header differs: id %d/%d ply %d/%d input %d/%d policy %d/%d", what,
			a.GameID, b.GameID, a.Ply, b.Ply, len(a.Input), len(b.Input), len(a.Policy), len(b.Policy))
		return false
	}
	for i := range a.Values {
		if bits(a.Values[i]) != bits(b.Values[i]) {
			t.Errorf("%s: value %d: %v vs %v", what, i, a.Values[i], b.Values[i])
			return false
		}
	}
	for i := range a.Input {
		if bits(a.Input[i]) != bits(b.Input[i]) {
			t.Errorf("%s: input[%d]: %v (%#x) vs %v (%#x)", what, i, a.Input[i], bits(a.Input[i]), b.Input[i], bits(b.Input[i]))
			return false
		}
	}
	for i := range a.Policy {
		if a.Policy[i].Index != b.Policy[i].Index || bits(a.Policy[i].Prob) != bits(b.Policy[i].Prob) {
			t.Errorf("%s: policy[%d]: %+v vs %+v", what, i, a.Policy[i], b.Policy[i])
			return false
		}
	}
	return true
}
