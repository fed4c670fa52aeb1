// Package nnue is Colony's efficiently updatable evaluator: a small network whose first layer
// is a sum of weight rows over the pieces on the board, kept up to date move by move, for
// two-player games on boards of at most 64 cells with one kind of piece per player (Bacteria
// War). It imports no game package: a game maps its cells and players onto the scheme below
// and its encoder's planes onto Arch.
//
// # Scheme
//
// Features are cells x {own piece, opponent piece} as seen from one player (a perspective):
// feature c is "perspective's piece on cell c", feature Cells+c "the other player's piece on
// c". The feature transformer FT ([2*Cells][Hidden] weights plus a bias) turns each
// perspective's active features into an accumulator of Hidden sums; both perspectives share FT.
//
// Window input (Arch.Input = WindowInput, on a board of Arch.Width columns) reads the board's
// 2x2 windows instead: a board of W x H cells has (W-1)(H-1) windows (36 on 7x7), each in one of
// 3^4 = 81 states as seen from a perspective, so there are 81 features per window (2,916 on
// 7x7) of which exactly one per window is active. Window w (numbered row-major by its top-left
// cell) in state code is feature w*81 + code, code = sum_i d_i 3^i over its cells i = 0..3
// (top-left, top-right, bottom-left, bottom-right), d = 0 empty, 1 the perspective's piece, 2
// the other player's (Arch.ActiveFeatures). A move changes the windows around its changed cells
// (a cell is in at most four): each such window trades its old feature's row for its new one's
// (Net.Apply), for both perspectives. The rest of the net is the same.
//
// Two perspectives are kept (player 0's and player 1's) so that nothing is recomputed when the
// side to move changes: a move changes a handful of cells (a placed piece, a removed one, the
// converted ones), each of which adds or subtracts one row per perspective, while a single
// side-to-move accumulator would have to be rebuilt from scratch at every ply (every own piece
// becomes an opponent piece). The tail reads both accumulators, the side to move's first, or
// (Arch.STMOnly) the side to move's only:
//
//	x      = [A(acc[stm]), A(acc[1-stm])]                    2*Hidden values, A = Arch.Activation:
//	         CReLU(v) = clip(v, 0, 1) (the default) or SCReLU(v) = CReLU(v)^2
//	         (STMOnly: x = A(acc[stm]), Hidden values)
//	L1 > 0:  h = CReLU(x W1 + b1) (L1 values), logit = h Wo + bo
//	L1 = 0:  logit = x Wo + bo
//	value  = tanh(logit)                                     for the side to move
//
// The trainer fits value against the shards' value target of the side to move. Scores for a
// search are logit * ScoreScale (hundredths of a piece per tanh unit, the scale of selfplay's
// -score-scale).
//
// # Integer inference
//
// Net is the quantized form: int16 accumulators (FT times a power of two up to 1024, the
// largest whose reachable sums fit int16; CReLU clips at that 1.0), int16 hidden weights
// (within ±2047) at a per-net power-of-two scale, int32 output weights. Accumulator lanes
// are packed four to a uint64 in offset binary (lane value + 32768): adding a row of signed
// int16 deltas is one 64-bit add per four lanes, exact because every row is stored as the
// integer sum of its deltas d_i·2^(16i) (integer addition is linear) and the quantizer checks
// that no reachable lane value leaves [-32768, 32767]. The in-memory bytes of an accumulator are
// exactly its 16-bit lanes, so a SIMD kernel can share it.
//
// SCReLU in integers: a lane v (scale qa = 2^k) is clipped, c = min(max(v, 0), qa), squared
// in int32 (c*c <= 2^20) and shifted back to scale qa with one arithmetic shift,
// s = (c*c) >> k (rounding down; s in [0, qa]). From there on s takes c's place exactly as in
// CReLU: without L1, out = outB + sum_i s_i*outW_i in int64; with L1, the hidden sums use s.
// Integer operations only. The AVX2 build's SCReLU output kernel forms c*c from its high and
// low 16 bits (vpmulhw, vpmullw), s = hi << (16-k) | lo >> k, the same s, so both builds
// agree bit for bit.
package nnue

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// Arch describes a net and how it reads a game's encoded input.
type Arch struct {
	Game           string
	EncoderVersion int
	Cells          int        // board cells (<= 64); 2*Cells features per perspective
	Planes         int        // planes of the game's encoding: an encoded input holds Planes*Cells values
	PiecePlanes    [2]int     // the encoding's planes of player 0's and player 1's pieces (1 on a piece)
	ToMovePlane    int        // the encoding's plane that is all ones when player 0 is to move
	Hidden         int        // accumulator sums per perspective (a multiple of 16)
	L1             int        // hidden dense units after the accumulators (0: none; else even)
	Activation     Activation // of the accumulators (the zero value: CReLU)
	Input          Input      // the input features (the zero value: CellInput)
	Width          int        // board width, WindowInput only (height = Cells/Width); 0 for CellInput
	// STMOnly: the tail (the output layer, or L1) reads only the side to move's accumulator
	// (Hidden inputs, not 2*Hidden). Both accumulators are still kept move by move (the side
	// to move alternates). The zero value: both perspectives, every existing net.
	STMOnly bool
	// Buckets: the number of output buckets (0: one output, every existing net; else 2 to
	// MaxBuckets, L1 = 0 only). A bucketed net has one output layer per bucket and reads the
	// one of the position's bucket, chosen by the number of pieces on the board
	// (Arch.Bucket): the game's phase picks the weights, at no cost to the accumulators.
	Buckets int
}

// OutputBuckets is the number of output layers: Buckets, or 1 for an unbucketed net.
func (a Arch) OutputBuckets() int { return max(a.Buckets, 1) }

// Bucket is the output bucket of a position with the given pieces: n*B/(Cells+1) for n pieces
// on the board and B buckets (0 for an unbucketed net), so each bucket covers an equal range of
// piece counts 0..Cells.
func (a Arch) Bucket(pieces [2]uint64) int {
	if a.Buckets < 2 {
		return 0
	}
	return bits.OnesCount64(pieces[0]|pieces[1]) * a.Buckets / (a.Cells + 1)
}

// Perspectives is the number of accumulators the tail reads: 2, or 1 for an STMOnly net.
func (a Arch) Perspectives() int {
	if a.STMOnly {
		return 1
	}
	return 2
}

// Input is the kind of a net's input features (see the package doc's Scheme).
type Input int

const (
	// CellInput: cells x {own piece, other player's piece}, 2*Cells features per perspective.
	CellInput Input = iota
	// WindowInput: the 2x2 windows of the board, each in one of 81 states; Windows()*81
	// features per perspective, exactly Windows() of them active.
	WindowInput
)

var inputNames = [...]string{CellInput: "cells", WindowInput: "windows"}

func (v Input) String() string { return enumName(inputNames[:], v, "input") }

// ParseInput reads an input kind's name ("cells", "windows").
func ParseInput(s string) (Input, error) { return parseEnum[Input](inputNames[:], s, "input") }

// WindowStates is the number of states of a 2x2 window: each of its four cells empty, the
// perspective's piece or the other player's (3^4).
const WindowStates = 81

// Activation is the accumulators' activation.
type Activation int

const (
	CReLU  Activation = iota // clamp(x, 0, 1)
	SCReLU                   // clamp(x, 0, 1)^2
)

var activationNames = [...]string{CReLU: "crelu", SCReLU: "screlu"}

func (v Activation) String() string { return enumName(activationNames[:], v, "activation") }

// ParseActivation reads an activation's name ("crelu", "screlu").
func ParseActivation(s string) (Activation, error) {
	return parseEnum[Activation](activationNames[:], s, "activation")
}

// enumName is the name of v in names, or kind(v) for a value without one.
func enumName[E ~int](names []string, v E, kind string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, int(v))
}

// parseEnum is the value named s in names, or an error listing the known names.
func parseEnum[E ~int](names []string, s, kind string) (E, error) {
	if i := slices.Index(names, s); i >= 0 {
		return E(i), nil
	}
	return 0, fmt.Errorf("nnue: unknown %s %q (known: %s)", kind, s, strings.Join(names, ", "))
}

// Apply is the activation of one float accumulator sum.
func (v Activation) Apply(x float32) float32 {
	c := crelu(x)
	if v == SCReLU {
		return c * c
	}
	return c
}

// Features is the number of input features of one perspective.
func (a Arch) Features() int {
	if a.Input == WindowInput {
		return a.Windows() * WindowStates
	}
	return 2 * a.Cells
}

// Windows is the number of 2x2 windows of a window-input net's board, (Width-1)*(Height-1)
// (0 for a cell-input net).
func (a Arch) Windows() int {
	if a.Input != WindowInput || a.Width < 2 {
		return 0
	}
	return (a.Width - 1) * (a.Cells/a.Width - 1)
}

// Limits of an Arch (a corrupted header must not ask for gigabytes).
const (
	MaxHidden  = 1024
	MaxL1      = 256
	MaxBuckets = 16
)

// Validate reports whether a is a net this package can build.
func (a Arch) Validate() error {
	switch {
	case a.Game == "":
		return errors.New("nnue: arch has an empty game name")
	case a.Cells < 1 || a.Cells > 64:
		return fmt.Errorf("nnue: arch cells = %d, want 1..64", a.Cells)
	case a.Planes < 1 || a.Planes > 1024:
		return fmt.Errorf("nnue: arch planes = %d, want 1..1024", a.Planes)
	case a.Hidden < 16 || a.Hidden > MaxHidden || a.Hidden%16 != 0:
		return fmt.Errorf("nnue: arch hidden = %d, want a multiple of 16 in 16..%d", a.Hidden, MaxHidden)
	case a.L1 < 0 || a.L1 > MaxL1 || a.L1%2 != 0:
		return fmt.Errorf("nnue: arch l1 = %d, want an even number in 0..%d", a.L1, MaxL1)
	case a.Activation < 0 || int(a.Activation) >= len(activationNames):
		return fmt.Errorf("nnue: arch activation %d is unknown (known: crelu = 0, screlu = 1)", int(a.Activation))
	case a.EncoderVersion < 0:
		return fmt.Errorf("nnue: arch encoder version %d", a.EncoderVersion)
	case a.Input < 0 || int(a.Input) >= len(inputNames):
		return fmt.Errorf("nnue: arch input kind %d is unknown (known: cells = 0, windows = 1)", int(a.Input))
	case a.Input == CellInput && a.Width != 0:
		return fmt.Errorf("nnue: arch width %d on a cell-input net (only window input has a geometry; want 0)", a.Width)
	case a.Buckets < 0 || a.Buckets == 1 || a.Buckets > MaxBuckets:
		return fmt.Errorf("nnue: arch buckets = %d, want 0 (one output) or 2..%d", a.Buckets, MaxBuckets)
	case a.Buckets > 1 && a.L1 > 0:
		return fmt.Errorf("nnue: arch has %d output buckets and an l1 layer of %d: buckets need l1 = 0", a.Buckets, a.L1)
	case a.Input == WindowInput && (a.Width < 2 || a.Cells%a.Width != 0 || a.Cells/a.Width < 2):
		return fmt.Errorf("nnue: window-input arch: width %d does not divide %d cells into a board at least 2x2", a.Width, a.Cells)
	}
	for _, p := range []int{a.PiecePlanes[0], a.PiecePlanes[1], a.ToMovePlane} {
		if p < 0 || p >= a.Planes {
			return fmt.Errorf("nnue: arch plane index %d outside the encoding's %d planes", p, a.Planes)
		}
	}
	if a.PiecePlanes[0] == a.PiecePlanes[1] {
		return errors.New("nnue: arch piece planes of both players are the same plane")
	}
	return nil
}

// String spells the net's sizes, e.g. "98x2->128x2->1".
func (a Arch) String() string {
	act := ""
	if a.Activation != CReLU {
		act = " " + a.Activation.String()
	}
	if a.Input != CellInput {
		act += fmt.Sprintf(" %s %dx%d", a.Input, a.Width, a.Cells/max(a.Width, 1))
	}
	if a.STMOnly {
		act += " stm-only"
	}
	if a.Buckets > 1 {
		act += fmt.Sprintf(" buckets %d", a.Buckets)
	}
	if a.L1 == 0 {
		return fmt.Sprintf("%dx2->%dx2->1%s", a.Features(), a.Hidden, act)
	}
	return fmt.Sprintf("%dx2->%dx2->%d->1%s", a.Features(), a.Hidden, a.L1, act)
}

// Weights are the float parameters, the trainer's and the file's.
type Weights struct {
	FT     []float32 // [Features][Hidden]
	FTBias []float32 // [Hidden]
	L1W    []float32 // [P*Hidden][L1] (empty when L1 = 0), P = Arch.Perspectives()
	L1B    []float32 // [L1]
	OutW   []float32 // [L1] or, when L1 = 0, [P*Hidden][B] (B = Arch.OutputBuckets(): input i's weight of bucket b at i*B+b)
	OutB   []float32 // [B]
}

// Tensor names one weight tensor.
type Tensor struct {
	Name string
	Data *[]float32
	Rows int // first dimension (fan-in for dense weights; 1 for biases)
	Cols int
}

// Tensors lists w's tensors in the canonical order (file, hash and trainer order).
func (w *Weights) Tensors(a Arch) []Tensor {
	t := []Tensor{
		{"ft.w", &w.FT, a.Features(), a.Hidden},
		{"ft.b", &w.FTBias, 1, a.Hidden},
	}
	in := a.Perspectives() * a.Hidden
	if a.L1 > 0 {
		t = append(t, Tensor{"l1.w", &w.L1W, in, a.L1}, Tensor{"l1.b", &w.L1B, 1, a.L1})
	}
	outIn := in
	if a.L1 > 0 {
		outIn = a.L1
	}
	B := a.OutputBuckets()
	t = append(t, Tensor{"out.w", &w.OutW, outIn, B}, Tensor{"out.b", &w.OutB, 1, B})
	return t
}

// NumWeights is the number of float parameters of a.
func (a Arch) NumWeights() int {
	var w Weights
	n := 0
	for _, t := range w.Tensors(a) {
		n += t.Rows * t.Cols
	}
	return n
}

// Model is a float net with its training step and metadata.
type Model struct {
	Arch    Arch
	Weights Weights
	Step    int64
	Meta    map[string]string
}

// NewModel returns a model of arch a with zero weights.
func NewModel(a Arch) *Model {
	m := &Model{Arch: a, Meta: map[string]string{}}
	for _, t := range m.Weights.Tensors(a) {
		*t.Data = make([]float32, t.Rows*t.Cols)
	}
	return m
}

// NewRandom returns a model of arch a with weights drawn from seed (uniform, scaled by fan-in;
// the feature transformer for the ~Cells/2 pieces of a typical position, or the Windows()
// active features of a window-input net).
func NewRandom(a Arch, seed uint64) *Model {
	m := NewModel(a)
	rng := rand.New(rand.NewPCG(seed, seed^0x6e6e7565))
	fill := func(x []float32, bound float64) {
		for i := range x {
			x[i] = float32((rng.Float64()*2 - 1) * bound)
		}
	}
	w := &m.Weights
	active := a.Cells
	if a.Input == WindowInput {
		active = a.Windows()
	}
	fill(w.FT, 1/math.Sqrt(float64(active)))
	fill(w.FTBias, 0.5)
	if a.L1 > 0 {
		fill(w.L1W, 1/math.Sqrt(float64(a.Perspectives()*a.Hidden)))
		fill(w.L1B, 0.1)
		fill(w.OutW, 1/math.Sqrt(float64(a.L1)))
	} else {
		fill(w.OutW, 1/math.Sqrt(float64(a.Perspectives()*a.Hidden)))
	}
	return m
}

// CheckShapes reports whether every tensor has its arch's length.
func (m *Model) CheckShapes() error {
	if err := m.Arch.Validate(); err != nil {
		return err
	}
	for _, t := range m.Weights.Tensors(m.Arch) {
		if len(*t.Data) != t.Rows*t.Cols {
			return fmt.Errorf("nnue: tensor %s has %d values, arch %s needs %d", t.Name, len(*t.Data), m.Arch, t.Rows*t.Cols)
		}
	}
	return nil
}

// Pieces reads a position from the game's encoded input: each player's pieces as a cell bitmap
// and the player to move.
func (a Arch) Pieces(input []float32) (pieces [2]uint64, stm int, err error) {
	if len(input) != a.Planes*a.Cells {
		return pieces, 0, fmt.Errorf("nnue: input of %d values, arch %s reads %d planes of %d cells", len(input), a, a.Planes, a.Cells)
	}
	for p := range 2 {
		plane := input[a.PiecePlanes[p]*a.Cells:][:a.Cells]
		for c, v := range plane {
			if v != 0 {
				pieces[p] |= 1 << c
			}
		}
	}
	if pieces[0]&pieces[1] != 0 {
		return pieces, 0, errors.New("nnue: input has a cell holding pieces of both players")
	}
	stm = 1
	if input[a.ToMovePlane*a.Cells] != 0 {
		stm = 0
	}
	return pieces, stm, nil
}

// Activations fills the 2*Features dense input rows of the trainer: row[0] the side to move's
// perspective, row[1] the other's (1 on each active feature, 0 elsewhere).
func (a Arch) Activations(pieces [2]uint64, stm int, us, them []float32) {
	clear(us)
	clear(them)
	var buf [MaxActive]int32
	for persp, dst := range [2][]float32{us, them} {
		for _, f := range a.ActiveFeatures(pieces, stm^persp, buf[:0]) {
			dst[f] = 1
		}
	}
}

// MaxActive bounds the number of active features of one perspective (64 cells, or the 49
// windows of an 8x8 board).
const MaxActive = 64

// ActiveFeatures appends to dst the active features of perspective p (p's pieces are its own)
// and returns it: for cell input its own pieces' cells c in ascending order, then the other
// player's as Cells+c; for window input, window w's feature w*81 + code for every window in
// order, code = sum_i d_i 3^i over its cells i = 0..3 (top-left, top-right, bottom-left,
// bottom-right) with d = 0 empty, 1 own piece, 2 the other player's.
func (a Arch) ActiveFeatures(pieces [2]uint64, p int, dst []int32) []int32 {
	if a.Input == WindowInput {
		W := a.Width
		w := int32(0)
		for r := range a.Cells/W - 1 {
			for c := range W - 1 {
				dst = append(dst, w*WindowStates+int32(windowCode(pieces[p], pieces[p^1], uint(r*W+c), uint(W))))
				w++
			}
		}
		return dst
	}
	for b := pieces[p]; b != 0; b &= b - 1 {
		dst = append(dst, int32(bits.TrailingZeros64(b)))
	}
	for b := pieces[p^1]; b != 0; b &= b - 1 {
		dst = append(dst, int32(a.Cells+bits.TrailingZeros64(b)))
	}
	return dst
}

// pow3 maps a 4-bit mask of a window's cells to sum over its set bits i of 3^i.
var pow3 = [16]uint16{0, 1, 3, 4, 9, 10, 12, 13, 27, 28, 30, 31, 36, 37, 39, 40}

// windowCode is the state code of the window with top-left cell t on a board of width W, own
// and other being the perspective's and the other player's pieces.
func windowCode(own, other uint64, t, W uint) int {
	o := own>>t&3 | (own>>(t+W)&3)<<2
	x := other>>t&3 | (other>>(t+W)&3)<<2
	return int(pow3[o] + 2*pow3[x])
}

func crelu(x float32) float32 { return min(max(x, 0), 1) }

// Forward is the float reference forward pass: the logit of the value of the side to move stm
// (value = tanh(logit)). It allocates; it is the yardstick of the integer Net and of the trainer.
func (m *Model) Forward(pieces [2]uint64, stm int) float32 {
	a, w := m.Arch, &m.Weights
	H := a.Hidden
	x := make([]float32, a.Perspectives()*H)
	var buf [MaxActive]int32
	for persp := range a.Perspectives() {
		acc := x[persp*H : (persp+1)*H]
		copy(acc, w.FTBias)
		for _, f := range a.ActiveFeatures(pieces, stm^persp, buf[:0]) {
			row := w.FT[int(f)*H:][:H]
			for j := range acc {
				acc[j] += row[j]
			}
		}
		for j := range acc {
			acc[j] = a.Activation.Apply(acc[j])
		}
	}
	if a.L1 == 0 {
		B, b := a.OutputBuckets(), a.Bucket(pieces)
		s := w.OutB[b]
		for i, v := range x {
			s += v * w.OutW[i*B+b]
		}
		return s
	}
	h := make([]float32, a.L1)
	copy(h, w.L1B)
	for i, v := range x {
		row := w.L1W[i*a.L1:][:a.L1]
		for j := range h {
			h[j] += v * row[j]
		}
	}
	s := w.OutB[0]
	for j, v := range h {
		s += crelu(v) * w.OutW[j]
	}
	return s
}

// ForwardInput is Forward on a game's encoded input; it returns the logit and the side to move.
func (m *Model) ForwardInput(input []float32) (float32, int, error) {
	pieces, stm, err := m.Arch.Pieces(input)
	if err != nil {
		return 0, 0, err
	}
	return m.Forward(pieces, stm), stm, nil
}
