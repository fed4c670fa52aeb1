package train

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"colony/nn"
)

// bnMomentum is the BatchNorm running-statistics momentum in gorgonia's convention:
// running = m*batch + (1-m)*running.
const bnMomentum = 0.1

// netGraph is the gorgonia expression graph of an nn.Arch network for one fixed batch size.
// A training graph also holds the targets, the loss nodes and the symbolic gradients; an
// evaluation graph only produces logits and values (its BatchNorm layers use running statistics
// once its machine is created in eval mode).
type netGraph struct {
	g     *G.ExprGraph
	arch  nn.Arch
	batch int

	x      *G.Node // (B, Planes, H, W)
	logits *G.Node // (B, PolicySize)
	value  *G.Node // (B, NumPlayers), after tanh

	// tensors lists one node per weightRefs entry; BatchNorm mean/var entries are nil (they
	// live in the BatchNorm ops, see bns).
	tensors []*G.Node
	bns     []*G.BatchNormOp // one per conv, in weightRefs order

	// Training graph only.
	policyTarget *G.Node // (B, PolicySize)
	valueTarget  *G.Node // (B, NumPlayers)
	policyLoss   *G.Node // scalar: mean over the batch of -sum target*log softmax
	valueLoss    *G.Node // scalar: mean over batch and players of (value-target)^2
	loss         *G.Node // policyLoss + valueWeight*valueLoss
	learnables   G.Nodes // every trained node (weights, BN scale/bias, dense biases)
	decay        []bool  // per learnable: L2 applies (conv and dense weight matrices)
}

// buildGraph builds the network for arch a and weights w with the given batch size. Weight
// values are copied into the graph; BatchNorm statistics must be loaded with setStats after the
// machine is created (creating a training machine resets them).
func buildGraph(a nn.Arch, w *nn.Weights, batch int, training bool, valueWeight float64) (*netGraph, error) {
	if err := checkArch(a); err != nil {
		return nil, err
	}
	if err := checkWeights(a, w); err != nil {
		return nil, err
	}
	if batch <= 0 {
		return nil, fmt.Errorf("train: batch size %d", batch)
	}
	if training && batch < 2 {
		return nil, fmt.Errorf("train: training batch size %d: BatchNorm needs at least 2", batch)
	}
	n := &netGraph{g: G.NewGraph(), arch: a, batch: batch}
	b := &graphBuilder{n: n, refs: weightRefs(a, w), training: training}
	if err := b.build(valueWeight); err != nil {
		return nil, err
	}
	if b.next != len(b.refs) {
		return nil, fmt.Errorf("train: internal error: graph used %d of %d weight tensors", b.next, len(b.refs))
	}
	return n, nil
}

// graphBuilder walks weightRefs in order while building the graph, so that node i of
// netGraph.tensors is always weightRefs entry i.
type graphBuilder struct {
	n        *netGraph
	refs     []tensorRef
	next     int
	training bool
	err      error
}

// param creates the learnable node for the next weight tensor, shaped as shape (same size).
func (b *graphBuilder) param(shape []int, decay bool) *G.Node {
	if b.err != nil {
		return nil
	}
	r := b.refs[b.next]
	b.next++
	if shapeSize(shape) != len(*r.data) {
		b.err = fmt.Errorf("train: internal error: %s has %d values, graph shape %v", r.name, len(*r.data), shape)
		return nil
	}
	data := make([]float32, len(*r.data))
	copy(data, *r.data)
	t := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
	node := G.NewTensor(b.n.g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(r.name), G.WithValue(t))
	b.n.tensors = append(b.n.tensors, node)
	b.n.learnables = append(b.n.learnables, node)
	b.n.decay = append(b.n.decay, decay)
	return node
}

// skip consumes the next weight tensor without making a node (BatchNorm statistics).
func (b *graphBuilder) skip() {
	b.n.tensors = append(b.n.tensors, nil)
	b.next++
}

func (b *graphBuilder) do(n *G.Node, err error) *G.Node {
	if b.err == nil && err != nil {
		b.err = err
	}
	if b.err != nil {
		return nil
	}
	return n
}

// convBN is a bias-free KxK convolution (same padding) followed by BatchNorm and, if relu, ReLU.
func (b *graphBuilder) convBN(x *G.Node, out, in, k int, relu bool) *G.Node {
	w := b.param([]int{out, in, k, k}, true)
	gamma := b.param([]int{1, out, 1, 1}, false)
	beta := b.param([]int{1, out, 1, 1}, false)
	b.skip() // mean
	b.skip() // var
	if b.err != nil {
		return nil
	}
	pad := k / 2
	y := b.do(G.Conv2d(x, w, tensor.Shape{k, k}, []int{pad, pad}, []int{1, 1}, []int{1, 1}))
	if b.err != nil {
		return nil
	}
	y, _, _, op, err := G.BatchNorm(y, gamma, beta, bnMomentum, nn.BNEps)
	if b.do(y, err) == nil {
		return nil
	}
	b.n.bns = append(b.n.bns, op)
	if relu {
		y = b.do(G.Rectify(y))
	}
	return y
}

// dense is x W + B for x (B, In).
func (b *graphBuilder) dense(x *G.Node, in, out int) *G.Node {
	w := b.param([]int{in, out}, true)
	bias := b.param([]int{1, out}, false)
	if b.err != nil {
		return nil
	}
	y := b.do(G.Mul(x, w))
	if b.err != nil {
		return nil
	}
	return b.do(G.BroadcastAdd(y, bias, nil, []byte{0}))
}

func (b *graphBuilder) build(valueWeight float64) error {
	n, a := b.n, b.n.arch
	B, hw := n.batch, a.Height*a.Width
	n.x = G.NewTensor(n.g, tensor.Float32, 4, G.WithShape(B, a.Planes, a.Height, a.Width), G.WithName("x"))

	h := b.convBN(n.x, a.Channels, a.Planes, 3, true)
	for range a.Blocks {
		r := b.convBN(h, a.Channels, a.Channels, 3, true)
		r = b.convBN(r, a.Channels, a.Channels, 3, false)
		if b.err != nil {
			return b.err
		}
		r = b.do(G.Add(r, h))
		h = b.do(G.Rectify(r))
	}

	p := b.convBN(h, a.PolicyChannels, a.Channels, 1, true)
	if b.err != nil {
		return b.err
	}
	p = b.do(G.Reshape(p, tensor.Shape{B, a.PolicyChannels * hw}))
	n.logits = b.dense(p, a.PolicyChannels*hw, a.PolicySize)

	v := b.convBN(h, a.ValueChannels, a.Channels, 1, true)
	if b.err != nil {
		return b.err
	}
	v = b.do(G.Reshape(v, tensor.Shape{B, a.ValueChannels * hw}))
	v = b.dense(v, a.ValueChannels*hw, a.ValueHidden)
	if b.err != nil {
		return b.err
	}
	v = b.do(G.Rectify(v))
	v = b.dense(v, a.ValueHidden, a.NumPlayers)
	if b.err != nil {
		return b.err
	}
	n.value = b.do(G.Tanh(v))
	if b.err != nil || !b.training {
		return b.err
	}

	// Losses.
	n.policyTarget = G.NewMatrix(n.g, tensor.Float32, G.WithShape(B, a.PolicySize), G.WithName("policy_target"))
	n.valueTarget = G.NewMatrix(n.g, tensor.Float32, G.WithShape(B, a.NumPlayers), G.WithName("value_target"))
	logp := b.do(G.LogSoftMax(n.logits))
	if b.err != nil {
		return b.err
	}
	ce := b.do(G.HadamardProd(n.policyTarget, logp))
	if b.err != nil {
		return b.err
	}
	ce = b.do(G.Sum(ce))
	if b.err != nil {
		return b.err
	}
	n.policyLoss = b.do(G.Mul(ce, G.NewConstant(float32(-1/float64(B)))))
	if b.err != nil {
		return b.err
	}
	d := b.do(G.Sub(n.value, n.valueTarget))
	if b.err != nil {
		return b.err
	}
	d = b.do(G.Square(d))
	if b.err != nil {
		return b.err
	}
	n.valueLoss = b.do(G.Mean(d))
	if b.err != nil {
		return b.err
	}
	vw := b.do(G.Mul(n.valueLoss, G.NewConstant(float32(valueWeight))))
	if b.err != nil {
		return b.err
	}
	n.loss = b.do(G.Add(n.policyLoss, vw))
	if b.err != nil {
		return b.err
	}
	if _, err := G.Grad(n.loss, n.learnables...); err != nil {
		return fmt.Errorf("train: building gradients: %w", err)
	}
	return nil
}

// setStats loads the BatchNorm running statistics from w into the graph's BatchNorm ops.
func (n *netGraph) setStats(w *nn.Weights) error {
	refs := weightRefs(n.arch, w)
	k := 0
	for i := 0; i < len(refs); i++ {
		if n.tensors[i] != nil || refs[i].name[len(refs[i].name)-5:] != ".mean" {
			continue
		}
		mean, vr := *refs[i].data, *refs[i+1].data
		mt := tensor.New(tensor.WithShape(len(mean)), tensor.WithBacking(append([]float32(nil), mean...)))
		vt := tensor.New(tensor.WithShape(len(vr)), tensor.WithBacking(append([]float32(nil), vr...)))
		if err := n.bns[k].SetStats(mt, vt); err != nil {
			return fmt.Errorf("train: BatchNorm %s: %w", refs[i].name, err)
		}
		k++
		i++
	}
	if k != len(n.bns) {
		return fmt.Errorf("train: internal error: set %d of %d BatchNorm statistics", k, len(n.bns))
	}
	return nil
}

// exportTo copies the graph's weights and BatchNorm statistics into w (allocated for n.arch).
func (n *netGraph) exportTo(w *nn.Weights) {
	refs := weightRefs(n.arch, w)
	k := 0
	for i := 0; i < len(refs); i++ {
		if node := n.tensors[i]; node != nil {
			copy(*refs[i].data, node.Value().Data().([]float32))
			continue
		}
		mean, vr := n.bns[k].Stats()
		copy(*refs[i].data, mean.Data().([]float32))
		copy(*refs[i+1].data, vr.Data().([]float32))
		k++
		i++
	}
}
