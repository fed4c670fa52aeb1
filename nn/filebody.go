package nn

import (
	"bufio"
	"bytes"
	"colony/internal/atomicfile"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Body is what follows the head of every model file (the convnet's, and each tagged
// architecture's after its own version field), in this order, all integers little-endian:
//
//	game             uint16 length + UTF-8 bytes
//	encoder version  uint32
//	architecture     len(Dims) x uint32, in the architecture's own order
//	training step    int64
//	metadata         uint32 length + JSON object of strings
//	weights SHA-256  32 bytes, over the weight bytes below
//	weight count     uint64
//	weights          float32 values
//
// Nothing may follow the weights.
type Body struct {
	Game           string
	EncoderVersion int
	Dims           []int
	Step           int64
	Meta           map[string]string
	Weights        []float32
}

// WriteBody writes head (the file's magic, version and tag fields, already encoded) and then
// b. who prefixes the errors ("nn", "nnue").
func WriteBody(w io.Writer, who string, head []byte, b Body) error {
	if len(b.Game) > math.MaxUint16 {
		return fmt.Errorf("%s: write model: game name of %d bytes is too long", who, len(b.Game))
	}
	meta := b.Meta
	if meta == nil {
		meta = map[string]string{}
	}
	mj, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("%s: write model: metadata: %w", who, err)
	}
	if len(mj) > maxMetaBytes {
		return fmt.Errorf("%s: write model: metadata of %d bytes exceeds %d", who, len(mj), maxMetaBytes)
	}
	le := binary.LittleEndian
	h := append([]byte(nil), head...)
	h = le.AppendUint16(h, uint16(len(b.Game)))
	h = append(h, b.Game...)
	h = le.AppendUint32(h, uint32(b.EncoderVersion))
	for _, d := range b.Dims {
		h = le.AppendUint32(h, uint32(d))
	}
	h = le.AppendUint64(h, uint64(b.Step))
	h = le.AppendUint32(h, uint32(len(mj)))
	h = append(h, mj...)
	wb := WeightBytes(b.Weights)
	sum := sha256.Sum256(wb)
	h = append(h, sum[:]...)
	h = le.AppendUint64(h, uint64(len(b.Weights)))
	if _, err := w.Write(h); err != nil {
		return fmt.Errorf("%s: write model header: %w", who, err)
	}
	if _, err := w.Write(wb); err != nil {
		return fmt.Errorf("%s: write model weights: %w", who, err)
	}
	return nil
}

// WeightBytes is the weights as stored: float32 values, little-endian.
func WeightBytes(ws []float32) []byte {
	buf := make([]byte, 0, 4*len(ws))
	for _, v := range ws {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	return buf
}

// ReadBody reads a Body whose architecture has one size per name in dimNames (each at most
// maxDim). check validates the game, encoder version and sizes (Weights and Meta are not
// read yet) before anything large is read, and returns how many weights they need. Every error names the field, prefixed by who; the file must end with
// the weights, and the weights must match their SHA-256.
func ReadBody(in io.Reader, who string, dimNames []string, check func(b Body) (weights int, err error)) (Body, error) {
	var b Body
	r := &reader{r: in, who: who}
	game := make([]byte, r.u16("game name length"))
	r.full("game name", game)
	b.Game = string(game)
	b.EncoderVersion = int(r.u32("encoder version"))
	b.Dims = make([]int, len(dimNames))
	for i := range b.Dims {
		v := r.u32("arch " + dimNames[i])
		if r.err == nil && v > maxDim {
			return b, fmt.Errorf("%s: model arch %s = %d is out of range", who, dimNames[i], v)
		}
		b.Dims[i] = int(v)
	}
	b.Step = int64(r.u64("training step"))
	metaLen := r.u32("metadata length")
	if r.err != nil {
		return b, r.err
	}
	want, err := check(b)
	if err != nil {
		return b, fmt.Errorf("%s: model header: %w", who, err)
	}
	if metaLen > maxMetaBytes {
		return b, fmt.Errorf("%s: model metadata length %d exceeds %d", who, metaLen, maxMetaBytes)
	}
	mj := make([]byte, metaLen)
	r.full("metadata", mj)
	var sum [32]byte
	r.full("weights SHA-256", sum[:])
	count := r.u64("weight count")
	if r.err != nil {
		return b, r.err
	}
	b.Meta = map[string]string{}
	if err := json.Unmarshal(mj, &b.Meta); err != nil {
		return b, fmt.Errorf("%s: model metadata is not a JSON object of strings: %w", who, err)
	}
	if count != uint64(want) {
		return b, fmt.Errorf("%s: model file holds %d weights, its architecture %v needs %d", who, count, b.Dims, want)
	}
	wb := make([]byte, count*4)
	r.full("weights", wb)
	if r.err != nil {
		return b, fmt.Errorf("%w (%d weights expected)", r.err, count)
	}
	var extra [1]byte
	if n, _ := io.ReadFull(in, extra[:]); n != 0 {
		return b, fmt.Errorf("%s: model file has trailing bytes after the weights", who)
	}
	if got := sha256.Sum256(wb); !bytes.Equal(got[:], sum[:]) {
		return b, fmt.Errorf("%s: model weights SHA-256 checksum mismatch: header says %x, weights hash to %x", who, sum, got)
	}
	b.Weights = make([]float32, count)
	for i := range b.Weights {
		b.Weights[i] = math.Float32frombits(binary.LittleEndian.Uint32(wb[4*i:]))
	}
	return b, nil
}

// reader reads fields and turns a short read into an error naming the field.
type reader struct {
	r   io.Reader
	who string
	err error
	buf [8]byte
}

func (r *reader) full(field string, p []byte) {
	if r.err != nil {
		return
	}
	if _, err := io.ReadFull(r.r, p); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			r.err = fmt.Errorf("%s: model file truncated while reading %s", r.who, field)
		} else {
			r.err = fmt.Errorf("%s: read model %s: %w", r.who, field, err)
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

// SaveFile writes a model file to path atomically (a temporary file in the same folder,
// synced, then renamed) with write; who prefixes the error.
func SaveFile(path, who string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("%s: save model: %w", who, err)
	}
	return nil
}

// LoadFile reads the model file at path with read; an error names the file.
func LoadFile[M any](path, who string, read func(io.Reader) (M, error)) (M, error) {
	var zero M
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("%s: load model: %w", who, err)
	}
	defer f.Close()
	m, err := read(bufio.NewReader(f))
	if err != nil {
		return zero, fmt.Errorf("%w (file %s)", err, path)
	}
	return m, nil
}
