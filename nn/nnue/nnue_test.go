package nnue

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"colony/internal/cputime"
	"colony/nn"
)

// testArch is Bacteria War's scheme (49 cells, encoder planes 0/1 pieces, 3 = O to move).
func testArch(hidden, l1 int) Arch {
	return Arch{Game: "test", EncoderVersion: 1, Cells: 49, Planes: 6, PiecePlanes: [2]int{0, 1},
		ToMovePlane: 3, Hidden: hidden, L1: l1}
}

// randomPieces draws a position: each cell empty, player 0's or player 1's, with a density
// drawn per position (openings to full boards).
// screlu is a with SCReLU accumulators.
func screlu(a Arch) Arch {
	a.Activation = SCReLU
	return a
}

func randomPieces(rng *rand.Rand, cells int) ([2]uint64, int) {
	var p [2]uint64
	fill := rng.Float64()
	for c := range cells {
		if rng.Float64() < fill {
			p[rng.IntN(2)] |= 1 << c
		}
	}
	return p, rng.IntN(2)
}

// Quantization tolerance on the logit (tanh units; x300 = hundredths of a piece): the measured
// worst case over 10,000 positions of the nets below is 0.044 (128 hidden, no L1, mean |logit|
// 1.6), 0.022 and 0.024 (with L1); the mean error is below 0.01.
const logitTolerance = 0.06

func TestQuantizedMatchesFloat(t *testing.T) {
	for _, a := range []Arch{testArch(128, 0), testArch(64, 32), testArch(32, 16), screlu(testArch(128, 0)), screlu(testArch(64, 32))} {
		m, net := quantizeScaled(t, a, 7)
		rng := rand.New(rand.NewPCG(1, 2))
		acc := net.NewAcc()
		var worst, sum, spread float64
		const N = 10000
		for range N {
			pieces, stm := randomPieces(rng, a.Cells)
			net.Refresh(acc, pieces)
			q := net.Logit(net.Output(acc, stm, a.Bucket(pieces)))
			f := float64(m.Forward(pieces, stm))
			d := math.Abs(q - f)
			worst = max(worst, d)
			sum += d
			spread += math.Abs(f)
		}
		t.Logf("%s: |quantized - float| logit: max %.4f mean %.5f (mean |logit| %.3f)", a, worst, sum/N, spread/N)
		if worst > logitTolerance {
			t.Errorf("%s: quantized logit differs from the float one by up to %.4f > %v", a, worst, logitTolerance)
		}
		if spread/N < 5*logitTolerance {
			t.Errorf("%s: the float logits are too small (mean %.3f) for the comparison to mean anything", a, spread/N)
		}
	}
}

// TestEvaluateScale checks Evaluate = logit * ScoreScale.
func TestEvaluateScale(t *testing.T) {
	m := NewRandom(testArch(64, 0), 3)
	m.Meta["score_scale"] = "250"
	net, err := Quantize(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	if net.ScoreScale != 250 {
		t.Fatalf("ScoreScale %d, want 250 from the metadata", net.ScoreScale)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	acc := net.NewAcc()
	for range 1000 {
		pieces, stm := randomPieces(rng, 49)
		net.Refresh(acc, pieces)
		want := net.Logit(net.Output(acc, stm, 0)) * 250
		if got := float64(net.Evaluate(acc, stm, 0)); math.Abs(got-want) > 1.001 {
			t.Fatalf("Evaluate %v, logit*250 = %v", got, want)
		}
	}
}

// randomChange picks a move-like change for player p on pieces: a piece appears on an empty
// cell, maybe one of p's disappears, some of the other player's turn.
func randomChange(rng *rand.Rand, pieces [2]uint64, p int) (to, from int, flips uint64, ok bool) {
	empty := (uint64(1)<<49 - 1) &^ (pieces[0] | pieces[1])
	if empty == 0 {
		return 0, 0, 0, false
	}
	k := rng.IntN(bits.OnesCount64(empty))
	for range k {
		empty &= empty - 1
	}
	to = bits.TrailingZeros64(empty)
	from = -1
	if own := pieces[p]; own != 0 && rng.IntN(2) == 0 {
		from = bits.TrailingZeros64(own)
	}
	for b := pieces[p^1]; b != 0; b &= b - 1 {
		if rng.IntN(3) == 0 {
			flips |= b & -b
		}
	}
	return to, from, flips, true
}

func TestMoveEqualsRefresh(t *testing.T) {
	for _, a := range []Arch{testArch(128, 0), testArch(64, 32), screlu(testArch(128, 0))} {
		net, err := Quantize(NewRandom(a, 11), 0)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		acc, fresh, before := net.NewAcc(), net.NewAcc(), net.NewAcc()
		for range 200 {
			var pieces [2]uint64
			net.Refresh(acc, pieces)
			p := 0
			for range 60 {
				to, from, flips, ok := randomChange(rng, pieces, p)
				if !ok {
					break
				}
				copy(before, acc)
				net.Move(acc, acc, p, to, from, flips)
				pieces[p] |= 1<<to | flips
				pieces[p^1] &^= flips
				if from >= 0 {
					pieces[p] &^= 1 << from
				}
				net.Refresh(fresh, pieces)
				if !slicesEqual(acc, fresh) {
					t.Fatalf("%s: accumulator after a move differs from a fresh one", a)
				}
				net.Unmove(fresh, p, to, from, flips)
				if !slicesEqual(fresh, before) {
					t.Fatalf("%s: Unmove does not restore the accumulator", a)
				}
				p ^= 1
			}
		}
	}
}

func slicesEqual(a, b Acc) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestLanesMatchFloat checks the accumulator lanes against the float accumulator (an error in
// the packing would show here first).
func TestLanesMatchFloat(t *testing.T) {
	a := testArch(32, 0)
	m := NewRandom(a, 5)
	net, _ := Quantize(m, 0)
	rng := rand.New(rand.NewPCG(9, 9))
	acc := net.NewAcc()
	lanes := make([]int16, 2*a.Hidden)
	for range 500 {
		pieces, _ := randomPieces(rng, a.Cells)
		net.Refresh(acc, pieces)
		net.Lanes(acc, lanes)
		for p := range 2 {
			for j := range a.Hidden {
				f := m.Weights.FTBias[j]
				for c := range a.Cells {
					switch {
					case pieces[p]>>c&1 != 0:
						f += m.Weights.FT[c*a.Hidden+j]
					case pieces[p^1]>>c&1 != 0:
						f += m.Weights.FT[(a.Cells+c)*a.Hidden+j]
					}
				}
				if d := math.Abs(float64(lanes[p*a.Hidden+j]) - float64(f)*float64(net.Scale())); d > float64(net.Scale())/10 {
					t.Fatalf("lane %d of perspective %d: %d, float %v x 255", j, p, lanes[p*a.Hidden+j], f)
				}
			}
		}
	}
}

func TestQuantizeRefusesLargeWeights(t *testing.T) {
	m := NewRandom(testArch(32, 0), 1)
	for i := range m.Weights.FT {
		m.Weights.FT[i] = 30 // 49 cells x 30 x 2^6 > 32767 at the coarsest scale
	}
	if _, err := Quantize(m, 0); err == nil || !strings.Contains(err.Error(), "int16") {
		t.Fatalf("Quantize of weights that overflow int16: err %v", err)
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, a := range []Arch{testArch(128, 0), testArch(64, 32), screlu(testArch(128, 0)), screlu(testArch(64, 32))} {
		net, _ := Quantize(NewRandom(a, 2), 0)
		acc, child := net.NewAcc(), net.NewAcc()
		pieces := [2]uint64{0x1F0F, 0xE0F0}
		net.Refresh(acc, pieces)
		var sink int32
		allocs := testing.AllocsPerRun(1000, func() {
			net.Move(child, acc, 0, 30, 12, 1<<4|1<<5)
			sink += net.Evaluate(child, 1, 0)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per move+evaluate", a, allocs)
		}
		_ = sink
	}
}

func TestFileRoundTrip(t *testing.T) {
	m := NewRandom(testArch(64, 32), 4)
	m.Step = 1234
	m.Meta["note"] = "x"
	b, got := writeRead(t, m)
	if got.Arch != m.Arch || got.Step != 1234 || got.Meta["note"] != "x" || got.SHA256() != m.SHA256() {
		t.Fatalf("round trip changed the model: %+v step %d", got.Arch, got.Step)
	}
	// The convnet loader refuses it, naming the tag.
	if _, err := nn.Read(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), nn.ArchNNUE) {
		t.Fatalf("nn.Read of an nnue file: err %v", err)
	}
	// Damage anywhere is refused.
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"truncated", b[:len(b)-3], "truncated"},
		{"trailing", append(append([]byte{}, b...), 0), "trailing"},
		{"flipped weight", flip(b, len(b)-5), "checksum"},
		{"other tag", retag(b, "nnue-xx"), "nnue-xx"},
		{"bad magic", flip(b, 0), "magic"},
	} {
		if _, err := Read(bytes.NewReader(c.b)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestFileActivation: an SCReLU net round-trips (body version 2), a CReLU net is still written
// as version 1 (byte for byte what older builds wrote and read), and an unknown activation is
// refused naming it.
func TestFileActivation(t *testing.T) {
	m := NewRandom(screlu(testArch(64, 0)), 4)
	_, got := writeRead(t, m)
	if got.Arch != m.Arch || got.SHA256() != m.SHA256() {
		t.Fatalf("round trip changed the arch: %+v", got.Arch)
	}
	m.Arch.Activation = 7
	var buf bytes.Buffer
	if err := m.Write(&buf); err == nil || !strings.Contains(err.Error(), "activation 7") {
		t.Fatalf("writing an unknown activation: err %v", err)
	}
	var c bytes.Buffer
	if err := NewRandom(testArch(64, 0), 4).Write(&c); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(c.Bytes(), []byte{2, 0, 0, 0, 4, 0, 't', 'e', 's', 't'}) || !bytes.Contains(c.Bytes(), []byte{1, 0, 0, 0, 4, 0, 't', 'e', 's', 't'}) {
		t.Fatal("a CReLU net is not written with body version 1")
	}
	// An SCReLU file whose activation dim reads 7.
	b := append([]byte{}, buf.Bytes()...)
	m.Arch.Activation = SCReLU
	buf.Reset()
	_ = m.Write(&buf)
	b = append(b[:0], buf.Bytes()...)
	i := bytes.Index(b, []byte{64, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}) // hidden, l1, activation
	if i < 0 {
		t.Fatal("activation dim not found")
	}
	b[i+8] = 7
	if _, err := Read(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "activation 7") {
		t.Fatalf("reading activation 7: err %v", err)
	}
}

func TestReadRefusesConvnet(t *testing.T) {
	cm := nn.NewRandom(nn.Arch{Game: "test", EncoderVersion: 1, Planes: 6, Height: 7, Width: 7, Blocks: 1,
		Channels: 8, PolicyChannels: 2, PolicySize: 10, ValueChannels: 1, ValueHidden: 8, NumPlayers: 2}, 1)
	var buf bytes.Buffer
	if err := cm.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(&buf); err == nil || !strings.Contains(err.Error(), nn.ArchConvNet) {
		t.Fatalf("nnue.Read of a convnet file: err %v", err)
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte{}, b...)
	c[i] ^= 0x40
	return c
}

func retag(b []byte, tag string) []byte {
	c := append([]byte{}, b[:14]...)
	c = append(c, tag...)
	return append(c, b[14+len(nn.ArchNNUE):]...)
}

func TestPiecesFromInput(t *testing.T) {
	a := testArch(16, 0)
	in := make([]float32, a.Planes*a.Cells)
	in[0*49+3], in[1*49+40], in[3*49+0] = 1, 1, 1
	p, stm, err := a.Pieces(in)
	if err != nil || p[0] != 1<<3 || p[1] != 1<<40 || stm != 0 {
		t.Fatalf("Pieces: %x %x stm %d err %v", p[0], p[1], stm, err)
	}
	in[3*49+0] = 0
	if _, stm, _ = a.Pieces(in); stm != 1 {
		t.Fatalf("stm %d with the O-to-move plane clear", stm)
	}
}

func benchNet(b *testing.B, a Arch, portable bool) {
	net, err := Quantize(NewRandom(a, 2), 0)
	if err != nil {
		b.Fatal(err)
	}
	if portable {
		net.SetSIMD(false)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	const K = 256
	accs := make([]Acc, K)
	pos := make([][2]uint64, K) // cell 24 empty: the move's placement
	for i := range accs {
		pos[i], _ = randomPieces(rng, 49)
		pos[i][0] &^= 1 << 24
		pos[i][1] &^= 1 << 24
		accs[i] = net.NewAcc()
		net.Refresh(accs[i], pos[i])
	}
	child := net.NewAcc()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, _ := cputime.Thread()
	b.ResetTimer()
	var sink int32
	for i := 0; b.Loop(); i++ {
		flips := uint64(1<<17 | 1<<31)
		if a.Input == WindowInput { // a window update reads the position: keep the move legal
			flips &= pos[i%K][i&1^1]
		}
		net.Apply(child, accs[i%K], pos[i%K], i&1, 24, -1, flips)
		sink += net.Evaluate(child, i&1, 0)
	}
	b.StopTimer()
	if c1, ok := cputime.Thread(); ok {
		cpu := (c1 - c0).Seconds()
		b.ReportMetric(cpu*1e9/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(b.N)/cpu, "evals/cpu-s")
	}
	_ = sink
}

// BenchmarkMoveEval: one incremental update (a placement and two conversions) and one
// evaluation, the work of a leaf.
// The ...Portable variants turn the AVX2 kernels off in a GOEXPERIMENT=simd build (in a
// portable build they equal the others).
func BenchmarkMoveEval64(b *testing.B)          { benchNet(b, testArch(64, 0), false) }
func BenchmarkMoveEval64Portable(b *testing.B)  { benchNet(b, testArch(64, 0), true) }
func BenchmarkMoveEval128(b *testing.B)         { benchNet(b, testArch(128, 0), false) }
func BenchmarkMoveEval128Portable(b *testing.B) { benchNet(b, testArch(128, 0), true) }
func BenchmarkMoveEval256(b *testing.B)         { benchNet(b, testArch(256, 0), false) }
func BenchmarkMoveEval32x16(b *testing.B)       { benchNet(b, testArch(32, 16), false) }
func BenchmarkMoveEval64x32(b *testing.B)       { benchNet(b, testArch(64, 32), false) }

// The window-input nets (Apply: the windows around the placement and the conversions).
func BenchmarkMoveEvalWindows64(b *testing.B)  { benchNet(b, windowArch(64, 0, CReLU), false) }
func BenchmarkMoveEvalWindows128(b *testing.B) { benchNet(b, windowArch(128, 0, CReLU), false) }
func BenchmarkMoveEvalWindows128Portable(b *testing.B) {
	benchNet(b, windowArch(128, 0, CReLU), true)
}
func BenchmarkMoveEvalWindows256(b *testing.B) { benchNet(b, windowArch(256, 0, CReLU), false) }
func BenchmarkMoveEvalWindows256Portable(b *testing.B) {
	benchNet(b, windowArch(256, 0, CReLU), true)
}

// TestSIMDMatchesPortable: with GOEXPERIMENT=simd on an AVX2 CPU, the AVX2 kernels give the
// same accumulators and outputs as the portable ones, bit for bit (skipped elsewhere).
func TestSIMDMatchesPortable(t *testing.T) {
	for _, a := range []Arch{testArch(128, 0), testArch(128, 32), testArch(256, 0), screlu(testArch(256, 0)), screlu(testArch(128, 32))} {
		_, net := quantizeScaled(t, a, 21)
		if !net.SetSIMD(true) {
			t.Skip("no AVX2 kernels in this build (GOEXPERIMENT=simd on amd64 with AVX2)")
		}
		rng := rand.New(rand.NewPCG(4, 4))
		accS, accP := net.NewAcc(), net.NewAcc()
		for range 300 {
			var pieces [2]uint64
			net.Refresh(accS, pieces)
			copy(accP, accS)
			p := 0
			for range 50 {
				to, from, flips, ok := randomChange(rng, pieces, p)
				if !ok {
					break
				}
				net.SetSIMD(true)
				net.Move(accS, accS, p, to, from, flips)
				outS := net.Output(accS, p^1, 0)
				net.SetSIMD(false)
				net.Move(accP, accP, p, to, from, flips)
				outP := net.Output(accP, p^1, 0)
				if !slicesEqual(accS, accP) || outS != outP {
					t.Fatalf("%s: AVX2 and portable differ (output %d vs %d)", a, outS, outP)
				}
				pieces[p] |= 1<<to | flips
				pieces[p^1] &^= flips
				if from >= 0 {
					pieces[p] &^= 1 << from
				}
				p ^= 1
			}
		}
	}
}

// TestSWAROutputExact: the SWAR output layer equals the lane-by-lane one on random lanes (any
// int16 value, so both clips are exercised) and weights over the whole int16 range.
func TestSWAROutputExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, k := range []int{6, 8, 10} {
		qa := int32(1) << k
		qaLanes, overLanes := uint64(qa)*laneOne, (0x7FFF&^uint64(qa-1))*laneOne
		for range 2000 {
			words := 4 * (1 + rng.IntN(16))
			a := make([]uint64, words)
			for i := range a {
				a[i] = rng.Uint64()
				if rng.IntN(2) == 0 { // lanes near the clip range
					var w uint64
					for l := range 4 {
						w |= uint64(uint16(int32(rng.IntN(3*int(qa)))-qa+laneBias)) << (16 * l)
					}
					a[i] = w
				}
			}
			w := make([]int32, 4*words)
			for i := range w {
				w[i] = int32(rng.IntN(65536)) - 32768
			}
			if got, want := dotClipSWAR(a, packOutSWAR(w), qaLanes, overLanes), dotClip(a, w, qa); got != want {
				t.Fatalf("qa %d: SWAR %d, lane by lane %d", qa, got, want)
			}
		}
	}
}

// TestDotSqExact: the portable SCReLU output (dotSq, int32 products) equals a lane-by-lane sum
// in int64 on random lanes (any int16 value, many in the clip range, c = qa included) and
// weights up to the ±2^20 that Quantize allows, the extremes included, at every accumulator
// scale; and so does the SWAR kernel (dotSqSWAR) on the same weights clipped to int16.
func TestDotSqExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	const wmax = 1 << 20
	for k := minFTShift; k <= maxFTShift; k++ {
		qa := int64(1) << k
		for range 500 {
			words := 1 + rng.IntN(64)
			a := make([]uint64, words)
			w := make([]int32, 4*words)
			var want int64
			for i := range a {
				for l := range 4 {
					v := int64(int16(rng.Uint32()))
					if rng.IntN(4) != 0 {
						v = rng.Int64N(3*qa) - qa
					}
					if rng.IntN(8) == 0 {
						v = qa
					}
					a[i] |= uint64(uint16(v+laneBias)) << (16 * l)
					wt := rng.Int64N(2*wmax+1) - wmax
					if rng.IntN(8) == 0 {
						wt = wmax * (1 - 2*rng.Int64N(2))
					}
					w[4*i+l] = int32(wt)
					c := min(max(v, 0), qa)
					want += (c * c >> k) * wt
				}
			}
			if got := dotSq(a, w, int32(qa), uint(k)); got != want {
				t.Fatalf("qa %d, %d lanes: dotSq %d, lane by lane %d", qa, 4*words, got, want)
			}
			// The SWAR kernel, on the weights clipped to int16 (the nets it serves).
			w16 := make([]int32, len(w))
			var want16 int64
			for i, wt := range w {
				w16[i] = min(max(wt, -32768), 32767)
				v := int64(int32(uint16(a[i/4]>>(16*(i%4)))) - laneBias)
				c := min(max(v, 0), qa)
				want16 += (c * c >> k) * int64(w16[i])
			}
			if got := dotSqSWAR(a, packOutSWAR(w16), (*[1 << 16]uint16)(sqActTable(int32(qa), uint(k)))); got != want16 {
				t.Fatalf("qa %d, %d lanes: dotSqSWAR %d, lane by lane %d", qa, 4*words, got, want16)
			}
		}
	}
}

// TestSCReLUSIMDExact: the AVX2 SCReLU output kernel equals the scalar one (dotSq) on random
// lanes (any int16 value, and many near the clip range, c = qa included) and weights up to the
// largest that outFitsSIMD admits (all of int16 up to 512 lanes), at every accumulator scale
// the quantizer picks (skipped without AVX2).
func TestSCReLUSIMDExact(t *testing.T) {
	if !cpuSIMD {
		t.Skip("no AVX2 kernels in this build (GOEXPERIMENT=simd on amd64 with AVX2)")
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for k := minFTShift; k <= maxFTShift; k++ {
		qa := int32(1) << k
		for range 2000 {
			words := 4 * (1 + rng.IntN(64)) // up to 1024 lanes
			a := make([]uint64, words)
			for i := range a {
				a[i] = rng.Uint64()
				if rng.IntN(4) != 0 {
					var w uint64
					for l := range 4 {
						v := int32(rng.IntN(3*int(qa))) - qa
						if rng.IntN(8) == 0 {
							v = qa
						}
						w |= uint64(uint16(v+laneBias)) << (16 * l)
					}
					a[i] = w
				}
			}
			// The largest weights the kernel takes at this width (Quantize's test, outFitsSIMD).
			mx := min(32767, (1<<31-1)/(int64(words/2)*int64(qa)))
			if !outFitsSIMD(4*words, int64(qa), mx) || outFitsSIMD(4*words, int64(qa), mx+1) && mx < 32767 {
				t.Fatalf("qa %d, %d lanes: outFitsSIMD's bound is not at %d", qa, 4*words, mx)
			}
			w := make([]int32, 4*words)
			w16 := make([]int16, 4*words)
			for i := range w {
				w[i] = int32(rng.Int64N(2*mx+1) - mx)
				if rng.IntN(16) == 0 {
					w[i] = int32(mx)
				}
				w16[i] = int16(w[i])
			}
			if got, want := dotSqSIMD(a, w16, int16(qa), uint64(k)), dotSq(a, w, qa, uint(k)); got != want {
				t.Fatalf("qa %d: AVX2 %d, scalar %d", qa, got, want)
			}
			// Both views in one pass (dotSq2SIMD): a and a reversed copy of it, against w
			// and w reversed.
			b, wb, wb16 := slices.Clone(a), slices.Clone(w), slices.Clone(w16)
			slices.Reverse(b)
			slices.Reverse(wb)
			slices.Reverse(wb16)
			if got, want := dotSq2SIMD(a, b, append(slices.Clone(w16), wb16...), int16(qa), uint64(k)),
				dotSq(a, w, qa, uint(k))+dotSq(b, wb, qa, uint(k)); got != want {
				t.Fatalf("qa %d: AVX2 both views %d, scalar %d", qa, got, want)
			}
		}
	}
}
