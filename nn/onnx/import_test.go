package onnx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"colony/nn"
)

// testTensor is one initializer a test writes: FLOAT unless dataType is set.
type testTensor struct {
	name     string
	dims     []int64
	data     []float32
	dataType uint64
	enc      int // 0 raw_data, 1 packed float_data, 2 unpacked float_data
	extra    []byte
}

func (t testTensor) encode() []byte {
	var b []byte
	for _, d := range t.dims {
		b = appendVarint(b, 1, uint64(d))
	}
	dt := t.dataType
	if dt == 0 {
		dt = onnxFloat
	}
	b = appendVarint(b, 2, dt)
	b = appendString(b, 8, t.name)
	switch t.enc {
	case 0:
		raw := make([]byte, 0, 4*len(t.data))
		for _, v := range t.data {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
		}
		b = appendBytes(b, 9, raw)
	case 1:
		var p []byte
		for _, v := range t.data {
			p = protowire.AppendFixed32(p, math.Float32bits(v))
		}
		b = appendBytes(b, 4, p)
	case 2:
		for _, v := range t.data {
			b = protowire.AppendTag(b, 4, protowire.Fixed32Type)
			b = protowire.AppendFixed32(b, math.Float32bits(v))
		}
	}
	return append(b, t.extra...)
}

// gemmNode encodes a Gemm node taking weight w, with optional extra attributes.
func gemmNode(name, w string, attrs ...[]byte) []byte {
	g := &onnxBuilder{}
	g.node("Gemm", name, []string{name + ".in", w, name + ".bias"}, name+".out", attrs...)
	return g.nodes
}

// onnxModelBytes wraps initializers and nodes in a ModelProto.
func onnxModelBytes(ts []testTensor, nodes ...[]byte) []byte {
	var graph []byte
	for _, n := range nodes {
		graph = append(graph, n...)
	}
	for _, t := range ts {
		graph = appendBytes(graph, 5, t.encode())
	}
	var model []byte
	model = appendVarint(model, 1, onnxIRVersion)
	return appendBytes(model, 7, graph)
}

// unfoldedTensors lists m's weights with BatchNorm unfolded (gamma/beta/mean/var), dense
// weights [In, Out], cycling through the three data encodings.
func unfoldedTensors(m *nn.Model) []testTensor {
	var ts []testTensor
	add := func(name string, data []float32, dims ...int64) {
		ts = append(ts, testTensor{name: name, dims: dims, data: data, enc: len(ts) % 3})
	}
	conv := func(name string, c *nn.Conv) {
		o := int64(c.Out)
		add(name+".w", c.W, o, int64(c.In), int64(c.K), int64(c.K))
		add(name+".gamma", c.Gamma, o)
		add(name+".beta", c.Beta, o)
		add(name+".mean", c.Mean, o)
		add(name+".var", c.Var, o)
	}
	dense := func(name string, d *nn.Dense) {
		add(name+".w", d.W, int64(d.In), int64(d.Out))
		add(name+".b", d.B, int64(d.Out))
	}
	w := &m.Weights
	conv("stem", &w.Stem)
	for b := range w.Blocks {
		conv(fmt.Sprintf("block%d.conv1", b), &w.Blocks[b][0])
		conv(fmt.Sprintf("block%d.conv2", b), &w.Blocks[b][1])
	}
	conv("policy.conv", &w.PolicyConv)
	dense("policy.fc", &w.PolicyFC)
	conv("value.conv", &w.ValueConv)
	dense("value.fc1", &w.ValueFC1)
	dense("value.fc2", &w.ValueFC2)
	return ts
}

// transposed returns d.W laid out [Out][In], as PyTorch's nn.Linear stores it.
func transposed(d *nn.Dense) []float32 {
	t := make([]float32, len(d.W))
	for i := range d.In {
		for j := range d.Out {
			t[j*d.In+i] = d.W[i*d.Out+j]
		}
	}
	return t
}

// assertSameForward checks that the Nets of a and b give bit-identical outputs.
func assertSameForward(t *testing.T, what string, a, b *nn.Model) {
	t.Helper()
	const batch = 3
	arch := a.Arch
	in := randomInput(batch*arch.Planes*arch.Height*arch.Width, 5)
	na, err := nn.NewNet(a, batch)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nn.NewNet(b, batch)
	if err != nil {
		t.Fatal(err)
	}
	pa, va := make([]float32, batch*arch.PolicySize), make([]float32, batch*arch.NumPlayers)
	pb, vb := make([]float32, len(pa)), make([]float32, len(va))
	if err := na.Forward(in, batch, pa, va); err != nil {
		t.Fatal(err)
	}
	if err := nb.Forward(in, batch, pb, vb); err != nil {
		t.Fatal(err)
	}
	if !slices32Equal(pa, pb) || !slices32Equal(va, vb) {
		t.Errorf("%s/%s: imported model's outputs differ from the original's", what, na.Backend())
	}
}

func slices32Equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// graphOf returns the GraphProto bytes of an ONNX model.
func graphOf(t *testing.T, model []byte) []byte {
	t.Helper()
	return fields(t, model)[7][0].([]byte)
}

func TestIdentityVarFoldsToIdentity(t *testing.T) {
	s := 1 / math.Sqrt(float64(identityVar)+nn.BNEps)
	if d := math.Abs(s - 1); !(d < 0x1p-26) {
		t.Fatalf("identity BatchNorm scale is 1%+g, want within 2^-26 of 1", s-1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float32{0, 1, -1, math.MaxFloat32, math.SmallestNonzeroFloat32, 1.5, math.Nextafter32(1, 2), math.Nextafter32(2, 0)}
	for range 10000 {
		vals = append(vals, math.Float32frombits(rng.Uint32()&^(0xff<<23)|uint32(1+rng.IntN(253))<<23))
	}
	for _, v := range vals {
		if got := float32(float64(v) * s); got != v {
			t.Fatalf("folding the identity BatchNorm changes %g into %g", v, got)
		}
	}
}

func TestImportFoldedRoundTrip(t *testing.T) {
	for name, a := range testArches {
		m := testModel(a, 21)
		m.Step = 1234
		var exp bytes.Buffer
		if err := Export(m, &exp); err != nil {
			t.Fatal(err)
		}
		got, err := Import(bytes.NewReader(exp.Bytes()), a)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Step != 0 || !reflect.DeepEqual(got.Meta, map[string]string{"source": "onnx"}) || got.Arch != a {
			t.Errorf("%s: step %d, meta %v, arch %+v", name, got.Step, got.Meta, got.Arch)
		}
		if err := got.Weights.CheckShapes(a); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range [][2]*nn.Dense{{&m.Weights.PolicyFC, &got.Weights.PolicyFC},
			{&m.Weights.ValueFC1, &got.Weights.ValueFC1}, {&m.Weights.ValueFC2, &got.Weights.ValueFC2}} {
			if !reflect.DeepEqual(*p[0], *p[1]) {
				t.Errorf("%s: dense weights differ after import", name)
			}
		}
		// Exporting the imported model folds its BatchNorm again: the graph, initializers
		// included, must come out byte for byte the same.
		var again bytes.Buffer
		if err := Export(got, &again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(graphOf(t, exp.Bytes()), graphOf(t, again.Bytes())) {
			t.Errorf("%s: re-exported graph differs from the original export", name)
		}
		assertSameForward(t, name, m, got)
	}
}

func TestImportUnfoldedAndTransposed(t *testing.T) {
	for name, a := range testArches {
		m := testModel(a, 22)
		ts := unfoldedTensors(m)
		// value.fc1 as PyTorch writes an nn.Linear: [Out, In], consumed by Gemm with transB=1.
		for i := range ts {
			if ts[i].name == "value.fc1.w" {
				d := &m.Weights.ValueFC1
				ts[i].data, ts[i].dims = transposed(d), []int64{int64(d.Out), int64(d.In)}
			}
		}
		file := onnxModelBytes(ts,
			gemmNode("value.fc1", "value.fc1.w", attrIntField("transB", 1)),
			gemmNode("value.fc2", "value.fc2.w", attrIntField("transB", 0)))
		got, err := Import(bytes.NewReader(file), a)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Weights, m.Weights) {
			t.Errorf("%s: imported weights are not bit-identical to the original", name)
		}
		assertSameForward(t, name, m, got)
	}
}

func TestImportErrors(t *testing.T) {
	a := testArches["odd"]
	m := testModel(a, 23)
	var exp bytes.Buffer
	if err := Export(m, &exp); err != nil {
		t.Fatal(err)
	}
	good := unfoldedTensors(m)
	edit := func(f func(ts []testTensor) []testTensor, nodes ...[]byte) []byte {
		ts := f(append([]testTensor(nil), good...))
		return onnxModelBytes(ts, nodes...)
	}
	set := func(name string, f func(t *testTensor)) func([]testTensor) []testTensor {
		return func(ts []testTensor) []testTensor {
			for i := range ts {
				if ts[i].name == name {
					f(&ts[i])
				}
			}
			return ts
		}
	}
	otherArch := a
	otherArch.Game = "other"
	fc2 := &m.Weights.ValueFC2
	cases := []struct {
		name string
		file []byte
		arch nn.Arch
		want []string
	}{
		{"truncated", exp.Bytes()[:exp.Len()/2], a, []string{"truncated or corrupt"}},
		{"garbage", []byte("\x00\x00this is not an ONNX file"), a, []string{"truncated or corrupt"}},
		{"empty", nil, a, []string{"0 graphs"}},
		{"other arch", exp.Bytes(), otherArch, []string{"exported for arch", `Game:odd`}},
		{"missing", edit(func(ts []testTensor) []testTensor {
			for i := range ts {
				if ts[i].name == "block1.conv2.w" {
					return append(ts[:i], ts[i+1:]...)
				}
			}
			panic("no block1.conv2.w")
		}), a, []string{`missing initializer "block1.conv2.w"`, "[12 12 3 3]"}},
		{"wrong dim", edit(set("block0.conv1.w", func(t *testTensor) { t.dims = []int64{12, 12, 3, 2} })), a,
			[]string{`"block0.conv1.w" has dims [12 12 3 2], want [12 12 3 3]`}},
		{"non-float", edit(set("stem.gamma", func(t *testTensor) { t.dataType = 7 })), a,
			[]string{`"stem.gamma" has INT64 (7), want FLOAT`}},
		{"short data", edit(set("value.fc1.b", func(t *testTensor) { t.data = t.data[1:] })), a,
			[]string{`"value.fc1.b" has`, "want"}},
		{"extra", edit(func(ts []testTensor) []testTensor {
			return append(ts, testTensor{name: "onnx::Reshape_7", dims: []int64{2}, data: []float32{1, 2}})
		}), a, []string{`unexpected initializer "onnx::Reshape_7"`}},
		{"folded and unfolded", edit(func(ts []testTensor) []testTensor {
			return append(ts, testTensor{name: "value.conv.b", dims: []int64{2}, data: []float32{1, 2}})
		}), a, []string{`conv "value.conv" has both a folded bias`}},
		{"half unfolded", edit(func(ts []testTensor) []testTensor {
			for i := range ts {
				if ts[i].name == "policy.conv.mean" {
					return append(ts[:i], ts[i+1:]...)
				}
			}
			panic("no policy.conv.mean")
		}), a, []string{`missing initializer "policy.conv.mean"`}},
		{"linear without transB", edit(set("value.fc2.w", func(t *testTensor) {
			t.data, t.dims = transposed(fc2), []int64{int64(fc2.Out), int64(fc2.In)}
		})), a, []string{`"value.fc2.w" has dims [3 9], want [9 3]`, "transB=1"}},
		{"transB on a renamed input", edit(func(ts []testTensor) []testTensor { return ts },
			gemmNode("fc", "onnx::Gemm_3", attrIntField("transB", 1))), a,
			[]string{`Gemm node "fc" takes transposed weight "onnx::Gemm_3", which is no initializer`}},
		{"gemm alpha", edit(func(ts []testTensor) []testTensor { return ts },
			gemmNode("fc", "value.fc2.w", attrFloatField("alpha", 2))), a, []string{`Gemm node "fc" has transA 0, alpha 2`}},
		{"negative var", edit(set("stem.var", func(t *testTensor) { t.data = append([]float32{-1}, t.data[1:]...) })), a,
			[]string{`"stem.var" value 0 is -1, a negative variance`}},
		{"nan", edit(set("policy.fc.w", func(t *testTensor) {
			t.data = append([]float32{float32(math.NaN())}, t.data[1:]...)
		})), a, []string{`"policy.fc.w" value 0 is NaN`}},
		{"external", edit(set("stem.w", func(t *testTensor) { t.extra = appendVarint(nil, 14, 1) })), a,
			[]string{`"stem.w" is stored in an external data file`}},
	}
	for _, c := range cases {
		_, err := Import(bytes.NewReader(c.file), c.arch)
		if err == nil {
			t.Errorf("%s: imported without error", c.name)
			continue
		}
		t.Logf("%s: %v", c.name, err)
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
}

// attrFloatField encodes a FLOAT attribute.
func attrFloatField(name string, v float32) []byte {
	var a []byte
	a = appendString(a, 1, name)
	a = protowire.AppendTag(a, 2, protowire.Fixed32Type)
	a = protowire.AppendFixed32(a, math.Float32bits(v))
	a = appendVarint(a, 20, 1) // AttributeProto.FLOAT
	return appendBytes(nil, 5, a)
}
