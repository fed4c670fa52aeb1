package onnx

import (
	"math/rand/v2"

	"colony/nn"
)

// ataxxArch is the Bacteria War network shape (6 planes of 7x7, 834 policy logits, 2 players)
// with the given trunk, spelled out so that these tests depend on nothing but the Arch fields.
func ataxxArch(blocks, channels int) nn.Arch {
	return nn.Arch{Game: "bacteria-war", EncoderVersion: 1, Planes: 6, Height: 7, Width: 7,
		Blocks: blocks, Channels: channels, PolicyChannels: 2, PolicySize: 834,
		ValueChannels: 1, ValueHidden: 64, NumPlayers: 2}
}

// testArches covers the Ataxx nets, a net whose channels are not a multiple of 4 and a
// non-square board with more players.
var testArches = map[string]nn.Arch{
	"ataxx-2x8": ataxxArch(2, 8),
	"ataxx-1x6": ataxxArch(1, 6),
	"odd": {Game: "odd", EncoderVersion: 1, Planes: 3, Height: 5, Width: 6, Blocks: 2, Channels: 12,
		PolicyChannels: 3, PolicySize: 31, ValueChannels: 2, ValueHidden: 9, NumPlayers: 3},
	"no-blocks": {Game: "nb", EncoderVersion: 1, Planes: 2, Height: 4, Width: 4, Blocks: 0, Channels: 4,
		PolicyChannels: 1, PolicySize: 17, ValueChannels: 1, ValueHidden: 5, NumPlayers: 1},
}

// testModel is a random model whose BatchNorm statistics and biases are all non-trivial, so
// that folding and biases are exercised.
func testModel(a nn.Arch, seed uint64) *nn.Model {
	m := nn.NewRandom(a, seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	convs := []*nn.Conv{&m.Weights.Stem, &m.Weights.PolicyConv, &m.Weights.ValueConv}
	for b := range m.Weights.Blocks {
		convs = append(convs, &m.Weights.Blocks[b][0], &m.Weights.Blocks[b][1])
	}
	for _, c := range convs {
		for o := range c.Out {
			c.Gamma[o] = float32(0.5 + rng.Float64())
			c.Beta[o] = float32(rng.NormFloat64() * 0.2)
			c.Mean[o] = float32(rng.NormFloat64() * 0.2)
			c.Var[o] = float32(0.5 + rng.Float64())
		}
	}
	for _, d := range []*nn.Dense{&m.Weights.PolicyFC, &m.Weights.ValueFC1, &m.Weights.ValueFC2} {
		for i := range d.B {
			d.B[i] = float32(rng.NormFloat64() * 0.1)
		}
	}
	for i := range m.Weights.ValueFC2.W {
		m.Weights.ValueFC2.W[i] *= 10
	}
	return m
}

func randomInput(n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := make([]float32, n)
	for i := range x {
		x[i] = rng.Float32()
	}
	return x
}
