package train

import (
	"fmt"

	"colony/nn"
)

// Helpers that walk nn.Weights in one canonical order. The trainer's graph, the export to
// nn.Weights and the checkpoint file all use this order, so a tensor is always identified by
// its position (and, for error messages, its name).

// tensorRef is one float32 tensor of nn.Weights.
type tensorRef struct {
	name  string
	shape []int
	data  *[]float32
}

// checkArch returns an error when a is not a usable architecture.
func checkArch(a nn.Arch) error {
	if err := a.Validate(); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	switch {
	case a.Planes <= 0 || a.Height <= 0 || a.Width <= 0:
		return fmt.Errorf("train: arch has bad input shape %dx%dx%d", a.Planes, a.Height, a.Width)
	case a.Blocks < 0 || a.Channels <= 0:
		return fmt.Errorf("train: arch has bad trunk %d blocks x %d channels", a.Blocks, a.Channels)
	case a.PolicyChannels <= 0 || a.PolicySize <= 0:
		return fmt.Errorf("train: arch has bad policy head (%d channels, %d outputs)", a.PolicyChannels, a.PolicySize)
	case a.ValueChannels <= 0 || a.ValueHidden <= 0 || a.NumPlayers <= 0:
		return fmt.Errorf("train: arch has bad value head (%d channels, %d hidden, %d players)",
			a.ValueChannels, a.ValueHidden, a.NumPlayers)
	}
	return nil
}

// inputSize is the number of input values of one position.
func inputSize(a nn.Arch) int { return a.Planes * a.Height * a.Width }

// convRefs lists the tensors of a Conv with its expected shapes.
func convRefs(name string, c *nn.Conv, out, in, k int) []tensorRef {
	return []tensorRef{
		{name + ".w", []int{out, in, k, k}, &c.W},
		{name + ".gamma", []int{out}, &c.Gamma},
		{name + ".beta", []int{out}, &c.Beta},
		{name + ".mean", []int{out}, &c.Mean},
		{name + ".var", []int{out}, &c.Var},
	}
}

func denseRefs(name string, d *nn.Dense, in, out int) []tensorRef {
	return []tensorRef{
		{name + ".w", []int{in, out}, &d.W},
		{name + ".b", []int{out}, &d.B},
	}
}

// weightRefs lists every tensor of w for arch a, in the canonical order. w.Blocks must have
// a.Blocks entries.
func weightRefs(a nn.Arch, w *nn.Weights) []tensorRef {
	hw := a.Height * a.Width
	refs := convRefs("stem", &w.Stem, a.Channels, a.Planes, 3)
	for i := range w.Blocks {
		for j := range 2 {
			refs = append(refs, convRefs(fmt.Sprintf("block%d.conv%d", i, j+1), &w.Blocks[i][j], a.Channels, a.Channels, 3)...)
		}
	}
	refs = append(refs, convRefs("policy.conv", &w.PolicyConv, a.PolicyChannels, a.Channels, 1)...)
	refs = append(refs, denseRefs("policy.fc", &w.PolicyFC, a.PolicyChannels*hw, a.PolicySize)...)
	refs = append(refs, convRefs("value.conv", &w.ValueConv, a.ValueChannels, a.Channels, 1)...)
	refs = append(refs, denseRefs("value.fc1", &w.ValueFC1, a.ValueChannels*hw, a.ValueHidden)...)
	refs = append(refs, denseRefs("value.fc2", &w.ValueFC2, a.ValueHidden, a.NumPlayers)...)
	return refs
}

func shapeSize(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// allocWeights returns zeroed weights of the right shapes for a (BatchNorm Var set to 1).
func allocWeights(a nn.Arch) nn.Weights {
	w := nn.Weights{Blocks: make([][2]nn.Conv, a.Blocks)}
	hw := a.Height * a.Width
	setConv := func(c *nn.Conv, out, in, k int) { c.Out, c.In, c.K = out, in, k }
	setDense := func(d *nn.Dense, in, out int) { d.In, d.Out = in, out }
	setConv(&w.Stem, a.Channels, a.Planes, 3)
	for i := range w.Blocks {
		setConv(&w.Blocks[i][0], a.Channels, a.Channels, 3)
		setConv(&w.Blocks[i][1], a.Channels, a.Channels, 3)
	}
	setConv(&w.PolicyConv, a.PolicyChannels, a.Channels, 1)
	setDense(&w.PolicyFC, a.PolicyChannels*hw, a.PolicySize)
	setConv(&w.ValueConv, a.ValueChannels, a.Channels, 1)
	setDense(&w.ValueFC1, a.ValueChannels*hw, a.ValueHidden)
	setDense(&w.ValueFC2, a.ValueHidden, a.NumPlayers)
	for _, r := range weightRefs(a, &w) {
		*r.data = make([]float32, shapeSize(r.shape))
		if len(r.name) > 4 && r.name[len(r.name)-4:] == ".var" {
			for i := range *r.data {
				(*r.data)[i] = 1
			}
		}
	}
	return w
}

// checkWeights verifies that w has every tensor of a with the right size and dimensions.
func checkWeights(a nn.Arch, w *nn.Weights) error {
	if len(w.Blocks) != a.Blocks {
		return fmt.Errorf("train: weights have %d blocks, arch wants %d", len(w.Blocks), a.Blocks)
	}
	ref := allocWeights(a)
	convs := func(w *nn.Weights) []nn.Conv {
		c := []nn.Conv{w.Stem, w.PolicyConv, w.ValueConv}
		for _, b := range w.Blocks {
			c = append(c, b[0], b[1])
		}
		return c
	}
	wc, rc := convs(w), convs(&ref)
	for i := range rc {
		if wc[i].Out != rc[i].Out || wc[i].In != rc[i].In || wc[i].K != rc[i].K {
			return fmt.Errorf("train: conv %d is %dx%dx%d, arch wants %dx%dx%d", i,
				wc[i].Out, wc[i].In, wc[i].K, rc[i].Out, rc[i].In, rc[i].K)
		}
	}
	for _, p := range [][2]nn.Dense{{w.PolicyFC, ref.PolicyFC}, {w.ValueFC1, ref.ValueFC1}, {w.ValueFC2, ref.ValueFC2}} {
		if p[0].In != p[1].In || p[0].Out != p[1].Out {
			return fmt.Errorf("train: dense layer is %dx%d, arch wants %dx%d", p[0].In, p[0].Out, p[1].In, p[1].Out)
		}
	}
	for _, r := range weightRefs(a, w) {
		if n := shapeSize(r.shape); len(*r.data) != n {
			return fmt.Errorf("train: weight %s has %d values, arch wants %d (shape %v)", r.name, len(*r.data), n, r.shape)
		}
	}
	return nil
}
