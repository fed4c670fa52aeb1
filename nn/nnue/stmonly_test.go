package nnue

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// stmOnly is a with a tail that reads the side to move's accumulator only.
func stmOnly(a Arch) Arch {
	a.STMOnly = true
	return a
}

// stmArches are the one-perspective nets the tests below cover: cell and window input, CReLU
// and SCReLU, with and without L1.
func stmArches() []Arch {
	return []Arch{
		stmOnly(testArch(128, 0)), stmOnly(screlu(testArch(256, 0))), stmOnly(testArch(64, 32)),
		stmOnly(windowArch(128, 0, CReLU)), stmOnly(windowArch(256, 0, SCReLU)), stmOnly(windowArch(64, 32, SCReLU)),
	}
}

// TestSTMOnlyForward: an STMOnly net's float forward pass is the two-perspective net's with the
// other perspective's tail weights zero (ToSTMOnly keeps the rest), and its shapes are halved.
func TestSTMOnlyForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, a := range stmArches() {
		two := a
		two.STMOnly = false
		m2 := NewRandom(two, 9)
		if a.L1 == 0 {
			clear(m2.Weights.OutW[a.Hidden:])
		} else {
			clear(m2.Weights.L1W[a.Hidden*a.L1:])
		}
		m1, err := ToSTMOnly(m2)
		if err != nil {
			t.Fatal(err)
		}
		if m1.Arch != a || m1.CheckShapes() != nil || a.NumWeights() != two.NumWeights()-a.Hidden*max(a.L1, 1) {
			t.Fatalf("%s: ToSTMOnly gave %s with %d weights", a, m1.Arch, a.NumWeights())
		}
		for range 500 {
			pieces, stm := randomPieces(rng, a.Cells)
			if got, want := m1.Forward(pieces, stm), m2.Forward(pieces, stm); math.Abs(float64(got-want)) > 1e-5 {
				t.Fatalf("%s: forward %v, two-perspective net without the other half %v", a, got, want)
			}
		}
		if _, err := ToSTMOnly(m1); err == nil {
			t.Errorf("%s: ToSTMOnly of an stm-only net succeeded", a)
		}
	}
}

// TestSTMOnlyQuantized: the integer net follows the float one within the usual tolerance, its
// Ints evaluate as the Net does, an update equals a refresh, and an evaluation allocates
// nothing, for every STMOnly shape.
func TestSTMOnlyQuantized(t *testing.T) {
	for _, a := range stmArches() {
		m, net := quantizeScaled(t, a, 17)
		rng := rand.New(rand.NewPCG(2, 3))
		acc := net.NewAcc()
		var v Ints
		if a.L1 == 0 {
			v = net.Ints()
			if len(v.OutW) != a.Hidden {
				t.Fatalf("%s: Ints has %d output weights", a, len(v.OutW))
			}
		}
		checkLogits(t, m, net, rng, acc, 2000, func(pieces [2]uint64, stm int) {
			if a.L1 == 0 && a.Input == CellInput {
				if g, w := evalInts(v, pieces, stm), net.Evaluate(acc, stm, a.Bucket(pieces)); g != w {
					t.Fatalf("%s: Ints evaluate %d, Net %d", a, g, w)
				}
			}
		})
		// Incremental updates and allocations.
		fresh := net.NewAcc()
		playRandom(net, acc, rng, 20, 40, func(mv move) {
			net.Refresh(fresh, mv.after)
			if !slicesEqual(acc, fresh) || net.Output(acc, mv.p^1, a.Bucket(mv.after)) != net.Output(fresh, mv.p^1, a.Bucket(mv.after)) {
				t.Fatalf("%s: update differs from refresh after %+v", a, mv)
			}
		})
		checkApplyEvalNoAllocs(t, net, 500)
	}
}

// TestSTMOnlySIMDMatchesPortable: in a GOEXPERIMENT=simd build on an AVX2 CPU the AVX2 kernels
// (accumulators and the CReLU and SCReLU output kernels) give the portable integers.
func TestSTMOnlySIMDMatchesPortable(t *testing.T) {
	if !cpuSIMD {
		t.Skip("no AVX2 kernels in this build (GOEXPERIMENT=simd on amd64 with AVX2)")
	}
	for _, a := range stmArches() {
		_, net := quantizeScaled(t, a, 23)
		if !net.SetSIMD(true) {
			continue // below 128 lanes the portable kernels serve
		}
		if a.L1 == 0 && !net.simdEval {
			t.Fatalf("%s: no AVX2 output kernel", a)
		}
		checkSIMDMatchesPortable(t, net, 60, 50)
	}
}

// TestSTMOnlyFile: an STMOnly net round-trips in body version 4 with perspectives = 1; every
// two-perspective net keeps its older version; a perspectives dim other than 1 or 2 is
// refused naming it.
func TestSTMOnlyFile(t *testing.T) {
	for _, a := range []Arch{stmOnly(testArch(32, 0)), stmOnly(windowArch(32, 16, SCReLU))} {
		m := NewRandom(a, 8)
		b, got := writeRead(t, m)
		if got.Arch != a || got.SHA256() != m.SHA256() {
			t.Fatalf("round trip changed the model: %+v", got.Arch)
		}
		if v := bodyVersion(b); v != BodyVersion4 {
			t.Fatalf("%s written with body version %d, want 4", a, v)
		}
		two := a
		two.STMOnly = false
		var c bytes.Buffer
		if err := NewRandom(two, 8).Write(&c); err != nil {
			t.Fatal(err)
		}
		if v := bodyVersion(c.Bytes()); v == BodyVersion4 {
			t.Fatalf("two-perspective %s written with body version %d", two, v)
		}
		// The dims activation, input, width, perspectives end the dims list.
		tail := binary.LittleEndian.AppendUint32(nil, uint32(a.Activation))
		tail = binary.LittleEndian.AppendUint32(tail, uint32(a.Input))
		tail = binary.LittleEndian.AppendUint32(tail, uint32(a.Width))
		tail = binary.LittleEndian.AppendUint32(tail, 1)
		i := bytes.Index(b, tail)
		if i < 0 {
			t.Fatal("perspectives dim not found")
		}
		for _, p := range []byte{0, 3, 9} {
			d := append([]byte{}, b...)
			d[i+12] = p
			if _, err := Read(bytes.NewReader(d)); err == nil || !strings.Contains(err.Error(), "perspectives") {
				t.Errorf("%s: file with perspectives %d: err %v", a, p, err)
			}
		}
		// perspectives = 2 in a version-4 file reads as a two-perspective net (of more weights:
		// the count no longer matches, which is refused too).
		d := append([]byte{}, b...)
		d[i+12] = 2
		if _, err := Read(bytes.NewReader(d)); err == nil {
			t.Errorf("%s: one perspective's weights read as two perspectives'", a)
		}
	}
}

// TestUntie: the untied net (one perspective, twice the lanes) computes the two-perspective
// net's function, in floats and in integers (the same output bit for bit: its lanes are the
// old net's two accumulators side by side), for cell and window input, with buckets and with
// L1; a colour swap maps the features of one side to the other's; an untied net is refused.
func TestUntie(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 6))
	bucketed := screlu(windowArch(64, 0, SCReLU))
	bucketed.Buckets = 8
	for _, a := range []Arch{testArch(64, 0), screlu(testArch(64, 0)), windowArch(64, 0, SCReLU), windowArch(32, 16, CReLU), bucketed} {
		m, net := quantizeScaled(t, a, 31)
		u, err := Untie(m)
		if err != nil {
			t.Fatal(err)
		}
		if !u.Arch.STMOnly || u.Arch.Hidden != 2*a.Hidden || u.CheckShapes() != nil {
			t.Fatalf("%s: untied to %s", a, u.Arch)
		}
		unet, err := Quantize(u, 0)
		if err != nil {
			t.Fatal(err)
		}
		if unet.qa != net.qa {
			t.Fatalf("%s: untied net quantized at %d, the net at %d", a, unet.qa, net.qa)
		}
		acc, uacc := net.NewAcc(), unet.NewAcc()
		var buf, sw [MaxActive]int32
		for range 500 {
			pieces, stm := randomPieces(rng, a.Cells)
			if got, want := u.Forward(pieces, stm), m.Forward(pieces, stm); math.Abs(float64(got-want)) > 1e-4 {
				t.Fatalf("%s: untied forward %v, the net's %v", a, got, want)
			}
			net.Refresh(acc, pieces)
			unet.Refresh(uacc, pieces)
			if g, w := unet.Evaluate(uacc, stm, a.Bucket(pieces)), net.Evaluate(acc, stm, a.Bucket(pieces)); g != w {
				t.Fatalf("%s: untied integer evaluation %d, the net's %d", a, g, w)
			}
			own := a.ActiveFeatures(pieces, stm, buf[:0])
			other := a.ActiveFeatures(pieces, stm^1, sw[:0])
			for i, f := range own {
				own[i] = int32(a.swapColours(int(f)))
			}
			slices.Sort(own)
			slices.Sort(other)
			if !slices.Equal(own, other) {
				t.Fatalf("%s: the side to move's features swapped are %v, the other side sees %v", a, own, other)
			}
		}
		if _, err := Untie(u); err == nil {
			t.Errorf("%s: an untied net untied again", a)
		}
	}
}
