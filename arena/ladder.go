package arena

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Ladder plays cfg once for each of B's clocks (time odds: A keeps cfg.Clock, the reference
// B gets each clock in turn), on the same openings and seeds, and returns each rung's
// summary. Each rung's records go to OutDir/b-<clock>. progress gets the rung's index. An
// ended ctx stops the ladder as it stops Run.
func Ladder(ctx context.Context, cfg Config, clocksB []time.Duration, progress func(rung, done int, r *Record, s *Summary)) ([]*Summary, error) {
	var out []*Summary
	for i, cb := range clocksB {
		c := cfg
		c.ClockB = cb
		if cfg.OutDir != "" {
			c.OutDir = filepath.Join(cfg.OutDir, "b-"+cb.String())
		}
		var p func(int, *Record, *Summary)
		if progress != nil {
			p = func(done int, r *Record, s *Summary) { progress(i, done, r, s) }
		}
		s, err := Run(ctx, c, p)
		if s != nil {
			out = append(out, s)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// ParseClocks reads a comma-separated list of durations ("10s,20s,40s,80s").
func ParseClocks(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("clock list %q: %q is not a positive duration", s, f)
		}
		out = append(out, d)
	}
	return out, nil
}
