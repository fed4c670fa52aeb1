package mcts

// Uniform is the evaluator that knows nothing: equal priors and a zero value for every
// player. It serves tests and measures the search's own cost.
type Uniform[P any, M comparable] struct{}

// Evaluate fills equal priors and zero values.
func (Uniform[P, M]) Evaluate(batch []Request[P, M]) error {
	for i := range batch {
		r := &batch[i]
		p := 1 / float32(len(r.Moves))
		for j := range r.Priors {
			r.Priors[j] = p
		}
		r.Value = Values{}
	}
	return nil
}

// DefaultRolloutPlies is the rollout cap NewRollout uses for maxPlies <= 0.
const DefaultRolloutPlies = 400

// Rollout evaluates a leaf by playing uniformly random moves to the end of the game: equal
// priors, and the terminal position's values. A rollout that reaches MaxPlies stops there and
// takes Cutoff's values (zeros, a draw, when Cutoff is nil). It is deterministic for its seed
// and the sequence of requests, and does not allocate once its move buffer has grown.
type Rollout[P Position[P, M], M comparable] struct {
	MaxPlies int
	Cutoff   func(P) Values
	rng      Rand
	moves    []M
}

// NewRollout returns a Rollout evaluator seeded with seed; maxPlies <= 0 means
// DefaultRolloutPlies.
func NewRollout[P Position[P, M], M comparable](seed uint64, maxPlies int, cutoff func(P) Values) *Rollout[P, M] {
	if maxPlies <= 0 {
		maxPlies = DefaultRolloutPlies
	}
	return &Rollout[P, M]{MaxPlies: maxPlies, Cutoff: cutoff, rng: NewRand(seed)}
}

// Evaluate plays one random game from each request's position.
func (r *Rollout[P, M]) Evaluate(batch []Request[P, M]) error {
	for i := range batch {
		req := &batch[i]
		p := 1 / float32(len(req.Moves))
		for j := range req.Priors {
			req.Priors[j] = p
		}
		req.Value = r.Play(req.Pos)
	}
	return nil
}

// Play plays random moves from pos until the game ends or MaxPlies moves were played and
// returns the values reached.
func (r *Rollout[P, M]) Play(pos P) Values {
	for range r.MaxPlies {
		r.moves = pos.LegalMoves(r.moves[:0])
		if len(r.moves) == 0 {
			return pos.Values()
		}
		pos = pos.Apply(r.moves[r.rng.IntN(len(r.moves))])
	}
	if pos.Terminal() {
		return pos.Values()
	}
	if r.Cutoff != nil {
		return r.Cutoff(pos)
	}
	return Values{}
}
