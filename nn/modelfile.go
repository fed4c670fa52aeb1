package nn

import (
	"colony/internal/atomicfile"

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
	r := &reader{r: in}
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

// weightBytes encodes the weights in canonical order as little-endian float32.
func (m *Model) weightBytes() []byte {
	buf := make([]byte, 0, m.Arch.NumWeights()*4)
	for _, t := range m.Weights.tensors() {
		for _, v := range t {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return buf
}

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
	if len(m.Arch.Game) > math.MaxUint16 {
		return fmt.Errorf("nn: write model: game name of %d bytes is too long", len(m.Arch.Game))
	}
	meta := m.Meta
	if meta == nil {
		meta = map[string]string{}
	}
	mj, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("nn: write model: metadata: %w", err)
	}
	if len(mj) > maxMetaBytes {
		return fmt.Errorf("nn: write model: metadata of %d bytes exceeds %d", len(mj), maxMetaBytes)
	}
	le := binary.LittleEndian
	var h []byte
	h = append(h, Magic...)
	h = le.AppendUint32(h, FormatVersion)
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
		return fmt.Errorf("nn: write model header: %w", err)
	}
	if _, err := w.Write(wb); err != nil {
		return fmt.Errorf("nn: write model weights: %w", err)
	}
	return nil
}

// Save writes m to path atomically (a temporary file in the same folder, synced, then renamed).
func (m *Model) Save(path string) error {
	if err := atomicfile.Write(path, m.Write); err != nil {
		return fmt.Errorf("nn: save model: %w", err)
	}
	return nil
}

// Load reads and checks the model file at path.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("nn: load model: %w", err)
	}
	defer f.Close()
	m, err := Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return m, nil
}

// reader reads fields and turns a short read into an error naming the field.
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
			r.err = fmt.Errorf("nn: model file truncated while reading %s", field)
		} else {
			r.err = fmt.Errorf("nn: read model %s: %w", field, err)
		}
	}
}

func (r *reader) u16(field string) uint16 {
	r.full(field, r.buf[:2])
	return binary.LittleEndian.Uint16(r.buf[:2])
}

func (r *reader) u32(field string) uint32 {
	r.full(field, r.buf[:4])
	return binary.LittleEndian.Uint32(r.buf[:4])
}

func (r *reader) u64(field string) uint64 {
	r.full(field, r.buf[:8])
	return binary.LittleEndian.Uint64(r.buf[:8])
}

// Read decodes and checks a model file: magic, format version, architecture sanity, weight
// count against the architecture, truncation, trailing bytes and the weights' SHA-256. The error
// names exactly what is wrong.
func Read(in io.Reader) (*Model, error) {
	r := &reader{r: in}
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
	var a Arch
	game := make([]byte, r.u16("game name length"))
	r.full("game name", game)
	a.Game = string(game)
	a.EncoderVersion = int(r.u32("encoder version"))
	var dims [10]int
	for i := range dims {
		v := r.u32("arch " + dimNames[i])
		if r.err == nil && v > maxDim {
			return nil, fmt.Errorf("nn: model arch %s = %d is out of range", dimNames[i], v)
		}
		dims[i] = int(v)
	}
	a.Planes, a.Height, a.Width, a.Blocks, a.Channels, a.PolicyChannels = dims[0], dims[1], dims[2], dims[3], dims[4], dims[5]
	a.PolicySize, a.ValueChannels, a.ValueHidden, a.NumPlayers = dims[6], dims[7], dims[8], dims[9]
	step := int64(r.u64("training step"))
	metaLen := r.u32("metadata length")
	if r.err != nil {
		return nil, r.err
	}
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("nn: model header: %w", err)
	}
	if metaLen > maxMetaBytes {
		return nil, fmt.Errorf("nn: model metadata length %d exceeds %d", metaLen, maxMetaBytes)
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
		return nil, fmt.Errorf("nn: model metadata is not a JSON object of strings: %w", err)
	}
	if want := a.NumWeights(); count != uint64(want) {
		return nil, fmt.Errorf("nn: model file holds %d weights, its arch (%d blocks x %d channels) needs %d", count, a.Blocks, a.Channels, want)
	}
	wb := make([]byte, count*4)
	r.full("weights", wb)
	if r.err != nil {
		return nil, fmt.Errorf("%w (%d weights expected)", r.err, count)
	}
	var extra [1]byte
	if n, _ := io.ReadFull(in, extra[:]); n != 0 {
		return nil, errors.New("nn: model file has trailing bytes after the weights")
	}
	if got := sha256.Sum256(wb); !bytes.Equal(got[:], sum[:]) {
		return nil, fmt.Errorf("nn: model weights SHA-256 checksum mismatch: header says %x, weights hash to %x", sum, got)
	}
	m := &Model{Arch: a, Weights: NewWeights(a), Step: step, Meta: meta}
	off := 0
	for _, t := range m.Weights.tensors() {
		for i := range t {
			t[i] = math.Float32frombits(binary.LittleEndian.Uint32(wb[off:]))
			off += 4
		}
	}
	return m, nil
}
