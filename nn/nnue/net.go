package nnue

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// Quantization. The feature transformer's scale is 2^k (k in [minFTShift, maxFTShift], the
// largest whose reachable accumulator sums fit int16), so 1.0 is qa = 2^k and CReLU clips to
// [0, qa]. Hidden weights are int16 at scale 2^s (s <= maxL1Shift, the largest that keeps
// them within ±2047, so that a hidden sum over 2*MaxHidden inputs fits int32). Output weights
// are int32 at scale QO.
const (
	minFTShift = 6
	maxFTShift = 10
	maxL1Shift = 12
	maxL1W     = 2047
	// QO is the output weights' scale.
	QO       = 1 << 10
	laneBias = 1 << 15 // accumulator lanes are stored as value + laneBias
	pairBias = 1 << 31 // hidden sums are two int32 lanes per word, stored as value + pairBias
)

// DefaultScoreScale is the score per logit unit when a model does not say (hundredths of a
// piece per tanh unit: selfplay's -score-scale default).
const DefaultScoreScale = 300

// Net is the integer form of a Model, for search. It is read-only after construction and safe
// for concurrent use; each search owns its accumulators (Acc).
type Net struct {
	arch  Arch
	words int   // uint64 words of one perspective (Hidden/4)
	qa    int32 // the accumulator's 1.0 (2^ftShift); CReLU clips to [0, qa]
	sq    bool  // SCReLU: a clipped lane c becomes (c*c) >> ftShift
	shift uint  // ftShift (qa = 1 << shift)

	init  []uint64    // the empty board's accumulator (biases, lane offsets), 2*words
	place [2][]uint64 // place[p][c*2*words:]: player p's piece appears on c (both perspectives)
	flip  [2][]uint64 // flip[p][c*2*words:]: the piece on c turns from player 1-p's to p's
	win   windows     // window input's tables (window.go); empty for cell input

	l1Shift uint
	l1W     []uint64 // [P*Hidden][L1/2]: two int8 weights as one packed signed integer
	l1Init  []uint64 // [L1/2]: biases + pairBias per lane
	outW    []int32  // [L1] or [B][P*Hidden] (P = Arch.Perspectives(), B = Arch.OutputBuckets()), scale QO
	stmOnly bool     // Arch.STMOnly: the tail reads the side to move's accumulator only
	outB    []int64  // [B], scale qa*QO

	// AVX2 path (GOEXPERIMENT=simd builds on AVX2 CPUs): lane-wise rows and int16 output
	// weights; simdMove and simdEval say which parts use it.
	simdMove, simdEval bool
	// Portable SWAR output layer (no L1, output weights within int16): packed weights, and
	// for SCReLU the activation of every biased lane value (sqAct[v + laneBias]).
	swarW              []uint64
	sqAct              []uint16
	qaLanes, overLanes uint64
	placeL, flipL      [2][]int16
	outW16             []int16

	scoreMul int64 // score = (out * scoreMul) >> 32
	// ScoreScale is the score per logit unit (hundredths of a piece per tanh unit).
	ScoreScale int
}

// Acc is one position's accumulator: both perspectives' Hidden int16 sums, four lanes per
// word, player 0's perspective first. Get one from Net.NewAcc.
type Acc []uint64

// NewAcc returns a zeroed accumulator of n's size (Refresh it before use).
func (n *Net) NewAcc() Acc { return make(Acc, 2*n.words) }

// Arch returns the net's architecture.
func (n *Net) Arch() Arch { return n.arch }

// pack4 packs four signed lane deltas as the integer sum d_i * 2^(16 i) (mod 2^64).
func pack4(d []int32) uint64 {
	var v uint64
	for i := 3; i >= 0; i-- {
		v = v<<16 + uint64(int64(d[i]))
	}
	return v
}

// pack2 packs two signed 32-bit lane deltas the same way.
func pack2(lo, hi int64) uint64 { return uint64(lo) + uint64(hi)<<32 }

func roundClamp(x float64, lo, hi int64) int64 {
	r := int64(math.Round(x))
	return min(max(r, lo), hi)
}

// Quantize builds the integer net of m. It fails when the float weights are too large for the
// int16 accumulator (a reachable lane sum outside [-32768, 32767]) or the hidden sums.
// scoreScale is the score per logit unit (0: the model's "score_scale" metadata, else
// DefaultScoreScale).
func Quantize(m *Model, scoreScale int) (*Net, error) {
	if err := m.CheckShapes(); err != nil {
		return nil, err
	}
	a, w := m.Arch, &m.Weights
	if scoreScale <= 0 {
		scoreScale = DefaultScoreScale
		if s, ok := m.Meta["score_scale"]; ok {
			var v int
			if _, err := fmt.Sscan(s, &v); err == nil && v > 0 {
				scoreScale = v
			}
		}
	}
	H, C := a.Hidden, a.Cells
	n := &Net{arch: a, words: H / 4, ScoreScale: scoreScale, stmOnly: a.STMOnly}
	in := a.Perspectives() * H // the tail's inputs
	var ft, bias []int32
	var rangeErr error
	for k := maxFTShift; k >= minFTShift; k-- {
		ft, bias, rangeErr = quantizeFT(a, w, float64(int(1)<<k))
		if rangeErr == nil {
			n.qa, n.shift = 1<<k, uint(k)
			n.sq = a.Activation == SCReLU
			break
		}
	}
	if rangeErr != nil {
		return nil, rangeErr
	}
	rowW := 2 * n.words
	n.init = make([]uint64, rowW)
	tmp := make([]int32, 4)
	for persp := range 2 {
		for k := range n.words {
			for l := range 4 {
				tmp[l] = bias[4*k+l] + laneBias
			}
			n.init[persp*n.words+k] = pack4(tmp)
		}
	}
	if a.Input == WindowInput {
		n.win = newWindows(a, ft, n.words)
	}
	// place[p][c]: perspective p sees feature c (own), perspective 1-p sees feature C+c.
	for p := 0; p < 2 && a.Input == CellInput; p++ {
		n.place[p] = make([]uint64, C*rowW)
		n.flip[p] = make([]uint64, C*rowW)
		for c := range C {
			for persp := range 2 {
				f, g := c, C+c // the feature this piece is for persp, and the one it was
				if persp != p {
					f, g = C+c, c
				}
				for k := range n.words {
					for l := range 4 {
						tmp[l] = ft[f*H+4*k+l]
					}
					n.place[p][c*rowW+persp*n.words+k] = pack4(tmp)
					for l := range 4 {
						tmp[l] = ft[f*H+4*k+l] - ft[g*H+4*k+l]
					}
					n.flip[p][c*rowW+persp*n.words+k] = pack4(tmp)
				}
			}
		}
	}
	// The tail.
	if a.L1 > 0 {
		var mx float64
		for _, v := range w.L1W {
			mx = max(mx, math.Abs(float64(v)))
		}
		shift := uint(maxL1Shift)
		for shift > 0 && mx*float64(int(1)<<shift) > maxL1W {
			shift--
		}
		if mx*float64(int(1)<<shift) > maxL1W {
			return nil, fmt.Errorf("nnue: hidden weight %.3g too large to quantize", mx)
		}
		n.l1Shift = shift
		sc := float64(int(1) << shift)
		half := a.L1 / 2
		n.l1W = make([]uint64, in*half)
		for i := range in {
			for k := range half {
				lo := roundClamp(float64(w.L1W[i*a.L1+2*k])*sc, -maxL1W, maxL1W)
				hi := roundClamp(float64(w.L1W[i*a.L1+2*k+1])*sc, -maxL1W, maxL1W)
				n.l1W[i*half+k] = pack2(lo, hi)
			}
		}
		n.l1Init = make([]uint64, half)
		limit := int64(pairBias - 1 - 2*H*int(n.qa)*maxL1W)
		qa := float64(n.qa)
		for k := range half {
			lo, hi := float64(w.L1B[2*k])*qa*sc, float64(w.L1B[2*k+1])*qa*sc
			if math.Abs(lo) > float64(limit) || math.Abs(hi) > float64(limit) {
				return nil, fmt.Errorf("nnue: hidden bias %.3g too large to quantize", max(w.L1B[2*k], w.L1B[2*k+1]))
			}
			n.l1Init[k] = pack2(int64(math.Round(lo))+pairBias, int64(math.Round(hi))+pairBias)
		}
		n.outW = make([]int32, a.L1)
	} else {
		n.outW = make([]int32, a.OutputBuckets()*in)
	}
	// The file's out.w is [inputs][B]; the net keeps each bucket's weights together ([B][inputs]).
	B := a.OutputBuckets()
	for i, v := range w.OutW {
		n.outW[i%B*(len(w.OutW)/B)+i/B] = int32(roundClamp(float64(v)*QO, -1<<20, 1<<20))
	}
	n.outB = make([]int64, B)
	for b, v := range w.OutB {
		n.outB[b] = roundClamp(float64(v)*float64(n.qa)*QO, -1<<40, 1<<40)
	}
	n.scoreMul = int64(math.Round(float64(scoreScale) * (1 << 32) / (float64(n.qa) * QO)))
	if a.L1 == 0 {
		fits := true
		for _, v := range n.outW {
			fits = fits && v >= -32768 && v <= 32767
		}
		if fits {
			n.swarW = packOutSWAR(n.outW)
			n.qaLanes = uint64(n.qa) * laneOne
			n.overLanes = (0x7FFF &^ uint64(n.qa-1)) * laneOne
			if n.sq {
				n.sqAct = sqActTable(n.qa, n.shift)
			}
		}
	}
	n.prepareSIMD(ft)
	return n, nil
}

// prepareSIMD builds the AVX2 path's tables when this build and CPU have it and the net is
// wide enough to gain from it. The output
// kernel is used for a net without L1 whose output weights fit int16 and whose worst-case
// dot product fits int32 (vpmaddwd sums in int32 lanes).
func (n *Net) prepareSIMD(ft []int32) {
	// Cell input below 128 lanes per view: the portable SWAR kernels are as fast (measured: 64
	// lanes, move + evaluate 300 vs 370 CPU-ns; 128 lanes 630 vs 450). Window input gains at
	// every width from the fused update (64 lanes: 263 against 144 CPU-ns).
	if !cpuSIMD || n.arch.Hidden < 128 && n.arch.Input != WindowInput {
		return
	}
	a := n.arch
	H, C := a.Hidden, a.Cells
	if a.Input == WindowInput {
		n.win.prepareSIMD(ft)
	}
	for p := 0; p < 2 && a.Input == CellInput; p++ {
		n.placeL[p] = make([]int16, C*2*H)
		n.flipL[p] = make([]int16, C*2*H)
		for c := range C {
			for persp := range 2 {
				f, g := c, C+c
				if persp != p {
					f, g = C+c, c
				}
				for j := range H {
					// Lane arithmetic wraps: a difference outside int16 still adds exactly.
					n.placeL[p][c*2*H+persp*H+j] = int16(ft[f*H+j])
					n.flipL[p][c*2*H+persp*H+j] = int16(ft[f*H+j] - ft[g*H+j])
				}
			}
		}
	}
	n.simdMove = true
	if a.L1 != 0 {
		return
	}
	// The output kernels sum vpmaddwd's int32 pairs in eight int32 lanes, each lane taking
	// Hidden/8 products of an activation in [0, qa] (CReLU's c, SCReLU's (c*c)>>shift) and a
	// weight within ±mx per call (one accumulator against one bucket's block of weights); the
	// calls' lanes are summed in int64.
	var mx int64
	for _, w := range n.outW {
		mx = max(mx, int64(w), -int64(w))
	}
	if !outFitsSIMD(n.arch.Hidden, int64(n.qa), mx) {
		return
	}
	n.outW16 = make([]int16, len(n.outW))
	for i, w := range n.outW {
		n.outW16[i] = int16(w)
	}
	n.simdEval = true
}

// outFitsSIMD reports whether the AVX2 output kernels are exact for in output weights within
// ±mx at the accumulator scale qa: the weights fit int16 and no int32 lane of the sum can
// overflow (in/8 products per lane, each within qa*mx).
func outFitsSIMD(in int, qa, mx int64) bool {
	return mx <= 32767 && int64(in/8)*qa*mx < 1<<31
}

// SetSIMD turns the AVX2 path off (false) or back on where Quantize enabled it (tests and
// benchmarks compare the two); it reports whether any AVX2 kernel is in use afterwards.
func (n *Net) SetSIMD(on bool) bool {
	if !on {
		n.simdMove, n.simdEval = false, false
		return false
	}
	n.simdMove = n.placeL[0] != nil || n.win.ft16 != nil
	n.simdEval = n.outW16 != nil
	return n.simdMove || n.simdEval
}

// quantizeFT rounds the feature transformer at scale sc, checking that no reachable lane sum
// leaves int16: per perspective each cell holds at most one feature (own or other), so the
// largest reachable |sum| of lane j is |b_j| + sum_c max(|own_c,j|, |other_c,j|). With window
// input each window holds exactly one of its 81 features: the bound sums each window's
// smallest and largest weight of lane j (a superset of the reachable sums, since overlapping
// windows constrain each other).
func quantizeFT(a Arch, w *Weights, sc float64) (ft, bias []int32, err error) {
	H, C := a.Hidden, a.Cells
	ft = make([]int32, len(w.FT))
	for i, v := range w.FT {
		ft[i] = int32(roundClamp(float64(v)*sc, -32767, 32767))
	}
	bias = make([]int32, H)
	for j, v := range w.FTBias {
		bias[j] = int32(roundClamp(float64(v)*sc, -32767, 32767))
	}
	for j := range H {
		lo, hi := int64(bias[j]), int64(bias[j])
		for w := range a.Windows() {
			wl, wh := int64(math.MaxInt64), int64(math.MinInt64)
			for f := w * WindowStates; f < (w+1)*WindowStates; f++ {
				wl, wh = min(wl, int64(ft[f*H+j])), max(wh, int64(ft[f*H+j]))
			}
			lo, hi = lo+wl, hi+wh
		}
		for c := 0; c < C && a.Input == CellInput; c++ {
			o, t := int64(ft[c*H+j]), int64(ft[(C+c)*H+j])
			lo += min(o, t, 0)
			hi += max(o, t, 0)
		}
		if lo < -32768 || hi > 32767 {
			return nil, nil, fmt.Errorf("nnue: accumulator lane %d can reach [%d, %d] at scale %v, outside int16: feature weights too large to quantize", j, lo, hi, sc)
		}
	}
	return ft, bias, nil
}

// addRow sets dst = src + row word by word.
func addRow(dst, src, row []uint64) {
	row = row[:len(dst)]
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = src[i] + row[i]
	}
}

// subRow sets dst = src - row word by word.
func subRow(dst, src, row []uint64) {
	row = row[:len(dst)]
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = src[i] - row[i]
	}
}

func (n *Net) placeRow(p, c int) []uint64 {
	w := 2 * n.words
	return n.place[p][c*w : c*w+w]
}

func (n *Net) flipRow(p, c int) []uint64 {
	w := 2 * n.words
	return n.flip[p][c*w : c*w+w]
}

func (n *Net) placeLanes(p, c int) []int16 {
	w := 8 * n.words
	return n.placeL[p][c*w : c*w+w]
}

func (n *Net) flipLanes(p, c int) []int16 {
	w := 8 * n.words
	return n.flipL[p][c*w : c*w+w]
}

// Refresh computes the accumulator of a position from scratch: pieces[p] has bit c set when
// player p has a piece on cell c.
func (n *Net) Refresh(dst Acc, pieces [2]uint64) {
	copy(dst, n.init)
	if n.arch.Input == WindowInput {
		n.refreshWindows(dst, pieces)
		return
	}
	for p := range 2 {
		for b := pieces[p]; b != 0; b &= b - 1 {
			addRow(dst, dst, n.placeRow(p, bits.TrailingZeros64(b)))
		}
	}
}

// Apply sets dst to src updated for a move of player p on the position before (each player's
// pieces): a piece appears on cell to, the piece on cell from disappears (from < 0: none does)
// and the pieces on the cells of flips turn from the other player's into p's. dst and src may
// be the same accumulator. It serves both input kinds: a cell-input net does not read before
// (Move); a window-input net updates the windows around the changed cells, so for it the
// change must be a legal one on before (to empty, from p's, flips the other player's).
func (n *Net) Apply(dst, src Acc, before [2]uint64, p, to, from int, flips uint64) {
	if n.arch.Input == WindowInput {
		n.moveWindows(dst, src, before, p, to, from, flips)
		return
	}
	n.Move(dst, src, p, to, from, flips)
}

// Move is Apply for a cell-input net, which needs no position: a window-input net panics (its
// update reads the cells around the changed ones; use Apply).
func (n *Net) Move(dst, src Acc, p, to, from int, flips uint64) {
	if n.arch.Input != CellInput {
		panic("nnue: Move on a window-input net (use Apply)")
	}
	if n.simdMove {
		addRowSIMD(dst, src, n.placeLanes(p, to))
		if from >= 0 {
			subRowSIMD(dst, dst, n.placeLanes(p, from))
		}
		for b := flips; b != 0; b &= b - 1 {
			addRowSIMD(dst, dst, n.flipLanes(p, bits.TrailingZeros64(b)))
		}
		return
	}
	// Fused passes: the placement, the removal and one conversion in the first, then two
	// conversions per pass (each pass reads and writes dst once).
	W := len(dst)
	src = src[:W]
	pl := n.placeRow(p, to)[:W]
	var f0 []uint64
	if flips != 0 {
		f0 = n.flipRow(p, bits.TrailingZeros64(flips))[:W]
		flips &= flips - 1
	}
	switch {
	case from >= 0 && f0 != nil:
		rm := n.placeRow(p, from)[:W]
		for i := range dst {
			dst[i] = src[i] + pl[i] - rm[i] + f0[i]
		}
	case from >= 0:
		rm := n.placeRow(p, from)[:W]
		for i := range dst {
			dst[i] = src[i] + pl[i] - rm[i]
		}
	case f0 != nil:
		for i := range dst {
			dst[i] = src[i] + pl[i] + f0[i]
		}
	default:
		for i := range dst {
			dst[i] = src[i] + pl[i]
		}
	}
	for flips != 0 {
		a := n.flipRow(p, bits.TrailingZeros64(flips))[:W]
		flips &= flips - 1
		if flips == 0 {
			for i := range dst {
				dst[i] += a[i]
			}
			break
		}
		b := n.flipRow(p, bits.TrailingZeros64(flips))[:W]
		flips &= flips - 1
		for i := range dst {
			dst[i] += a[i] + b[i]
		}
	}
}

// Unmove undoes Move in place: acc becomes the accumulator before Move(acc, acc, p, to, from,
// flips). Cell-input nets only (a window-input net panics).
func (n *Net) Unmove(acc Acc, p, to, from int, flips uint64) {
	if n.arch.Input != CellInput {
		panic("nnue: Unmove on a window-input net")
	}
	subRow(acc, acc, n.placeRow(p, to))
	if from >= 0 {
		addRow(acc, acc, n.placeRow(p, from))
	}
	for b := flips; b != 0; b &= b - 1 {
		subRow(acc, acc, n.flipRow(p, bits.TrailingZeros64(b)))
	}
}

// Lanes writes the accumulator's 2*Hidden int16 sums (player 0's perspective first) to dst.
func (n *Net) Lanes(acc Acc, dst []int16) {
	for i, w := range acc {
		for l := range 4 {
			dst[4*i+l] = int16(int32(uint16(w>>(16*l))) - laneBias)
		}
	}
}

// clip decodes lane l of word w and clips it to [0, qa].
func clip(w uint64, l uint, qa int32) int32 {
	v := int32(uint16(w>>(16*l))) - laneBias
	return min(max(v, 0), qa)
}

// Evaluate returns the score of the position of acc for the side to move stm, read by output
// bucket (Arch.Bucket of the position; 0 for an unbucketed net): the logit times ScoreScale
// (hundredths of a piece per tanh unit), rounded down.
func (n *Net) Evaluate(acc Acc, stm, bucket int) int32 {
	return int32((n.Output(acc, stm, bucket) * n.scoreMul) >> 32)
}

// Output returns the raw integer logit (scale qa*QO) of the position of acc for stm, read by
// output bucket (Arch.Bucket; 0 for an unbucketed net). A bucket outside the net's panics.
func (n *Net) Output(acc Acc, stm, bucket int) int64 {
	W := n.words
	us := acc[stm*W : stm*W+W]
	if n.stmOnly {
		if len(n.l1Init) != 0 {
			return n.tail(us, nil)
		}
		return n.outB[bucket] + n.dot(us, bucket)
	}
	them := acc[(stm^1)*W : (stm^1)*W+W]
	if len(n.l1Init) != 0 {
		return n.tail(us, them)
	}
	if n.simdEval && n.sq {
		return n.outB[bucket] + dotSq2SIMD(us, them, n.outW16[8*W*bucket:8*W*(bucket+1)], int16(n.qa), uint64(n.shift))
	}
	if n.sqAct != nil && !n.simdEval {
		act, w := (*[1 << 16]uint16)(n.sqAct), n.swarW[4*W*bucket:4*W*(bucket+1)]
		return n.outB[bucket] + dotSqSWAR(us, w[:2*W], act) + dotSqSWAR(them, w[2*W:], act)
	}
	return n.outB[bucket] + n.dot(us, 2*bucket) + n.dot(them, 2*bucket+1)
}

// dot is the output layer's sum over one accumulator a (a view's Hidden lanes) against the
// output weights of block k: block b*P + j is bucket b's weights of input block j (0: the side
// to move's, 1: the other's), by the fastest kernel the net has: AVX2, SWAR (CReLU with int16
// weights) or scalar.
func (n *Net) dot(a []uint64, k int) int64 {
	W := n.words
	switch {
	case n.simdEval && n.sq:
		return dotSqSIMD(a, n.outW16[4*W*k:4*W*(k+1)], int16(n.qa), uint64(n.shift))
	case n.simdEval:
		return dotClipSIMD(a, n.outW16[4*W*k:4*W*(k+1)], int16(n.qa))
	case n.sqAct != nil:
		return dotSqSWAR(a, n.swarW[2*W*k:2*W*(k+1)], (*[1 << 16]uint16)(n.sqAct))
	case n.sq:
		return dotSq(a, n.outW[4*W*k:4*W*(k+1)], n.qa, n.shift)
	case n.swarW != nil:
		return dotClipSWAR(a, n.swarW[2*W*k:2*W*(k+1)], n.qaLanes, n.overLanes)
	}
	return dotClip(a, n.outW[4*W*k:4*W*(k+1)], n.qa)
}

// dotClip returns sum_i CReLU(lane i of a) * w[i].
func dotClip(a []uint64, w []int32, qa int32) int64 {
	var s0, s1 int64
	for len(a) > 0 && len(w) >= 4 {
		x := a[0]
		s0 += int64(clip(x, 0, qa)*w[0]) + int64(clip(x, 2, qa)*w[2])
		s1 += int64(clip(x, 1, qa)*w[1]) + int64(clip(x, 3, qa)*w[3])
		a, w = a[1:], w[4:]
	}
	return s0 + s1
}

// dotSq returns sum_i SCReLU(lane i of a) * w[i] in a scalar loop (the SWAR kernel's 16-bit
// products would not hold the squares times the weights). A product fits int32: the square
// is at most qa <= 2^10 and Quantize clamps the output weights to ±2^20; the sum is int64.
// The word's four lanes are decoded at once and its weights sliced once (no bounds checks in
// the loop): 25% faster than a lane-at-a-time loop with int64 products.
func dotSq(a []uint64, w []int32, qa int32, shift uint) int64 {
	w = w[:4*len(a)]
	var s int64
	for i, x := range a {
		ww := w[4*i : 4*i+4 : 4*i+4]
		// clip(x, l, qa) written out: through four clip calls the loop runs 12% slower.
		c0 := min(max(int32(uint16(x))-laneBias, 0), qa)
		c1 := min(max(int32(uint16(x>>16))-laneBias, 0), qa)
		c2 := min(max(int32(uint16(x>>32))-laneBias, 0), qa)
		c3 := min(max(int32(uint16(x>>48))-laneBias, 0), qa)
		s += int64((c0*c0>>shift)*ww[0]) + int64((c1*c1>>shift)*ww[1]) +
			int64((c2*c2>>shift)*ww[2]) + int64((c3*c3>>shift)*ww[3])
	}
	return s
}

// SWAR output layer. For a net without L1 whose output weights fit int16, the portable path
// clips four lanes at once and forms two-lane dot products with one 64-bit multiply: with the
// clipped lanes c0, c2 at bits 0 and 32 of y and the biased weights w' = w + 32768 (in
// [0, 65535]) packed as w2' + w0'<<32, bits 32..63 of y*W hold c0*w0' + c2*w2' (c <= 1024, so
// every partial product is below 2^26 and nothing carries across). The bias is taken back
// with the lanes' sum: sum c*w = sum c*w' - 32768*sum c.
const (
	laneHi  uint64 = 0x8000800080008000
	laneLo  uint64 = 0x7FFF7FFF7FFF7FFF
	laneOne uint64 = 0x0001000100010001
	pairMsk uint64 = 0x0000FFFF0000FFFF
)

// clip4 clips the four biased lanes of x to [0, qa] (qa = 2^k <= 1024, qaLanes = qa in every
// lane, overLanes = bits k..14 in every lane).
func clip4(x, qaLanes, overLanes uint64) uint64 {
	m := (x & laneHi) >> 15 * 0xFFFF                        // lanes >= 0
	t := (x ^ laneHi) & m                                   // v, or 0 where v < 0
	o := ((t & overLanes) + laneLo) & laneHi >> 15 * 0xFFFF // lanes >= qa
	return t&^o | qaLanes&o
}

// dotClipSWAR equals dotClip for weights w packed by packOutSWAR (two words per input word).
func dotClipSWAR(a []uint64, w []uint64, qaLanes, overLanes uint64) int64 {
	var s, cs uint64
	for len(a) > 0 && len(w) >= 2 {
		c := clip4(a[0], qaLanes, overLanes)
		s += (c&pairMsk*w[0])>>32 + (c>>16&pairMsk*w[1])>>32
		cs += c * laneOne >> 48
		a, w = a[1:], w[2:]
	}
	return int64(s) - 32768*int64(cs)
}

// sqActTable is SCReLU's activation of every biased lane value v + laneBias: (c*c) >> shift
// with c = v clipped to [0, qa] (qa = 1 << shift <= 1024, so every entry is at most qa).
func sqActTable(qa int32, shift uint) []uint16 {
	t := make([]uint16, 1<<16)
	for u := range t {
		c := min(max(int32(u)-laneBias, 0), qa)
		t[u] = uint16(c * c >> shift)
	}
	return t
}

// dotSqSWAR equals dotSq for weights w packed by packOutSWAR (int16 range, two words per
// input word) and act = sqActTable(qa, shift): each lane's activation s <= qa <= 1024 is
// read from the table (the clip, square and shift of dotSq in one load), and the products
// are formed two at a time as dotClipSWAR's (s0 + s2<<32 times w2' + w0'<<32 holds s0*w0' +
// s2*w2' in bits 32..63, below 2^27), the weights' bias taken back with the activations' sum.
// About a third of dotSq's instructions: the portable build's evaluation of the shipped
// SCReLU nets.
func dotSqSWAR(a []uint64, w []uint64, act *[1 << 16]uint16) int64 {
	w = w[:2*len(a)]
	pw := unsafe.Pointer(unsafe.SliceData(w)) // read unchecked: w is 2*len(a) words
	var s, cs uint64
	for i, x := range a {
		s0, s1 := uint64(act[uint16(x)]), uint64(act[uint16(x>>16)])
		s2, s3 := uint64(act[uint16(x>>32)]), uint64(act[uint16(x>>48)])
		ww := (*[2]uint64)(unsafe.Add(pw, 16*i))
		p0, p1 := s0|s2<<32, s1|s3<<32
		s += p0*ww[0]>>32 + p1*ww[1]>>32
		cs += p0 + p1 // the activations' sum in two 32-bit halves (each below 2^12 a word)
	}
	return int64(s) - 32768*int64(cs&0xFFFFFFFF+cs>>32)
}

// packOutSWAR packs int16-range output weights for dotClipSWAR: per group of four lanes,
// (w2' + w0'<<32) and (w3' + w1'<<32).
func packOutSWAR(w []int32) []uint64 {
	out := make([]uint64, len(w)/2)
	for i := 0; i+3 < len(w); i += 4 {
		b := func(k int) uint64 { return uint64(w[i+k] + 32768) }
		out[i/2] = b(2) | b(0)<<32
		out[i/2+1] = b(3) | b(1)<<32
	}
	return out
}

// tail is the hidden layer: h = CReLU(x W1 + b1), out = h Wo + bo, with two int32 hidden sums
// per word (packed signed integers, like the accumulator's lanes). them is nil for an STMOnly
// net.
func (n *Net) tail(us, them []uint64) int64 {
	var hbuf [MaxL1 / 2]uint64
	half := len(n.l1Init)
	h := hbuf[:half]
	copy(h, n.l1Init)
	H := 4 * len(us)
	for persp, a := range [2][]uint64{us, them} {
		if a == nil {
			break
		}
		rows := n.l1W[persp*H*half : (persp+1)*H*half]
		for i, x := range a {
			for l := range uint(4) {
				v := clip(x, l, n.qa)
				if n.sq {
					v = v * v >> n.shift
				}
				if v == 0 {
					continue
				}
				r := rows[(4*i+int(l))*half:][:half]
				vv := uint64(v)
				for k := range h {
					h[k] += vv * r[k]
				}
			}
		}
	}
	out := n.outB[0]
	sh := n.l1Shift
	var rnd int64
	if sh > 0 {
		rnd = 1 << (sh - 1)
	}
	ow := n.outW[:2*half]
	qa := int64(n.qa)
	for k, v := range h {
		lo := (int64(uint32(v)) - pairBias + rnd) >> sh
		hi := (int64(v>>32) - pairBias + rnd) >> sh
		out += min(max(lo, 0), qa)*int64(ow[2*k]) + min(max(hi, 0), qa)*int64(ow[2*k+1])
	}
	return out
}

// Logit converts Output's integer logit to a float.
func (n *Net) Logit(out int64) float64 { return float64(out) / (float64(n.qa) * QO) }

// Scale is the accumulator's 1.0 (a power of two): Lanes are float sums times Scale.
func (n *Net) Scale() int { return int(n.qa) }
