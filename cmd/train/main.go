// Command train fits a Colony policy/value network on self-play shards.
//
//	train -shards DIR [-model IN | -blocks B -channels C] -steps N -out MODEL
//	      [-checkpoint FILE] [-csv FILE] [-plot FILE] [-window K] [-batch 256] [-lr 2e-3] [-seed S]
//
// It samples batches uniformly (with symmetry augmentation) from the newest -window examples
// of the shard directory, refreshing the window every -refresh steps, and trains for -steps
// updates. With -checkpoint, the full trainer state is saved every -every steps and on SIGINT or
// SIGTERM; when the checkpoint file already exists the run resumes from it (the start model is
// then ignored) and stops at the step the original run was aiming for, so a run killed at any
// moment is finished by rerunning the same command.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"colony/data"
	"colony/nn"
	"colony/train"
)

// Checkpoint notes: the step the run started from and the step it stops at.
const (
	startNote  = "start_step"
	targetNote = "target_step"
)

// afterStep, when set (by tests), is called after each step.
var afterStep func(step int64)

type options struct {
	model, shards, checkpoint, out, csv, plot string
	blocks, channels, batch, window           int
	steps, every, refresh, warmup, logEvery   int64
	lr, minLR, wd, valueWeight, clip          float64
	optimizer, schedule                       string
	seed                                      uint64
}

func main() {
	var o options
	flag.StringVar(&o.model, "model", "", "start model file (default: a fresh net of -blocks x -channels)")
	flag.IntVar(&o.blocks, "blocks", 4, "residual blocks of a fresh net")
	flag.IntVar(&o.channels, "channels", 32, "channels of a fresh net")
	flag.StringVar(&o.shards, "shards", "", "self-play shard directory (required)")
	flag.IntVar(&o.window, "window", 500_000, "replay window: newest examples sampled from")
	flag.Int64Var(&o.refresh, "refresh", 500, "rescan the shard directory every this many steps (0: never)")
	flag.IntVar(&o.batch, "batch", 256, "batch size")
	flag.Float64Var(&o.lr, "lr", 2e-3, "base learning rate")
	flag.StringVar(&o.optimizer, "optimizer", train.Adam, "adam or sgd (momentum 0.9)")
	flag.StringVar(&o.schedule, "schedule", train.Constant, "learning-rate schedule: constant, cosine or step")
	flag.Int64Var(&o.warmup, "warmup", 0, "linear learning-rate warm-up steps")
	flag.Float64Var(&o.minLR, "min-lr", 0, "cosine schedule floor")
	flag.Float64Var(&o.wd, "wd", 1e-4, "L2 coefficient on conv and dense weights (0: none)")
	flag.Float64Var(&o.valueWeight, "value-weight", 1, "weight of the value loss")
	flag.Float64Var(&o.clip, "clip", 0, "clip the global gradient norm (0: off)")
	flag.Int64Var(&o.steps, "steps", 1000, "updates to run")
	flag.StringVar(&o.checkpoint, "checkpoint", "", "checkpoint file: resumed from when present, written every -every steps")
	flag.Int64Var(&o.every, "every", 200, "checkpoint period in steps")
	flag.StringVar(&o.out, "out", "", "output model file (required)")
	flag.StringVar(&o.csv, "csv", "", "per-step loss CSV")
	flag.StringVar(&o.plot, "plot", "", "loss-curve PNG drawn from -csv at the end (needs -csv)")
	flag.Int64Var(&o.logEvery, "log", 50, "print a progress line every this many steps")
	flag.Uint64Var(&o.seed, "seed", 1, "seed (fresh net and batch sampling)")
	flag.Parse()
	log.SetFlags(log.Ltime)
	log.SetPrefix("train: ")
	if err := run(&o); err != nil {
		log.Fatal(err)
	}
}

// config builds the trainer configuration for a run from step start to step target.
func (o *options) config(start, target int64) train.Config {
	wd := o.wd
	if wd == 0 {
		wd = -1 // train.Config: negative means none
	}
	span := max(target-start, 1)
	return train.Config{
		Batch: o.batch, Optimizer: o.optimizer, LR: o.lr, WeightDecay: wd, ValueWeight: o.valueWeight,
		ClipNorm: o.clip, Schedule: o.schedule, WarmupSteps: o.warmup, MinLR: o.minLR,
		ScheduleStart: start, TotalSteps: span, StepEvery: max(span/3, 1), Seed: o.seed,
	}
}

// start builds the trainer: resumed from the checkpoint when it exists, else from -model or a
// fresh net. It returns the trainer and the step to stop at.
func start(o *options) (*train.Trainer, int64, error) {
	if o.checkpoint != "" {
		info, err := train.ReadCheckpointInfo(o.checkpoint)
		switch {
		case err == nil:
			from, err1 := strconv.ParseInt(info.Notes[startNote], 10, 64)
			target, err2 := strconv.ParseInt(info.Notes[targetNote], 10, 64)
			if err := errors.Join(err1, err2); err != nil {
				return nil, 0, fmt.Errorf("checkpoint %s lacks the run's start/target steps: %w", o.checkpoint, err)
			}
			t, err := train.Resume(o.checkpoint, o.config(from, target))
			if err != nil {
				return nil, 0, err
			}
			log.Printf("resumed from %s (saved %s) at step %d of %d; start model ignored", o.checkpoint, info.SavedAt, info.Step, target)
			return t, target, nil
		case !errors.Is(err, fs.ErrNotExist):
			return nil, 0, err
		}
	}
	var m *nn.Model
	if o.model != "" {
		var err error
		if m, err = nn.Load(o.model); err != nil {
			return nil, 0, err
		}
		log.Printf("start model %s: %dx%d, step %d", o.model, m.Arch.Blocks, m.Arch.Channels, m.Step)
	} else {
		m = nn.NewRandom(nn.AtaxxArch(o.blocks, o.channels), o.seed)
		log.Printf("fresh %dx%d net (seed %d)", o.blocks, o.channels, o.seed)
	}
	target := m.Step + o.steps
	t, err := train.NewTrainer(m, o.config(m.Step, target))
	if err != nil {
		return nil, 0, err
	}
	t.Notes()[startNote] = strconv.FormatInt(m.Step, 10)
	t.Notes()[targetNote] = strconv.FormatInt(target, 10)
	return t, target, nil
}

// windowBatcher adapts a data.Window to train.Batcher, sampling through the trainer's random
// source (so a resumed run draws the same batches from the same window).
type windowBatcher struct {
	w   *data.Window
	t   *train.Trainer
	exs []data.Example
}

func (b *windowBatcher) NextBatch(inputs, policy, values []float32) error {
	n := b.t.Config().Batch
	var err error
	if b.exs, err = b.w.Sample(b.t.Rand(), n, b.exs); err != nil {
		return err
	}
	return data.FillBatch(b.exs, inputs, policy, values)
}

func augmenterFor(game string) data.Augmenter {
	if game == data.AtaxxGame {
		return data.AtaxxAugmenter{}
	}
	log.Printf("no symmetry augmentation known for game %q", game)
	return data.NoAugment{}
}

func run(o *options) error {
	switch {
	case o.shards == "":
		return errors.New("-shards is required")
	case o.out == "":
		return errors.New("-out is required")
	case o.plot != "" && o.csv == "":
		return errors.New("-plot needs -csv")
	case o.steps < 0 || o.window <= 0:
		return errors.New("-steps must be >= 0 and -window > 0")
	}
	if o.plot != "" && !train.PlotsEnabled {
		log.Printf("warning: this build cannot draw plots; -plot %s will be skipped", o.plot)
	}
	t, target, err := start(o)
	if err != nil {
		return err
	}
	defer t.Close()
	a := t.Arch()

	win, err := data.NewWindow(o.shards, data.WindowOptions{
		Game: a.Game, EncoderVersion: a.EncoderVersion, Capacity: o.window, Augmenter: augmenterFor(a.Game),
	})
	if err != nil {
		return err
	}
	rep, err := win.Refresh()
	if err != nil {
		return err
	}
	log.Printf("window: %d examples from %d shards (%d damaged skipped)", win.Len(), rep.Loaded, rep.Corrupt)
	if win.Len() == 0 {
		return fmt.Errorf("no examples for game %q encoder %d in %s", a.Game, a.EncoderVersion, o.shards)
	}
	batcher := &windowBatcher{w: win, t: t}

	var ll *train.LossLog
	if o.csv != "" {
		if ll, err = train.OpenLossLog(o.csv, t.StepCount()); err != nil {
			return err
		}
		defer ll.Close()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	checkpoint := func() error {
		if o.checkpoint == "" {
			return nil
		}
		return t.SaveCheckpoint(o.checkpoint)
	}
	began, firstStep := time.Now(), t.StepCount()
	var sum train.StepStats
	var n int
	for t.StepCount() < target {
		if ctx.Err() != nil {
			log.Printf("interrupted at step %d: saving checkpoint", t.StepCount())
			if err := checkpoint(); err != nil {
				return err
			}
			return errors.New("interrupted; rerun the same command to resume")
		}
		if o.refresh > 0 && t.StepCount() > firstStep && t.StepCount()%o.refresh == 0 {
			if rep, err := win.Refresh(); err != nil {
				return err
			} else if rep.Loaded > 0 {
				log.Printf("window refreshed: %d examples (%d new shards)", win.Len(), rep.Loaded)
			}
		}
		s, err := t.Step(batcher)
		if err != nil {
			return err
		}
		if ll != nil {
			if err := ll.Write(s); err != nil {
				return err
			}
		}
		sum.Total += s.Total
		sum.Policy += s.Policy
		sum.Value += s.Value
		n++
		if o.logEvery > 0 && (s.Step%o.logEvery == 0 || s.Step == target) {
			rate := float64(s.Step-firstStep) * float64(o.batch) / time.Since(began).Seconds()
			log.Printf("step %d/%d loss %.4f (policy %.4f value %.4f l2 %.4f) lr %.3g  %.0f samples/s",
				s.Step, target, sum.Total/float64(n), sum.Policy/float64(n), sum.Value/float64(n), s.L2, s.LR, rate)
			sum, n = train.StepStats{}, 0
		}
		if afterStep != nil {
			afterStep(s.Step)
		}
		if o.every > 0 && s.Step%o.every == 0 && s.Step < target {
			if err := checkpoint(); err != nil {
				return err
			}
		}
	}
	if err := checkpoint(); err != nil {
		return err
	}
	m := t.Model()
	m.Meta["train.batch"] = strconv.Itoa(o.batch)
	m.Meta["train.lr"] = strconv.FormatFloat(o.lr, 'g', -1, 64)
	m.Meta["train.optimizer"] = o.optimizer
	m.Meta["train.window"] = strconv.Itoa(o.window)
	m.Meta["train.shards"] = o.shards
	m.Meta["train.seed"] = strconv.FormatUint(o.seed, 10)
	if err := m.Save(o.out); err != nil {
		return err
	}
	log.Printf("wrote %s (step %d)", o.out, m.Step)
	if ll != nil {
		if err := ll.Close(); err != nil {
			return err
		}
	}
	if o.plot != "" && train.PlotsEnabled {
		rows, err := train.ReadLossCSV(o.csv)
		if err != nil {
			return err
		}
		if err := train.PlotLosses(o.plot, rows, 50); err != nil {
			return err
		}
		log.Printf("wrote %s", o.plot)
	}
	return nil
}
