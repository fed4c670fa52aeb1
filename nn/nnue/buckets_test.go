package nnue

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// bucketed is a with b output buckets.
func bucketed(a Arch, b int) Arch {
	a.Buckets = b
	return a
}

// bucketArches are the bucketed shapes the tests cover: cell and window input, CReLU and
// SCReLU, both perspectives and one, widths the AVX2 kernels take and one they do not.
func bucketArches() []Arch {
	return []Arch{
		bucketed(testArch(32, 0), 4),
		bucketed(screlu(testArch(64, 0)), 8),
		bucketed(windowArch(128, 0, SCReLU), 8),
		bucketed(windowArch(64, 0, CReLU), 3),
		bucketed(stmOnly(windowArch(128, 0, SCReLU)), 8),
	}
}

// TestBucketOf: a position's bucket is its piece count n as n*B/(Cells+1): 0 with no piece,
// B-1 on a full board, never decreasing as pieces are added, every bucket reached; an
// unbucketed net's is always 0.
func TestBucketOf(t *testing.T) {
	for _, B := range []int{2, 3, 8, 16} {
		a := bucketed(testArch(16, 0), B)
		var pieces [2]uint64
		seen := make([]bool, B)
		last := 0
		for c := range 50 {
			if c > 0 {
				pieces[c%2] |= 1 << (c - 1)
			}
			b := a.Bucket(pieces)
			if b < last || b >= B {
				t.Fatalf("B=%d: %d pieces in bucket %d (the one before: %d)", B, c, b, last)
			}
			if want := c * B / 50; b != want {
				t.Fatalf("B=%d: %d pieces in bucket %d, want %d", B, c, b, want)
			}
			seen[b], last = true, b
		}
		if last != B-1 {
			t.Fatalf("B=%d: a full board is in bucket %d", B, last)
		}
		for b, ok := range seen {
			if !ok {
				t.Fatalf("B=%d: bucket %d never reached", B, b)
			}
		}
	}
	if b := testArch(16, 0).Bucket([2]uint64{1<<49 - 1, 0}); b != 0 {
		t.Fatalf("an unbucketed net reads bucket %d", b)
	}
}

// bucketPieces draws a position whose piece count falls in bucket b of a (rejection sampling
// over randomPieces).
func bucketPieces(rng *rand.Rand, a Arch, b int) ([2]uint64, int) {
	for {
		p, stm := randomPieces(rng, a.Cells)
		if a.Bucket(p) == b {
			return p, stm
		}
	}
}

// TestBucketsForward: the float forward pass reads the position's own bucket: with every
// bucket's output layer but one zeroed, the logit is the bias alone outside that bucket, and in
// it equals the unbucketed net that has that layer.
func TestBucketsForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	for _, a := range bucketArches() {
		B := a.Buckets
		m := NewRandom(a, 5)
		for keep := range B {
			one := NewRandom(bucketed(a, 0), 5)
			z := NewModel(a)
			copy(z.Weights.FT, m.Weights.FT)
			copy(z.Weights.FTBias, m.Weights.FTBias)
			for i := range one.Weights.OutW {
				z.Weights.OutW[i*B+keep] = one.Weights.OutW[i]
			}
			z.Weights.OutB[keep] = one.Weights.OutB[0]
			for b := range B {
				if b != keep {
					z.Weights.OutB[b] = float32(b) + 0.25
				}
			}
			copy(one.Weights.FT, m.Weights.FT)
			copy(one.Weights.FTBias, m.Weights.FTBias)
			for b := range B {
				pieces, stm := bucketPieces(rng, a, b)
				got := z.Forward(pieces, stm)
				want := float32(b) + 0.25
				if b == keep {
					want = one.Forward(pieces, stm)
				}
				if math.Abs(float64(got-want)) > 1e-5 {
					t.Fatalf("%s: bucket %d (layer kept: %d) logit %v, want %v", a, b, keep, got, want)
				}
			}
		}
	}
}

// TestBucketsQuantized: a bucketed net's integer logits follow the float ones in every bucket,
// its Ints evaluate as the Net does (cell input), an update equals a refresh in every bucket,
// the AVX2 kernels agree with the portable ones where the build has them, and an evaluation
// allocates nothing.
func TestBucketsQuantized(t *testing.T) {
	for _, a := range bucketArches() {
		m, net := quantizeScaled(t, a, 41)
		// Buckets that differ: each bucket's output weights scaled differently.
		for i := range m.Weights.OutW {
			m.Weights.OutW[i] *= 0.4 + 0.6*float32(i%a.Buckets)/float32(a.Buckets)
		}
		net, err := Quantize(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		acc := net.NewAcc()
		v := net.Ints()
		if len(v.OutW) != a.Buckets*a.Perspectives()*a.Hidden || len(v.OutB) != a.Buckets {
			t.Fatalf("%s: Ints has %d output weights and %d biases", a, len(v.OutW), len(v.OutB))
		}
		seen := make([]int, a.Buckets)
		checkLogits(t, m, net, rng, acc, 3000, func(pieces [2]uint64, stm int) {
			seen[a.Bucket(pieces)]++
			if a.Input == CellInput {
				if g, w := evalInts(v, pieces, stm), net.Evaluate(acc, stm, a.Bucket(pieces)); g != w {
					t.Fatalf("%s: Ints evaluate %d, Net %d", a, g, w)
				}
			}
		})
		for b, n := range seen {
			if n == 0 {
				t.Fatalf("%s: no position of bucket %d drawn", a, b)
			}
		}
		// Reading another bucket's layer gives another logit (the bucket is not ignored).
		pieces, stm := bucketPieces(rng, a, 0)
		net.Refresh(acc, pieces)
		if net.Output(acc, stm, 0) == net.Output(acc, stm, a.Buckets-1) {
			t.Fatalf("%s: buckets 0 and %d give the same output", a, a.Buckets-1)
		}
		fresh := net.NewAcc()
		playRandom(net, acc, rng, 20, 48, func(mv move) {
			net.Refresh(fresh, mv.after)
			b := a.Bucket(mv.after)
			if !slicesEqual(acc, fresh) || net.Output(acc, mv.p^1, b) != net.Output(fresh, mv.p^1, b) {
				t.Fatalf("%s: update differs from refresh after %+v", a, mv)
			}
		})
		checkApplyEvalNoAllocs(t, net, 500)
		if net.SetSIMD(true) {
			t.Logf("%s: %d moves agree with the AVX2 kernels", a, checkSIMDMatchesPortable(t, net, 60, 48))
		}
	}
}

// TestWithBuckets: WithBuckets computes its parent's function exactly (float and integer) in
// every bucket, and refuses a net that has buckets or an L1 layer and bucket counts outside
// 2..MaxBuckets.
func TestWithBuckets(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, a := range []Arch{screlu(testArch(64, 0)), windowArch(128, 0, SCReLU), stmOnly(windowArch(64, 0, CReLU))} {
		m, qm := quantizeScaled(t, a, 13)
		w, err := WithBuckets(m, 8)
		if err != nil {
			t.Fatal(err)
		}
		if w.Arch != bucketed(a, 8) || w.Meta["buckets_from"] != a.String() {
			t.Fatalf("arch %s, meta %v", w.Arch, w.Meta)
		}
		qw, err := Quantize(w, 0)
		if err != nil {
			t.Fatal(err)
		}
		am, aw := qm.NewAcc(), qw.NewAcc()
		for b := range 8 {
			for range 50 {
				pieces, stm := bucketPieces(rng, w.Arch, b)
				if x, y := m.Forward(pieces, stm), w.Forward(pieces, stm); x != y {
					t.Fatalf("%s bucket %d: logit %v, parent %v", w.Arch, b, y, x)
				}
				qm.Refresh(am, pieces)
				qw.Refresh(aw, pieces)
				if x, y := qm.Evaluate(am, stm, 0), qw.Evaluate(aw, stm, b); x != y {
					t.Fatalf("%s bucket %d: score %d, parent %d", w.Arch, b, y, x)
				}
			}
		}
		if _, err := WithBuckets(w, 4); err == nil || !strings.Contains(err.Error(), "already has 8") {
			t.Fatalf("bucketing a bucketed net: %v", err)
		}
		for _, n := range []int{1, MaxBuckets + 1} {
			if _, err := WithBuckets(m, n); err == nil || !strings.Contains(err.Error(), "buckets") {
				t.Fatalf("%d buckets: %v", n, err)
			}
		}
	}
	if _, err := WithBuckets(NewRandom(testArch(32, 16), 1), 4); err == nil || !strings.Contains(err.Error(), "l1") {
		t.Fatalf("buckets on an l1 net: %v", err)
	}
}

// TestBucketsWidenAndSTMOnly: Widen keeps a bucketed net's function, and ToSTMOnly keeps each
// bucket's weights of the side to move's lanes (the same function when the other perspective's
// weights are zero).
func TestBucketsWidenAndSTMOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	a := bucketed(windowArch(64, 0, SCReLU), 4)
	m := NewRandom(a, 3)
	wide, err := Widen(m, 128, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := a.Hidden * a.Buckets; i < len(m.Weights.OutW); i++ {
		m.Weights.OutW[i] = 0 // the other perspective's weights
	}
	stm, err := ToSTMOnly(m)
	if err != nil {
		t.Fatal(err)
	}
	if wide.Arch.Buckets != 4 || !stm.Arch.STMOnly || stm.Arch.Buckets != 4 {
		t.Fatalf("archs %s, %s", wide.Arch, stm.Arch)
	}
	m0 := NewRandom(a, 3)
	for range 400 {
		pieces, p := randomPieces(rng, a.Cells)
		if x, y := m0.Forward(pieces, p), wide.Forward(pieces, p); math.Abs(float64(x-y)) > 1e-5 {
			t.Fatalf("widened: logit %v, parent %v", y, x)
		}
		if x, y := m.Forward(pieces, p), stm.Forward(pieces, p); math.Abs(float64(x-y)) > 1e-5 {
			t.Fatalf("stm-only: logit %v, parent %v", y, x)
		}
	}
}

// TestBucketsFile: a bucketed net round-trips in body version 5 with its buckets as the last
// dim; unbucketed nets keep their older versions; a buckets dim below 2, above MaxBuckets or
// with an L1 layer is refused naming it.
func TestBucketsFile(t *testing.T) {
	for _, a := range bucketArches() {
		m := NewRandom(a, 9)
		b, got := writeRead(t, m)
		if got.Arch != a || got.SHA256() != m.SHA256() {
			t.Fatalf("round trip changed the model: %+v", got.Arch)
		}
		if v := bodyVersion(b); v != BodyVersion || BodyVersion != 5 {
			t.Fatalf("%s written with body version %d, want 5", a, v)
		}
		var c bytes.Buffer
		if err := NewRandom(bucketed(a, 0), 9).Write(&c); err != nil {
			t.Fatal(err)
		}
		if v := bodyVersion(c.Bytes()); v >= BodyVersion {
			t.Fatalf("unbucketed %s written with body version %d", bucketed(a, 0), v)
		}
		tail := binary.LittleEndian.AppendUint32(nil, uint32(a.Width))
		tail = binary.LittleEndian.AppendUint32(tail, uint32(a.Perspectives()))
		tail = binary.LittleEndian.AppendUint32(tail, uint32(a.Buckets))
		i := bytes.Index(b, tail)
		if i < 0 {
			t.Fatal("buckets dim not found")
		}
		at := i + 8
		for _, c := range []struct {
			v    uint32
			want string
		}{{1, "buckets 1"}, {0, "buckets 0"}, {MaxBuckets + 1, "buckets = 17"}} {
			d := append([]byte{}, b...)
			binary.LittleEndian.PutUint32(d[at:], c.v)
			if _, err := Read(bytes.NewReader(d)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s with buckets dim %d: err %v, want one mentioning %q", a, c.v, err, c.want)
			}
		}
	}
	// Buckets with an L1 layer: the l1 dim of a bucketed file set to 16.
	a := bucketed(testArch(32, 0), 4)
	b, _ := writeRead(t, NewRandom(a, 1))
	dims := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 32), 0)
	i := bytes.Index(b, dims)
	if i < 0 {
		t.Fatal("hidden and l1 dims not found")
	}
	binary.LittleEndian.PutUint32(b[i+4:], 16)
	if _, err := Read(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "buckets need l1 = 0") {
		t.Errorf("bucketed file with l1: err %v", err)
	}
}
