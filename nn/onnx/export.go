// Package onnx converts Colony models to and from ONNX: Export writes a model as an ONNX graph
// (for other runtimes and tools), Import reads the weights of an ONNX model (for instance one
// trained with PyTorch) into a Colony model. It lives apart from package nn so that nn, and
// with it the agent, stays free of protobuf.
package onnx

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"colony/nn"
)

// ONNX export. The protobuf is encoded by hand with protowire (no generated code); the field
// numbers are those of onnx.proto (ONNX IR version 4, default-domain opset 9).
//
// Graph: input "input" [N, Planes, H, W] -> Conv(3x3, pads 1)+Relu stem -> residual blocks
// (Conv, Relu, Conv, Add, Relu) -> policy: Conv 1x1, Relu, Flatten, Gemm -> output "policy"
// [N, PolicySize] (logits); value: Conv 1x1, Relu, Flatten, Gemm, Relu, Gemm, Tanh -> output
// "value" [N, NumPlayers]. BatchNorm is folded into the convolutions' weights and biases exactly
// as the Net folds it. The model's game, encoder version, step, weight SHA-256, architecture
// and metadata are stored in metadata_props.

const (
	onnxIRVersion = 4
	onnxOpset     = 9
	onnxFloat     = 1 // TensorProto.FLOAT
	attrInt       = 2 // AttributeProto.INT
	attrInts      = 7 // AttributeProto.INTS
)

// Export writes m as an ONNX model with a symbolic batch dimension ("N").
//
// Initializers are named after the layers: <conv>.w [Out, In, K, K] and <conv>.b [Out] with
// BatchNorm folded in (conv = stem, block<i>.conv1, block<i>.conv2, policy.conv, value.conv),
// and <fc>.w [In, Out] (Gemm, transB 0) and <fc>.b [Out] (fc = policy.fc, value.fc1,
// value.fc2). Import reads these names back, from this exporter or from another tool.
func Export(m *nn.Model, w io.Writer) error { return export(m, w, 0) }

// ExportBatch writes m as an ONNX model with a fixed batch size (onnx-go v0.5.0 needs
// concrete input shapes).
func ExportBatch(m *nn.Model, w io.Writer, batch int) error {
	if batch < 1 {
		return fmt.Errorf("onnx: ExportBatch: batch %d < 1", batch)
	}
	return export(m, w, batch)
}

type onnxBuilder struct {
	nodes []byte
	inits []byte
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

// attrInts encodes an INTS attribute.
func attrIntsField(name string, vals ...int64) []byte {
	var a []byte
	a = appendString(a, 1, name)
	for _, v := range vals {
		a = appendVarint(a, 8, uint64(v))
	}
	a = appendVarint(a, 20, attrInts)
	return appendBytes(nil, 5, a)
}

func attrIntField(name string, v int64) []byte {
	var a []byte
	a = appendString(a, 1, name)
	a = appendVarint(a, 3, uint64(v))
	a = appendVarint(a, 20, attrInt)
	return appendBytes(nil, 5, a)
}

func (g *onnxBuilder) node(op, name string, inputs []string, output string, attrs ...[]byte) string {
	var n []byte
	for _, in := range inputs {
		n = appendString(n, 1, in)
	}
	n = appendString(n, 2, output)
	n = appendString(n, 3, name)
	n = appendString(n, 4, op)
	for _, a := range attrs {
		n = append(n, a...)
	}
	g.nodes = appendBytes(g.nodes, 1, n)
	return output
}

func (g *onnxBuilder) floatInit(name string, data []float32, dims ...int64) string {
	var t []byte
	for _, d := range dims {
		t = appendVarint(t, 1, uint64(d))
	}
	t = appendVarint(t, 2, onnxFloat)
	t = appendString(t, 8, name)
	raw := make([]byte, 0, 4*len(data))
	for _, v := range data {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	t = appendBytes(t, 9, raw)
	g.inits = appendBytes(g.inits, 5, t)
	return name
}

// valueInfo encodes a float tensor ValueInfoProto; a dim of 0 is the symbolic batch "N".
func valueInfo(name string, dims ...int64) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		if d == 0 {
			dim = appendString(dim, 2, "N")
		} else {
			dim = appendVarint(dim, 1, uint64(d))
		}
		shape = appendBytes(shape, 1, dim)
	}
	var tt []byte
	tt = appendVarint(tt, 1, onnxFloat)
	tt = appendBytes(tt, 2, shape)
	typ := appendBytes(nil, 1, tt)
	var vi []byte
	vi = appendString(vi, 1, name)
	vi = appendBytes(vi, 2, typ)
	return vi
}

// fold returns the BatchNorm scale and shift of c, y = scale*conv(x) + shift, computed as the
// nn.Net folds it.
func fold(c *nn.Conv) (scale, shift []float64) {
	scale = make([]float64, c.Out)
	shift = make([]float64, c.Out)
	for o := range c.Out {
		s := float64(c.Gamma[o]) / math.Sqrt(float64(c.Var[o])+nn.BNEps)
		scale[o] = s
		shift[o] = float64(c.Beta[o]) - float64(c.Mean[o])*s
	}
	return scale, shift
}

// conv adds a folded convolution (+ bias) node.
func (g *onnxBuilder) conv(name, in string, c *nn.Conv) string {
	scale, shift := fold(c)
	w := make([]float32, len(c.W))
	per := c.In * c.K * c.K
	for o := range c.Out {
		for i := range per {
			w[o*per+i] = float32(float64(c.W[o*per+i]) * scale[o])
		}
	}
	b := make([]float32, c.Out)
	for o := range b {
		b[o] = float32(shift[o])
	}
	wn := g.floatInit(name+".w", w, int64(c.Out), int64(c.In), int64(c.K), int64(c.K))
	bn := g.floatInit(name+".b", b, int64(c.Out))
	p := int64(c.K / 2)
	k := int64(c.K)
	return g.node("Conv", name, []string{in, wn, bn}, name+".out",
		attrIntsField("kernel_shape", k, k), attrIntsField("pads", p, p, p, p),
		attrIntsField("strides", 1, 1), attrIntsField("dilations", 1, 1))
}

func (g *onnxBuilder) gemm(name, in string, d *nn.Dense) string {
	wn := g.floatInit(name+".w", d.W, int64(d.In), int64(d.Out))
	bn := g.floatInit(name+".b", d.B, int64(d.Out))
	return g.node("Gemm", name, []string{in, wn, bn}, name+".out")
}

func (g *onnxBuilder) unary(op, in string) string {
	return g.node(op, in+"."+op, []string{in}, in+"."+op)
}

func export(m *nn.Model, w io.Writer, batch int) error {
	a := m.Arch
	if err := m.Weights.CheckShapes(a); err != nil {
		return fmt.Errorf("onnx: Export: %w", err)
	}
	g := &onnxBuilder{}
	x := g.unary("Relu", g.conv("stem", "input", &m.Weights.Stem))
	for b := range m.Weights.Blocks {
		name := fmt.Sprintf("block%d", b)
		h := g.unary("Relu", g.conv(name+".conv1", x, &m.Weights.Blocks[b][0]))
		y := g.conv(name+".conv2", h, &m.Weights.Blocks[b][1])
		s := g.node("Add", name+".add", []string{y, x}, name+".sum")
		x = g.unary("Relu", s)
	}
	p := g.unary("Relu", g.conv("policy.conv", x, &m.Weights.PolicyConv))
	p = g.node("Flatten", "policy.flatten", []string{p}, "policy.flat", attrIntField("axis", 1))
	g.node("Gemm", "policy.fc", []string{p, g.floatInit("policy.fc.w", m.Weights.PolicyFC.W, int64(a.PolicyChannels*a.Height*a.Width), int64(a.PolicySize)),
		g.floatInit("policy.fc.b", m.Weights.PolicyFC.B, int64(a.PolicySize))}, "policy")
	v := g.unary("Relu", g.conv("value.conv", x, &m.Weights.ValueConv))
	v = g.node("Flatten", "value.flatten", []string{v}, "value.flat", attrIntField("axis", 1))
	v = g.unary("Relu", g.gemm("value.fc1", v, &m.Weights.ValueFC1))
	v = g.gemm("value.fc2", v, &m.Weights.ValueFC2)
	g.node("Tanh", "value.tanh", []string{v}, "value")

	var graph []byte
	graph = append(graph, g.nodes...)
	graph = appendString(graph, 2, "colony-"+a.Game)
	graph = append(graph, g.inits...)
	n := int64(batch)
	graph = appendBytes(graph, 11, valueInfo("input", n, int64(a.Planes), int64(a.Height), int64(a.Width)))
	graph = appendBytes(graph, 12, valueInfo("policy", n, int64(a.PolicySize)))
	graph = appendBytes(graph, 12, valueInfo("value", n, int64(a.NumPlayers)))

	archJSON, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("onnx: Export: %w", err)
	}
	props := [][2]string{
		{"game", a.Game}, {"encoder_version", strconv.Itoa(a.EncoderVersion)},
		{"arch", string(archJSON)}, {"step", strconv.FormatInt(m.Step, 10)},
		{"weights_sha256", m.SHA256()},
	}
	metaJSON, err := json.Marshal(m.Meta)
	if err != nil {
		return fmt.Errorf("onnx: Export: metadata: %w", err)
	}
	props = append(props, [2]string{"meta", string(metaJSON)})

	var model []byte
	model = appendVarint(model, 1, onnxIRVersion)
	model = appendString(model, 2, "colony")
	model = appendString(model, 3, strconv.Itoa(nn.FormatVersion))
	var opset []byte
	opset = appendString(opset, 1, "")
	opset = appendVarint(opset, 2, onnxOpset)
	model = appendBytes(model, 8, opset)
	model = appendBytes(model, 7, graph)
	for _, kv := range props {
		var e []byte
		e = appendString(e, 1, kv[0])
		e = appendString(e, 2, kv[1])
		model = appendBytes(model, 14, e)
	}
	if _, err := w.Write(model); err != nil {
		return fmt.Errorf("onnx: Export: %w", err)
	}
	return nil
}
