package nnue

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"colony/internal/atomicfile"
	"colony/nn"
)

// Model file: Colony's model file (colony/nn) in its tagged form, architecture tag
// nn.ArchNNUE. All integers little-endian.
//
//	magic            8 bytes  "COLONYNN"
//	format version   uint32   2 (nn.TaggedFormatVersion)
//	arch tag         uint16 length + "nnue-2p"
//	body version     uint32   (BodyVersion)
//	game             uint16 length + UTF-8 bytes
//	encoder version  uint32
//	architecture     7 x uint32: cells, planes, piece plane of player 0, of player 1,
//	                 to-move plane, hidden, l1
//	training step    int64
//	metadata         uint32 length + JSON object of strings
//	weights SHA-256  32 bytes, over the weight bytes below
//	weight count     uint64 (must equal Arch.NumWeights)
//	weights          float32 values, tensors in Weights.Tensors order, row-major
//
// Nothing may follow the weights. The convnet loader (nn.Load) refuses this file naming its
// tag, and Load here refuses a convnet file the same way.
const (
	BodyVersion  = 1
	maxMetaBytes = 1 << 20
)

func (m *Model) weightBytes() []byte {
	buf := make([]byte, 0, 4*m.Arch.NumWeights())
	for _, t := range m.Weights.Tensors(m.Arch) {
		for _, v := range *t.Data {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return buf
}

// SHA256 is the hex SHA-256 of the weights as stored.
func (m *Model) SHA256() string {
	s := sha256.Sum256(m.weightBytes())
	return hex.EncodeToString(s[:])
}

func (a Arch) dims() [7]int {
	return [7]int{a.Cells, a.Planes, a.PiecePlanes[0], a.PiecePlanes[1], a.ToMovePlane, a.Hidden, a.L1}
}

var dimNames = [7]string{"cells", "planes", "piece plane 0", "piece plane 1", "to-move plane", "hidden", "l1"}

// Write encodes m in the model file format.
func (m *Model) Write(w io.Writer) error {
	if err := m.CheckShapes(); err != nil {
		return fmt.Errorf("nnue: write model: %w", err)
	}
	meta := m.Meta
	if meta == nil {
		meta = map[string]string{}
	}
	mj, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("nnue: write model metadata: %w", err)
	}
	if len(mj) > maxMetaBytes || len(m.Arch.Game) > math.MaxUint16 {
		return errors.New("nnue: write model: metadata or game name too long")
	}
	if err := nn.WriteArchTag(w, nn.ArchNNUE); err != nil {
		return fmt.Errorf("nnue: write model: %w", err)
	}
	le := binary.LittleEndian
	var h []byte
	h = le.AppendUint32(h, BodyVersion)
	h = le.AppendUint16(h, uint16(len(m.Arch.Game)))
	h = append(h, m.Arch.Game...)
	h = le.AppendUint32(h, uint32(m.Arch.EncoderVersion))
	for _, d := range m.Arch.dims() {
		h = le.AppendUint32(h, uint32(d))
	}
	h = le.AppendUint64(h, uint64(m.Step))
	h = le.AppendUint32(h, uint32(len(mj)))
	h = append(h, mj...)
	wb := m.weightBytes()
	sum := sha256.Sum256(wb)
	h = append(h, sum[:]...)
	h = le.AppendUint64(h, uint64(len(wb)/4))
	if _, err := w.Write(h); err != nil {
		return fmt.Errorf("nnue: write model: %w", err)
	}
	if _, err := w.Write(wb); err != nil {
		return fmt.Errorf("nnue: write model weights: %w", err)
	}
	return nil
}

// Save writes m to path atomically.
func (m *Model) Save(path string) error {
	if err := atomicfile.Write(path, m.Write); err != nil {
		return fmt.Errorf("nnue: save model: %w", err)
	}
	return nil
}

// Load reads and checks the model file at path.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("nnue: load model: %w", err)
	}
	defer f.Close()
	m, err := Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return m, nil
}

type reader struct {
	r   io.Reader
	err error
	buf [8]byte
}

func (r *reader) full(field string, p []byte) {
	if r.err != nil {
		return
	}
	if _, err := io.ReadFull(r.r, p); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			r.err = fmt.Errorf("nnue: model file truncated while reading %s", field)
		} else {
			r.err = fmt.Errorf("nnue: read model %s: %w", field, err)
		}
	}
}

func (r *reader) u16(f string) uint16 {
	r.full(f, r.buf[:2])
	return binary.LittleEndian.Uint16(r.buf[:2])
}
func (r *reader) u32(f string) uint32 {
	r.full(f, r.buf[:4])
	return binary.LittleEndian.Uint32(r.buf[:4])
}
func (r *reader) u64(f string) uint64 {
	r.full(f, r.buf[:8])
	return binary.LittleEndian.Uint64(r.buf[:8])
}

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
	r := &reader{r: in}
	if v := r.u32("body version"); r.err == nil && v != BodyVersion {
		return nil, fmt.Errorf("nnue: model body version %d, this build reads version %d", v, BodyVersion)
	}
	var a Arch
	game := make([]byte, r.u16("game name length"))
	r.full("game name", game)
	a.Game = string(game)
	a.EncoderVersion = int(r.u32("encoder version"))
	var d [7]int
	for i := range d {
		v := r.u32("arch " + dimNames[i])
		if r.err == nil && v > 1<<16 {
			return nil, fmt.Errorf("nnue: model arch %s = %d is out of range", dimNames[i], v)
		}
		d[i] = int(v)
	}
	a.Cells, a.Planes, a.PiecePlanes, a.ToMovePlane, a.Hidden, a.L1 = d[0], d[1], [2]int{d[2], d[3]}, d[4], d[5], d[6]
	step := int64(r.u64("training step"))
	metaLen := r.u32("metadata length")
	if r.err != nil {
		return nil, r.err
	}
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("nnue: model header: %w", err)
	}
	if metaLen > maxMetaBytes {
		return nil, fmt.Errorf("nnue: model metadata length %d exceeds %d", metaLen, maxMetaBytes)
	}
	mj := make([]byte, metaLen)
	r.full("metadata", mj)
	var sum [32]byte
	r.full("weights SHA-256", sum[:])
	count := r.u64("weight count")
	if r.err != nil {
		return nil, r.err
	}
	meta := map[string]string{}
	if err := json.Unmarshal(mj, &meta); err != nil {
		return nil, fmt.Errorf("nnue: model metadata is not a JSON object of strings: %w", err)
	}
	if want := a.NumWeights(); count != uint64(want) {
		return nil, fmt.Errorf("nnue: model file holds %d weights, its arch %s needs %d", count, a, want)
	}
	wb := make([]byte, 4*count)
	r.full("weights", wb)
	if r.err != nil {
		return nil, r.err
	}
	var extra [1]byte
	if n, _ := io.ReadFull(in, extra[:]); n != 0 {
		return nil, errors.New("nnue: model file has trailing bytes after the weights")
	}
	if got := sha256.Sum256(wb); !bytes.Equal(got[:], sum[:]) {
		return nil, fmt.Errorf("nnue: model weights SHA-256 checksum mismatch: header says %x, weights hash to %x", sum, got)
	}
	m := NewModel(a)
	m.Step, m.Meta = step, meta
	off := 0
	for _, t := range m.Weights.Tensors(a) {
		for i := range *t.Data {
			(*t.Data)[i] = math.Float32frombits(binary.LittleEndian.Uint32(wb[off:]))
			off += 4
		}
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
