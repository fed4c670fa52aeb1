package mcts

// SetNoise changes the root Dirichlet noise of the following searches (fraction 0 turns it
// off). Self-play uses it to add noise only to the searches whose policy it records.
func (s *Searcher[P, M]) SetNoise(alpha, fraction float32) {
	s.cfg.NoiseAlpha = alpha
	s.cfg.NoiseFraction = fraction
}
