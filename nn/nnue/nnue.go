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
// Two perspectives are kept (player 0's and player 1's) so that nothing is recomputed when the
// side to move changes: a move changes a handful of cells (a placed piece, a removed one, the
// converted ones), each of which adds or subtracts one row per perspective, while a single
// side-to-move accumulator would have to be rebuilt from scratch at every ply (every own piece
// becomes an opponent piece). The tail reads both accumulators, the side to move's first:
//
//	x      = [A(acc[stm]), A(acc[1-stm])]                    2*Hidden values, A = Arch.Activation:
//	         CReLU(v) = clip(v, 0, 1) (the default) or SCReLU(v) = CReLU(v)^2
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
// Integer operations only; the AVX2 build shares the accumulator kernels and evaluates SCReLU
// with the same portable loop, so both builds agree bit for bit.
package nnue

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
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
}

// Activation is the accumulators' activation.
type Activation int

const (
	CReLU  Activation = iota // clamp(x, 0, 1)
	SCReLU                   // clamp(x, 0, 1)^2
)

var activationNames = [...]string{CReLU: "crelu", SCReLU: "screlu"}

func (v Activation) String() string {
	if v >= 0 && int(v) < len(activationNames) {
		return activationNames[v]
	}
	return fmt.Sprintf("activation(%d)", int(v))
}

// ParseActivation reads an activation's name ("crelu", "screlu").
func ParseActivation(s string) (Activation, error) {
	for i, n := range activationNames {
		if n == s {
			return Activation(i), nil
		}
	}
	return 0, fmt.Errorf("nnue: unknown activation %q (known: crelu, screlu)", s)
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
func (a Arch) Features() int { return 2 * a.Cells }

// Limits of an Arch (a corrupted header must not ask for gigabytes).
const (
	MaxHidden = 1024
	MaxL1     = 256
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
	if a.L1 == 0 {
		return fmt.Sprintf("%dx2->%dx2->1%s", a.Features(), a.Hidden, act)
	}
	return fmt.Sprintf("%dx2->%dx2->%d->1%s", a.Features(), a.Hidden, a.L1, act)
}

// Weights are the float parameters, the trainer's and the file's.
type Weights struct {
	FT     []float32 // [Features][Hidden]
	FTBias []float32 // [Hidden]
	L1W    []float32 // [2*Hidden][L1] (empty when L1 = 0)
	L1B    []float32 // [L1]
	OutW   []float32 // [L1] or, when L1 = 0, [2*Hidden]
	OutB   []float32 // [1]
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
	if a.L1 > 0 {
		t = append(t, Tensor{"l1.w", &w.L1W, 2 * a.Hidden, a.L1}, Tensor{"l1.b", &w.L1B, 1, a.L1})
	}
	outIn := 2 * a.Hidden
	if a.L1 > 0 {
		outIn = a.L1
	}
	t = append(t, Tensor{"out.w", &w.OutW, outIn, 1}, Tensor{"out.b", &w.OutB, 1, 1})
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
// the feature transformer for the ~Cells/2 pieces of a typical position).
func NewRandom(a Arch, seed uint64) *Model {
	m := NewModel(a)
	rng := rand.New(rand.NewPCG(seed, seed^0x6e6e7565))
	fill := func(x []float32, bound float64) {
		for i := range x {
			x[i] = float32((rng.Float64()*2 - 1) * bound)
		}
	}
	w := &m.Weights
	fill(w.FT, 1/math.Sqrt(float64(a.Cells)))
	fill(w.FTBias, 0.5)
	if a.L1 > 0 {
		fill(w.L1W, 1/math.Sqrt(float64(2*a.Hidden)))
		fill(w.L1B, 0.1)
		fill(w.OutW, 1/math.Sqrt(float64(a.L1)))
	} else {
		fill(w.OutW, 1/math.Sqrt(float64(2*a.Hidden)))
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
	for persp, dst := range [2][]float32{us, them} {
		p := stm ^ persp
		for b := pieces[p]; b != 0; b &= b - 1 {
			dst[bits.TrailingZeros64(b)] = 1
		}
		for b := pieces[p^1]; b != 0; b &= b - 1 {
			dst[a.Cells+bits.TrailingZeros64(b)] = 1
		}
	}
}

func crelu(x float32) float32 { return min(max(x, 0), 1) }

// Forward is the float reference forward pass: the logit of the value of the side to move stm
// (value = tanh(logit)). It allocates; it is the yardstick of the integer Net and of the trainer.
func (m *Model) Forward(pieces [2]uint64, stm int) float32 {
	a, w := m.Arch, &m.Weights
	H := a.Hidden
	x := make([]float32, 2*H)
	for persp := range 2 {
		p := stm ^ persp
		acc := x[persp*H : (persp+1)*H]
		copy(acc, w.FTBias)
		for b := pieces[p]; b != 0; b &= b - 1 {
			row := w.FT[bits.TrailingZeros64(b)*H:][:H]
			for j := range acc {
				acc[j] += row[j]
			}
		}
		for b := pieces[p^1]; b != 0; b &= b - 1 {
			row := w.FT[(a.Cells+bits.TrailingZeros64(b))*H:][:H]
			for j := range acc {
				acc[j] += row[j]
			}
		}
		for j := range acc {
			acc[j] = a.Activation.Apply(acc[j])
		}
	}
	if a.L1 == 0 {
		s := w.OutB[0]
		for i, v := range x {
			s += v * w.OutW[i]
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
