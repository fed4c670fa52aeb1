package onnx

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"colony/nn"
)

// ONNX import: the weights of an ONNX model (for instance one trained with PyTorch and written
// by torch.onnx.export) become a Colony Model. Only the graph's initializers are read, by name;
// the graph's nodes are trusted to compute the Arch (see Import) and are looked at only to
// learn whether a Gemm takes its weight transposed. Field numbers are those of onnx.proto.

// identityVar is the float32 BatchNorm variance v whose v+BNEps is closest to 1, so that with
// gamma 1 and mean 0 the folded scale 1/sqrt(v+BNEps) is within 2^-27 of 1: multiplying a
// float32 weight by it and rounding back to float32 gives the same weight, bit for bit. A conv
// imported with folded BatchNorm gets these statistics, so that folding it again (the Net, or
// Export) reproduces the imported weights and biases exactly.
var identityVar = func() float32 {
	v := float32(1 - nn.BNEps)
	dist := func(v float32) float64 { return math.Abs(float64(v) + nn.BNEps - 1) }
	for {
		switch {
		case dist(math.Nextafter32(v, 2)) < dist(v):
			v = math.Nextafter32(v, 2)
		case dist(math.Nextafter32(v, 0)) < dist(v):
			v = math.Nextafter32(v, 0)
		default:
			return v
		}
	}
}()

// onnxTensor is one decoded TensorProto, its data not yet converted.
type onnxTensor struct {
	name      string
	dims      []int64
	dataType  uint64
	raw       []byte    // raw_data (little-endian)
	floats    []float32 // float_data
	hasRaw    bool
	hasFloats bool
	external  bool // data_location EXTERNAL or external_data entries
	otherData bool // int32/int64/string/double/uint64 data
}

// onnxGemm is what the importer needs of a Gemm node.
type onnxGemm struct {
	name, b        string // node name, B input
	transA, transB int64
	alpha, beta    float32 // 1 unless given
	badAttr        string  // an attribute Gemm should not have, if any
}

type onnxFile struct {
	inits map[string]*onnxTensor
	order []string // initializer names in file order
	gemms []onnxGemm
	arch  string // metadata_props "arch", if any
}

// onnxTypeNames names the common TensorProto.DataType values in error messages.
var onnxTypeNames = map[uint64]string{
	0: "UNDEFINED", 1: "FLOAT", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32",
	7: "INT64", 8: "STRING", 9: "BOOL", 10: "FLOAT16", 11: "DOUBLE", 12: "UINT32", 13: "UINT64",
	16: "BFLOAT16",
}

func onnxTypeName(t uint64) string {
	if s, ok := onnxTypeNames[t]; ok {
		return fmt.Sprintf("%s (%d)", s, t)
	}
	return fmt.Sprintf("data type %d", t)
}

// pbField is one decoded protobuf field: v for varint and fixed types, b for bytes.
type pbField struct {
	num protowire.Number
	typ protowire.Type
	v   uint64
	b   []byte
}

// pbWalk calls fn on every field of the message b, in order.
func pbWalk(b []byte, fn func(f pbField) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		f := pbField{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.v = uint64(v)
		case protowire.Fixed64Type:
			f.v, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			f.b, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

func wantType(f pbField, typ protowire.Type, what string) error {
	if f.typ != typ {
		return fmt.Errorf("%s (field %d) has wire type %d, want %d", what, f.num, f.typ, typ)
	}
	return nil
}

// pbRepeated decodes a repeated scalar field that may be packed (bytes) or not; unpacked
// values arrive one per call. each receives the raw varint or fixed value.
func pbRepeated(f pbField, typ protowire.Type, what string, each func(v uint64)) error {
	if f.typ == typ {
		each(f.v)
		return nil
	}
	if f.typ != protowire.BytesType {
		return fmt.Errorf("%s (field %d) has wire type %d", what, f.num, f.typ)
	}
	b := f.b
	for len(b) > 0 {
		var n int
		switch typ {
		case protowire.VarintType:
			var v uint64
			v, n = protowire.ConsumeVarint(b)
			if n >= 0 {
				each(v)
			}
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			if n >= 0 {
				each(uint64(v))
			}
		default:
			return fmt.Errorf("%s: unsupported packed type %d", what, typ)
		}
		if n < 0 {
			return fmt.Errorf("packed %s: %w", what, protowire.ParseError(n))
		}
		b = b[n:]
	}
	return nil
}

func parseTensor(b []byte) (*onnxTensor, error) {
	t := &onnxTensor{}
	err := pbWalk(b, func(f pbField) error {
		switch f.num {
		case 1: // dims
			return pbRepeated(f, protowire.VarintType, "dims", func(v uint64) { t.dims = append(t.dims, int64(v)) })
		case 2: // data_type
			if err := wantType(f, protowire.VarintType, "data_type"); err != nil {
				return err
			}
			t.dataType = f.v
		case 4: // float_data
			t.hasFloats = true
			return pbRepeated(f, protowire.Fixed32Type, "float_data", func(v uint64) {
				t.floats = append(t.floats, math.Float32frombits(uint32(v)))
			})
		case 5, 6, 7, 10, 11: // int32, string, int64, double, uint64 data
			t.otherData = true
		case 8: // name
			if err := wantType(f, protowire.BytesType, "name"); err != nil {
				return err
			}
			t.name = string(f.b)
		case 9: // raw_data
			if err := wantType(f, protowire.BytesType, "raw_data"); err != nil {
				return err
			}
			t.raw, t.hasRaw = f.b, true
		case 13: // external_data
			t.external = true
		case 14: // data_location
			if f.v != 0 {
				t.external = true
			}
		}
		return nil
	})
	return t, err
}

func parseGemm(b []byte) (onnxGemm, bool, error) {
	g := onnxGemm{alpha: 1, beta: 1}
	var op string
	var inputs []string
	err := pbWalk(b, func(f pbField) error {
		switch f.num {
		case 1: // input
			if err := wantType(f, protowire.BytesType, "node input"); err != nil {
				return err
			}
			inputs = append(inputs, string(f.b))
		case 3: // name
			g.name = string(f.b)
		case 4: // op_type
			if err := wantType(f, protowire.BytesType, "node op_type"); err != nil {
				return err
			}
			op = string(f.b)
		case 5: // attribute
			if err := wantType(f, protowire.BytesType, "node attribute"); err != nil {
				return err
			}
			var name string
			var fv float32
			var iv int64
			if err := pbWalk(f.b, func(a pbField) error {
				switch a.num {
				case 1:
					name = string(a.b)
				case 2: // f
					fv = math.Float32frombits(uint32(a.v))
				case 3: // i
					iv = int64(a.v)
				}
				return nil
			}); err != nil {
				return fmt.Errorf("attribute: %w", err)
			}
			switch name {
			case "transA":
				g.transA = iv
			case "transB":
				g.transB = iv
			case "alpha":
				g.alpha = fv
			case "beta":
				g.beta = fv
			default:
				g.badAttr = name
			}
		}
		return nil
	})
	if err != nil || op != "Gemm" {
		return g, false, err
	}
	if len(inputs) >= 2 {
		g.b = inputs[1]
	}
	return g, true, nil
}

func parseONNX(data []byte) (*onnxFile, error) {
	f := &onnxFile{inits: map[string]*onnxTensor{}}
	var graph []byte
	graphs := 0
	err := pbWalk(data, func(fl pbField) error {
		switch fl.num {
		case 7: // graph
			if err := wantType(fl, protowire.BytesType, "graph"); err != nil {
				return err
			}
			graph, graphs = fl.b, graphs+1
		case 14: // metadata_props
			if err := wantType(fl, protowire.BytesType, "metadata_props"); err != nil {
				return err
			}
			var k, v string
			if err := pbWalk(fl.b, func(e pbField) error {
				switch e.num {
				case 1:
					k = string(e.b)
				case 2:
					v = string(e.b)
				}
				return nil
			}); err != nil {
				return fmt.Errorf("metadata_props: %w", err)
			}
			if k == "arch" {
				f.arch = v
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("not a valid ONNX file (truncated or corrupt protobuf): %w", err)
	}
	if graphs != 1 {
		return nil, fmt.Errorf("not an ONNX model: %d graphs (ModelProto field 7), want 1", graphs)
	}
	err = pbWalk(graph, func(fl pbField) error {
		switch fl.num {
		case 1: // node
			if err := wantType(fl, protowire.BytesType, "node"); err != nil {
				return err
			}
			g, ok, err := parseGemm(fl.b)
			if err != nil {
				return fmt.Errorf("node: %w", err)
			}
			if ok {
				f.gemms = append(f.gemms, g)
			}
		case 5: // initializer
			if err := wantType(fl, protowire.BytesType, "initializer"); err != nil {
				return err
			}
			t, err := parseTensor(fl.b)
			if err != nil {
				return fmt.Errorf("initializer %d: %w", len(f.order), err)
			}
			if _, dup := f.inits[t.name]; dup {
				return fmt.Errorf("initializer %q appears twice", t.name)
			}
			f.inits[t.name] = t
			f.order = append(f.order, t.name)
		case 15: // sparse_initializer
			return errors.New("sparse initializers are not supported: store the weights as dense initializers")
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	return f, nil
}

// values checks t's type, dims and data and returns its float32 values.
func (t *onnxTensor) values(want []int64, layout string) ([]float32, error) {
	switch {
	case t.dataType != onnxFloat:
		return nil, fmt.Errorf("initializer %q has %s, want FLOAT (1) (convert the model to float32)", t.name, onnxTypeName(t.dataType))
	case !slices.Equal(t.dims, want):
		return nil, fmt.Errorf("initializer %q has dims %v, want %v (%s)", t.name, t.dims, want, layout)
	case t.external:
		return nil, fmt.Errorf("initializer %q is stored in an external data file: save the model with its weights inside", t.name)
	case t.otherData || (t.hasRaw && t.hasFloats):
		return nil, fmt.Errorf("initializer %q has its data in more than one field or in a non-float field", t.name)
	}
	n := int64(1)
	for _, d := range want {
		n *= d
	}
	var v []float32
	if t.hasRaw {
		if int64(len(t.raw)) != 4*n {
			return nil, fmt.Errorf("initializer %q has %d bytes of raw_data, want %d (%d float32)", t.name, len(t.raw), 4*n, n)
		}
		v = make([]float32, n)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.raw[4*i:]))
		}
	} else {
		if int64(len(t.floats)) != n {
			return nil, fmt.Errorf("initializer %q has %d float_data values, want %d", t.name, len(t.floats), n)
		}
		v = t.floats
	}
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("initializer %q value %d is %g", t.name, i, x)
		}
	}
	return v, nil
}

// Import reads the weights of an ONNX model of architecture a: a model written by
// Export, or one trained elsewhere (e.g. PyTorch, torch.onnx.export) whose graph computes
// the network Arch describes. The result has Step 0 and Meta {"source": "onnx"}.
//
// Only the graph's initializers are read, and they are matched BY NAME. Every tensor below must
// be present, FLOAT (float32, in raw_data or float_data, not external), with exactly these dims,
// and no other initializer may exist (rename the file's initializers, and the node inputs that
// refer to them, before importing; keep the graph free of constant shape tensors, e.g. use
// flatten(1) rather than view). With C = Channels, P = Planes, HW = Height*Width:
//
//	stem.w                      [C, P, 3, 3]
//	block<i>.conv1.w, .conv2.w  [C, C, 3, 3]        for i = 0 .. Blocks-1
//	policy.conv.w               [PolicyChannels, C, 1, 1]
//	value.conv.w                [ValueChannels, C, 1, 1]
//	policy.fc.w, policy.fc.b    [PolicyChannels*HW, PolicySize], [PolicySize]
//	value.fc1.w, value.fc1.b    [ValueChannels*HW, ValueHidden], [ValueHidden]
//	value.fc2.w, value.fc2.b    [ValueHidden, NumPlayers], [NumPlayers]
//
// Each convolution <conv> (stem, block<i>.conv1, ...) has no bias of its own and gives its
// BatchNorm in one of two forms:
//
//   - folded: <conv>.b [Out], with <conv>.w already scaled: the Conv's weight and bias after
//     BatchNorm is folded into it. This is what Export writes, and what torch.onnx.export
//     typically writes in eval mode (it fuses Conv and BatchNorm; a conv bias, if any, is
//     folded in too). The Model gets BatchNorm gamma 1, beta b, mean 0 and a variance chosen
//     so that folding it again gives back w and b bit for bit.
//   - unfolded: <conv>.gamma, <conv>.beta, <conv>.mean, <conv>.var [Out] (the scale, B,
//     input_mean and input_var of a BatchNormalization; a PyTorch BatchNorm2d's weight, bias,
//     running_mean and running_var), with <conv>.w the raw convolution weight.
//
// Dense weights are [In, Out] (y = x W + b, Gemm with transB = 0, as Export writes them).
// A weight that is the B input of a Gemm node with transB = 1 in the graph, as PyTorch's
// nn.Linear exports, is read as [Out, In] and transposed. Gemm nodes must have alpha = beta = 1
// and transA = 0. The Flatten before each head's first dense layer is over NCHW order.
//
// If the file carries the "arch" metadata Export writes, it must equal a. Every problem
// with the tensors (missing, misshapen, non-float or extra ones) is reported in one error.
func Import(r io.Reader, a nn.Arch) (*nn.Model, error) {
	fail := func(err error) (*nn.Model, error) { return nil, fmt.Errorf("onnx: Import: %w", err) }
	if err := a.Validate(); err != nil {
		return fail(err)
	}
	limit := 4*a.NumWeights() + 64<<20 // the weights plus room for the graph and metadata
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return fail(err)
	}
	if int64(len(data)) > limit {
		return fail(fmt.Errorf("file is larger than %d bytes, far more than the %d weights of the arch", limit, a.NumWeights()))
	}
	f, err := parseONNX(data)
	if err != nil {
		return fail(err)
	}
	if f.arch != "" {
		var fa nn.Arch
		if err := json.Unmarshal([]byte(f.arch), &fa); err != nil {
			return fail(fmt.Errorf("metadata arch: %w", err))
		}
		if fa != a {
			return fail(fmt.Errorf("file was exported for arch %+v, want %+v", fa, a))
		}
	}

	var errs []error
	transB := map[string]bool{}
	for _, g := range f.gemms {
		switch {
		case g.badAttr != "":
			errs = append(errs, fmt.Errorf("Gemm node %q has unexpected attribute %q", g.name, g.badAttr))
		case g.transA != 0 || g.alpha != 1 || g.beta != 1:
			errs = append(errs, fmt.Errorf("Gemm node %q has transA %d, alpha %g, beta %g: want transA 0, alpha 1, beta 1",
				g.name, g.transA, g.alpha, g.beta))
		}
		if g.transB != 0 {
			if _, ok := f.inits[g.b]; !ok {
				errs = append(errs, fmt.Errorf("Gemm node %q takes transposed weight %q, which is no initializer (rename node inputs along with initializers)", g.name, g.b))
			}
			transB[g.b] = true
		}
	}

	used := map[string]bool{}
	take := func(name string, want []int64, layout string) []float32 {
		t, ok := f.inits[name]
		if !ok {
			errs = append(errs, fmt.Errorf("missing initializer %q: want FLOAT %v (%s)", name, want, layout))
			return nil
		}
		used[name] = true
		v, err := t.values(want, layout)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	w := nn.NewWeights(a)
	conv := func(name string, c *nn.Conv) {
		o := int64(c.Out)
		if v := take(name+".w", []int64{o, int64(c.In), int64(c.K), int64(c.K)}, "conv weight out x in x k x k"); v != nil {
			copy(c.W, v)
		}
		_, folded := f.inits[name+".b"]
		bn := []string{".gamma", ".beta", ".mean", ".var"}
		var present []string
		for _, s := range bn {
			if _, ok := f.inits[name+s]; ok {
				present = append(present, name+s)
			}
		}
		if folded && len(present) > 0 {
			errs = append(errs, fmt.Errorf("conv %q has both a folded bias %q and BatchNorm tensors %s: give one or the other",
				name, name+".b", strings.Join(present, ", ")))
			for _, p := range present {
				used[p] = true // reported above, not again as unexpected
			}
		}
		if folded || len(present) == 0 {
			if v := take(name+".b", []int64{o}, "folded conv+BatchNorm bias; or give "+name+".gamma/.beta/.mean/.var"); v != nil {
				copy(c.Beta, v)
			}
			for i := range c.Out {
				c.Gamma[i], c.Mean[i], c.Var[i] = 1, 0, identityVar
			}
			return
		}
		for i, dst := range [][]float32{c.Gamma, c.Beta, c.Mean, c.Var} {
			if v := take(name+bn[i], []int64{o}, "BatchNorm"); v != nil {
				copy(dst, v)
			}
		}
		for i, v := range c.Var {
			if v < 0 {
				errs = append(errs, fmt.Errorf("initializer %q value %d is %g, a negative variance", name+".var", i, v))
				break
			}
		}
	}
	dense := func(name string, d *nn.Dense) {
		in, out := int64(d.In), int64(d.Out)
		if transB[name+".w"] {
			if v := take(name+".w", []int64{out, in}, "out x in: Gemm B with transB=1"); v != nil {
				for i := range d.In {
					for j := range d.Out {
						d.W[i*d.Out+j] = v[j*d.In+i]
					}
				}
			}
		} else {
			layout := "in x out: Gemm B with transB=0"
			if t, ok := f.inits[name+".w"]; ok && slices.Equal(t.dims, []int64{out, in}) && in != out {
				layout += "; an [out, in] weight (PyTorch nn.Linear) must feed a Gemm with transB=1 or be transposed"
			}
			if v := take(name+".w", []int64{in, out}, layout); v != nil {
				copy(d.W, v)
			}
		}
		if v := take(name+".b", []int64{out}, "dense bias"); v != nil {
			copy(d.B, v)
		}
	}
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
	for _, name := range f.order {
		if !used[name] {
			t := f.inits[name]
			errs = append(errs, fmt.Errorf("unexpected initializer %q (%s %v): not a weight of this arch (see the names in Import's doc)",
				name, onnxTypeName(t.dataType), t.dims))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	if err := w.CheckShapes(a); err != nil {
		return fail(err)
	}
	return &nn.Model{Arch: a, Weights: w, Meta: map[string]string{"source": "onnx"}}, nil
}
