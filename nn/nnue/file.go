package nnue

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"colony/nn"
)

// Model file: Colony's model file (colony/nn) in its tagged form, architecture tag
// nn.ArchNNUE. All integers little-endian.
//
//	magic            8 bytes  "COLONYNN"
//	format version   uint32   2 (nn.TaggedFormatVersion)
//	arch tag         uint16 length + "nnue-2p"
//	body version     uint32   1 for a CReLU cell-input net (BodyVersion1), 2 for another
//	                 cell-input net (BodyVersion2), 3 for a window-input net (BodyVersion3),
//	                 4 for a net whose tail reads one perspective (Arch.STMOnly;
//	                 BodyVersion4), 5 for a net with output buckets (BodyVersion)
//	game             uint16 length + UTF-8 bytes
//	encoder version  uint32
//	architecture     7 x uint32: cells, planes, piece plane of player 0, of player 1,
//	                 to-move plane, hidden, l1
//	                 versions 2 and later: + uint32 activation (0 crelu, 1 screlu; others
//	                 refused)
//	                 versions 3 and later: + uint32 input kind (0 cells, 1 windows; others
//	                 refused), uint32 board width (0 for cells; for windows it must
//	                 divide cells into a board at least 2x2)
//	                 versions 4 and 5: + uint32 perspectives (the accumulators the tail
//	                 reads: 1 the side to move's, 2 both; others refused)
//	                 version 5 only: + uint32 output buckets (2..MaxBuckets; l1 must be 0)
//	training step    int64
//	metadata         uint32 length + JSON object of strings
//	weights SHA-256  32 bytes, over the weight bytes below
//	weight count     uint64 (must equal Arch.NumWeights)
//	weights          float32 values, tensors in Weights.Tensors order, row-major
//
// Nothing may follow the weights. The convnet loader (nn.Load) refuses this file naming its
// tag, and Load here refuses a convnet file the same way.
const (
	BodyVersion  = 5
	BodyVersion4 = 4 // no buckets dim: one output (still written for unbucketed stm-only nets)
	BodyVersion3 = 3 // no perspectives dim: both (still written for two-perspective nets)
	BodyVersion2 = 2 // no input dims: cell input (still written for cell-input nets)
	BodyVersion1 = 1 // no activation dim: CReLU (still written for CReLU cell-input nets)
	maxMetaBytes = 1 << 20
)

// flat is the weights in file order.
func (m *Model) flat() []float32 {
	out := make([]float32, 0, m.Arch.NumWeights())
	for _, t := range m.Weights.Tensors(m.Arch) {
		out = append(out, *t.Data...)
	}
	return out
}

func (m *Model) weightBytes() []byte { return nn.WeightBytes(m.flat()) }

// SHA256 is the hex SHA-256 of the weights as stored.
func (m *Model) SHA256() string {
	s := sha256.Sum256(m.weightBytes())
	return hex.EncodeToString(s[:])
}

// dims is a's dims list and the body version that holds it.
func (a Arch) dims() ([]int, uint32) {
	d := []int{a.Cells, a.Planes, a.PiecePlanes[0], a.PiecePlanes[1], a.ToMovePlane, a.Hidden, a.L1}
	switch {
	case a.Buckets > 0:
		return append(d, int(a.Activation), int(a.Input), a.Width, a.Perspectives(), a.Buckets), BodyVersion
	case a.Input == CellInput && a.Width == 0 && a.Activation == CReLU && !a.STMOnly:
		return d, BodyVersion1
	case a.Input == CellInput && a.Width == 0 && !a.STMOnly:
		return append(d, int(a.Activation)), BodyVersion2
	case !a.STMOnly:
		return append(d, int(a.Activation), int(a.Input), a.Width), BodyVersion3
	}
	return append(d, int(a.Activation), int(a.Input), a.Width, a.Perspectives()), BodyVersion4
}

var dimNames = []string{"cells", "planes", "piece plane 0", "piece plane 1", "to-move plane", "hidden", "l1", "activation", "input", "width", "perspectives", "buckets"}

// Write encodes m in the model file format.
func (m *Model) Write(w io.Writer) error {
	if err := m.CheckShapes(); err != nil {
		return fmt.Errorf("nnue: write model: %w", err)
	}
	var head bytes.Buffer
	if err := nn.WriteArchTag(&head, nn.ArchNNUE); err != nil {
		return fmt.Errorf("nnue: write model: %w", err)
	}
	d, bv := m.Arch.dims()
	return nn.WriteBody(w, "nnue", binary.LittleEndian.AppendUint32(head.Bytes(), bv),
		nn.Body{Game: m.Arch.Game, EncoderVersion: m.Arch.EncoderVersion, Dims: d, Step: m.Step, Meta: m.Meta, Weights: m.flat()})
}

// Save writes m to path atomically (a temporary file in the same folder, synced, then renamed).
func (m *Model) Save(path string) error { return nn.SaveFile(path, "nnue", m.Write) }

// Load reads and checks the model file at path.
func Load(path string) (*Model, error) { return nn.LoadFile(path, "nnue", Read) }

// Read decodes and checks a model file: magic, versions, architecture tag, arch sanity, weight
// count, truncation, trailing bytes and the weights' SHA-256. The error names what is wrong.
func Read(in io.Reader) (*Model, error) {
	tag, err := nn.ReadArchTag(in)
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	if tag != nn.ArchNNUE {
		return nil, fmt.Errorf("nnue: model file holds a %q network, not a %q one", tag, nn.ArchNNUE)
	}
	var v [4]byte
	if _, err := io.ReadFull(in, v[:]); err != nil {
		return nil, errors.New("nnue: model file truncated while reading body version")
	}
	bv := binary.LittleEndian.Uint32(v[:])
	names := dimNames
	switch bv {
	case BodyVersion1:
		names = dimNames[:7]
	case BodyVersion2:
		names = dimNames[:8]
	case BodyVersion3:
		names = dimNames[:10]
	case BodyVersion4:
		names = dimNames[:11]
	case BodyVersion:
	default:
		return nil, fmt.Errorf("nnue: model body version %d, this build reads versions %d to %d", bv, BodyVersion1, BodyVersion)
	}
	var a Arch
	b, err := nn.ReadBody(in, "nnue", names, func(b nn.Body) (int, error) {
		d := b.Dims
		a.Game, a.EncoderVersion = b.Game, b.EncoderVersion
		a.Cells, a.Planes, a.PiecePlanes, a.ToMovePlane, a.Hidden, a.L1 = d[0], d[1], [2]int{d[2], d[3]}, d[4], d[5], d[6]
		if len(d) > 7 {
			a.Activation = Activation(d[7]) // Validate refuses an unknown one
		}
		if len(d) > 9 {
			a.Input, a.Width = Input(d[8]), d[9] // Validate refuses an unknown kind or geometry
		}
		if len(d) > 10 {
			if d[10] != 1 && d[10] != 2 {
				return 0, fmt.Errorf("nnue: arch perspectives %d is unknown (known: 1 the side to move's, 2 both)", d[10])
			}
			a.STMOnly = d[10] == 1
		}
		if len(d) > 11 {
			if d[11] < 2 {
				return 0, fmt.Errorf("nnue: arch buckets %d in a version-%d body (it holds 2 or more; an unbucketed net is written as version %d or earlier)", d[11], BodyVersion, BodyVersion4)
			}
			a.Buckets = d[11] // Validate refuses too many, or buckets with l1
		}
		return a.NumWeights(), a.Validate()
	})
	if err != nil {
		return nil, err
	}
	m := NewModel(a)
	m.Step, m.Meta = b.Step, b.Meta
	off := 0
	for _, t := range m.Weights.Tensors(a) {
		off += copy(*t.Data, b.Weights[off:])
	}
	return m, nil
}

// CheckFor reports whether m is for the given game and encoder version, naming what differs.
func (m *Model) CheckFor(game string, encoderVersion int) error {
	switch {
	case m.Arch.Game != game:
		return fmt.Errorf("nnue: model is for game %q, not %q", m.Arch.Game, game)
	case m.Arch.EncoderVersion != encoderVersion:
		return fmt.Errorf("nnue: model is for %s encoder version %d, this build encodes version %d", game, m.Arch.EncoderVersion, encoderVersion)
	}
	return nil
}
