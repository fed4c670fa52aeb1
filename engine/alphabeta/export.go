package alphabeta

// WithDefaults returns c with its zero fields given their defaults, the configuration a
// search built from c runs with (for ports of a search to another language).
func WithDefaults[M Move](c Config[M]) Config[M] { return c.withDefaults() }
