package train

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A sparse first layer for the nnue trainer: every row of the batch has exactly k active
// features (all of weight 1), so x·FT is, per row, the sum of k rows of FT. gatherRows is that
// sum as a gorgonia op on FT ([F][H] in, [B][H] out) reading the active features from idx
// (B*k feature numbers, refilled before every run); its gradient with respect to FT is
// scatterRows, which adds each row's output gradient to the k rows it read. A dense
// (B x F)·(F x H) product does F/k times the work (81 for window input).

// gatherRows is out[b] = sum over j < k of w[idx[b*k+j]].
type gatherRows struct {
	name string // tells the perspectives' ops apart (gorgonia merges identical nodes)
	idx  []int32
	b, k int
}

// scatterRows is gatherRows's gradient: g[f] = sum of dout[b] over the (b, j) with
// idx[b*k+j] = f; rows is F.
type scatterRows struct {
	*gatherRows
	rows int
}

func newGatherRows(name string, idx []int32, b, k int) *gatherRows {
	return &gatherRows{name: name, idx: idx, b: b, k: k}
}

func (op *gatherRows) Arity() int           { return 1 }
func (op *gatherRows) Type() hm.Type        { a := hm.TypeVariable('a'); return hm.NewFnType(a, a) }
func (op *gatherRows) ReturnsPtr() bool     { return false }
func (op *gatherRows) CallsExtern() bool    { return false }
func (op *gatherRows) OverwritesInput() int { return -1 }
func (op *gatherRows) String() string {
	return fmt.Sprintf("gatherRows{%s, %dx%d}", op.name, op.b, op.k)
}
func (op *gatherRows) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op *gatherRows) Hashcode() uint32      { return hashOf(op) }

func hashOf(op G.Op) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

func (op *gatherRows) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok || len(s) != 2 {
		return nil, fmt.Errorf("train: %s: input shape %v, want a matrix", op, in[0])
	}
	return tensor.Shape{op.b, s[1]}, nil
}

// matrixData returns v's backing floats and its column count.
func matrixData(op G.Op, v G.Value) ([]float32, int, error) {
	t, ok := v.(*tensor.Dense)
	if !ok || len(t.Shape()) != 2 {
		return nil, 0, fmt.Errorf("train: %s: input %T %v, want a float32 matrix", op, v, v.Shape())
	}
	d, ok := t.Data().([]float32)
	if !ok {
		return nil, 0, fmt.Errorf("train: %s: input of %v, want float32", op, t.Dtype())
	}
	return d, t.Shape()[1], nil
}

func (op *gatherRows) Do(in ...G.Value) (G.Value, error) {
	w, h, err := matrixData(op, in[0])
	if err != nil {
		return nil, err
	}
	rows := len(w) / h
	out := make([]float32, op.b*h)
	for b := range op.b {
		dst := out[b*h : (b+1)*h]
		for _, f := range op.idx[b*op.k : (b+1)*op.k] {
			if int(f) < 0 || int(f) >= rows {
				return nil, fmt.Errorf("train: %s: feature %d outside %d rows", op, f, rows)
			}
			src := w[int(f)*h:][:h]
			for j, v := range src {
				dst[j] += v
			}
		}
	}
	return tensor.New(tensor.WithShape(op.b, h), tensor.WithBacking(out)), nil
}

func (op *gatherRows) DiffWRT(int) []bool { return []bool{true} }

func (op *gatherRows) SymDiff(inputs G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	w := inputs[0]
	n, err := G.ApplyOp(&scatterRows{gatherRows: op, rows: w.Shape()[0]}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{n}, nil
}

func (op *scatterRows) String() string {
	return fmt.Sprintf("scatterRows{%s, %dx%d -> %d}", op.name, op.b, op.k, op.rows)
}
func (op *scatterRows) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op *scatterRows) Hashcode() uint32      { return hashOf(op) }

func (op *scatterRows) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok || len(s) != 2 {
		return nil, fmt.Errorf("train: %s: input shape %v, want a matrix", op, in[0])
	}
	return tensor.Shape{op.rows, s[1]}, nil
}

func (op *scatterRows) Do(in ...G.Value) (G.Value, error) {
	g, h, err := matrixData(op, in[0])
	if err != nil {
		return nil, err
	}
	out := make([]float32, op.rows*h)
	for b := range op.b {
		src := g[b*h : (b+1)*h]
		for _, f := range op.idx[b*op.k : (b+1)*op.k] {
			dst := out[int(f)*h:][:h]
			for j, v := range src {
				dst[j] += v
			}
		}
	}
	return tensor.New(tensor.WithShape(op.rows, h), tensor.WithBacking(out)), nil
}

func (op *scatterRows) DiffWRT(int) []bool { return []bool{false} }
