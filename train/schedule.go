package train

import (
	"fmt"
	"strconv"
)

// The learning-rate schedule of an NNUE run (NNUEConfig.Schedule), on Config's LRAt: every
// schedule counts steps from the start model's step, and a warm-up (NNUEConfig.Warmup) scales
// the first steps' rate linearly up from LR/Warmup.
//
//	cosine   (default) LR down to MinLR (default LR/20) along a half cosine over the run's steps
//	step     LR times LRDrop (default 0.3) every LRDropEvery steps (default a third of the run)
//	constant LR throughout
//
// The default is the schedule every NNUE run had before the choice existed, step for step.

// nnueDefaultDrop is the step schedule's default factor.
const nnueDefaultDrop = 0.3

// trainerConfig is the trainer configuration of an NNUE run from step start (the start model's)
// for cfg.Steps steps: Adam, the schedule, weight decay and the sampling seed.
func (cfg *NNUEConfig) trainerConfig(start int64) (Config, error) {
	span := max(cfg.Steps, 1)
	tc := Config{Batch: cfg.Batch, LR: cfg.LR, WeightDecay: cfg.WeightDecay, WarmupSteps: cfg.Warmup,
		ScheduleStart: start, TotalSteps: span, Seed: cfg.Seed}
	if cfg.WeightDecay == 0 {
		tc.WeightDecay = -1
	}
	if cfg.Warmup < 0 || cfg.MinLR < 0 || cfg.LRDrop < 0 || cfg.LRDropEvery < 0 {
		return tc, fmt.Errorf("train: nnue: negative warm-up, minimum learning rate or drop")
	}
	switch cfg.Schedule {
	case "", Cosine:
		tc.Schedule, tc.MinLR = Cosine, cfg.MinLR
		if tc.MinLR == 0 {
			tc.MinLR = cfg.LR / 20
		}
		if tc.MinLR > cfg.LR {
			return tc, fmt.Errorf("train: nnue: minimum learning rate %g above the learning rate %g", tc.MinLR, cfg.LR)
		}
	case StepLR:
		tc.Schedule, tc.StepGamma, tc.StepEvery = StepLR, cfg.LRDrop, cfg.LRDropEvery
		if tc.StepGamma == 0 {
			tc.StepGamma = nnueDefaultDrop
		}
		if tc.StepEvery == 0 {
			tc.StepEvery = max(span/3, 1)
		}
	case Constant:
		tc.Schedule = Constant
	default:
		return tc, fmt.Errorf("train: nnue: unknown learning-rate schedule %q (want %s, %s or %s)", cfg.Schedule, Cosine, StepLR, Constant)
	}
	return tc, tc.Validate()
}

// describeSchedule spells tc's schedule for the log and the model's metadata.
func describeSchedule(tc *Config) string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
	s := ""
	switch tc.Schedule {
	case Cosine:
		s = fmt.Sprintf("cosine %s to %s over %d steps", g(tc.LR), g(tc.MinLR), tc.TotalSteps)
	case StepLR:
		s = fmt.Sprintf("step %s, x%s every %d steps", g(tc.LR), g(tc.StepGamma), tc.StepEvery)
	default:
		s = "constant " + g(tc.LR)
	}
	if tc.WarmupSteps > 0 {
		s += fmt.Sprintf(", warm-up %d steps", tc.WarmupSteps)
	}
	return s
}
