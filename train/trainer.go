// Package train fits Colony's residual policy/value network (nn.Arch) with gorgonia on the CPU.
//
// It is the only package of Colony that imports gorgonia. The training graph is built once for
// a fixed batch size; each step feeds a batch with G.Let, runs the tape machine forward and
// backward, applies Colony's own optimizer (Adam or SGD with momentum, with a learning-rate
// schedule) to the weight slices in place, zeroes the gradients and resets the machine.
// Inference graphs (Evaluator) are separate graphs in eval mode with their own batch size.
//
// Loss = policy cross-entropy against a dense target distribution (mean over the batch)
// + ValueWeight * value MSE (mean over batch and players) + WeightDecay * sum of squared conv
// and dense weight matrices. The L2 term and its gradient are computed outside the graph.
package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"colony/nn"
)

// Batcher supplies training batches. NextBatch fills inputs (batch*InputSize values, the
// nn.Arch input encoding), policy (batch*PolicySize: a target distribution per sample, rows
// summing to 1, or all zero to train only the value) and values (batch*NumPlayers targets in
// [-1, 1], one per player).
type Batcher interface {
	NextBatch(inputs, policy, values []float32) error
}

// StepStats describes one training step.
type StepStats struct {
	Step          int64   // updates done after this step (1 for the first)
	Total         float64 // policy + ValueWeight*value + l2
	Policy        float64
	Value         float64
	L2            float64
	LR            float64
	GradNorm      float64 // global gradient norm before clipping (L2 term included)
	SamplesPerSec float64 // batch / wall time of the whole step (batcher included)
}

// Trainer owns a training graph, its tape machine and the optimizer state. It is not safe for
// concurrent use; Close releases the machine.
type Trainer struct {
	cfg   Config
	arch  nn.Arch
	meta  map[string]string
	notes map[string]string
	net   *netGraph
	vm    G.VM
	opt   *optimizer
	step  int64
	pcg   *rand.PCG
	rng   *rand.Rand

	in, pol, val    []float32
	inT, polT, valT *tensor.Dense
	ws, gs          [][]float32
	closed          bool
}

// NewTrainer builds a trainer starting from model's weights and BatchNorm statistics. The
// model's Step is taken as the trainer's step (the schedule counts from cfg.ScheduleStart), and
// its Meta is carried over to exported models.
func NewTrainer(model *nn.Model, cfg Config) (*Trainer, error) {
	if model == nil {
		return nil, errors.New("train: nil model")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	t := &Trainer{cfg: cfg, arch: model.Arch, step: model.Step}
	t.meta = make(map[string]string, len(model.Meta))
	for k, v := range model.Meta {
		t.meta[k] = v
	}
	t.notes = make(map[string]string)
	t.pcg = rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)
	t.rng = rand.New(t.pcg)

	net, err := buildGraph(model.Arch, &model.Weights, cfg.Batch, true, cfg.ValueWeight)
	if err != nil {
		return nil, err
	}
	t.net = net
	t.vm = G.NewTapeMachine(net.g, G.BindDualValues(net.learnables...))
	// Creating a training machine resets the BatchNorm statistics: load them afterwards.
	if err := net.setStats(&model.Weights); err != nil {
		t.vm.Close()
		return nil, err
	}

	a, B := model.Arch, cfg.Batch
	t.in = make([]float32, B*inputSize(a))
	t.pol = make([]float32, B*a.PolicySize)
	t.val = make([]float32, B*a.NumPlayers)
	t.inT = tensor.New(tensor.WithShape(B, a.Planes, a.Height, a.Width), tensor.WithBacking(t.in))
	t.polT = tensor.New(tensor.WithShape(B, a.PolicySize), tensor.WithBacking(t.pol))
	t.valT = tensor.New(tensor.WithShape(B, a.NumPlayers), tensor.WithBacking(t.val))
	t.ws = make([][]float32, len(net.learnables))
	t.gs = make([][]float32, len(net.learnables))
	sizes := make([]int, len(net.learnables))
	for i, n := range net.learnables {
		sizes[i] = n.Shape().TotalSize()
	}
	t.opt = newOptimizer(cfg.Optimizer, sizes)
	return t, nil
}

// Close releases the tape machine. The trainer cannot be used afterwards.
func (t *Trainer) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	return t.vm.Close()
}

// Config returns the trainer's configuration (defaults filled in).
func (t *Trainer) Config() Config { return t.cfg }

// Arch returns the network architecture.
func (t *Trainer) Arch() nn.Arch { return t.arch }

// StepCount returns the number of updates applied so far.
func (t *Trainer) StepCount() int64 { return t.step }

// Rand returns the trainer's random source. Batchers that sample through it are reproduced
// exactly when training resumes from a checkpoint (its state is saved there). It is not safe
// for concurrent use.
func (t *Trainer) Rand() *rand.Rand { return t.rng }

// Notes is free-form run state saved in checkpoints (and restored by Resume) but not copied
// into exported models: e.g. the step a command-line run should stop at. The map is live.
func (t *Trainer) Notes() map[string]string { return t.notes }

// SetLR changes the base learning rate (the schedule is applied on top of it).
func (t *Trainer) SetLR(lr float64) error {
	if !(lr > 0) || math.IsInf(lr, 0) {
		return fmt.Errorf("train: learning rate %v", lr)
	}
	t.cfg.LR = lr
	return nil
}

// bindSlices refreshes t.ws / t.gs from the graph's dual values.
func (t *Trainer) bindSlices() error {
	for i, n := range t.net.learnables {
		t.ws[i] = n.Value().Data().([]float32)
		g, err := n.Grad()
		if err != nil {
			return fmt.Errorf("train: gradient of %s: %w", n.Name(), err)
		}
		t.gs[i] = g.Data().([]float32)
	}
	return nil
}

// forwardBackward runs the training graph on the current batch buffers: afterwards t.gs holds
// the gradients of the loss (without the L2 term). It returns the policy and value losses. The
// BatchNorm running statistics are updated as a side effect.
func (t *Trainer) forwardBackward() (policy, value float64, err error) {
	if t.closed {
		return 0, 0, errors.New("train: trainer is closed")
	}
	defer t.vm.Reset()
	if err := G.Let(t.net.x, t.inT); err != nil {
		return 0, 0, fmt.Errorf("train: feeding inputs: %w", err)
	}
	if err := G.Let(t.net.policyTarget, t.polT); err != nil {
		return 0, 0, fmt.Errorf("train: feeding policy targets: %w", err)
	}
	if err := G.Let(t.net.valueTarget, t.valT); err != nil {
		return 0, 0, fmt.Errorf("train: feeding value targets: %w", err)
	}
	// Gradients accumulate across runs: zero those of the previous run (the machine allocates
	// them on its first run and reuses them afterwards).
	for _, g := range t.gs {
		clear(g)
	}
	if err := t.vm.RunAll(); err != nil {
		return 0, 0, fmt.Errorf("train: running the graph: %w", err)
	}
	if err := t.bindSlices(); err != nil {
		return 0, 0, err
	}
	policy = float64(t.net.policyLoss.Value().Data().(float32))
	value = float64(t.net.valueLoss.Value().Data().(float32))
	return policy, value, nil
}

// Step draws one batch from b and applies one update.
func (t *Trainer) Step(b Batcher) (StepStats, error) {
	start := time.Now()
	if t.closed {
		return StepStats{}, errors.New("train: trainer is closed")
	}
	if err := b.NextBatch(t.in, t.pol, t.val); err != nil {
		return StepStats{}, fmt.Errorf("train: step %d: batch: %w", t.step+1, err)
	}
	return t.update(start)
}

// update trains on the batch already in the buffers.
func (t *Trainer) update(start time.Time) (StepStats, error) {
	policy, value, err := t.forwardBackward()
	if err != nil {
		return StepStats{}, fmt.Errorf("train: step %d: %w", t.step+1, err)
	}
	if math.IsNaN(policy) || math.IsInf(policy, 0) || math.IsNaN(value) || math.IsInf(value, 0) {
		return StepStats{}, fmt.Errorf("train: step %d: loss is not finite (policy %v, value %v); weights left unchanged",
			t.step+1, policy, value)
	}
	l2 := addL2(t.cfg.l2(), t.ws, t.gs, t.net.decay)
	norm := clipGrads(t.cfg.ClipNorm, t.gs)
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return StepStats{}, fmt.Errorf("train: step %d: gradient norm is not finite; weights left unchanged", t.step+1)
	}
	lr := t.cfg.LRAt(t.step)
	t.opt.step(&t.cfg, lr, t.ws, t.gs)
	t.step++
	s := StepStats{
		Step: t.step, Policy: policy, Value: value, L2: l2, LR: lr, GradNorm: norm,
		Total: policy + t.cfg.ValueWeight*value + l2,
	}
	if d := time.Since(start).Seconds(); d > 0 {
		s.SamplesPerSec = float64(t.cfg.Batch) / d
	}
	return s, nil
}

// Model exports the current weights and BatchNorm running statistics as a new nn.Model (it
// shares no memory with the trainer).
func (t *Trainer) Model() *nn.Model {
	m := &nn.Model{Arch: t.arch, Weights: allocWeights(t.arch), Step: t.step, Meta: make(map[string]string, len(t.meta))}
	for k, v := range t.meta {
		m.Meta[k] = v
	}
	t.net.exportTo(&m.Weights)
	return m
}
