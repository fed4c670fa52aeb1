package nnue

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// quantizeScaled is NewRandom(a, seed) with its output weights times 20 (random output weights
// cancel out; scaled, the logits are of the order of a trained net's, tanh 0.5..0.99) and its
// quantized Net.
func quantizeScaled(t *testing.T, a Arch, seed uint64) (*Model, *Net) {
	t.Helper()
	m := NewRandom(a, seed)
	for i := range m.Weights.OutW {
		m.Weights.OutW[i] *= 20
	}
	net, err := Quantize(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, net
}

// checkLogits refreshes acc on n random positions drawn with rng and fails unless the integer
// logit stays within logitTolerance of m's float one and the float logits reach 0.5 somewhere;
// each, if not nil, is called after each refresh.
func checkLogits(t *testing.T, m *Model, net *Net, rng *rand.Rand, acc Acc, n int, each func(pieces [2]uint64, stm int)) {
	t.Helper()
	a := net.arch
	var worst, spread float64
	for range n {
		pieces, stm := randomPieces(rng, a.Cells)
		net.Refresh(acc, pieces)
		got := net.Logit(net.Output(acc, stm, a.Bucket(pieces)))
		want := float64(m.Forward(pieces, stm))
		worst = max(worst, math.Abs(got-want))
		spread = max(spread, math.Abs(want))
		if each != nil {
			each(pieces, stm)
		}
	}
	if worst > logitTolerance || spread < 0.5 {
		t.Fatalf("%s: worst |quantized - float| logit %.4f (tolerance %v), largest |logit| %.2f", a, worst, logitTolerance, spread)
	}
	t.Logf("%s: worst logit error %.4f, largest |logit| %.2f", a, worst, spread)
}

// checkApplyEvalNoAllocs fails if one Apply (a placement, a jump and two conversions) and one
// Evaluate allocate (measured over runs runs).
func checkApplyEvalNoAllocs(t *testing.T, net *Net, runs int) {
	t.Helper()
	pieces := [2]uint64{0x1F0F, 0xE0F0}
	acc, child := net.NewAcc(), net.NewAcc()
	net.Refresh(acc, pieces)
	var sink int32
	if n := testing.AllocsPerRun(runs, func() {
		net.Apply(child, acc, pieces, 0, 16, 2, 1<<8|1<<22|1<<23)
		sink += net.Evaluate(child, 1, net.arch.OutputBuckets()-1)
	}); n != 0 {
		t.Errorf("%s: %v allocations per apply+evaluate", net.arch, n)
	}
	_ = sink
}

// checkSIMDMatchesPortable plays games random games of up to plies moves (playRandom) with the
// AVX2 kernels on (the caller's net.SetSIMD(true) succeeded) and fails unless the portable
// kernels, applying the same moves, give the same accumulator and output after each; it
// returns the number of moves checked and leaves the AVX2 kernels on.
func checkSIMDMatchesPortable(t *testing.T, net *Net, games, plies int) int {
	t.Helper()
	acc, portable := net.NewAcc(), net.NewAcc()
	rng := rand.New(rand.NewPCG(9, 1))
	moves := 0
	playRandom(net, acc, rng, games, plies, func(m move) {
		if m.firstOfTheGame {
			net.Refresh(portable, m.before)
		}
		net.SetSIMD(false)
		net.Apply(portable, portable, m.before, m.p, m.to, m.from, m.flips)
		outP := net.Output(portable, m.p^1, net.arch.Bucket(m.after))
		net.SetSIMD(true)
		outS := net.Output(acc, m.p^1, net.arch.Bucket(m.after))
		if !slicesEqual(acc, portable) || outS != outP {
			t.Fatalf("%s: AVX2 and portable differ after %+v (output %d vs %d)", net.arch, m, outS, outP)
		}
		moves++
	})
	return moves
}

// writeRead writes m and reads the bytes back, failing on either error; it returns the bytes
// and the model read.
func writeRead(t *testing.T, m *Model) ([]byte, *Model) {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	got, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return b, got
}

// bodyVersion is the body version that a file's bytes b declare (the uint32 after its tag).
func bodyVersion(b []byte) uint32 {
	i := bytes.Index(b, []byte("nnue-2p"))
	return binary.LittleEndian.Uint32(b[i+7:])
}
