package ataxxab

import (
	"math/bits"

	"colony/game/ataxx"
)

// Weights are the terms of the hand-made evaluation, in hundredths of a piece. Every term is
// a difference "side to move minus opponent" unless said otherwise.
type Weights struct {
	Material int32 // per piece
	// Threat rewards the side to move for its best immediate gain (the swing in piece
	// difference of its best division or leap: 1+2*captures or 2*captures), a one-ply look
	// ahead at the horizon where the side to move has the initiative.
	Threat int32
	// Counter penalises the best gain the opponent would have if it were its turn.
	Counter int32
	// Exposed is per own piece next to an empty cell the opponent can reach (minus the same
	// for the opponent's pieces): such pieces can be captured.
	Exposed int32
	// Edge and Corner are per piece on the border and in a corner (fewer neighbours: harder
	// to capture).
	Edge, Corner int32
	// Mobility is per empty cell the side can clone into.
	Mobility int32
}

// DefaultWeights are the weights New uses (tuned with short self-play matches).
var DefaultWeights = Weights{Material: 100, Threat: 60, Counter: 10, Exposed: 8, Edge: 5, Corner: 5, Mobility: 2}

// MaterialWeights evaluate material only (for comparisons).
var MaterialWeights = Weights{Material: 100}

const (
	colA   uint64 = 0x0040810204081 // column 0 of every row
	colG          = colA << 6
	row0   uint64 = 0x7F
	row6          = row0 << 42
	border        = colA | colG | row0 | row6
	corner uint64 = 1 | 1<<6 | 1<<42 | 1<<48
)

// neighbourCount returns, bit-sliced, how many of the 8 neighbours of every cell are in b:
// the count of cell sq is c0>>sq&1 + 2*(c1>>sq&1) + 4*(c2>>sq&1) + 8*(c3>>sq&1).
func neighbourCount(b uint64) (c0, c1, c2, c3 uint64) {
	e := (b << 1) &^ colA & ataxx.Full // from the west neighbour
	w := (b >> 1) &^ colG              // from the east neighbour
	var dirs [8]uint64
	dirs[0], dirs[1] = e, w
	dirs[2] = (b << ataxx.Size) & ataxx.Full
	dirs[3] = b >> ataxx.Size
	dirs[4] = (e << ataxx.Size) & ataxx.Full
	dirs[5] = e >> ataxx.Size
	dirs[6] = (w << ataxx.Size) & ataxx.Full
	dirs[7] = w >> ataxx.Size
	for _, x := range dirs {
		carry := c0 & x
		c0 ^= x
		carry2 := c1 & carry
		c1 ^= carry
		carry3 := c2 & carry2
		c2 ^= carry2
		c3 |= carry3
	}
	return
}

// maxIn returns the largest bit-sliced count over the cells of set (set != 0).
func maxIn(set, c0, c1, c2, c3 uint64) int32 {
	v := int32(0)
	if set&c3 != 0 {
		set &= c3
		v |= 8
	}
	if set&c2 != 0 {
		set &= c2
		v |= 4
	}
	if set&c1 != 0 {
		set &= c1
		v |= 2
	}
	if set&c0 != 0 {
		v |= 1
	}
	return v
}

// bestGain returns the best swing in piece difference a side gets in one move, given r1 (the
// empty cells it can divide into), r2 (those it can reach at all) and n0..n3 (the bit-sliced
// count of opponent pieces around every cell); -1 when it has no move.
func bestGain(r1, r2 uint64, n0, n1, n2, n3 uint64) int32 {
	g := int32(-1)
	if r1 != 0 {
		g = 1 + 2*maxIn(r1, n0, n1, n2, n3)
	}
	if j := r2 &^ r1; j != 0 {
		g = max(g, 2*maxIn(j, n0, n1, n2, n3))
	}
	return g
}

// evaluate scores a non-terminal position for the side to move. A side to move that is stuck
// is handled by the search before calling it.
func (w *Weights) evaluate(p *ataxx.Position) int32 {
	s := p.ToMove()
	us, them := p.Pieces(s), p.Pieces(s^1)
	mat := int32(bits.OnesCount64(us)) - int32(bits.OnesCount64(them))
	score := w.Material * mat
	if w.Threat == 0 && w.Counter == 0 && w.Exposed == 0 && w.Mobility == 0 && w.Edge == 0 && w.Corner == 0 {
		return score
	}
	empty := ataxx.Full &^ (us | them)
	usR1 := ataxx.Dilate(us) & empty
	usR2 := ataxx.Dilate(usR1|us) & empty
	thR1 := ataxx.Dilate(them) & empty
	thR2 := ataxx.Dilate(thR1|them) & empty
	if w.Threat != 0 {
		a0, a1, a2, a3 := neighbourCount(them)
		if g := bestGain(usR1, usR2, a0, a1, a2, a3); g > 0 {
			score += w.Threat * g
		}
	}
	if w.Counter != 0 {
		b0, b1, b2, b3 := neighbourCount(us)
		if g := bestGain(thR1, thR2, b0, b1, b2, b3); g > 0 {
			score -= w.Counter * g
		}
	}
	if w.Exposed != 0 {
		expUs := bits.OnesCount64(ataxx.Dilate(thR2) & us)
		expThem := bits.OnesCount64(ataxx.Dilate(usR2) & them)
		score += w.Exposed * int32(expThem-expUs)
	}
	if w.Mobility != 0 {
		score += w.Mobility * int32(bits.OnesCount64(usR1)-bits.OnesCount64(thR1))
	}
	if w.Edge != 0 {
		score += w.Edge * int32(bits.OnesCount64(us&border)-bits.OnesCount64(them&border))
	}
	if w.Corner != 0 {
		score += w.Corner * int32(bits.OnesCount64(us&corner)-bits.OnesCount64(them&corner))
	}
	return score
}
