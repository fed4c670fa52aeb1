package nn

import (
	"fmt"
	"math"

	"colony/mcts"
)

// Encoder is what the Evaluator needs from a position: its network input (Planes*Height*Width
// values, written into dst).
type Encoder interface{ Encode(dst []float32) }

// PolicyMove is what the Evaluator needs from a move: its index in the policy logits.
type PolicyMove interface {
	comparable
	PolicyIndex() int
}

// Evaluator adapts a Net to mcts.Evaluator: it encodes the requests' positions, runs them
// through the net in batches of at most Net.MaxBatch, softmaxes the logits over each request's
// legal moves into Priors and copies the value per player into Value. It allocates nothing
// per call. Like the Net it owns, an Evaluator is not safe for concurrent use.
type Evaluator[P Encoder, M PolicyMove] struct {
	net      *Net
	in       []float32
	pol, val []float32
	logits   []float64
}

// NewEvaluator returns an Evaluator running net. The net must not be used elsewhere while the
// Evaluator is in use.
func NewEvaluator[P Encoder, M PolicyMove](net *Net) *Evaluator[P, M] {
	a := net.Arch()
	b := net.MaxBatch()
	return &Evaluator[P, M]{
		net:    net,
		in:     make([]float32, b*net.InputSize()),
		pol:    make([]float32, b*a.PolicySize),
		val:    make([]float32, b*a.NumPlayers),
		logits: make([]float64, a.PolicySize),
	}
}

// Evaluate implements mcts.Evaluator. Each request's Priors must have capacity for its moves
// (it is resliced to len(Moves)); a move whose PolicyIndex is outside the policy is an error.
func (e *Evaluator[P, M]) Evaluate(batch []mcts.Request[P, M]) error {
	a := &e.net.arch
	size := e.net.InputSize()
	for start := 0; start < len(batch); start += e.net.maxBatch {
		chunk := batch[start:min(start+e.net.maxBatch, len(batch))]
		for i := range chunk {
			in := e.in[i*size : (i+1)*size]
			chunk[i].Pos.Encode(in)
		}
		if err := e.net.Forward(e.in[:len(chunk)*size], len(chunk), e.pol, e.val); err != nil {
			return err
		}
		for i := range chunk {
			r := &chunk[i]
			if cap(r.Priors) < len(r.Moves) {
				return fmt.Errorf("nn: Evaluate: request %d has room for %d priors, it has %d moves", start+i, cap(r.Priors), len(r.Moves))
			}
			r.Priors = r.Priors[:len(r.Moves)]
			pol := e.pol[i*a.PolicySize : (i+1)*a.PolicySize]
			lg := e.logits[:len(r.Moves)]
			best := math.Inf(-1)
			for j, m := range r.Moves {
				idx := m.PolicyIndex()
				if idx < 0 || idx >= a.PolicySize {
					return fmt.Errorf("nn: Evaluate: request %d move %d has policy index %d outside [0, %d)", start+i, j, idx, a.PolicySize)
				}
				lg[j] = float64(pol[idx])
				best = max(best, lg[j])
			}
			sum := 0.0
			for j := range lg {
				lg[j] = math.Exp(lg[j] - best)
				sum += lg[j]
			}
			for j := range lg {
				r.Priors[j] = float32(lg[j] / sum)
			}
			r.Value = mcts.Values{}
			copy(r.Value[:a.NumPlayers], e.val[i*a.NumPlayers:(i+1)*a.NumPlayers])
		}
	}
	return nil
}
