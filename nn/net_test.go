package nn

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"colony/game/ataxx"
)

// testArches covers the Ataxx nets, a net whose channels are not a multiple of 4 (portable
// kernels only) and a non-square board with more players.
var testArches = map[string]Arch{
	"ataxx-2x8": ArchFor(ataxx.Info, 2, 8),
	"ataxx-1x6": ArchFor(ataxx.Info, 1, 6),
	"odd": {Game: "odd", EncoderVersion: 1, Planes: 3, Height: 5, Width: 6, Blocks: 2, Channels: 12,
		PolicyChannels: 3, PolicySize: 31, ValueChannels: 2, ValueHidden: 9, NumPlayers: 3},
	"no-blocks": {Game: "nb", EncoderVersion: 1, Planes: 2, Height: 4, Width: 4, Blocks: 0, Channels: 4,
		PolicyChannels: 1, PolicySize: 17, ValueChannels: 1, ValueHidden: 5, NumPlayers: 1},
}

// backends returns the Net variants to test: the default one, and the portable one too when
// the default uses the archsimd kernels.
func backends(t *testing.T, m *Model, maxBatch int) []*Net {
	t.Helper()
	n, err := NewNet(m, maxBatch)
	if err != nil {
		t.Fatal(err)
	}
	nets := []*Net{n}
	if n.simd {
		p, err := NewNet(m, maxBatch)
		if err != nil {
			t.Fatal(err)
		}
		p.simd = false
		nets = append(nets, p)
	}
	return nets
}

func TestForwardMatchesReference(t *testing.T) {
	for name, a := range testArches {
		m := testModel(a, 10)
		for _, net := range backends(t, m, 8) {
			for _, batch := range []int{1, 3, 8} {
				in := randomInput(batch*a.Planes*a.Height*a.Width, uint64(batch))
				pol := make([]float32, batch*a.PolicySize)
				val := make([]float32, batch*a.NumPlayers)
				if err := net.Forward(in, batch, pol, val); err != nil {
					t.Fatal(err)
				}
				wp, wv := refForward(m, in, batch)
				what := name + "/" + net.Backend()
				assertClose(t, what+" policy", pol, wp, 1e-4)
				assertClose(t, what+" value", val, wv, 1e-4)
			}
		}
	}
}

func TestForwardAtaxxPositionsMatchReference(t *testing.T) {
	m := testModel(ArchFor(ataxx.Info, 3, 16), 20)
	ps := randomPositions(8, 5)
	in := make([]float32, len(ps)*ataxx.InputSize)
	for i, p := range ps {
		p.Encode(in[i*ataxx.InputSize:])
	}
	wp, wv := refForward(m, in, len(ps))
	for _, net := range backends(t, m, 8) {
		pol := make([]float32, len(ps)*ataxx.PolicySize)
		val := make([]float32, len(ps)*ataxx.NumPlayers)
		if err := net.Forward(in, len(ps), pol, val); err != nil {
			t.Fatal(err)
		}
		assertClose(t, net.Backend()+" policy", pol, wp, 1e-4)
		assertClose(t, net.Backend()+" value", val, wv, 1e-4)
	}
}

// A batch of 8 equals 8 single evaluations, also after larger batches left data behind in
// the scratch buffers.
func TestBatchEqualsSingles(t *testing.T) {
	a := ArchFor(ataxx.Info, 2, 16)
	m := testModel(a, 30)
	for _, net := range backends(t, m, 8) {
		const batch = 8
		size := net.InputSize()
		in := randomInput(batch*size, 99)
		pol := make([]float32, batch*a.PolicySize)
		val := make([]float32, batch*a.NumPlayers)
		if err := net.Forward(in, batch, pol, val); err != nil {
			t.Fatal(err)
		}
		for b := batch - 1; b >= 0; b-- {
			p1 := make([]float32, a.PolicySize)
			v1 := make([]float32, a.NumPlayers)
			if err := net.Forward(in[b*size:(b+1)*size], 1, p1, v1); err != nil {
				t.Fatal(err)
			}
			assertClose(t, net.Backend()+" single policy", p1, pol[b*a.PolicySize:(b+1)*a.PolicySize], 1e-5)
			assertClose(t, net.Backend()+" single value", v1, val[b*a.NumPlayers:(b+1)*a.NumPlayers], 1e-5)
		}
	}
}

func TestForwardDoesNotAllocate(t *testing.T) {
	a := ArchFor(ataxx.Info, 2, 16)
	for _, net := range backends(t, testModel(a, 40), 8) {
		for _, batch := range []int{1, 8} {
			in := randomInput(batch*net.InputSize(), 1)
			pol := make([]float32, batch*a.PolicySize)
			val := make([]float32, batch*a.NumPlayers)
			allocs := testing.AllocsPerRun(20, func() {
				if err := net.Forward(in, batch, pol, val); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s batch %d: %v allocations per Forward, want 0", net.Backend(), batch, allocs)
			}
		}
	}
}

func TestForwardErrors(t *testing.T) {
	a := ArchFor(ataxx.Info, 1, 4)
	net, err := NewNet(NewRandom(a, 1), 4)
	if err != nil {
		t.Fatal(err)
	}
	size := net.InputSize()
	big := make([]float32, 8*max(size, a.PolicySize))
	cases := []struct {
		name     string
		in       []float32
		batch    int
		pol, val []float32
		want     string
	}{
		{"batch 0", big, 0, big, big, "batch 0"},
		{"batch too big", big, 5, big, big, "batch 5"},
		{"short input", big[:size*2-1], 2, big, big, "input"},
		{"short policy", big, 2, big[:a.PolicySize], big, "policy"},
		{"short value", big, 2, big, big[:3], "value"},
	}
	for _, c := range cases {
		err := net.Forward(c.in, c.batch, c.pol, c.val)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := NewNet(NewRandom(a, 1), 0); err == nil {
		t.Error("NewNet accepted maxBatch 0")
	}
	m := NewRandom(a, 1)
	m.Weights.Stem.Var[0] = -1
	if _, err := NewNet(m, 1); err == nil || !strings.Contains(err.Error(), "variance") {
		t.Errorf("negative variance: error %v", err)
	}
}

// symmetrise makes an Ataxx model equivariant under the 8 board symmetries: every 3x3 kernel
// becomes invariant under the dihedral group (one weight for the centre, one for the edges,
// one for the corners), the policy dense layer maps square sq and move index idx like their
// images, and the value dense layer sees every square like its images.
func symmetrise(m *Model, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 5))
	convs := append([]*Conv{&m.Weights.Stem}, blockConvs(&m.Weights)...)
	for _, c := range convs {
		for oi := range c.Out * c.In {
			var cls [3]float32
			for k := range cls {
				cls[k] = float32(rng.NormFloat64() * math.Sqrt(2/float64(c.In*9)))
			}
			for t := range 9 {
				dy, dx := t/3-1, t%3-1
				c.W[oi*9+t] = cls[dy*dy+dx*dx] // 0 centre, 1 edge, 2 corner
			}
		}
	}
	const sq = ataxx.NumSquares
	avg := func(d *Dense, channels int, mapOut func(k, j int) int) {
		w := make([]float32, len(d.W))
		for ch := range channels {
			for s := range sq {
				for j := range d.Out {
					var sum float64
					for k := range ataxx.NumSymmetries {
						sum += float64(d.W[(ch*sq+ataxx.SymSquare(k, s))*d.Out+mapOut(k, j)])
					}
					w[(ch*sq+s)*d.Out+j] = float32(sum / ataxx.NumSymmetries)
				}
			}
		}
		d.W = w
		b := make([]float32, len(d.B))
		for j := range d.Out {
			var sum float64
			for k := range ataxx.NumSymmetries {
				sum += float64(d.B[mapOut(k, j)])
			}
			b[j] = float32(sum / ataxx.NumSymmetries)
		}
		d.B = b
	}
	avg(&m.Weights.PolicyFC, m.Arch.PolicyChannels, ataxx.SymPolicyIndex)
	avg(&m.Weights.ValueFC1, m.Arch.ValueChannels, func(k, j int) int { return j })
}

func TestSymmetricNetGivesSymmetricOutputs(t *testing.T) {
	a := ArchFor(ataxx.Info, 2, 8)
	m := testModel(a, 50)
	symmetrise(m, 50)
	// The symmetrised policy layer must still be far from constant, or the test proves nothing.
	for _, net := range backends(t, m, 8) {
		for _, p := range randomPositions(4, 77) {
			in := make([]float32, 8*ataxx.InputSize)
			for k := range ataxx.NumSymmetries {
				p.Transform(k).Encode(in[k*ataxx.InputSize:])
			}
			pol := make([]float32, 8*ataxx.PolicySize)
			val := make([]float32, 8*ataxx.NumPlayers)
			if err := net.Forward(in, 8, pol, val); err != nil {
				t.Fatal(err)
			}
			base := pol[:ataxx.PolicySize]
			spread := 0.0
			for _, v := range base {
				spread = max(spread, math.Abs(float64(v-base[0])))
			}
			if spread < 1e-2 {
				t.Fatalf("policy logits are nearly constant (spread %g): test is vacuous", spread)
			}
			for k := 1; k < ataxx.NumSymmetries; k++ {
				got := pol[k*ataxx.PolicySize : (k+1)*ataxx.PolicySize]
				mapped := make([]float32, ataxx.PolicySize)
				for idx := range ataxx.PolicySize {
					mapped[idx] = got[ataxx.SymPolicyIndex(k, idx)]
				}
				assertClose(t, net.Backend()+" symmetric policy", mapped, base, 1e-4)
				assertClose(t, net.Backend()+" symmetric value", val[k*2:k*2+2], val[:2], 1e-4)
			}
		}
	}
}

// The symmetry test must be able to fail: an ordinary random net is not symmetric.
func TestRandomNetIsNotSymmetric(t *testing.T) {
	net, err := NewNet(testModel(ArchFor(ataxx.Info, 1, 8), 51), 2)
	if err != nil {
		t.Fatal(err)
	}
	p := randomPositions(1, 3)[0]
	in := make([]float32, 2*ataxx.InputSize)
	p.Encode(in)
	p.Transform(5).Encode(in[ataxx.InputSize:])
	pol := make([]float32, 2*ataxx.PolicySize)
	val := make([]float32, 4)
	if err := net.Forward(in, 2, pol, val); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for idx := range ataxx.PolicySize {
		worst = max(worst, math.Abs(float64(pol[ataxx.PolicySize+ataxx.SymPolicyIndex(5, idx)]-pol[idx])))
	}
	if worst < 1e-3 {
		t.Fatalf("a random net looks symmetric (max difference %g)", worst)
	}
}

// With GOEXPERIMENT=simd on an AVX2+FMA machine, the archsimd kernels and the portable ones
// give the same outputs.
func TestSIMDMatchesPortable(t *testing.T) {
	if !simdOK {
		t.Skip("archsimd kernels not built (GOEXPERIMENT=simd) or CPU lacks AVX2/FMA")
	}
	for _, a := range []Arch{ArchFor(ataxx.Info, 4, 32), ArchFor(ataxx.Info, 2, 64)} {
		m := testModel(a, 70)
		nets := backends(t, m, 8)
		if len(nets) != 2 || !nets[0].simd || nets[1].simd {
			t.Fatal("expected one archsimd and one portable net")
		}
		for _, batch := range []int{1, 5, 8} {
			in := randomInput(batch*nets[0].InputSize(), uint64(batch))
			var pols, vals [2][]float32
			for i, net := range nets {
				pols[i] = make([]float32, batch*a.PolicySize)
				vals[i] = make([]float32, batch*a.NumPlayers)
				if err := net.Forward(in, batch, pols[i], vals[i]); err != nil {
					t.Fatal(err)
				}
			}
			assertClose(t, "policy avx2 vs gonum", pols[0], pols[1], 1e-4)
			assertClose(t, "value avx2 vs gonum", vals[0], vals[1], 1e-4)
		}
	}
}
