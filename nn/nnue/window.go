package nnue

import (
	"math/bits"
	"unsafe"
)

// windows are a window-input net's tables. Row (w, code) of rows (2*words words, both
// perspectives) is what window w adds to the accumulator in state code as seen from player 0:
// perspective 0's lanes are FT[w*81+code], perspective 1's FT[w*81+swap(code)], the same
// cells with own and other exchanged. A move replaces, in each window around the changed
// cells, the row of its old state by the row of its new one.
type windows struct {
	width   uint
	topLeft uint64    // the cells that are a window's top-left cell
	index   [64]uint8 // window index by its top-left cell
	rowW    int       // words of a row
	rows    []uint64  // [Windows*81][rowW], packed like the accumulator
	ft16    []int16   // the feature transformer lane-wise, [Windows*81][Hidden], for the AVX2 kernel (nil: portable only)
}

// swapCode[code] is code with its digits 1 (own) and 2 (other) exchanged: the other
// perspective's view of the same window.
var swapCode = func() (t [WindowStates]uint8) {
	for c := range WindowStates {
		s := 0
		for x, m := c, 1; m < WindowStates; x, m = x/3, m*3 {
			if d := x % 3; d != 0 {
				s += (3 - d) * m
			}
		}
		t[c] = uint8(s)
	}
	return t
}()

// newWindows builds the tables of a window-input net from its quantized feature transformer
// ft ([Features][Hidden]); words is the number of words of one perspective.
func newWindows(a Arch, ft []int32, words int) windows {
	H, W := a.Hidden, a.Width
	t := windows{width: uint(W), rowW: 2 * words}
	w := 0
	for r := range a.Cells/W - 1 {
		for c := range W - 1 {
			t.topLeft |= 1 << (r*W + c)
			t.index[r*W+c] = uint8(w)
			w++
		}
	}
	t.rows = make([]uint64, w*WindowStates*t.rowW)
	tmp := make([]int32, 4)
	for f := range w * WindowStates {
		views := [2]int{f, a.swapColours(f)}
		for persp, g := range views {
			for k := range words {
				copy(tmp, ft[g*H+4*k:][:4])
				t.rows[f*t.rowW+persp*words+k] = pack4(tmp)
			}
		}
	}
	return t
}

// prepareSIMD keeps the quantized feature transformer ft ([Features][Hidden]) lane-wise for
// the AVX2 kernel, which reads each view's row of a window straight from it: half the bytes of
// rows (which hold every feature twice, once per view), so more of it stays in cache.
func (t *windows) prepareSIMD(ft []int32) {
	t.ft16 = make([]int16, len(ft))
	for i, v := range ft {
		t.ft16[i] = int16(v) // lane arithmetic wraps: the sums quantizeFT bounds come out exact
	}
}

// unpackRow writes the signed lane deltas of a packed row (pack4's sums) to out, four per word.
func unpackRow(words []uint64, out []int16) {
	out = out[:4*len(words)]
	for i, w := range words {
		for l := range 4 {
			d := int16(w)
			out[4*i+l] = d
			w = (w - uint64(int64(d))) >> 16
		}
	}
}

// window8 is the 4-bit mask of the cells of b in the window with top-left cell tl on a board
// of width W (windowCode's digits).
func window8(b uint64, tl, W uint) int { return int(b>>tl&3 | (b>>(tl+W)&3)<<2) }

// codePair[own | other<<4] (4-bit masks of a window's cells, window8) is the window's state
// code as seen by the owner of own (low byte: windowCode) and by the other player (high
// byte: swapCode of it).
var codePair = func() (t [256]uint16) {
	for i := range t {
		c := int(pow3[i&15] + 2*pow3[i>>4])
		if c < WindowStates {
			t[i] = uint16(c) | uint16(swapCode[c])<<8
		}
	}
	return t
}()

// batchWindows is the most windows the AVX2 update passes over at once: a legal Bacteria War
// move changes its target's 3x3 block and its origin, whose windows number at most 16 + 4.
const batchWindows = 20

// row is the index of the first word of the row of the window with top-left cell tl on the
// position pieces.
func (t *windows) row(pieces [2]uint64, tl uint) int {
	c := codePair[window8(pieces[0], tl, t.width)|window8(pieces[1], tl, t.width)<<4] & 0xFF // windowCode
	return (int(t.index[tl])*WindowStates + int(c)) * t.rowW
}

// refreshWindows adds every window's row of the position pieces to dst.
func (n *Net) refreshWindows(dst Acc, pieces [2]uint64) {
	t := &n.win
	for b := t.topLeft; b != 0; b &= b - 1 {
		r := t.row(pieces, uint(bits.TrailingZeros64(b)))
		addRow(dst, dst, t.rows[r:r+t.rowW])
	}
}

// moveWindows is Apply for a window-input net: each window holding a changed cell (the top-left
// cells of the windows of a cell c are c, c-1, c-W and c-W-1, so the set is a few shifts of the
// changed cells, deduplicated by construction) trades its old state's row for its new one's.
func (n *Net) moveWindows(dst, src Acc, before [2]uint64, p, to, from int, flips uint64) {
	t := &n.win
	changed := uint64(1)<<to | flips
	after := before
	after[p] |= changed
	after[p^1] &^= flips
	if from >= 0 {
		changed |= 1 << from
		after[p] &^= 1 << from
	}
	W := t.width
	touched := (changed | changed>>1 | changed>>W | changed>>(W+1)) & t.topLeft
	if touched == 0 {
		copy(dst, src)
		return
	}
	rw := t.rowW
	if n.simdMove {
		// Each touched window's old and new rows, per view (view 1 reads the state with own
		// and other exchanged), as pointers into the lane-wise feature transformer, each
		// row's index checked against it here (the kernel reads them unchecked); then one
		// pass per view, for up to batchWindows windows at a time (a legal Bacteria War move
		// touches at most 20; the arrays are zeroed on every call, so they are kept small).
		var add, sub [2][batchWindows]unsafe.Pointer
		H := 2 * rw // lanes of one view: a row is two views of H/4 words
		ft := t.ft16
		rows := len(ft) / H
		base := unsafe.Pointer(unsafe.SliceData(ft))
		row := uintptr(2 * H) // bytes of a row
		v := rw / 2           // words of one view
		for touched != 0 {
			k := 0
			for ; touched != 0 && k < batchWindows; touched &= touched - 1 {
				tl := uint(bits.TrailingZeros64(touched))
				w := int(t.index[tl]) * WindowStates
				// Both views' codes of the window's state before and after (codePair).
				o := codePair[window8(before[0], tl, W)|window8(before[1], tl, W)<<4]
				a := codePair[window8(after[0], tl, W)|window8(after[1], tl, W)<<4]
				ra, ro := w+int(a&0xFF), w+int(o&0xFF)
				sa, so := w+int(a>>8), w+int(o>>8)
				if uint(max(ra, ro, sa, so)) >= uint(rows) {
					panic("nnue: a window's row outside the feature transformer")
				}
				add[0][k], sub[0][k] = unsafe.Add(base, uintptr(ra)*row), unsafe.Add(base, uintptr(ro)*row)
				add[1][k], sub[1][k] = unsafe.Add(base, uintptr(sa)*row), unsafe.Add(base, uintptr(so)*row)
				k++
			}
			tradeRowsSIMD(dst[:v], src[:v], add[0][:k], sub[0][:k])
			tradeRowsSIMD(dst[v:rw], src[v:rw], add[1][:k], sub[1][:k])
			src = dst
		}
		return
	}
	// Portable: up to three windows per pass over dst (each pass reads and writes dst once;
	// the loops check no bounds: src is resliced to dst's length, which it loses when it
	// becomes dst after the first pass).
	dst, src = dst[:rw], src[:rw]
	for touched != 0 {
		tl := uint(bits.TrailingZeros64(touched))
		touched &= touched - 1
		o, a := t.row(before, tl), t.row(after, tl)
		add, sub := t.rows[a:a+rw], t.rows[o:o+rw]
		s := src[:len(dst)]
		if touched == 0 {
			for i := range dst {
				dst[i] = s[i] + add[i] - sub[i]
			}
			return
		}
		tl = uint(bits.TrailingZeros64(touched))
		touched &= touched - 1
		o, a = t.row(before, tl), t.row(after, tl)
		add2, sub2 := t.rows[a:a+rw], t.rows[o:o+rw]
		if touched == 0 {
			for i := range dst {
				dst[i] = s[i] + add[i] - sub[i] + add2[i] - sub2[i]
			}
			return
		}
		tl = uint(bits.TrailingZeros64(touched))
		touched &= touched - 1
		o, a = t.row(before, tl), t.row(after, tl)
		add3, sub3 := t.rows[a:a+rw], t.rows[o:o+rw]
		for i := range dst {
			dst[i] = s[i] + add[i] - sub[i] + add2[i] - sub2[i] + add3[i] - sub3[i]
		}
		src = dst
	}
}
