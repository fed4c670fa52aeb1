package train

import (
	"colony/internal/atomicfile"

	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"

	"colony/nn"
)

// Checkpoint file format (all integers little-endian):
//
//	magic   [8]byte "CLNYTRCK"
//	version uint32  (checkpointVersion)
//	length  uint64  payload bytes
//	payload gob-encoded checkpointPayload
//	crc     uint32  CRC-32 (IEEE) of the payload
//
// The payload holds the architecture (with its game and encoder version), every weight tensor
// and BatchNorm statistic in weightRefs order (with names, checked on load), the step, the
// config, the optimizer state (Adam moments or SGD velocity, and the update count) and the
// trainer's random-source state. Files are written to a temporary file in the same folder,
// synced, then renamed over the target, so a trainer killed at any moment leaves either the
// previous or the new checkpoint.
const (
	checkpointMagic   = "CLNYTRCK"
	checkpointVersion = 1
)

type checkpointPayload struct {
	Arch    nn.Arch
	Names   []string
	Tensors [][]float32
	Meta    map[string]string
	Notes   map[string]string
	Step    int64
	Config  Config
	Opt     optimizer
	RNG     []byte
	SavedAt string
}

// SaveCheckpoint writes the trainer's full state to path (temp file + rename).
func (t *Trainer) SaveCheckpoint(path string) error {
	if t.closed {
		return errors.New("train: trainer is closed")
	}
	m := t.Model()
	p := checkpointPayload{Arch: t.arch, Meta: m.Meta, Notes: t.notes, Step: t.step, Config: t.cfg, Opt: *t.opt,
		SavedAt: time.Now().UTC().Format(time.RFC3339)}
	for _, r := range weightRefs(t.arch, &m.Weights) {
		p.Names = append(p.Names, r.name)
		p.Tensors = append(p.Tensors, *r.data)
	}
	rng, err := t.pcg.MarshalBinary()
	if err != nil {
		return fmt.Errorf("train: saving random state: %w", err)
	}
	p.RNG = rng
	return writeFramed(path, checkpointMagic, checkpointVersion, &p)
}

// writeFramed writes v gob-encoded in the checkpoint container (magic, version, payload length,
// payload, CRC-32 of the payload) through a temporary file and a rename.
func writeFramed(path, magic string, version uint32, v any) error {
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(v); err != nil {
		return fmt.Errorf("train: encoding %s: %w", path, err)
	}
	return writeAtomic(path, func(w io.Writer) error {
		var hdr [20]byte
		copy(hdr[:8], magic)
		binary.LittleEndian.PutUint32(hdr[8:], version)
		binary.LittleEndian.PutUint64(hdr[12:], uint64(body.Len()))
		var crc [4]byte
		binary.LittleEndian.PutUint32(crc[:], crc32.ChecksumIEEE(body.Bytes()))
		for _, b := range [][]byte{hdr[:], body.Bytes(), crc[:]} {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// readFramed reads a file written by writeFramed into v, checking its magic (what names the
// kind of file in the error), version, length and CRC.
func readFramed(path, magic string, version uint32, what string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("train: reading %s: %w", what, err)
	}
	if len(data) < 24 || string(data[:8]) != magic {
		return fmt.Errorf("train: %s is not a %s (bad magic)", path, what)
	}
	if ver := binary.LittleEndian.Uint32(data[8:]); ver != version {
		return fmt.Errorf("train: %s: %s version %d, this build reads %d", path, what, ver, version)
	}
	n := binary.LittleEndian.Uint64(data[12:])
	if n != uint64(len(data)-24) {
		return fmt.Errorf("train: %s: truncated or padded %s (payload %d bytes, file has %d)", path, what, n, len(data)-24)
	}
	body := data[20 : 20+n]
	if crc := binary.LittleEndian.Uint32(data[20+n:]); crc != crc32.ChecksumIEEE(body) {
		return fmt.Errorf("train: %s: %s checksum mismatch", path, what)
	}
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(v); err != nil {
		return fmt.Errorf("train: %s: decoding %s: %w", path, what, err)
	}
	return nil
}

// writeAtomic writes a file through a temporary file in the same folder, syncs it and renames
// it over path.
func writeAtomic(path string, fill func(io.Writer) error) error {
	if err := atomicfile.Write(path, fill); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// readCheckpoint reads and verifies a checkpoint file.
func readCheckpoint(path string) (*checkpointPayload, error) {
	var p checkpointPayload
	if err := readFramed(path, checkpointMagic, checkpointVersion, "Colony training checkpoint", &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// model rebuilds the nn.Model stored in a checkpoint, checking every tensor.
func (p *checkpointPayload) model() (*nn.Model, error) {
	if err := checkArch(p.Arch); err != nil {
		return nil, err
	}
	m := &nn.Model{Arch: p.Arch, Weights: allocWeights(p.Arch), Step: p.Step, Meta: p.Meta}
	refs := weightRefs(p.Arch, &m.Weights)
	if len(refs) != len(p.Tensors) || len(refs) != len(p.Names) {
		return nil, fmt.Errorf("train: checkpoint has %d tensors, arch wants %d", len(p.Tensors), len(refs))
	}
	for i, r := range refs {
		if p.Names[i] != r.name || len(p.Tensors[i]) != len(*r.data) {
			return nil, fmt.Errorf("train: checkpoint tensor %d is %s[%d], arch wants %s[%d]",
				i, p.Names[i], len(p.Tensors[i]), r.name, len(*r.data))
		}
		copy(*r.data, p.Tensors[i])
	}
	return m, nil
}

// CheckpointInfo summarises a checkpoint without building a trainer.
type CheckpointInfo struct {
	Arch    nn.Arch
	Step    int64
	Config  Config
	Notes   map[string]string
	SavedAt string
}

// ReadCheckpointInfo reads and verifies a checkpoint and returns its summary.
func ReadCheckpointInfo(path string) (CheckpointInfo, error) {
	p, err := readCheckpoint(path)
	if err != nil {
		return CheckpointInfo{}, err
	}
	if _, err := p.model(); err != nil {
		return CheckpointInfo{}, err
	}
	return CheckpointInfo{Arch: p.Arch, Step: p.Step, Config: p.Config, Notes: p.Notes, SavedAt: p.SavedAt}, nil
}

// LoadCheckpointModel returns the model stored in a checkpoint (weights, statistics, step).
func LoadCheckpointModel(path string) (*nn.Model, error) {
	p, err := readCheckpoint(path)
	if err != nil {
		return nil, err
	}
	return p.model()
}

// Resume rebuilds a trainer from a checkpoint: weights, BatchNorm statistics, step, optimizer
// moments and random state are restored; the hyper-parameters come from cfg (so a resumed run
// may change the learning rate or batch size) but the optimizer kind must match the checkpoint.
// A zero cfg means the checkpoint's own config.
func Resume(path string, cfg Config) (*Trainer, error) {
	p, err := readCheckpoint(path)
	if err != nil {
		return nil, err
	}
	m, err := p.model()
	if err != nil {
		return nil, err
	}
	if cfg == (Config{}) {
		cfg = p.Config
	}
	t, err := NewTrainer(m, cfg)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(t.net.learnables))
	for i, n := range t.net.learnables {
		sizes[i] = n.Shape().TotalSize()
	}
	if err := p.Opt.check(t.cfg.Optimizer, sizes); err != nil {
		t.Close()
		return nil, fmt.Errorf("train: resuming from %s: %w", path, err)
	}
	opt := p.Opt
	t.opt = &opt
	for k, v := range p.Notes {
		t.notes[k] = v
	}
	if err := t.pcg.UnmarshalBinary(p.RNG); err != nil {
		t.Close()
		return nil, fmt.Errorf("train: resuming from %s: random state: %w", path, err)
	}
	return t, nil
}
