package mcts

import (
	"fmt"
	"time"
)

// Config tunes a Searcher. Start from DefaultConfig and change what you need; New checks the
// values and fills the ones that are zero but must not be (BatchSize, MaxNodes, ClockCheck,
// ReuseDepth < 0 is an error).
type Config struct {
	// CPuct scales the exploration term c·P·sqrt(N)/(1+n). Default 1.5.
	CPuct float32
	// FPUReduction sets the value assumed for a child not yet visited (first-play urgency):
	// the parent's mean child value, for the player to move there, minus
	// FPUReduction·sqrt(sum of the priors of the visited children). Default 0.25.
	FPUReduction float32
	// FPUReductionRoot is FPUReduction at the root. Default 0.25.
	FPUReductionRoot float32
	// VirtualLoss is how many losses (value -1 for the mover) each in-flight visit counts for
	// while a batch is being collected. Default 1.
	VirtualLoss float32
	// BatchSize is the most leaves handed to the evaluator at once. Default 1.
	BatchSize int
	// MaxCollisions ends the collection of a batch once this many descents have ended on a
	// leaf that is already waiting in the batch. Zero means BatchSize.
	MaxCollisions int
	// NoiseAlpha and NoiseFraction mix Dirichlet(NoiseAlpha) noise into the root priors:
	// P' = (1-NoiseFraction)·P + NoiseFraction·noise, drawn afresh at each Search. Noise is off
	// when NoiseFraction is 0 (the default); self-play typically uses 0.3 and 0.25.
	NoiseAlpha    float32
	NoiseFraction float32
	// Temperature picks Result.Move: 0 (the default) takes the most visited root move;
	// otherwise a move is drawn with probability proportional to visits^(1/Temperature).
	Temperature float32
	// Seed seeds the searcher's generator (noise and temperature). Equal seeds, configs,
	// evaluators and playout limits give equal searches.
	Seed uint64
	// MaxNodes caps the node arena (nodes of about 32 bytes; the arena grows by doubling up
	// to this). A search stops early when the next expansion would not fit. Default 1<<22.
	MaxNodes int
	// ClockCheck is the most playouts run between two looks at the clock; the interval adapts
	// so that the clock is read about every 0.25-1 ms. Default 64.
	ClockCheck int
	// ReuseDepth is how many plies below the previous root Search looks for its new root
	// (matched by Hash) to keep that subtree; 0 keeps the tree only when the root is the
	// same position. Default 2 (our move and the opponent's reply).
	ReuseDepth int
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		CPuct:            1.5,
		FPUReduction:     0.25,
		FPUReductionRoot: 0.25,
		VirtualLoss:      1,
		BatchSize:        1,
		NoiseAlpha:       0.3,
		NoiseFraction:    0,
		Temperature:      0,
		MaxNodes:         1 << 22,
		ClockCheck:       64,
		ReuseDepth:       2,
	}
}

func (c *Config) normalise() error {
	d := DefaultConfig()
	if c.BatchSize <= 0 {
		c.BatchSize = d.BatchSize
	}
	if c.MaxCollisions <= 0 {
		c.MaxCollisions = c.BatchSize
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = d.MaxNodes
	}
	if c.ClockCheck <= 0 {
		c.ClockCheck = d.ClockCheck
	}
	switch {
	case c.CPuct < 0:
		return fmt.Errorf("mcts: config: CPuct %v < 0", c.CPuct)
	case c.VirtualLoss < 0:
		return fmt.Errorf("mcts: config: VirtualLoss %v < 0", c.VirtualLoss)
	case c.NoiseFraction < 0 || c.NoiseFraction > 1:
		return fmt.Errorf("mcts: config: NoiseFraction %v outside [0, 1]", c.NoiseFraction)
	case c.NoiseFraction > 0 && c.NoiseAlpha <= 0:
		return fmt.Errorf("mcts: config: NoiseAlpha %v must be > 0 when noise is on", c.NoiseAlpha)
	case c.Temperature < 0:
		return fmt.Errorf("mcts: config: Temperature %v < 0", c.Temperature)
	case c.ReuseDepth < 0:
		return fmt.Errorf("mcts: config: ReuseDepth %d < 0", c.ReuseDepth)
	case c.MaxNodes > 1<<31-1:
		return fmt.Errorf("mcts: config: MaxNodes %d does not fit int32 indices", c.MaxNodes)
	}
	return nil
}

// Limit bounds one Search. Zero fields are unset; with both unset a search does one playout.
// A time-limited search overshoots by at most about a millisecond plus one evaluator batch.
// A search always runs until the root is expanded, whatever the limit, so that it has a move.
type Limit struct {
	Playouts int           // playouts in this search (not counting visits kept from the last)
	Time     time.Duration // wall time, checked every Config.ClockCheck playouts
}
