package train

import (
	"errors"
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"colony/nn"
)

// Evaluator is the trainer-side inference pass: a separate gorgonia graph for a fixed maximum
// batch, run in eval mode (BatchNorm uses the running statistics). It exists to check the
// pure-Go nn forward pass against the trainer and to measure held-out losses without touching
// the training machine's gradients.
type Evaluator struct {
	arch   nn.Arch
	net    *netGraph
	vm     G.VM
	in     []float32
	inT    *tensor.Dense
	closed bool
}

// NewEvaluator builds an evaluator for model with room for batch positions.
func NewEvaluator(model *nn.Model, batch int) (*Evaluator, error) {
	if model == nil {
		return nil, errors.New("train: nil model")
	}
	net, err := buildGraph(model.Arch, &model.Weights, batch, false, 0)
	if err != nil {
		return nil, err
	}
	e := &Evaluator{arch: model.Arch, net: net}
	e.vm = G.NewTapeMachine(net.g, G.EvalMode())
	if err := net.setStats(&model.Weights); err != nil {
		e.vm.Close()
		return nil, err
	}
	e.in = make([]float32, batch*inputSize(model.Arch))
	e.inT = tensor.New(tensor.WithShape(batch, model.Arch.Planes, model.Arch.Height, model.Arch.Width), tensor.WithBacking(e.in))
	return e, nil
}

// Evaluator returns an evaluator holding the trainer's current weights and statistics. The
// caller owns it and must Close it.
func (t *Trainer) Evaluator(batch int) (*Evaluator, error) {
	if t.closed {
		return nil, errors.New("train: trainer is closed")
	}
	return NewEvaluator(t.Model(), batch)
}

// Batch returns the evaluator's maximum batch size.
func (e *Evaluator) Batch() int { return e.net.batch }

// Forward evaluates n positions (n <= Batch()): input holds n*InputSize values; policy receives
// n*PolicySize logits and value n*NumPlayers tanh values.
func (e *Evaluator) Forward(input []float32, n int, policy, value []float32) error {
	a := e.arch
	switch {
	case e.closed:
		return errors.New("train: evaluator is closed")
	case n < 0 || n > e.net.batch:
		return fmt.Errorf("train: evaluator batch %d, room for %d", n, e.net.batch)
	case len(input) < n*inputSize(a) || len(policy) < n*a.PolicySize || len(value) < n*a.NumPlayers:
		return fmt.Errorf("train: evaluator buffers too short for %d positions", n)
	}
	copy(e.in, input[:n*inputSize(a)])
	clear(e.in[n*inputSize(a):])
	defer e.vm.Reset()
	if err := G.Let(e.net.x, e.inT); err != nil {
		return fmt.Errorf("train: feeding inputs: %w", err)
	}
	if err := e.vm.RunAll(); err != nil {
		return fmt.Errorf("train: running the eval graph: %w", err)
	}
	copy(policy[:n*a.PolicySize], e.net.logits.Value().Data().([]float32))
	copy(value[:n*a.NumPlayers], e.net.value.Value().Data().([]float32))
	return nil
}

// Close releases the tape machine.
func (e *Evaluator) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	return e.vm.Close()
}
