package onnx

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"colony/nn"
)

// fields decodes one protobuf message into its fields (number -> raw values; varints as
// uint64, length-delimited as []byte).
func fields(t *testing.T, b []byte) map[protowire.Number][]any {
	t.Helper()
	out := map[protowire.Number][]any{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatal("bad varint")
			}
			out[num] = append(out[num], v)
			b = b[n:]
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				t.Fatal("bad bytes")
			}
			out[num] = append(out[num], v)
			b = b[n:]
		default:
			t.Fatalf("unexpected wire type %v", typ)
		}
	}
	return out
}

func TestExportONNXStructure(t *testing.T) {
	m := nn.NewRandom(ataxxArch(2, 4), 1)
	var buf bytes.Buffer
	if err := Export(m, &buf); err != nil {
		t.Fatal(err)
	}
	model := fields(t, buf.Bytes())
	if model[1][0].(uint64) != onnxIRVersion {
		t.Errorf("ir_version %v", model[1])
	}
	opset := fields(t, model[8][0].([]byte))
	if opset[2][0].(uint64) != 9 {
		t.Errorf("opset %v", opset[2])
	}
	graph := fields(t, model[7][0].([]byte))
	var ops []string
	for _, n := range graph[1] {
		ops = append(ops, string(fields(t, n.([]byte))[4][0].([]byte)))
	}
	want := []string{"Conv", "Relu"}
	for range 2 {
		want = append(want, "Conv", "Relu", "Conv", "Add", "Relu")
	}
	want = append(want, "Conv", "Relu", "Flatten", "Gemm", "Conv", "Relu", "Flatten", "Gemm", "Relu", "Gemm", "Tanh")
	if len(ops) != len(want) {
		t.Fatalf("ops %v, want %v", ops, want)
	}
	for i := range ops {
		if ops[i] != want[i] {
			t.Fatalf("ops %v, want %v", ops, want)
		}
	}
	// Initializer sizes add up to the folded weights: the BatchNorm vectors become one bias.
	var floats int
	for _, in := range graph[5] {
		floats += len(fields(t, in.([]byte))[9][0].([]byte)) / 4
	}
	a := m.Arch
	wantFloats := int(a.NumWeights()) - 3*(a.Channels*(1+2*a.Blocks)+a.PolicyChannels+a.ValueChannels)
	if floats != wantFloats {
		t.Errorf("initializers hold %d floats, want %d", floats, wantFloats)
	}
	// The input has a symbolic batch dimension and the Ataxx planes.
	in := fields(t, graph[11][0].([]byte))
	if string(in[1][0].([]byte)) != "input" {
		t.Errorf("input name %q", in[1][0])
	}
	tt := fields(t, fields(t, in[2][0].([]byte))[1][0].([]byte))
	dims := fields(t, tt[2][0].([]byte))[1]
	if len(dims) != 4 {
		t.Fatalf("input has %d dims", len(dims))
	}
	if d := fields(t, dims[0].([]byte)); string(d[2][0].([]byte)) != "N" {
		t.Errorf("batch dim %v, want symbolic N", d)
	}
	if d := fields(t, dims[1].([]byte)); d[1][0].(uint64) != uint64(a.Planes) {
		t.Errorf("planes dim %v", d)
	}
	outs := graph[12]
	if len(outs) != 2 || string(fields(t, outs[0].([]byte))[1][0].([]byte)) != "policy" || string(fields(t, outs[1].([]byte))[1][0].([]byte)) != "value" {
		t.Errorf("outputs are not policy, value")
	}
}
