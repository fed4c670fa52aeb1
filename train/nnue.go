package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"time"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"colony/contract"
	"colony/data"
	"colony/nn/nnue"
)

// NNUEConfig describes the training of a sparse-accumulator net (colony/nn/nnue) on shards:
// value regression only (the net has no policy), against each example's value target of the
// side to move. Zero fields get the defaults noted.
type NNUEConfig struct {
	Game       contract.Info
	Symmetries contract.Symmetries // augmentation (nil: none)

	Arch  nnue.Arch // the net of a fresh run (ignored when Model is set)
	Model string    // start model file ("": a fresh net of Arch from Seed)

	Shards  string // shard directory (required)
	Window  int    // newest examples sampled from (default DefaultWindow)
	Refresh int64  // rescan the shards every this many steps (0: never)

	Steps int64 // updates past the start model's step
	Batch int   // default 1024
	// Threads splits every batch between that many replicas of the graph, run side by side
	// (data parallel; the batch must divide; 0 or 1: one). The result differs from one
	// thread's only in the order of float sums.
	Threads     int
	LR          float64 // Adam's learning rate before the schedule (default 2e-3)
	WeightDecay float64 // L2 on the weight matrices (default 0)
	Seed        uint64

	// The learning-rate schedule (schedule.go): Schedule Cosine ("", the default: LR down to
	// MinLR, default LR/20, over Steps), StepLR (times LRDrop, default 0.3, every LRDropEvery
	// steps, default Steps/3) or Constant; Warmup steps of linear warm-up first.
	Schedule    string
	Warmup      int64
	MinLR       float64
	LRDrop      float64
	LRDropEvery int64

	// The validation split (validate.go): ValFrac of the shards (whole shards, by a hash of
	// their names; 0: none) are held out of training, and up to ValMax of their newest
	// examples (default DefaultValMax) are evaluated every ValEvery steps (0: an epoch, the
	// training window over the batch), at the start and at the end. EpochCSV gets a row per
	// validation; Plot (SVG or PNG) the loss and learning-rate curves at the end; BestVal makes
	// the output the model of the lowest validation loss (the last one is kept as OUT.last).
	ValFrac  float64
	ValMax   int
	ValEvery int64
	EpochCSV string
	Plot     string
	BestVal  bool

	// ScoreScale is stored in the model's metadata ("score_scale"): the shards' value targets
	// mix tanh(score/ScoreScale), so the logit times ScoreScale is a search score (default
	// nnue.DefaultScoreScale).
	ScoreScale int
	// ScoreWeight blends the search score into the target of examples that carry one (shards
	// with Scores): target = (1-w)·outcome + w·score. Examples of older shards, whose values
	// already mix the score in, are used as they are.
	ScoreWeight float64
	// ScoreLambda, when above 0 (below 1), makes the score of each training example the
	// λ-return of its game's later search scores and outcome (data.WindowOptions.ScoreLambda):
	// the score target reads further along the game. The validation split keeps the shards'
	// own scores, so runs with and without it compare.
	ScoreLambda float64

	// Teacher, when set, is a net (a file) whose value blends into every training target at
	// TeacherWeight (0..1): target = (1-t)·target + t·tanh(teacher logit) on the sampled,
	// augmented position (distillation: a fresh net of another shape starts from what the
	// teacher knows instead of from the shards alone). The validation split keeps the
	// shards' own targets, so runs with and without a teacher compare.
	Teacher       string
	TeacherWeight float64

	Out      string // the trained model (required); also written every Every steps
	Every    int64  // default 1000
	CSV      string // per-step loss CSV ("": none)
	LogEvery int64
	// Manifest, when set, is where the shards of the training window are listed (a
	// data.Manifest: each shard's file hash and the examples used) before training starts.
	Manifest string
	// AfterSave, when set, is called after each write of Out with its step (a trainer keeps
	// the file in a store).
	AfterSave func(step int64)

	// Checkpoints writes a resume checkpoint (nnueckpt.go) beside every model the run saves as
	// its current state: OUT.ckpt with each write of Out, OUT.last.ckpt with the last model of a
	// BestVal run (whose Out is then the best model, and has none).
	Checkpoints bool
	// Resume continues the run that wrote Model: it reads MODEL.ckpt (refused unless it names
	// Model by game, arch, step and weights hash) and takes from it the schedule (rate, warm-up,
	// its start and length: the learning-rate flags are not read), Adam's state and the sampling
	// source. Steps 0 runs to the end of the stopped run's schedule; more goes on past it.
	Resume bool
}

// nnueGraph is the gorgonia graph of an nnue net for a fixed batch: both perspectives' dense
// feature rows in (or, with sparse inputs, their active features; the side to move's only for
// an STMOnly net), the value (tanh of the logit) out, and the MSE against the targets.
type nnueGraph struct {
	g          *G.ExprGraph
	us, them   *G.Node // (B, Features); nil with sparse inputs (them: for an STMOnly net too)
	target     *G.Node // (B, 1)
	bucket     *G.Node // (B, buckets): each row one-hot on its position's output bucket; nil for an unbucketed net
	logit      *G.Node // (B, 1)
	loss       *G.Node
	learnables G.Nodes
	decay      []bool
}

// creluNode is min(max(x, 0), 1) = relu(x) - relu(x-1).
func creluNode(x *G.Node) (*G.Node, error) {
	a, err := G.Rectify(x)
	if err != nil {
		return nil, err
	}
	s, err := G.Sub(x, G.NewConstant(float32(1)))
	if err != nil {
		return nil, err
	}
	b, err := G.Rectify(s)
	if err != nil {
		return nil, err
	}
	return G.Sub(a, b)
}

// sparseInputs are the active features of both perspectives, k per row of the batch (the
// first layer as gatherRows: sparse.go).
type sparseInputs struct {
	us, them []int32
	k        int
}

func buildNNUEGraph(m *nnue.Model, batch int, sp *sparseInputs) (*nnueGraph, error) {
	a := m.Arch
	n := &nnueGraph{g: G.NewGraph()}
	param := func(t nnue.Tensor, decay bool) *G.Node {
		d := append([]float32(nil), (*t.Data)...)
		v := tensor.New(tensor.WithShape(t.Rows, t.Cols), tensor.WithBacking(d))
		node := G.NewMatrix(n.g, tensor.Float32, G.WithShape(t.Rows, t.Cols), G.WithName(t.Name), G.WithValue(v))
		n.learnables = append(n.learnables, node)
		n.decay = append(n.decay, decay)
		return node
	}
	ts := m.Weights.Tensors(a)
	ft, ftb := param(ts[0], true), param(ts[1], false)
	var l1w, l1b *G.Node
	k := 2
	if a.L1 > 0 {
		l1w, l1b = param(ts[2], true), param(ts[3], false)
		k = 4
	}
	ow, ob := param(ts[k], true), param(ts[k+1], false)

	F := a.Features()
	var err error
	do := func(x *G.Node, e error) *G.Node {
		if err == nil && e != nil {
			err = e
		}
		return x
	}
	dense := func(x, w, b *G.Node) *G.Node {
		if err != nil {
			return nil
		}
		y := do(G.Mul(x, w))
		if err != nil {
			return nil
		}
		return do(G.BroadcastAdd(y, b, nil, []byte{0}))
	}
	half := func(persp string, idx []int32) *G.Node {
		var y *G.Node
		if sp == nil {
			x := G.NewMatrix(n.g, tensor.Float32, G.WithShape(batch, F), G.WithName(persp))
			if persp == "us" {
				n.us = x
			} else {
				n.them = x
			}
			y = dense(x, ft, ftb)
		} else if y = do(G.ApplyOp(newGatherRows(persp, idx, batch, sp.k), ft)); err == nil {
			y = do(G.BroadcastAdd(y, ftb, nil, []byte{0}))
		}
		if err != nil {
			return nil
		}
		c := do(creluNode(y))
		if err != nil || a.Activation != nnue.SCReLU {
			return c
		}
		return do(G.HadamardProd(c, c)) // SCReLU = CReLU^2
	}
	var usIdx, themIdx []int32
	if sp != nil {
		usIdx, themIdx = sp.us, sp.them
	}
	x := half("us", usIdx)
	if !a.STMOnly { // an STMOnly net's tail reads the side to move's accumulator only
		ht := half("them", themIdx)
		if err != nil {
			return nil, err
		}
		x = do(G.Concat(1, x, ht))
	}
	if err != nil {
		return nil, err
	}
	if a.L1 > 0 {
		x = dense(x, l1w, l1b)
		if err == nil {
			x = do(creluNode(x))
		}
	}
	n.logit = dense(x, ow, ob)
	if nb := a.OutputBuckets(); nb > 1 && err == nil {
		// Every bucket's output for every row, then each row's own: the one-hot mask keeps it
		// (and lets only its bucket's weights receive a gradient).
		n.bucket = G.NewMatrix(n.g, tensor.Float32, G.WithShape(batch, nb), G.WithName("bucket"))
		y := do(G.HadamardProd(n.logit, n.bucket))
		if err == nil {
			y = do(G.Sum(y, 1))
		}
		if err == nil {
			n.logit = do(G.Reshape(y, tensor.Shape{batch, 1}))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("train: nnue graph: %w", err)
	}
	n.target = G.NewMatrix(n.g, tensor.Float32, G.WithShape(batch, 1), G.WithName("target"))
	v := do(G.Tanh(n.logit))
	d := do(G.Sub(v, n.target))
	if err == nil {
		d = do(G.Square(d))
	}
	if err == nil {
		n.loss = do(G.Mean(d))
	}
	if err != nil {
		return nil, fmt.Errorf("train: nnue graph: %w", err)
	}
	if _, err := G.Grad(n.loss, n.learnables...); err != nil {
		return nil, fmt.Errorf("train: nnue gradients: %w", err)
	}
	return n, nil
}

// NNUETrainer fits an nnue.Model: gorgonia graphs for one batch size, Adam in place. With
// several threads the batch is split between that many replicas of the graph (data parallel):
// each runs its rows on a goroutine, their gradients are averaged into the first one's, which
// takes the update, and the others copy its weights before the next run. The loss is a mean
// over the rows, so the step equals one graph's on the whole batch up to the order of the sums.
type NNUETrainer struct {
	*nnueReplica                // the first replica: the weights the optimizer updates
	peers        []*nnueReplica // the other replicas (nil with one thread)
	m            *nnue.Model
	opt          *optimizer
	cfg          Config
	batch        int // rows of a step, all replicas together
	step         int64
	logits       []float32 // forward's logits of the whole batch (with peers)
}

// nnueReplica is one graph of the trainer, its rows of the batch and its machines.
type nnueReplica struct {
	net      *nnueGraph
	vm       G.VM
	rows     int
	us, them []float32
	target   []float32
	bucket   []float32 // (rows, buckets) one-hot rows; nil for an unbucketed net
	bucketT  *tensor.Dense
	usT      *tensor.Dense
	themT    *tensor.Dense
	targetT  *tensor.Dense
	ws, gs   [][]float32
	sparse   *sparseInputs // window input: the active features instead of us and them
	fwd      G.VM          // the forward-only machine of validation (validate.go), built on first use
	loss     float64       // of the last run
}

// NewNNUETrainer builds a trainer from m's weights (m itself is not changed until Model). A
// window-input net's first layer is sparse (gatherRows); a cell-input net's is a dense product.
func NewNNUETrainer(m *nnue.Model, cfg Config) (*NNUETrainer, error) {
	return newNNUETrainer(m, cfg, m.Arch.Input == nnue.CellInput, 1)
}

// newNNUETrainer is NewNNUETrainer with the first layer dense or sparse as asked (tests compare
// the two) and the batch split between threads replicas.
func newNNUETrainer(m *nnue.Model, cfg Config, dense bool, threads int) (*NNUETrainer, error) {
	if err := m.CheckShapes(); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	B := cfg.Batch
	if threads < 1 || B%threads != 0 || B/threads < 2 {
		return nil, fmt.Errorf("train: nnue: a batch of %d cannot be split between %d threads (it must divide into parts of 2 rows or more)", B, threads)
	}
	if !dense && (m.Arch.Input != nnue.WindowInput || m.Arch.Windows() == 0) {
		return nil, fmt.Errorf("train: a sparse first layer needs window input (every row has the same number of active features), not %s", m.Arch)
	}
	reps := make([]*nnueReplica, threads)
	for i := range reps {
		r, err := newNNUEReplica(m, B/threads, dense)
		if err != nil {
			for _, r := range reps[:i] {
				r.close()
			}
			return nil, err
		}
		reps[i] = r
	}
	sizes := make([]int, len(reps[0].net.learnables))
	for i, n := range reps[0].net.learnables {
		sizes[i] = n.Shape().TotalSize()
	}
	t := &NNUETrainer{nnueReplica: reps[0], peers: reps[1:], m: m, cfg: cfg, batch: B, step: m.Step,
		opt: newOptimizer(Adam, sizes)}
	if threads > 1 {
		t.logits = make([]float32, B)
	}
	return t, nil
}

func newNNUEReplica(m *nnue.Model, rows int, dense bool) (*nnueReplica, error) {
	var sp *sparseInputs
	if !dense {
		k := m.Arch.Windows()
		sp = &sparseInputs{us: make([]int32, rows*k), them: make([]int32, rows*k), k: k}
	}
	g, err := buildNNUEGraph(m, rows, sp)
	if err != nil {
		return nil, err
	}
	F := m.Arch.Features()
	r := &nnueReplica{net: g, rows: rows, target: make([]float32, rows), sparse: sp}
	if sp == nil {
		r.us, r.them = make([]float32, rows*F), make([]float32, rows*F)
		r.usT = tensor.New(tensor.WithShape(rows, F), tensor.WithBacking(r.us))
		r.themT = tensor.New(tensor.WithShape(rows, F), tensor.WithBacking(r.them))
	}
	r.targetT = tensor.New(tensor.WithShape(rows, 1), tensor.WithBacking(r.target))
	if nb := m.Arch.OutputBuckets(); nb > 1 {
		r.bucket = make([]float32, rows*nb)
		r.bucketT = tensor.New(tensor.WithShape(rows, nb), tensor.WithBacking(r.bucket))
	}
	r.vm = G.NewTapeMachine(g.g, G.BindDualValues(g.learnables...))
	r.ws, r.gs = make([][]float32, len(g.learnables)), make([][]float32, len(g.learnables))
	return r, nil
}

func (r *nnueReplica) close() error {
	if r.fwd != nil {
		r.fwd.Close()
	}
	return r.vm.Close()
}

// Close releases the machines.
func (t *NNUETrainer) Close() error {
	err := t.close()
	for _, r := range t.peers {
		err = errors.Join(err, r.close())
	}
	return err
}

// SetExample fills row i of the batch with the position pieces, stm to move, and its target.
func (t *NNUETrainer) SetExample(i int, pieces [2]uint64, stm int, target float32) {
	r := t.replica(i / t.rows)
	r.set(t.m.Arch, i%r.rows, pieces, stm, target)
}

func (r *nnueReplica) set(a nnue.Arch, i int, pieces [2]uint64, stm int, target float32) {
	r.target[i] = target
	if nb := a.OutputBuckets(); nb > 1 {
		row := r.bucket[i*nb : (i+1)*nb]
		clear(row)
		row[a.Bucket(pieces)] = 1
	}
	if sp := r.sparse; sp != nil {
		k := sp.k
		a.ActiveFeatures(pieces, stm, sp.us[i*k:i*k:(i+1)*k])
		a.ActiveFeatures(pieces, stm^1, sp.them[i*k:i*k:(i+1)*k])
		return
	}
	F := a.Features()
	a.Activations(pieces, stm, r.us[i*F:(i+1)*F], r.them[i*F:(i+1)*F])
}

// replica returns replica k (0 is the first).
func (t *NNUETrainer) replica(k int) *nnueReplica {
	if k == 0 {
		return t.nnueReplica
	}
	return t.peers[k-1]
}

// parallel calls f(k) for every replica k, the peers' on goroutines of their own, and joins
// the errors.
func (t *NNUETrainer) parallel(f func(k int) error) error {
	errs := make([]error, 1+len(t.peers))
	var wg sync.WaitGroup
	for k := 1; k < len(errs); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = f(k)
		}()
	}
	errs[0] = f(0)
	wg.Wait()
	return errors.Join(errs...)
}

// each copies the first replica's weights into the peers, then runs f on every replica side by
// side. (The copies come first: a running graph transposes its weight tensors in place.)
func (t *NNUETrainer) each(f func(r *nnueReplica) error) error {
	for _, r := range t.peers {
		for j, n := range r.net.learnables {
			copy(n.Value().Data().([]float32), t.net.learnables[j].Value().Data().([]float32))
		}
	}
	return t.parallel(func(k int) error { return f(t.replica(k)) })
}

// fill calls f on each replica's rows of the batch (f fills rows lo to hi-1), side by side.
func (t *NNUETrainer) fill(f func(lo, hi int) error) error {
	return t.parallel(func(k int) error { return f(k*t.rows, (k+1)*t.rows) })
}

// batchLogits returns the logits of the last run, all replicas' rows in batch order (the
// first replica's own slice when it is alone).
func (t *NNUETrainer) batchLogits() []float32 {
	if len(t.peers) == 0 {
		return t.net.logit.Value().Data().([]float32)
	}
	n := 0
	for k := range 1 + len(t.peers) {
		n += copy(t.logits[n:], t.replica(k).net.logit.Value().Data().([]float32))
	}
	return t.logits
}

// run runs the graphs forward and backward on the batch buffers, leaves the batch's gradient
// in the first replica's gs, and returns the loss.
func (t *NNUETrainer) run() (float64, error) {
	if err := t.each((*nnueReplica).run); err != nil {
		return 0, err
	}
	if len(t.peers) == 0 {
		return t.loss, nil
	}
	k := float32(1 + len(t.peers))
	loss := t.loss
	for i, g := range t.gs {
		for _, r := range t.peers {
			for j, x := range r.gs[i][:len(g)] {
				g[j] += x
			}
		}
		for j := range g {
			g[j] /= k
		}
	}
	for _, r := range t.peers {
		loss += r.loss
	}
	return loss / float64(k), nil
}

// run runs r's graph forward and backward on its rows.
func (r *nnueReplica) run() error {
	defer r.vm.Reset()
	if err := r.feed(true); err != nil {
		return err
	}
	for _, g := range r.gs {
		clear(g)
	}
	if err := r.vm.RunAll(); err != nil {
		return fmt.Errorf("train: nnue run: %w", err)
	}
	for i, n := range r.net.learnables {
		r.ws[i] = n.Value().Data().([]float32)
		g, err := n.Grad()
		if err != nil {
			return err
		}
		r.gs[i] = g.Data().([]float32)
	}
	r.loss = float64(r.net.loss.Value().Data().(float32))
	return nil
}

// feed binds the batch buffers to the graph's inputs (the targets too when withTarget).
// Sparse inputs have no node: their ops read their buffers.
func (r *nnueReplica) feed(withTarget bool) error {
	for _, l := range []struct {
		n *G.Node
		v *tensor.Dense
	}{{r.net.us, r.usT}, {r.net.them, r.themT}, {r.net.bucket, r.bucketT}, {r.net.target, r.targetT}} {
		if l.n == nil || (l.n == r.net.target && !withTarget) {
			continue
		}
		if err := G.Let(l.n, l.v); err != nil {
			return fmt.Errorf("train: nnue feed: %w", err)
		}
	}
	return nil
}

// Logits runs the graph on the batch buffers and returns the logits (for tests).
func (t *NNUETrainer) Logits() ([]float32, error) {
	if _, err := t.run(); err != nil {
		return nil, err
	}
	return append([]float32(nil), t.batchLogits()...), nil
}

// Step applies one Adam update on the batch buffers and returns the MSE before it.
func (t *NNUETrainer) Step() (float64, error) {
	loss, err := t.run()
	if err != nil {
		return 0, err
	}
	addL2(t.cfg.l2(), t.ws, t.gs, t.net.decay)
	t.opt.step(&t.cfg, t.cfg.LRAt(t.step), t.ws, t.gs)
	t.step++
	return loss, nil
}

// Model returns the trained weights as a model (a copy).
func (t *NNUETrainer) Model() *nnue.Model {
	m := nnue.NewModel(t.m.Arch)
	for k, v := range t.m.Meta {
		m.Meta[k] = v
	}
	m.Step = t.step
	for i, ts := range m.Weights.Tensors(m.Arch) {
		copy(*ts.Data, t.net.learnables[i].Value().Data().([]float32))
	}
	return m
}

// RunNNUE trains an nnue net on the newest examples of a shard directory and writes it to
// cfg.Out (every cfg.Every steps too, so a stopped run is continued with Model = Out).
func RunNNUE(ctx context.Context, cfg NNUEConfig, logw io.Writer) (*nnue.Model, error) {
	if logw == nil {
		logw = io.Discard
	}
	lg := log.New(logw, "train nnue: ", log.Ltime)
	if cfg.Shards == "" || cfg.Out == "" {
		return nil, errors.New("train: nnue: shards and out are required")
	}
	if cfg.ScoreWeight < 0 || cfg.ScoreWeight > 1 {
		return nil, fmt.Errorf("train: nnue: score weight %v, want 0..1", cfg.ScoreWeight)
	}
	if cfg.TeacherWeight < 0 || cfg.TeacherWeight > 1 || (cfg.Teacher == "") != (cfg.TeacherWeight == 0) {
		return nil, fmt.Errorf("train: nnue: teacher %q at weight %v: want a teacher with a weight in (0, 1], or neither", cfg.Teacher, cfg.TeacherWeight)
	}
	if cfg.Window == 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Batch == 0 {
		cfg.Batch = 1024
	}
	if cfg.LR == 0 {
		cfg.LR = 2e-3
	}
	if cfg.Every == 0 {
		cfg.Every = 1000
	}
	if cfg.ScoreScale == 0 {
		cfg.ScoreScale = nnue.DefaultScoreScale
	}
	if cfg.ValMax == 0 {
		cfg.ValMax = DefaultValMax
	}
	if cfg.BestVal && cfg.ValFrac == 0 {
		return nil, errors.New("train: nnue: keeping the best validation model needs a validation split")
	}
	var m *nnue.Model
	if cfg.Model != "" {
		var err error
		if m, err = nnue.Load(cfg.Model); err != nil {
			return nil, err
		}
		lg.Printf("start: %s (%s, step %d)", cfg.Model, m.Arch, m.Step)
	} else {
		if err := cfg.Arch.Validate(); err != nil {
			return nil, err
		}
		m = nnue.NewRandom(cfg.Arch, cfg.Seed)
		lg.Printf("start: a fresh %s net (seed %d)", m.Arch, cfg.Seed)
	}
	if err := m.CheckFor(cfg.Game.Name, cfg.Game.EncoderVersion); err != nil {
		return nil, err
	}
	if m.Arch.Planes*m.Arch.Cells != cfg.Game.InputSize() {
		return nil, fmt.Errorf("train: nnue arch reads %d inputs, %s encodes %d", m.Arch.Planes*m.Arch.Cells, cfg.Game.Name, cfg.Game.InputSize())
	}
	var teacher *nnue.Model
	if cfg.Teacher != "" {
		var err error
		if teacher, err = nnue.Load(cfg.Teacher); err != nil {
			return nil, err
		}
		if err := teacher.CheckFor(cfg.Game.Name, cfg.Game.EncoderVersion); err != nil {
			return nil, fmt.Errorf("train: nnue: teacher %s: %w", cfg.Teacher, err)
		}
		if teacher.Arch.Cells != m.Arch.Cells {
			return nil, fmt.Errorf("train: nnue: teacher %s reads %d cells, the net %d", cfg.Teacher, teacher.Arch.Cells, m.Arch.Cells)
		}
		lg.Printf("teacher: %s (%s, sha256 %.12s) at weight %g", cfg.Teacher, teacher.Arch, teacher.SHA256(), cfg.TeacherWeight)
	}
	tc, err := cfg.trainerConfig(m.Step)
	if err != nil {
		return nil, err
	}
	target := m.Step + cfg.Steps
	var resume *nnueCkpt
	if cfg.Resume {
		if cfg.Model == "" {
			return nil, errors.New("train: nnue: resume needs the start model of a stopped run")
		}
		p := CkptPath(cfg.Model)
		if resume, err = readNNUECkpt(p); err != nil {
			return nil, err
		}
		if err := resume.check(p, cfg.Game.Name, m); err != nil {
			return nil, err
		}
		tc = resume.Schedule
		if target = resume.Target; cfg.Steps > 0 {
			target = m.Step + cfg.Steps
		}
		if target <= m.Step {
			return nil, fmt.Errorf("train: nnue: resume: %s's run ended at step %d; give the steps to go on past it", p, resume.Target)
		}
		lg.Printf("resume: %s (saved %s): the schedule from step %d, Adam after %d updates, on to step %d", p, resume.SavedAt, tc.ScheduleStart, resume.Opt.T, target)
	}
	lg.Printf("learning rate: %s", describeSchedule(&tc))
	held, picked, shards, err := valSplit(cfg.Shards, cfg.ValFrac)
	if err != nil {
		return nil, err
	}
	var notHeld func(string) bool
	if held != nil {
		notHeld = func(name string) bool { return !held(name) }
		lg.Printf("validation split: %d of %d shards held out", picked, shards)
	} else if cfg.ValFrac > 0 {
		lg.Printf("warning: no validation split: %d shard(s) in %s, need 2 or more", shards, cfg.Shards)
	}
	t, err := newNNUETrainer(m, tc, m.Arch.Input == nnue.CellInput, max(cfg.Threads, 1))
	if err != nil {
		return nil, err
	}
	defer t.Close()
	if cfg.Threads > 1 {
		lg.Printf("threads: %d replicas of %d rows", cfg.Threads, cfg.Batch/cfg.Threads)
	}
	// A value net reads no policy: the window holds only what it reads.
	win, err := openWindow(cfg.Shards, data.WindowOptions{Game: cfg.Game.Name, EncoderVersion: cfg.Game.EncoderVersion,
		Capacity: cfg.Window, Augmenter: cfg.Symmetries, Warn: logw, Filter: notHeld, ValuesOnly: true,
		ScoreLambda: cfg.ScoreLambda}, lg)
	if err != nil {
		return nil, err
	}
	if win.Len() == 0 {
		return nil, fmt.Errorf("train: no examples for %s in %s", cfg.Game.Name, cfg.Shards)
	}
	if cfg.Manifest != "" {
		man, err := data.WindowManifest(win)
		if err != nil {
			return nil, err
		}
		if err := data.WriteManifest(cfg.Manifest, man); err != nil {
			return nil, err
		}
		lg.Printf("manifest: %d shards, %d examples in %s", len(man.Entries), man.Examples(), cfg.Manifest)
	}
	var val *valSet
	if held != nil {
		if val, err = loadValSet(cfg.Shards, &cfg, m.Arch, held, logw); err != nil {
			return nil, err
		}
	}
	mon, err := newNNUEMonitor(&cfg, t, &tc, val, win.Len(), lg, resume)
	if err != nil {
		return nil, err
	}
	defer mon.close()
	var csv *LossLog
	if cfg.CSV != "" {
		if csv, err = OpenLossLog(cfg.CSV, t.step); err != nil {
			return nil, err
		}
		defer csv.Close()
	}
	pcg := rand.NewPCG(cfg.Seed, cfg.Seed^0x6e6e7565)
	if resume != nil {
		if err := pcg.UnmarshalBinary(resume.RNG); err != nil {
			return nil, fmt.Errorf("train: nnue: resume: the sampling state: %w", err)
		}
		if err := resume.Opt.check(Adam, t.opt.sizes()); err != nil {
			return nil, fmt.Errorf("train: nnue: resume: %w", err)
		}
		t.opt = &resume.Opt
	}
	rng := rand.New(pcg)
	// ckpt writes the resume checkpoint of the trainer's state (model cur) beside path.
	ckpt := func(path string, cur *nnue.Model) error {
		if !cfg.Checkpoints {
			return nil
		}
		c, err := ckptOf(cfg.Game.Name, cur, &tc, target, t, pcg, mon.seconds())
		if err != nil {
			return err
		}
		return writeNNUECkpt(CkptPath(path), c)
	}
	var exs []data.Example
	a := m.Arch
	withMeta := func(out *nnue.Model) *nnue.Model {
		out.Meta["score_scale"] = strconv.Itoa(cfg.ScoreScale)
		out.Meta["train.shards"] = cfg.Shards
		out.Meta["train.batch"] = strconv.Itoa(cfg.Batch)
		out.Meta["train.lr"] = strconv.FormatFloat(cfg.LR, 'g', -1, 64)
		out.Meta["train.window"] = strconv.Itoa(cfg.Window)
		out.Meta["train.score_weight"] = strconv.FormatFloat(cfg.ScoreWeight, 'g', -1, 64)
		if cfg.ScoreLambda > 0 {
			out.Meta["train.score_lambda"] = strconv.FormatFloat(cfg.ScoreLambda, 'g', -1, 64)
		}
		if teacher != nil {
			out.Meta["train.teacher_sha256"] = teacher.SHA256()
			out.Meta["train.teacher_weight"] = strconv.FormatFloat(cfg.TeacherWeight, 'g', -1, 64)
		}
		return out
	}
	save := func() error {
		m = withMeta(t.Model())
		if err := m.Save(cfg.Out); err != nil {
			return err
		}
		if err := ckpt(cfg.Out, m); err != nil {
			return err
		}
		if cfg.AfterSave != nil {
			cfg.AfterSave(m.Step)
		}
		return nil
	}
	if err := mon.start(); err != nil {
		return nil, err
	}
	began, first := time.Now(), t.step
	var sum float64
	var n int
	for t.step < target {
		if ctx.Err() != nil {
			if err := save(); err != nil {
				return nil, err
			}
			how := "continue with it as the start model"
			if cfg.Checkpoints {
				how += ", and resume to keep the schedule and the optimizer"
			}
			return nil, fmt.Errorf("%w at step %d; %s saved: %s", ErrInterrupted, t.step, cfg.Out, how)
		}
		if cfg.Refresh > 0 && t.step > first && t.step%cfg.Refresh == 0 {
			if rep, err := win.Refresh(); err != nil {
				return nil, err
			} else if rep.Loaded > 0 {
				lg.Printf("window refreshed: %d examples (%d new shards)", win.Len(), rep.Loaded)
			}
		}
		if exs, err = win.Sample(rng, cfg.Batch, exs); err != nil {
			return nil, err
		}
		err := t.fill(func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				pieces, stm, err := a.Pieces(exs[i].Input)
				if err != nil {
					return err
				}
				y := Target(&exs[i], stm, cfg.ScoreWeight)
				if teacher != nil {
					tw := cfg.TeacherWeight
					y = float32((1-tw)*float64(y) + tw*math.Tanh(float64(teacher.Forward(pieces, stm))))
				}
				t.SetExample(i, pieces, stm, y)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		loss, err := t.Step()
		if err != nil {
			return nil, err
		}
		if csv != nil {
			if err := csv.Write(StepStats{Step: t.step, Total: loss, Value: loss, LR: tc.LRAt(t.step - 1)}); err != nil {
				return nil, err
			}
		}
		if err := mon.afterStep(loss, tc.LRAt(t.step-1)); err != nil {
			return nil, err
		}
		sum += loss
		n++
		if cfg.LogEvery > 0 && (t.step%cfg.LogEvery == 0 || t.step == target) {
			rate := float64(t.step-first) * float64(cfg.Batch) / time.Since(began).Seconds()
			lg.Printf("step %d/%d value mse %.4f lr %.3g  %.0f samples/s", t.step, target, sum/float64(n), tc.LRAt(t.step-1), rate)
			sum, n = 0, 0
		}
		if t.step%cfg.Every == 0 && t.step < target {
			if err := save(); err != nil {
				return nil, err
			}
		}
	}
	best, err := mon.finish()
	if err != nil {
		return nil, err
	}
	if best != nil {
		last := withMeta(t.Model())
		kept, err := keepBest(&cfg, last, withMeta(best), lg)
		if err != nil {
			return nil, err
		}
		if cfg.Checkpoints {
			// Out holds the best model now: its checkpoint would go with an older state.
			if err := os.Remove(CkptPath(cfg.Out)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
		return kept, ckpt(cfg.Out+".last", last)
	}
	if err := save(); err != nil {
		return nil, err
	}
	lg.Printf("wrote %s (step %d)", cfg.Out, m.Step)
	return m, nil
}

// Target is the value target of ex for the side to move stm: the outcome blended at weight w
// with the search score where the example carries one.
func Target(ex *data.Example, stm int, w float64) float32 {
	if !ex.Scored || w == 0 {
		return ex.Values[stm]
	}
	return float32((1-w)*float64(ex.Values[stm]) + w*float64(ex.Scores[stm]))
}

// EvalNNUE returns the value MSE (tanh of the logit against the side to move's target) and
// the number of examples of model m over every example of the shards in dir (no augmentation):
// a held-out check of a trained net.
func EvalNNUE(m *nnue.Model, game contract.Info, dir string) (mse float64, n int, err error) {
	if err := m.CheckFor(game.Name, game.EncoderVersion); err != nil {
		return 0, 0, err
	}
	win, err := data.NewWindow(dir, data.WindowOptions{Game: game.Name, EncoderVersion: game.EncoderVersion, Capacity: 1 << 30, ValuesOnly: true})
	if err != nil {
		return 0, 0, err
	}
	if _, err := win.Refresh(); err != nil {
		return 0, 0, err
	}
	var ex data.Example
	var sum float64
	for i := range win.Len() {
		win.Example(i, &ex)
		pieces, stm, err := m.Arch.Pieces(ex.Input)
		if err != nil {
			return 0, 0, err
		}
		d := math.Tanh(float64(m.Forward(pieces, stm))) - float64(ex.Values[stm])
		sum += d * d
	}
	if win.Len() == 0 {
		return 0, 0, fmt.Errorf("train: no examples in %s", dir)
	}
	return sum / float64(win.Len()), win.Len(), nil
}
