package nn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"colony/contract"
)

// Model is a trained (or freshly initialised) network: its architecture, its weights, the
// training step it was saved at and free-form metadata (run id, data, hyper-parameters...).
type Model struct {
	Arch    Arch
	Weights Weights
	Step    int64
	Meta    map[string]string
}

// Head sizes chosen by ArchFor. Two policy channels are enough for an AlphaZero-style policy
// head of this size (for Bacteria War a 98-wide flatten feeding 834 logits); one value channel
// and 64 hidden units is the usual small value head.
const (
	DefaultPolicyChannels = 2
	DefaultValueChannels  = 1
	DefaultValueHidden    = 64
)

// ArchFor returns the residual architecture with the given trunk size on a game's encoding
// (its encoder version, planes, grid, policy size and players), with the head sizes above.
func ArchFor(info contract.Info, blocks, channels int) Arch {
	return Arch{
		Game:           info.Name,
		EncoderVersion: info.EncoderVersion,
		Planes:         info.Planes,
		Height:         info.Height,
		Width:          info.Width,
		Blocks:         blocks,
		Channels:       channels,
		PolicyChannels: DefaultPolicyChannels,
		PolicySize:     info.PolicySize,
		ValueChannels:  DefaultValueChannels,
		ValueHidden:    DefaultValueHidden,
		NumPlayers:     info.Players(),
	}
}

// maxDim bounds every size of an Arch: it keeps a corrupted header from asking for gigabytes.
const (
	maxDim     = 1 << 16
	maxWeights = 1 << 28
)

// Validate reports whether a describes a network this package can build.
func (a Arch) Validate() error {
	if a.Game == "" {
		return errors.New("nn: arch has an empty game name")
	}
	for _, f := range []struct {
		name string
		v    int
		min  int
	}{
		{"planes", a.Planes, 1}, {"height", a.Height, 1}, {"width", a.Width, 1},
		{"blocks", a.Blocks, 0}, {"channels", a.Channels, 1},
		{"policy_channels", a.PolicyChannels, 1}, {"policy_size", a.PolicySize, 1},
		{"value_channels", a.ValueChannels, 1}, {"value_hidden", a.ValueHidden, 1},
		{"num_players", a.NumPlayers, 1},
	} {
		if f.v < f.min || f.v > maxDim {
			return fmt.Errorf("nn: arch %s = %d out of range [%d, %d]", f.name, f.v, f.min, maxDim)
		}
	}
	if a.NumPlayers > 4 {
		return fmt.Errorf("nn: arch num_players = %d, at most 4 supported", a.NumPlayers)
	}
	if n := a.NumWeights(); n > maxWeights {
		return fmt.Errorf("nn: arch has %d weights, more than the limit %d", n, maxWeights)
	}
	return nil
}

// tensorSpec names one weight tensor and its length, in the canonical order of the file.
type tensorSpec struct {
	name string
	n    int64
}

func convSpecs(prefix string, out, in, k int) []tensorSpec {
	o := int64(out)
	return []tensorSpec{
		{prefix + ".w", o * int64(in) * int64(k) * int64(k)},
		{prefix + ".gamma", o}, {prefix + ".beta", o}, {prefix + ".mean", o}, {prefix + ".var", o},
	}
}

func denseSpecs(prefix string, in, out int) []tensorSpec {
	return []tensorSpec{{prefix + ".w", int64(in) * int64(out)}, {prefix + ".b", int64(out)}}
}

// specs lists the weight tensors of a in the canonical (file and hash) order:
// stem conv, then for each block its two convs, then policy conv, policy dense, value conv,
// value dense 1, value dense 2. A conv contributes W, Gamma, Beta, Mean, Var; a dense W, B.
func (a Arch) specs() []tensorSpec {
	hw := a.Height * a.Width
	var s []tensorSpec
	s = append(s, convSpecs("stem", a.Channels, a.Planes, 3)...)
	for b := range a.Blocks {
		s = append(s, convSpecs(fmt.Sprintf("block%d.conv1", b), a.Channels, a.Channels, 3)...)
		s = append(s, convSpecs(fmt.Sprintf("block%d.conv2", b), a.Channels, a.Channels, 3)...)
	}
	s = append(s, convSpecs("policy.conv", a.PolicyChannels, a.Channels, 1)...)
	s = append(s, denseSpecs("policy.fc", a.PolicyChannels*hw, a.PolicySize)...)
	s = append(s, convSpecs("value.conv", a.ValueChannels, a.Channels, 1)...)
	s = append(s, denseSpecs("value.fc1", a.ValueChannels*hw, a.ValueHidden)...)
	s = append(s, denseSpecs("value.fc2", a.ValueHidden, a.NumPlayers)...)
	return s
}

// NumWeights is the number of float32 parameters (BatchNorm statistics included) of a.
func (a Arch) NumWeights() int64 {
	var n int64
	for _, t := range a.specs() {
		n += t.n
	}
	return n
}

// FLOPs is the number of floating-point operations (a multiply-add counts 2) of one position's
// forward pass, BatchNorm folded.
func (a Arch) FLOPs() int64 {
	hw := int64(a.Height * a.Width)
	c := int64(a.Channels)
	f := c * int64(a.Planes) * 9 * hw
	f += int64(a.Blocks) * 2 * c * c * 9 * hw
	f += int64(a.PolicyChannels) * c * hw
	f += int64(a.PolicyChannels) * hw * int64(a.PolicySize)
	f += int64(a.ValueChannels) * c * hw
	f += int64(a.ValueChannels) * hw * int64(a.ValueHidden)
	f += int64(a.ValueHidden) * int64(a.NumPlayers)
	return 2 * f
}

func newConv(out, in, k int) Conv {
	return Conv{Out: out, In: in, K: k,
		W:     make([]float32, out*in*k*k),
		Gamma: make([]float32, out), Beta: make([]float32, out),
		Mean: make([]float32, out), Var: make([]float32, out)}
}

func newDense(in, out int) Dense {
	return Dense{In: in, Out: out, W: make([]float32, in*out), B: make([]float32, out)}
}

// NewWeights allocates zero weights shaped for a (BatchNorm gamma and var are zero too).
func NewWeights(a Arch) Weights {
	hw := a.Height * a.Width
	w := Weights{
		Stem:       newConv(a.Channels, a.Planes, 3),
		Blocks:     make([][2]Conv, a.Blocks),
		PolicyConv: newConv(a.PolicyChannels, a.Channels, 1),
		PolicyFC:   newDense(a.PolicyChannels*hw, a.PolicySize),
		ValueConv:  newConv(a.ValueChannels, a.Channels, 1),
		ValueFC1:   newDense(a.ValueChannels*hw, a.ValueHidden),
		ValueFC2:   newDense(a.ValueHidden, a.NumPlayers),
	}
	for b := range w.Blocks {
		w.Blocks[b] = [2]Conv{newConv(a.Channels, a.Channels, 3), newConv(a.Channels, a.Channels, 3)}
	}
	return w
}

// tensors returns the weight slices in the canonical order of Arch.specs.
func (w *Weights) tensors() [][]float32 {
	var t [][]float32
	conv := func(c *Conv) { t = append(t, c.W, c.Gamma, c.Beta, c.Mean, c.Var) }
	dense := func(d *Dense) { t = append(t, d.W, d.B) }
	w.layers(conv, dense)
	return t
}

// layers calls conv or dense with each layer of w in the canonical order of Arch.specs.
func (w *Weights) layers(conv func(*Conv), dense func(*Dense)) {
	conv(&w.Stem)
	for b := range w.Blocks {
		conv(&w.Blocks[b][0])
		conv(&w.Blocks[b][1])
	}
	conv(&w.PolicyConv)
	dense(&w.PolicyFC)
	conv(&w.ValueConv)
	dense(&w.ValueFC1)
	dense(&w.ValueFC2)
}

// CheckShapes reports whether w has exactly the layers and sizes a asks for.
func (w *Weights) CheckShapes(a Arch) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if len(w.Blocks) != a.Blocks {
		return fmt.Errorf("nn: weights have %d residual blocks, arch wants %d", len(w.Blocks), a.Blocks)
	}
	hw := a.Height * a.Width
	checkConv := func(name string, c *Conv, out, in, k int) error {
		if c.Out != out || c.In != in || c.K != k {
			return fmt.Errorf("nn: %s is %dx%dx%d (out x in x k), arch wants %dx%dx%d", name, c.Out, c.In, c.K, out, in, k)
		}
		return nil
	}
	checkDense := func(name string, d *Dense, in, out int) error {
		if d.In != in || d.Out != out {
			return fmt.Errorf("nn: %s is %dx%d (in x out), arch wants %dx%d", name, d.In, d.Out, in, out)
		}
		return nil
	}
	errs := []error{
		checkConv("stem", &w.Stem, a.Channels, a.Planes, 3),
		checkConv("policy.conv", &w.PolicyConv, a.PolicyChannels, a.Channels, 1),
		checkDense("policy.fc", &w.PolicyFC, a.PolicyChannels*hw, a.PolicySize),
		checkConv("value.conv", &w.ValueConv, a.ValueChannels, a.Channels, 1),
		checkDense("value.fc1", &w.ValueFC1, a.ValueChannels*hw, a.ValueHidden),
		checkDense("value.fc2", &w.ValueFC2, a.ValueHidden, a.NumPlayers),
	}
	for b := range w.Blocks {
		errs = append(errs,
			checkConv(fmt.Sprintf("block%d.conv1", b), &w.Blocks[b][0], a.Channels, a.Channels, 3),
			checkConv(fmt.Sprintf("block%d.conv2", b), &w.Blocks[b][1], a.Channels, a.Channels, 3))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	specs := a.specs()
	for i, t := range w.tensors() {
		if int64(len(t)) != specs[i].n {
			return fmt.Errorf("nn: tensor %s has %d values, arch wants %d", specs[i].name, len(t), specs[i].n)
		}
	}
	return nil
}

// NewRandom returns a freshly initialised model of architecture a, deterministic in seed:
// He-normal convolutions (std sqrt(2/fan_in)), BatchNorm gamma=1 beta=0 mean=0 var=1, dense
// weights normal with std 1/sqrt(in) scaled by 0.1 (small outputs at the start), zero biases.
// It panics if a is invalid.
func NewRandom(a Arch, seed uint64) *Model {
	if err := a.Validate(); err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e2d696e6974)) // "nn-init"
	w := NewWeights(a)
	initConv := func(c *Conv) {
		std := math.Sqrt(2 / float64(c.In*c.K*c.K))
		for i := range c.W {
			c.W[i] = float32(rng.NormFloat64() * std)
		}
		for i := range c.Out {
			c.Gamma[i], c.Beta[i], c.Mean[i], c.Var[i] = 1, 0, 0, 1
		}
	}
	initDense := func(d *Dense) {
		std := 0.1 / math.Sqrt(float64(d.In))
		for i := range d.W {
			d.W[i] = float32(rng.NormFloat64() * std)
		}
	}
	w.layers(initConv, initDense)
	return &Model{Arch: a, Weights: w, Meta: map[string]string{}}
}

// Check refuses a model trained for another game or input encoding, naming what differs.
func (m *Model) Check(game string, encoderVersion int) error {
	var errs []error
	if m.Arch.Game != game {
		errs = append(errs, fmt.Errorf("nn: model is for game %q, want %q", m.Arch.Game, game))
	}
	if m.Arch.EncoderVersion != encoderVersion {
		errs = append(errs, fmt.Errorf("nn: model uses encoder version %d, want %d", m.Arch.EncoderVersion, encoderVersion))
	}
	return errors.Join(errs...)
}

// CheckFor is Check plus the encoder grid, policy size and players of info: a model that a
// game cannot feed or read is refused with every mismatch named.
func (m *Model) CheckFor(info contract.Info) error {
	errs := []error{m.Check(info.Name, info.EncoderVersion)}
	a := m.Arch
	if a.Planes != info.Planes || a.Height != info.Height || a.Width != info.Width {
		errs = append(errs, fmt.Errorf("nn: model input is %dx%dx%d, the game encodes %dx%dx%d", a.Planes, a.Height, a.Width, info.Planes, info.Height, info.Width))
	}
	if a.PolicySize != info.PolicySize {
		errs = append(errs, fmt.Errorf("nn: model has %d policy logits, the game %d", a.PolicySize, info.PolicySize))
	}
	if a.NumPlayers != info.Players() {
		errs = append(errs, fmt.Errorf("nn: model values %d players, the game has %d", a.NumPlayers, info.Players()))
	}
	return errors.Join(errs...)
}
