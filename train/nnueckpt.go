package train

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"time"

	"colony/nn/nnue"
)

// An NNUE run's resume checkpoint (NNUEConfig.Checkpoints, NNUEConfig.Resume): the state a
// continued run needs beyond the weights, so that a run stopped between sessions goes on as if it
// had never stopped (the same schedule and optimizer; the sampling continues the same random
// sequence, over whatever the shard folder holds by then). It sits beside the model it continues,
// as MODEL.ckpt, and names that model by step and weights hash. File format (little-endian; the
// container of the convnet checkpoint, writeFramed):
//
//	magic   [8]byte "CLNYNNCK"
//	version uint32  (nnueCkptVersion)
//	length  uint64  payload bytes
//	payload gob-encoded nnueCkpt
//	crc     uint32  CRC-32 (IEEE) of the payload
const (
	nnueCkptMagic   = "CLNYNNCK"
	nnueCkptVersion = 1
	nnueCkptExt     = ".ckpt"
)

type nnueCkpt struct {
	Game     string    // the game's name
	Arch     string    // the net's architecture (nnue.Arch.String)
	Step     int64     // the model's step
	ModelSHA string    // the model's weights hash (nnue.Model.SHA256)
	Schedule Config    // the run's trainer config: rate, schedule (its start and length), warm-up
	Target   int64     // the step the run was to end at
	Opt      optimizer // Adam's moments and update count
	RNG      []byte    // the sampling source's state
	SavedAt  string
	Seconds  float64 // the run's training time at the save, over all its resumed parts (0 in checkpoints written before it was kept)
}

// CkptPath is the resume checkpoint beside a model file.
func CkptPath(model string) string { return model + nnueCkptExt }

func writeNNUECkpt(path string, c *nnueCkpt) error {
	return writeFramed(path, nnueCkptMagic, nnueCkptVersion, c)
}

func readNNUECkpt(path string) (*nnueCkpt, error) {
	var c nnueCkpt
	err := readFramed(path, nnueCkptMagic, nnueCkptVersion, "NNUE run checkpoint", &c)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("train: nnue: resume: no checkpoint %s beside the start model (a run writes one with each model it saves)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("train: nnue: resume: %w", err)
	}
	return &c, nil
}

// check verifies that c continues model m of game.
func (c *nnueCkpt) check(path, game string, m *nnue.Model) error {
	switch {
	case c.Game != game:
		return fmt.Errorf("train: nnue: resume: %s is a %s run's, not %s's", path, c.Game, game)
	case c.Arch != m.Arch.String():
		return fmt.Errorf("train: nnue: resume: %s is a %s net's, the start model is %s", path, c.Arch, m.Arch)
	case c.Step != m.Step || c.ModelSHA != m.SHA256():
		return fmt.Errorf("train: nnue: resume: %s goes with the model of step %d (sha256 %.12s), the start model is step %d (sha256 %.12s)",
			path, c.Step, c.ModelSHA, m.Step, m.SHA256())
	}
	return nil
}

// ckptOf is the resume checkpoint of trainer t's current state (model m).
func ckptOf(game string, m *nnue.Model, tc *Config, target int64, t *NNUETrainer, pcg *rand.PCG, seconds float64) (*nnueCkpt, error) {
	rng, err := pcg.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("train: saving the sampling state: %w", err)
	}
	return &nnueCkpt{Game: game, Arch: m.Arch.String(), Step: m.Step, ModelSHA: m.SHA256(), Schedule: *tc,
		Target: target, Opt: *t.opt, RNG: rng, SavedAt: time.Now().UTC().Format(time.RFC3339), Seconds: seconds}, nil
}

// sizes is the length of each of o's moment tensors.
func (o *optimizer) sizes() []int {
	s := make([]int, len(o.M))
	for i, m := range o.M {
		s[i] = len(m)
	}
	return s
}
