package nnue

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// windowArch is testArch (7x7, Bacteria War's planes) with window input.
func windowArch(hidden, l1 int, act Activation) Arch {
	a := testArch(hidden, l1)
	a.Input, a.Width, a.Activation = WindowInput, 7, act
	return a
}

// naiveWindowFeatures spells out the window features of perspective p cell by cell.
func naiveWindowFeatures(pieces [2]uint64, p, width, height int) []int32 {
	var out []int32
	for r := 0; r+1 < height; r++ {
		for c := 0; c+1 < width; c++ {
			code, pow := 0, 1
			for _, cell := range []int{r*width + c, r*width + c + 1, (r+1)*width + c, (r+1)*width + c + 1} {
				switch {
				case pieces[p]>>cell&1 == 1:
					code += pow
				case pieces[p^1]>>cell&1 == 1:
					code += 2 * pow
				}
				pow *= 3
			}
			out = append(out, int32((r*(width-1)+c)*WindowStates+code))
		}
	}
	return out
}

func TestWindowFeatures(t *testing.T) {
	for _, geo := range [][2]int{{7, 7}, {8, 8}, {4, 3}, {2, 5}} {
		a := windowArch(16, 0, CReLU)
		a.Cells, a.Width = geo[0]*geo[1], geo[0]
		if err := a.Validate(); err != nil {
			t.Fatal(err)
		}
		if a.Windows() != (geo[0]-1)*(geo[1]-1) || a.Features() != 81*a.Windows() {
			t.Fatalf("%v: %d windows, %d features", geo, a.Windows(), a.Features())
		}
		rng := rand.New(rand.NewPCG(uint64(a.Cells), 5))
		for range 2000 {
			pieces, _ := randomPieces(rng, a.Cells)
			for p := range 2 {
				got := a.ActiveFeatures(pieces, p, nil)
				want := naiveWindowFeatures(pieces, p, geo[0], geo[1])
				if len(got) != len(want) {
					t.Fatalf("%v: %d features, want %d", geo, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%v perspective %d: feature %d is %d, want %d", geo, p, i, got[i], want[i])
					}
				}
			}
		}
	}
	if swapCode[1] != 2 || swapCode[2] != 1 || swapCode[0] != 0 || swapCode[80] != 40 || swapCode[40] != 80 {
		t.Fatalf("swapCode: %v", swapCode[:10])
	}
}

func TestWindowArchValidate(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Arch)
		want string
	}{
		{func(a *Arch) { a.Input = 5 }, "input kind 5"},
		{func(a *Arch) { a.Width = 6 }, "width 6"},
		{func(a *Arch) { a.Width = 49 }, "width 49"},
		{func(a *Arch) { a.Width = 0 }, "width 0"},
		{func(a *Arch) { a.Input = CellInput }, "cell-input"},
	} {
		a := windowArch(64, 0, CReLU)
		c.mod(&a)
		if err := a.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want one mentioning %q", a, err, c.want)
		}
	}
}

// move is a move-like change of player p (see randomChange) on the position before.
type move struct {
	before         [2]uint64
	p, to, from    int
	flips          uint64
	after          [2]uint64
	firstOfTheGame bool
}

// playRandom applies random move-like changes (randomChange) from the empty board with Apply and
// calls check after each.
func playRandom(net *Net, acc Acc, rng *rand.Rand, games, plies int, check func(m move)) {
	for range games {
		var pieces [2]uint64
		net.Refresh(acc, pieces)
		for ply := range plies {
			m := move{before: pieces, p: ply & 1, firstOfTheGame: ply == 0}
			var ok bool
			if m.to, m.from, m.flips, ok = randomChange(rng, pieces, m.p); !ok {
				break
			}
			net.Apply(acc, acc, pieces, m.p, m.to, m.from, m.flips)
			pieces[m.p^1] &^= m.flips
			pieces[m.p] |= m.flips | 1<<m.to
			if m.from >= 0 {
				pieces[m.p] &^= 1 << m.from
			}
			m.after = pieces
			check(m)
		}
	}
}

func TestWindowApplyEqualsRefresh(t *testing.T) {
	for _, a := range []Arch{windowArch(64, 0, CReLU), windowArch(128, 0, SCReLU), windowArch(256, 32, CReLU)} {
		net, err := Quantize(NewRandom(a, 13), 0)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(6, 7))
		acc, fresh, child := net.NewAcc(), net.NewAcc(), net.NewAcc()
		n, jumps, captures := 0, 0, 0
		playRandom(net, acc, rng, 100, 60, func(m move) {
			net.Refresh(fresh, m.after)
			if !slicesEqual(acc, fresh) {
				t.Fatalf("%s: incremental accumulator differs from a fresh one after %+v", a, m)
			}
			// Into another accumulator, leaving the source alone.
			net.Refresh(fresh, m.before)
			net.Apply(child, fresh, m.before, m.p, m.to, m.from, m.flips)
			if !slicesEqual(child, acc) {
				t.Fatalf("%s: Apply into another accumulator differs after %+v", a, m)
			}
			n++
			if m.from >= 0 {
				jumps++
			}
			if m.flips != 0 {
				captures++
			}
		})
		if jumps == 0 || captures == 0 {
			t.Fatalf("%s: %d jumps, %d captures", a, jumps, captures)
		}
		t.Logf("%s: %d moves checked (%d jumps, %d with captures)", a, n, jumps, captures)
	}
}

func TestWindowQuantizedMatchesFloat(t *testing.T) {
	for _, a := range []Arch{windowArch(128, 0, CReLU), windowArch(128, 0, SCReLU), windowArch(64, 32, CReLU), windowArch(64, 32, SCReLU)} {
		m, net := quantizeScaled(t, a, 17)
		checkLogits(t, m, net, rand.New(rand.NewPCG(2, 3)), net.NewAcc(), 3000, nil)
	}
}

// TestWindowIntsAndLanes: the accumulator lanes equal FTBias plus the Ints rows of the active
// features (so Ints describes window nets too), and they are the float sums times Scale.
func TestWindowIntsAndLanes(t *testing.T) {
	a := windowArch(32, 0, CReLU)
	m := NewRandom(a, 3)
	net, err := Quantize(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	iv := net.Ints()
	if len(iv.FT) != a.Features() {
		t.Fatalf("Ints has %d rows, want %d", len(iv.FT), a.Features())
	}
	rng := rand.New(rand.NewPCG(4, 1))
	acc := net.NewAcc()
	lanes := make([]int16, 2*a.Hidden)
	for range 300 {
		pieces, _ := randomPieces(rng, a.Cells)
		net.Refresh(acc, pieces)
		net.Lanes(acc, lanes)
		for p := range 2 {
			feats := a.ActiveFeatures(pieces, p, nil)
			for j := range a.Hidden {
				sum, f := int32(iv.FTBias[j]), m.Weights.FTBias[j]
				for _, k := range feats {
					sum += int32(iv.FT[k][j])
					f += m.Weights.FT[int(k)*a.Hidden+j]
				}
				got := lanes[p*a.Hidden+j]
				if int32(got) != sum {
					t.Fatalf("perspective %d lane %d: %d, Ints sum %d", p, j, got, sum)
				}
				if d := math.Abs(float64(got) - float64(f)*float64(net.Scale())); d > float64(net.Scale())/8 {
					t.Fatalf("perspective %d lane %d: %d, float %v at scale %d", p, j, got, f, net.Scale())
				}
			}
		}
	}
}

func TestWindowZeroAllocs(t *testing.T) {
	for _, a := range []Arch{windowArch(128, 0, CReLU), windowArch(256, 0, SCReLU), windowArch(64, 32, CReLU)} {
		net, err := Quantize(NewRandom(a, 2), 0)
		if err != nil {
			t.Fatal(err)
		}
		checkApplyEvalNoAllocs(t, net, 1000)
	}
}

// TestWindowSIMDMatchesPortable: in a GOEXPERIMENT=simd build on an AVX2 CPU the AVX2 window
// update gives the portable one's accumulators bit for bit (skipped elsewhere). The shapes
// cover the fused kernel's four-chunk loop (64, 128, 256 lanes), its one-chunk tail (48 = 3
// chunks, 80 = 4 + 1) and a one-perspective net.
func TestWindowSIMDMatchesPortable(t *testing.T) {
	stm := windowArch(64, 0, SCReLU)
	stm.STMOnly = true
	for _, a := range []Arch{windowArch(128, 0, CReLU), windowArch(256, 0, SCReLU), windowArch(128, 32, CReLU),
		windowArch(64, 0, CReLU), windowArch(48, 0, CReLU), windowArch(80, 0, SCReLU), stm} {
		net, err := Quantize(NewRandom(a, 23), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !net.SetSIMD(true) {
			t.Skip("no AVX2 kernels in this build (GOEXPERIMENT=simd on amd64 with AVX2)")
		}
		t.Logf("%s: %d moves agree", a, checkSIMDMatchesPortable(t, net, 150, 50))
	}
}

// TestWindowFile: a two-perspective window-input net round-trips in body version 3; cell-input nets keep
// versions 1 and 2; an unknown input kind or a wrong geometry in a file is refused by name.
func TestWindowFile(t *testing.T) {
	m := NewRandom(windowArch(32, 0, SCReLU), 8)
	m.Step = 77
	b, got := writeRead(t, m)
	if got.Arch != m.Arch || got.Step != 77 || got.SHA256() != m.SHA256() {
		t.Fatalf("round trip changed the model: %+v", got.Arch)
	}
	if v := bodyVersion(b); v != BodyVersion3 {
		t.Fatalf("window net written with body version %d, want %d", v, BodyVersion3)
	}
	for act, want := range map[Activation]uint32{CReLU: BodyVersion1, SCReLU: BodyVersion2} {
		var c bytes.Buffer
		a := testArch(32, 0)
		a.Activation = act
		if err := NewRandom(a, 1).Write(&c); err != nil {
			t.Fatal(err)
		}
		if v := bodyVersion(c.Bytes()); v != want {
			t.Errorf("cell-input %s net written with body version %d, want %d", act, v, want)
		}
	}
	// The dims hidden, l1, activation, input, width: 32, 0, 1, 1, 7.
	dims := []byte{32, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0}
	i := bytes.Index(b, dims)
	if i < 0 {
		t.Fatal("input dims not found")
	}
	for _, c := range []struct {
		at   int
		v    byte
		want string
	}{{12, 9, "input kind 9"}, {16, 5, "width 5"}, {16, 0, "width 0"}} {
		d := append([]byte{}, b...)
		d[i+c.at] = c.v
		if _, err := Read(bytes.NewReader(d)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("file with dim %d = %d: err %v, want one mentioning %q", c.at, c.v, err, c.want)
		}
	}
}

func TestWindowQuantizeRefusesLargeWeights(t *testing.T) {
	m := NewRandom(windowArch(32, 0, CReLU), 1)
	for w := range 36 {
		m.Weights.FT[(w*81+5)*32+3] = 20 // 36 windows x 20 x 2^6 > 32767 on lane 3
	}
	if _, err := Quantize(m, 0); err == nil || !strings.Contains(err.Error(), "lane 3") {
		t.Fatalf("Quantize of window weights that overflow int16: err %v", err)
	}
	m.Weights.FT[(5*81+5)*32+3] = 0 // a window whose other states stay small: still in range
	for w := range 36 {
		m.Weights.FT[(w*81+5)*32+3] = 0.1
	}
	if _, err := Quantize(m, 0); err != nil {
		t.Fatal(err)
	}
}

// TestShippedFilesRewriteIdentically: the repository's nets (body versions 1 and 2, and the
// window-input candidates' 3) read and written again are the same bytes.
func TestShippedFilesRewriteIdentically(t *testing.T) {
	files, _ := filepath.Glob("../../models/*/nnue*/*.nnue")
	if len(files) == 0 {
		t.Skip("no shipped nnue files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := m.Write(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), b) {
			t.Errorf("%s (%s): written again it differs from the file", f, m.Arch)
		}
	}
}

// TestWindowWiden: widening a window-input net keeps its function and its input kind.
func TestWindowWiden(t *testing.T) {
	m := NewRandom(windowArch(32, 0, SCReLU), 4)
	w, err := Widen(m, 64, 1)
	if err != nil {
		t.Fatal(err)
	}
	if w.Arch.Input != WindowInput || w.Arch.Width != 7 || w.Arch.Hidden != 64 {
		t.Fatalf("widened arch %+v", w.Arch)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		pieces, stm := randomPieces(rng, 49)
		if a, b := m.Forward(pieces, stm), w.Forward(pieces, stm); math.Abs(float64(a-b)) > 1e-5 {
			t.Fatalf("widened net: logit %v, was %v", b, a)
		}
	}
}
