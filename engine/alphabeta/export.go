package alphabeta

import "time"

// WithDefaults returns c with its zero fields given their defaults, the configuration a
// search built from c runs with (for ports of a search to another language).
func WithDefaults[M Move](c Config[M]) Config[M] { return c.withDefaults() }

// SoftScale is the soft time the last Search compared with its elapsed time after its last
// finished iteration (searcher.softScale of that iteration, given the budget's soft time): for
// the parity tests of ports. soft itself when no iteration finished. Only meaningful after a
// search that was not aborted (a depth or soft limit ended it).
func (e *Engine[P, M, G]) SoftScale(soft time.Duration) time.Duration {
	if e.s == nil || e.lastDepth == 0 {
		return soft
	}
	return e.s.softScale(e.lastDepth, soft)
}
