package nn

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
)

// Model file format, version 1. All integers little-endian.
//
//	magic            8 bytes  "COLONYNN"
//	format version   uint32   (FormatVersion)
//	game             uint16 length + UTF-8 bytes
//	encoder version  uint32
//	architecture     10 x uint32: planes, height, width, blocks, channels, policy_channels,
//	                 policy_size, value_channels, value_hidden, num_players
//	training step    int64
//	metadata         uint32 length + JSON object of strings
//	weights SHA-256  32 bytes, over the weight bytes below
//	weight count     uint64 (number of float32 values; must equal Arch.NumWeights)
//	weights          float32 values in the canonical order (see Arch.specs)
//
// Nothing may follow the weights.
const (
	Magic         = "COLONYNN"
	FormatVersion = 1
	maxMetaBytes  = 1 << 20
)

// Architecture tags. A format version 1 file is a convnet and has no tag; from format version
// 2 the architecture tag (u16 length + bytes) follows the version, and the rest of the file
// is that architecture's: a convnet's body is version 1's, a sparse-accumulator net's is
// described in colony/nn/nnue. Every loader refuses a tag it does not read, naming it.
const (
	TaggedFormatVersion = 2
	ArchConvNet         = "convnet" // the residual policy/value net of this package
	ArchNNUE            = "nnue-2p" // colony/nn/nnue: cells x {own, other}, two perspectives
)

// WriteArchTag writes the head of a tagged model file: magic, format version 2 and tag.
func WriteArchTag(w io.Writer, tag string) error {
	if len(tag) == 0 || len(tag) > 255 {
		return fmt.Errorf("nn: architecture tag %q", tag)
	}
	h := append([]byte(Magic), 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(h[len(Magic):], TaggedFormatVersion)
	binary.LittleEndian.PutUint16(h[len(Magic)+4:], uint16(len(tag)))
	h = append(h, tag...)
	_, err := w.Write(h)
	return err
}

// ReadArchTag reads the head of a model file (magic, format version, architecture tag) and
// returns the tag: ArchConvNet for a version 1 file.
func ReadArchTag(in io.Reader) (string, error) {
	r := &reader{r: in, who: "nn"}
	magic := make([]byte, len(Magic))
	r.full("magic", magic)
	if r.err != nil {
		return "", r.err
	}
	if string(magic) != Magic {
		return "", fmt.Errorf("nn: not a model file: magic %q, want %q", magic, Magic)
	}
	v := r.u32("format version")
	switch {
	case r.err != nil:
		return "", r.err
	case v == FormatVersion:
		return ArchConvNet, nil
	case v != TaggedFormatVersion:
		return "", fmt.Errorf("nn: model format version %d, this build reads versions %d and %d", v, FormatVersion, TaggedFormatVersion)
	}
	tag := make([]byte, r.u16("architecture tag length"))
	r.full("architecture tag", tag)
	return string(tag), r.err
}

// flat is the weights in canonical order.
func (m *Model) flat() []float32 {
	out := make([]float32, 0, m.Arch.NumWeights())
	for _, t := range m.Weights.tensors() {
		out = append(out, t...)
	}
	return out
}

func (m *Model) weightBytes() []byte { return WeightBytes(m.flat()) }

// SHA256 is the hex SHA-256 of the weights (canonical order, little-endian float32), the
// value stored in the file header.
func (m *Model) SHA256() string {
	sum := sha256.Sum256(m.weightBytes())
	return hex.EncodeToString(sum[:])
}

func (a Arch) dims() [10]int {
	return [10]int{a.Planes, a.Height, a.Width, a.Blocks, a.Channels, a.PolicyChannels,
		a.PolicySize, a.ValueChannels, a.ValueHidden, a.NumPlayers}
}

var dimNames = [10]string{"planes", "height", "width", "blocks", "channels", "policy_channels",
	"policy_size", "value_channels", "value_hidden", "num_players"}

// Write encodes m in the model file format.
func (m *Model) Write(w io.Writer) error {
	if err := m.Weights.CheckShapes(m.Arch); err != nil {
		return fmt.Errorf("nn: write model: %w", err)
	}
	head := binary.LittleEndian.AppendUint32([]byte(Magic), FormatVersion)
	d := m.Arch.dims()
	return WriteBody(w, "nn", head, Body{Game: m.Arch.Game, EncoderVersion: m.Arch.EncoderVersion,
		Dims: d[:], Step: m.Step, Meta: m.Meta, Weights: m.flat()})
}

// Save writes m to path atomically (a temporary file in the same folder, synced, then renamed).
func (m *Model) Save(path string) error { return SaveFile(path, "nn", m.Write) }

// Load reads and checks the model file at path.
func Load(path string) (*Model, error) { return LoadFile(path, "nn", Read) }

// Read decodes and checks a model file: magic, format version, architecture sanity, weight
// count against the architecture, truncation, trailing bytes and the weights' SHA-256. The error
// names exactly what is wrong.
func Read(in io.Reader) (*Model, error) {
	r := &reader{r: in, who: "nn"}
	magic := make([]byte, len(Magic))
	r.full("magic", magic)
	if r.err != nil {
		return nil, r.err
	}
	if string(magic) != Magic {
		return nil, fmt.Errorf("nn: not a model file: magic %q, want %q", magic, Magic)
	}
	switch v := r.u32("format version"); {
	case r.err != nil:
	case v == TaggedFormatVersion:
		// A tagged file: this loader reads only the convnet, whose body is version 1's.
		tag := make([]byte, r.u16("architecture tag length"))
		r.full("architecture tag", tag)
		if r.err == nil && string(tag) != ArchConvNet {
			return nil, fmt.Errorf("nn: model file holds a %q network, not a %q: load it with its own package (%q: colony/nn/nnue)", tag, ArchConvNet, ArchNNUE)
		}
	case v != FormatVersion:
		return nil, fmt.Errorf("nn: model format version %d, this build reads versions %d and %d", v, FormatVersion, TaggedFormatVersion)
	}
	if r.err != nil {
		return nil, r.err
	}
	var a Arch
	b, err := ReadBody(in, "nn", dimNames[:], func(b Body) (int, error) {
		d := b.Dims
		a.Game, a.EncoderVersion = b.Game, b.EncoderVersion
		a.Planes, a.Height, a.Width, a.Blocks, a.Channels, a.PolicyChannels = d[0], d[1], d[2], d[3], d[4], d[5]
		a.PolicySize, a.ValueChannels, a.ValueHidden, a.NumPlayers = d[6], d[7], d[8], d[9]
		return int(a.NumWeights()), a.Validate()
	})
	if err != nil {
		return nil, err
	}
	m := &Model{Arch: a, Weights: NewWeights(a), Step: b.Step, Meta: b.Meta}
	off := 0
	for _, t := range m.Weights.tensors() {
		off += copy(t, b.Weights[off:])
	}
	return m, nil
}
