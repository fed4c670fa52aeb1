package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"colony/contract"
	"colony/data"
	"colony/internal/atomicfile"
	"colony/nn"
	"colony/nn/onnx"
)

// RunConfig describes a training run (see Run). Zero values get the defaults noted.
type RunConfig struct {
	// Game is the game trained for: it gives the architecture of a fresh net, and the start
	// model, the checkpoint and the shards are checked against it. Symmetries augment the
	// sampled examples (nil: none).
	Game       contract.Info
	Symmetries contract.Symmetries

	// Model is the start model file; "" starts from a fresh net of Blocks x Channels
	// (default 4x32) initialised from Seed.
	Model            string
	Blocks, Channels int
	// PolicyChannels is the policy head's width of a fresh net (0: nn.DefaultPolicyChannels).
	// The head's dense layer has PolicyChannels x grid x PolicySize weights: on a large grid
	// with a large policy (Slime: 16x16, 12,801 moves) it is most of the model.
	PolicyChannels int

	Shards  string // shard directory (required)
	Window  int    // replay window: the newest examples sampled from (default 500,000)
	Refresh int64  // rescan the shard directory every this many steps (0: never)

	// Steps is the number of updates past the start model's step: the run stops at the start
	// model's step + Steps.
	Steps int64
	// Train holds the hyper-parameters (batch, optimizer, learning rate and schedule, weight
	// decay...). Run sets ScheduleStart, TotalSteps and Seed, and StepEvery when it is 0.
	Train Config
	Seed  uint64 // seed of a fresh net and of the batch sampling

	// Checkpoint, when set, is resumed from when it exists and written every Every steps, at
	// the end and when ctx is cancelled. A checkpoint is resumed only for the same game,
	// architecture and start model; a changed Steps continues to the new step count.
	Checkpoint string
	Every      int64

	Out  string // the trained model file (required)
	ONNX string // also export the trained model as ONNX here ("": no)
	CSV  string // per-step loss CSV ("": none)
	Plot string // loss-curve PNG drawn from CSV at the end (needs CSV)

	LogEvery  int64            // a progress line every this many steps (0: none)
	AfterStep func(step int64) // called after each step (tests)
}

// RunResult describes a finished run.
type RunResult struct {
	Model    *nn.Model // the trained model, as written to Out
	Start    int64     // the step the run started from (the start model's)
	Target   int64     // the step it stopped at
	Resumed  bool      // it continued from the checkpoint
	Examples int       // examples in the window when it started
	Steps    int64     // updates done by this call
	Elapsed  time.Duration
}

var (
	// ErrInterrupted is returned (wrapped) when ctx is cancelled during a run; with a
	// checkpoint, running again with the same configuration resumes.
	ErrInterrupted = errors.New("train: interrupted")
	// ErrCheckpointMismatch is returned (wrapped) when a checkpoint exists that the run cannot
	// continue from: another game, architecture or start model, or a step past the one asked
	// for. Nothing is written then.
	ErrCheckpointMismatch = errors.New("train: cannot resume")
)

// Checkpoint notes: the step the run started from, the step it stops at, and what it started
// from (checked when resuming).
const (
	startNote      = "start_step"
	targetNote     = "target_step"
	startModelNote = "start_model"
	startSHANote   = "start_sha256"
)

// Defaults of RunConfig.
const (
	DefaultWindow   = 500_000
	DefaultBlocks   = 4
	DefaultChannels = 32
)

func (c *RunConfig) validate() error {
	if c.Window == 0 {
		c.Window = DefaultWindow
	}
	if c.Blocks == 0 {
		c.Blocks = DefaultBlocks
	}
	if c.Channels == 0 {
		c.Channels = DefaultChannels
	}
	switch {
	case c.Shards == "":
		return errors.New("train: no shard directory")
	case c.Out == "":
		return errors.New("train: no output model file")
	case c.Plot != "" && c.CSV == "":
		return errors.New("train: a loss plot needs the loss CSV")
	case c.Steps < 0 || c.Window < 0 || c.Refresh < 0 || c.Every < 0 || c.LogEvery < 0:
		return errors.New("train: negative steps, window, refresh, checkpoint period or log period")
	case c.Blocks < 0 || c.Channels < 0 || c.PolicyChannels < 0:
		return errors.New("train: negative blocks, channels or policy channels")
	}
	return c.Game.Validate()
}

// trainerConfig is the trainer configuration of a run from step start to step target.
func (c *RunConfig) trainerConfig(start, target int64) Config {
	tc := c.Train
	span := max(target-start, 1)
	tc.ScheduleStart, tc.TotalSteps, tc.Seed = start, span, c.Seed
	if tc.StepEvery == 0 {
		tc.StepEvery = max(span/3, 1)
	}
	return tc
}

// startModel loads the start model (checked against the game) or builds the fresh net, and
// describes it.
func (c *RunConfig) startModel() (*nn.Model, string, error) {
	if c.Model == "" {
		a := nn.ArchFor(c.Game, c.Blocks, c.Channels)
		if c.PolicyChannels > 0 {
			a.PolicyChannels = c.PolicyChannels
		}
		m := nn.NewRandom(a, c.Seed)
		return m, fmt.Sprintf("a fresh %s net (seed %d)", archName(m.Arch), c.Seed), nil
	}
	m, err := nn.Load(c.Model)
	if err != nil {
		return nil, "", err
	}
	if err := m.CheckFor(c.Game); err != nil {
		return nil, "", fmt.Errorf("train: start model %s: %w", c.Model, err)
	}
	return m, fmt.Sprintf("%s (%s, step %d)", c.Model, archName(m.Arch), m.Step), nil
}

// archName spells an architecture's trunk, with its heads when they are not the defaults.
func archName(a nn.Arch) string {
	s := fmt.Sprintf("%dx%d", a.Blocks, a.Channels)
	if a.PolicyChannels != nn.DefaultPolicyChannels || a.ValueChannels != nn.DefaultValueChannels || a.ValueHidden != nn.DefaultValueHidden {
		s += fmt.Sprintf(" (heads %d/%d/%d)", a.PolicyChannels, a.ValueChannels, a.ValueHidden)
	}
	return s
}

// mismatch is an ErrCheckpointMismatch naming what differs and what to do.
func (c *RunConfig) mismatch(format string, args ...any) error {
	return fmt.Errorf("%w: checkpoint %s: %s; delete the checkpoint or give another checkpoint path to start a new run",
		ErrCheckpointMismatch, c.Checkpoint, fmt.Sprintf(format, args...))
}

// resumeSteps checks that the checkpoint belongs to this run (game, architecture, start model)
// and returns the step the run started from and the step to stop at.
func (c *RunConfig) resumeSteps(info CheckpointInfo, m *nn.Model, desc string, lg *log.Logger) (int64, int64, error) {
	if err := (&nn.Model{Arch: info.Arch}).CheckFor(c.Game); err != nil {
		return 0, 0, c.mismatch("it is not for this game: %v", err)
	}
	if info.Arch != m.Arch {
		return 0, 0, c.mismatch("it trains a %s net, this run starts from %s", archName(info.Arch), desc)
	}
	from, err1 := strconv.ParseInt(info.Notes[startNote], 10, 64)
	target, err2 := strconv.ParseInt(info.Notes[targetNote], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, c.mismatch("it lacks the run's start/target steps (%v)", err)
	}
	switch sha := info.Notes[startSHANote]; {
	case sha == "":
		lg.Printf("warning: checkpoint %s does not record its start model: cannot check that it started from %s", c.Checkpoint, desc)
	case sha != m.SHA256() || from != m.Step:
		return 0, 0, c.mismatch("it started from %s (weights sha256 %.12s, step %d), this run from %s (sha256 %.12s)",
			info.Notes[startModelNote], sha, from, desc, m.SHA256())
	}
	want := from + c.Steps
	if want < info.Step {
		return 0, 0, c.mismatch("it is at step %d, past step %d (the start's %d + %d steps) that this run stops at; ask for at least %d steps",
			info.Step, want, from, c.Steps, info.Step-from)
	}
	if want != target {
		lg.Printf("checkpoint %s was aiming for step %d: continuing to step %d (%d steps from the start's %d)", c.Checkpoint, target, want, c.Steps, from)
	}
	return from, want, nil
}

// start builds the trainer: resumed from the checkpoint when it exists, else from the start
// model. It returns the trainer and the step to stop at.
func (c *RunConfig) start(lg *log.Logger) (*Trainer, int64, bool, error) {
	m, desc, err := c.startModel()
	if err != nil {
		return nil, 0, false, err
	}
	if c.Checkpoint != "" {
		info, err := ReadCheckpointInfo(c.Checkpoint)
		switch {
		case err == nil:
			from, target, err := c.resumeSteps(info, m, desc, lg)
			if err != nil {
				return nil, 0, false, err
			}
			t, err := Resume(c.Checkpoint, c.trainerConfig(from, target))
			if err != nil {
				return nil, 0, false, err
			}
			t.Notes()[targetNote] = strconv.FormatInt(target, 10)
			lg.Printf("resumed from %s (saved %s) at step %d of %d", c.Checkpoint, info.SavedAt, info.Step, target)
			return t, target, true, nil
		case !errors.Is(err, fs.ErrNotExist):
			return nil, 0, false, err
		}
	}
	lg.Printf("start: %s", desc)
	target := m.Step + c.Steps
	t, err := NewTrainer(m, c.trainerConfig(m.Step, target))
	if err != nil {
		return nil, 0, false, err
	}
	t.Notes()[startNote] = strconv.FormatInt(m.Step, 10)
	t.Notes()[targetNote] = strconv.FormatInt(target, 10)
	t.Notes()[startModelNote] = desc
	t.Notes()[startSHANote] = m.SHA256()
	return t, target, false, nil
}

// windowBatcher adapts a data.Window to Batcher, sampling through the trainer's random source
// (so a resumed run draws the same batches from the same window).
type windowBatcher struct {
	w   *data.Window
	t   *Trainer
	exs []data.Example
}

func (b *windowBatcher) NextBatch(inputs, policy, values []float32) error {
	var err error
	if b.exs, err = b.w.Sample(b.t.Rand(), b.t.Config().Batch, b.exs); err != nil {
		return err
	}
	return data.FillBatch(b.exs, inputs, policy, values)
}

// mkdirFor creates the directory of each non-empty path.
func mkdirFor(paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	return nil
}

// Run trains a network on the newest examples of a shard directory: it samples batches
// uniformly (with the game's symmetries) from the newest cfg.Window examples, rescanning the
// directory every cfg.Refresh steps, and stops at the start model's step + cfg.Steps. It then
// writes the model to cfg.Out (and cfg.ONNX) and draws the loss plot. Progress goes to log
// (nil: none).
//
// With cfg.Checkpoint the full trainer state is saved every cfg.Every steps, at the end and
// when ctx is cancelled (Run then returns ErrInterrupted); when the checkpoint exists Run
// resumes from it, so an interrupted run is finished by running it again. A checkpoint of
// another game, architecture or start model, or one already past the step asked for, is
// refused with ErrCheckpointMismatch, naming what differs; a changed cfg.Steps otherwise
// continues from the checkpoint to the new step count.
func Run(ctx context.Context, cfg RunConfig, logw io.Writer) (*RunResult, error) {
	if logw == nil {
		logw = io.Discard
	}
	lg := log.New(logw, "train: ", log.Ltime)
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := mkdirFor(cfg.Checkpoint, cfg.Out, cfg.ONNX, cfg.CSV, cfg.Plot); err != nil {
		return nil, err
	}
	if cfg.Plot != "" && !PlotsEnabled {
		lg.Printf("warning: this build cannot draw plots; %s will be skipped", cfg.Plot)
	}
	t, target, resumed, err := cfg.start(lg)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	res := &RunResult{Target: target, Resumed: resumed}
	res.Start, _ = strconv.ParseInt(t.Notes()[startNote], 10, 64)

	win, err := openWindow(cfg.Shards, data.WindowOptions{Game: cfg.Game.Name, EncoderVersion: cfg.Game.EncoderVersion,
		Capacity: cfg.Window, Augmenter: cfg.Symmetries, Warn: logw}, lg)
	if err != nil {
		return nil, err
	}
	res.Examples = win.Len()
	if win.Len() == 0 && t.StepCount() < target {
		return nil, fmt.Errorf("train: no examples for game %q encoder %d in %s", cfg.Game.Name, cfg.Game.EncoderVersion, cfg.Shards)
	}
	batcher := &windowBatcher{w: win, t: t}

	var ll *LossLog
	if cfg.CSV != "" {
		if ll, err = OpenLossLog(cfg.CSV, t.StepCount()); err != nil {
			return nil, err
		}
		defer ll.Close()
	}
	checkpoint := func() error {
		if cfg.Checkpoint == "" {
			return nil
		}
		return t.SaveCheckpoint(cfg.Checkpoint)
	}
	batch := t.Config().Batch
	began, firstStep := time.Now(), t.StepCount()
	var sum StepStats
	var n int
	for t.StepCount() < target {
		if ctx.Err() != nil {
			if cfg.Checkpoint == "" {
				return nil, fmt.Errorf("%w at step %d (no checkpoint: the steps are lost)", ErrInterrupted, t.StepCount())
			}
			lg.Printf("interrupted at step %d: saving checkpoint", t.StepCount())
			if err := checkpoint(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%w at step %d; checkpoint %s saved: run again with the same settings to resume",
				ErrInterrupted, t.StepCount(), cfg.Checkpoint)
		}
		if cfg.Refresh > 0 && t.StepCount() > firstStep && t.StepCount()%cfg.Refresh == 0 {
			if rep, err := win.Refresh(); err != nil {
				return nil, err
			} else if rep.Loaded > 0 {
				lg.Printf("window refreshed: %d examples (%d new shards)", win.Len(), rep.Loaded)
			}
		}
		s, err := t.Step(batcher)
		if err != nil {
			return nil, err
		}
		if ll != nil {
			if err := ll.Write(s); err != nil {
				return nil, err
			}
		}
		sum.Total += s.Total
		sum.Policy += s.Policy
		sum.Value += s.Value
		n++
		if cfg.LogEvery > 0 && (s.Step%cfg.LogEvery == 0 || s.Step == target) {
			rate := float64(s.Step-firstStep) * float64(batch) / time.Since(began).Seconds()
			lg.Printf("step %d/%d loss %.4f (policy %.4f value %.4f l2 %.4f) lr %.3g  %.0f samples/s",
				s.Step, target, sum.Total/float64(n), sum.Policy/float64(n), sum.Value/float64(n), s.L2, s.LR, rate)
			sum, n = StepStats{}, 0
		}
		if cfg.AfterStep != nil {
			cfg.AfterStep(s.Step)
		}
		if cfg.Every > 0 && s.Step%cfg.Every == 0 && s.Step < target {
			if err := checkpoint(); err != nil {
				return nil, err
			}
		}
	}
	res.Steps, res.Elapsed = t.StepCount()-firstStep, time.Since(began)
	if err := checkpoint(); err != nil {
		return nil, err
	}
	m := t.Model()
	m.Meta["train.batch"] = strconv.Itoa(batch)
	m.Meta["train.lr"] = strconv.FormatFloat(t.Config().LR, 'g', -1, 64)
	m.Meta["train.optimizer"] = t.Config().Optimizer
	m.Meta["train.window"] = strconv.Itoa(cfg.Window)
	m.Meta["train.shards"] = cfg.Shards
	m.Meta["train.seed"] = strconv.FormatUint(cfg.Seed, 10)
	if err := m.Save(cfg.Out); err != nil {
		return nil, err
	}
	res.Model = m
	lg.Printf("wrote %s (step %d)", cfg.Out, m.Step)
	if cfg.ONNX != "" {
		if err := ExportONNX(m, cfg.ONNX); err != nil {
			return nil, err
		}
		lg.Printf("wrote %s", cfg.ONNX)
	}
	if ll != nil {
		if err := ll.Close(); err != nil {
			return nil, err
		}
	}
	if cfg.Plot != "" && PlotsEnabled {
		rows, err := ReadLossCSV(cfg.CSV)
		if err != nil {
			return nil, err
		}
		if len(rows) > 0 {
			if err := PlotLosses(cfg.Plot, rows, 50); err != nil {
				return nil, err
			}
			lg.Printf("wrote %s", cfg.Plot)
		}
	}
	return res, nil
}

// ExportONNX writes m as an ONNX model (symbolic batch size, see onnx.Export) to path,
// through a temporary file and a rename.
func ExportONNX(m *nn.Model, path string) error {
	if err := mkdirFor(path); err != nil {
		return err
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return onnx.Export(m, w) }); err != nil {
		return fmt.Errorf("train: ONNX export: %w", err)
	}
	return nil
}

// openWindow opens the training window on the shards of dir as opt says (capacity, game,
// augmentation, filter, values only), loads it and says on lg what it holds; damaged shards
// are reported on opt.Warn.
func openWindow(dir string, opt data.WindowOptions, lg *log.Logger) (*data.Window, error) {
	win, err := data.NewWindow(dir, opt)
	if err != nil {
		return nil, err
	}
	rep, err := win.Refresh()
	if err != nil {
		return nil, err
	}
	lg.Printf("window: %d examples from %d shards (%d damaged skipped)", win.Len(), rep.Loaded, rep.Corrupt)
	return win, nil
}
