package train

import (
	"cmp"
	"fmt"
	"math"
)

// Optimizer names for Config.Optimizer.
const (
	Adam = "adam"
	SGD  = "sgd" // SGD with (heavy-ball) momentum
)

// Learning-rate schedules for Config.Schedule.
const (
	Constant = "constant" // LR throughout
	StepLR   = "step"     // LR * StepGamma^(floor(step/StepEvery))
	Cosine   = "cosine"   // LR -> MinLR along a half cosine over TotalSteps
)

// Config holds the training hyper-parameters. The zero value of each field means its default
// (given with each field); Validate fills them in.
type Config struct {
	Batch int // samples per step; fixed in the training graph (default 256)

	Optimizer   string  // Adam (default) or SGD
	LR          float64 // base learning rate (default 2e-3 for Adam, 2e-2 for SGD)
	Momentum    float64 // SGD momentum (default 0.9)
	Beta1       float64 // Adam (default 0.9)
	Beta2       float64 // Adam (default 0.999)
	Eps         float64 // Adam (default 1e-8)
	WeightDecay float64 // L2 term WeightDecay * sum(w^2) over conv and dense weight matrices (default 1e-4; <0 means none)
	ClipNorm    float64 // clip the global gradient norm to this value (0: no clipping)
	ValueWeight float64 // weight of the value loss (default 1)

	Schedule    string  // Constant (default), StepLR or Cosine
	WarmupSteps int64   // linear warm-up from 0 over this many steps (0: none)
	TotalSteps  int64   // length of the cosine schedule
	StepEvery   int64   // StepLR period
	StepGamma   float64 // StepLR factor (default 0.1)
	MinLR       float64 // cosine floor
	// ScheduleStart is the trainer step at which the warm-up and the schedule begin (e.g. the
	// step of the model a run continues from); LRAt counts steps from there.
	ScheduleStart int64

	Seed uint64 // seed of the trainer's random source (see Trainer.Rand)
}

func (c *Config) fill() {
	c.Batch = cmp.Or(c.Batch, 256)
	c.Optimizer = cmp.Or(c.Optimizer, Adam)
	if c.LR == 0 {
		c.LR = 2e-3
		if c.Optimizer == SGD {
			c.LR = 2e-2
		}
	}
	c.Momentum = cmp.Or(c.Momentum, 0.9)
	c.Beta1 = cmp.Or(c.Beta1, 0.9)
	c.Beta2 = cmp.Or(c.Beta2, 0.999)
	c.Eps = cmp.Or(c.Eps, 1e-8)
	if c.WeightDecay == 0 {
		c.WeightDecay = 1e-4
	} else if c.WeightDecay < 0 {
		c.WeightDecay = -1 // explicit "none", kept negative so fill stays idempotent
	}
	c.ValueWeight = cmp.Or(c.ValueWeight, 1)
	c.Schedule = cmp.Or(c.Schedule, Constant)
	c.StepGamma = cmp.Or(c.StepGamma, 0.1)
}

// l2 is the effective L2 coefficient.
func (c *Config) l2() float64 { return max(c.WeightDecay, 0) }

// Validate fills in defaults and checks the values.
func (c *Config) Validate() error {
	c.fill()
	switch {
	case c.Batch < 2:
		return fmt.Errorf("train: batch %d: BatchNorm training needs at least 2", c.Batch)
	case c.Optimizer != Adam && c.Optimizer != SGD:
		return fmt.Errorf("train: unknown optimizer %q (want %q or %q)", c.Optimizer, Adam, SGD)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("train: learning rate %v", c.LR)
	case c.Momentum < 0 || c.Momentum >= 1 || c.Beta1 < 0 || c.Beta1 >= 1 || c.Beta2 < 0 || c.Beta2 >= 1:
		return fmt.Errorf("train: momentum/betas out of [0,1): %v %v %v", c.Momentum, c.Beta1, c.Beta2)
	case c.Eps <= 0 || c.ClipNorm < 0 || c.ValueWeight < 0 || c.MinLR < 0 || c.WarmupSteps < 0:
		return fmt.Errorf("train: negative eps/clip/value weight/min lr/warmup")
	}
	switch c.Schedule {
	case Constant:
	case StepLR:
		if c.StepEvery <= 0 || c.StepGamma <= 0 {
			return fmt.Errorf("train: step schedule needs StepEvery > 0 and StepGamma > 0")
		}
	case Cosine:
		if c.TotalSteps <= 0 {
			return fmt.Errorf("train: cosine schedule needs TotalSteps > 0")
		}
	default:
		return fmt.Errorf("train: unknown schedule %q", c.Schedule)
	}
	return nil
}

// LRAt returns the learning rate used for update number step (0-based).
func (c *Config) LRAt(step int64) float64 {
	step = max(step-c.ScheduleStart, 0)
	lr := c.LR
	switch c.Schedule {
	case StepLR:
		lr *= math.Pow(c.StepGamma, float64(step/c.StepEvery))
	case Cosine:
		t := min(float64(step)/float64(c.TotalSteps), 1)
		lr = c.MinLR + (c.LR-c.MinLR)*0.5*(1+math.Cos(math.Pi*t))
	}
	if c.WarmupSteps > 0 && step < c.WarmupSteps {
		lr *= float64(step+1) / float64(c.WarmupSteps)
	}
	return lr
}
