package cpp

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/models"
	"colony/nn/nnue"
)

// riceDecode is the test's own reading of the Rice code (riceEscape's comment), bit by bit:
// n weights at parameter k, nothing after them but the last byte's zero bits.
func riceDecode(data []byte, k uint, n int) ([]int16, error) {
	pos := 0
	bit := func() (uint32, error) {
		if pos >= 8*len(data) {
			return 0, errors.New("ends early")
		}
		b := uint32(data[pos/8]>>(pos%8)) & 1
		pos++
		return b, nil
	}
	field := func(width uint) (uint32, error) {
		var z uint32
		for i := range width {
			b, err := bit()
			if err != nil {
				return 0, err
			}
			z |= b << i
		}
		return z, nil
	}
	out := make([]int16, 0, n)
	for range n {
		q := uint32(0)
		for q < riceEscape {
			b, err := bit()
			if err != nil {
				return nil, err
			}
			if b == 0 {
				break
			}
			q++
		}
		var z uint32
		if q < riceEscape {
			low, err := field(k)
			if err != nil {
				return nil, err
			}
			z = q<<k | low
		} else {
			var err error
			if z, err = field(16); err != nil {
				return nil, err
			}
		}
		if z > math.MaxUint16 {
			return nil, fmt.Errorf("weight %d: z %d out of range", len(out), z)
		}
		v := int32(z >> 1)
		if z&1 != 0 {
			v = -v - 1
		}
		out = append(out, int16(v))
	}
	if 8*len(data)-pos >= 8 {
		return nil, errors.New("bytes after the weights")
	}
	if pos < 8*len(data) && data[len(data)-1]>>(pos%8) != 0 {
		return nil, errors.New("nonzero padding bits")
	}
	return out, nil
}

// TestRiceCode: the weight tables' code round-trips at every parameter, extremes and the
// escape included; riceParam's choice is never longer than another parameter's, and it codes
// the shipped net's table at about 9 bits a weight (at most 11).
func TestRiceCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []int16{0, -1, 1, math.MaxInt16, math.MinInt16, 127, -128, 1 << 14, -(1 << 14)}
	for range 5000 {
		vals = append(vals, int16(rng.NormFloat64()*150))
	}
	for k := uint(0); k < 16; k++ {
		data := riceEncode(vals, k)
		bits := 0
		for _, v := range vals {
			bits += riceBits(zigzag16(v), k)
		}
		if len(data) != (bits+7)/8 {
			t.Errorf("k %d: %d bytes, want %d", k, len(data), (bits+7)/8)
		}
		got, err := riceDecode(data, k, len(vals))
		if err != nil {
			t.Fatalf("k %d: %v", k, err)
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("k %d: weight %d decoded as %d, want %d", k, i, got[i], vals[i])
			}
		}
		// Below k = 7 a zero weight (k+1 bits) fits in the last byte's padding, so only from
		// there does one weight more than coded run out of bits.
		if _, err := riceDecode(data, k, len(vals)+1); err == nil && k >= 7 {
			t.Errorf("k %d: one weight more than coded decoded without an error", k)
		}
		if _, err := riceDecode(append(data, 0), k, len(vals)); err == nil {
			t.Errorf("k %d: a byte after the weights was accepted", k)
		}
	}
	best := riceParam(vals)
	for k := uint(0); k < 16; k++ {
		if len(riceEncode(vals, k)) < len(riceEncode(vals, best)) {
			t.Errorf("riceParam chose %d, but %d codes shorter", best, k)
		}
	}
	ft := flatFT(shippedInts(t))
	k := riceParam(ft)
	perWeight := 8 * float64(len(riceEncode(ft, k))) / float64(len(ft))
	t.Logf("the shipped net's feature table: k %d, %.2f bits a weight", k, perWeight)
	if perWeight > 11 {
		t.Errorf("the shipped feature table codes at %.2f bits a weight, want about 9", perWeight)
	}
}

// shippedInts are the newest embedded Bacteria War net's integers.
func shippedInts(t *testing.T) nnue.Ints {
	t.Helper()
	net, _, err := nnab.LoadNet("")
	if err != nil {
		t.Fatal(err)
	}
	return net.Ints()
}

// ftLiteral matches the export's feature table: its Rice parameter and its base64 text.
var ftLiteral = regexp.MustCompile(`static const int FT_RICE_K = (\d+);\nstatic const char FT_B64\[\] =((?:\n    "[^"]*")+);\n`)

// TestCPPExportTableFits: a 256-lane window SCReLU net of two perspectives whose feature
// table holds the shipped net's trained weights twice over (each lane copied) exports within
// the judge's 1.5 MB, and its table's text decodes to its quantized weights.
func TestCPPExportTableFits(t *testing.T) {
	shipped, _, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, "")
	if err != nil {
		t.Fatal(err)
	}
	if shipped.Arch.Input != nnue.WindowInput || shipped.Arch.L1 != 0 {
		t.Skipf("the shipped net %s is not a window net without a hidden layer", shipped.Arch)
	}
	wide, err := nnue.Widen(shipped, 2*shipped.Arch.Hidden, 1)
	if err != nil {
		t.Fatal(err)
	}
	H, H2 := shipped.Arch.Hidden, wide.Arch.Hidden
	for f := range wide.Arch.Features() {
		copy(wide.Weights.FT[f*H2+H:(f+1)*H2], shipped.Weights.FT[f*H:(f+1)*H])
	}
	copy(wide.Weights.FTBias[H:], shipped.Weights.FTBias)
	file := filepath.Join(t.TempDir(), "wide.nnue")
	if err := wide.Save(file); err != nil {
		t.Fatal(err)
	}
	src, info, err := Generate(Options{Game: ataxx.Info.Name, Model: file})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a %d-lane export: %d bytes", H2, len(src))
	if len(src) > 1500*1000 || info.Size != len(src) {
		t.Errorf("the %d-lane export: size %d (info %d), want at most 1.5 MB", H2, len(src), info.Size)
	}
	net, err := nnue.Quantize(wide, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := flatFT(net.Ints())
	k, data := ftText(t, src)
	got, err := riceDecode(data, k, len(want))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("weight %d of the exported table is %d, want %d", i, got[i], want[i])
		}
	}
}

// ftText returns the Rice parameter and the decoded base64 bytes of src's feature table.
func ftText(t *testing.T, src []byte) (uint, []byte) {
	t.Helper()
	m := ftLiteral.FindSubmatch(src)
	if m == nil {
		t.Fatal("no FT_RICE_K and FT_B64 in the export")
	}
	k, err := strconv.Atoi(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, line := range strings.Split(string(m[2]), "\n") {
		text.WriteString(strings.Trim(strings.TrimSpace(line), `"`))
	}
	data, err := base64.StdEncoding.DecodeString(text.String())
	if err != nil {
		t.Fatal(err)
	}
	return uint(k), data
}

// TestCPPRefusesDamagedTable: the program ends with an error, before answering anything,
// when its feature table's text holds one weight too few or weights after the table, has a
// character that is not base64, or has text after its padding.
func TestCPPRefusesDamagedTable(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ is not installed: the C++ export's tests need it (.ci/run installs it)")
	}
	src, _, err := Generate(Options{Game: ataxx.Info.Name})
	if err != nil {
		t.Fatal(err)
	}
	k, data := ftText(t, src)
	n := len(flatFT(shippedInts(t)))
	vals, err := riceDecode(data, k, n)
	if err != nil {
		t.Fatal(err)
	}
	text := func(vs []int16) string {
		return base64.StdEncoding.EncodeToString(riceEncode(vs, k))
	}
	b64 := text(vals)
	padded := b64 + "A"
	if !strings.HasSuffix(b64, "=") {
		padded = b64 + "=A"
	}
	cases := []struct{ name, text, want string }{
		{"one weight too few", text(vals[:n-1]), "ends before its"},
		{"weights after the table", text(append(append([]int16(nil), vals...), 0, 0, 0, 0, 0, 0, 0, 0)), "more than its"},
		{"not base64", "!" + b64[1:], "damaged weight text at character 0"},
		{"text after the padding", padded, "damaged weight text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lit := ftLiteral.FindIndex(src)
			var b bytes.Buffer
			b.Write(src[:lit[0]])
			fmt.Fprintf(&b, "static const int FT_RICE_K = %d;\nstatic const char FT_B64[] =\n    %q;\n", k, c.text)
			b.Write(src[lit[1]:])
			bin, err := Build(b.Bytes(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "--parity")
			cmd.Stdin = strings.NewReader("perft startpos 1\n")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the program ran with a damaged table: %q", out)
			}
			if !strings.Contains(string(out), "colony: ") || !strings.Contains(string(out), c.want) {
				t.Errorf("its message %q does not name the damage (%q)", out, c.want)
			}
		})
	}
}
