// Package ataxx is a 7x7 Ataxx (Bacteria War) engine on uint64 bitboards.
//
// Squares are numbered row-major from the top-left corner: sq = row*7 + col with row and col
// 0-based (row 0 is the judge's row 1). Bit sq of a bitboard is set when the square is
// occupied. The first player O is player 0, the second player X is player 1.
//
// The rules are those of docs/rules.md §1 (Bacteria War): no blockers, no 50-move rule, no
// repetition draws, and a 400-turn cap in which a pass counts as a turn.
package ataxx

import (
	"math/bits"

	"colony/contract"
	"colony/internal/splitmix"
)

const (
	// Size is the side of the board.
	Size = 7
	// NumSquares is the number of cells.
	NumSquares = Size * Size
	// Full has one bit per cell of the board.
	Full uint64 = 1<<NumSquares - 1
	// MaxTurns is the turn cap: the game ends after 400 turns (passes included).
	MaxTurns = 400
	// MaxMoves bounds the number of legal moves of any position (49 clones, 49*16 jumps, or a
	// pass); a buffer of this length never grows.
	MaxMoves = NumSquares * 17
	// NumPlayers is the number of players.
	NumPlayers = 2
)

// The players.
const (
	O = 0 // first player
	X = 1 // second player
)

const (
	colA uint64 = 0x0040810204081 // column 0 of every row
	colG        = colA << 6       // column 6 of every row
)

var (
	// adj1[sq] are the cells at Chebyshev distance 1 of sq, adj2[sq] those at distance 2.
	adj1, adj2 [NumSquares]uint64
	zobrist    [2][NumSquares]uint64
	zobFlip    [NumSquares]uint64 // zobrist[0][sq] ^ zobrist[1][sq]
	zobSide    uint64
)

func init() {
	for sq := range NumSquares {
		r, c := sq/Size, sq%Size
		for r2 := range Size {
			for c2 := range Size {
				d := max(abs(r-r2), abs(c-c2))
				switch d {
				case 1:
					adj1[sq] |= 1 << (r2*Size + c2)
				case 2:
					adj2[sq] |= 1 << (r2*Size + c2)
				}
			}
		}
	}
	// SplitMix64 from a fixed seed: the keys are part of the hash's definition.
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { return splitmix.Next(&s) }
	for p := range 2 {
		for sq := range NumSquares {
			zobrist[p][sq] = next()
		}
	}
	for sq := range NumSquares {
		zobFlip[sq] = zobrist[0][sq] ^ zobrist[1][sq]
	}
	zobSide = next()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Dilate returns the cells at Chebyshev distance at most 1 of any cell of b (b included).
func Dilate(b uint64) uint64 {
	h := (b | (b<<1)&^colA | (b>>1)&^colG) & Full
	return (h | h<<Size | h>>Size) & Full
}

// Neighbours returns the cells at distance 1 of sq.
func Neighbours(sq int) uint64 { return adj1[sq] }

// Ring2 returns the cells at distance 2 of sq.
func Ring2(sq int) uint64 { return adj2[sq] }

// Move is a Bacteria War move. Bits 0-5 hold the destination, bits 6-11 the source; a clone
// (division) has source == destination because every clone to a cell gives the same position.
type Move uint16

const (
	// Pass is the forced pass.
	Pass Move = 0xFFFF
	// NoMove is no move at all (an empty slot); it is never legal.
	NoMove Move = 0xFFFE
)

// CloneMove returns the division to square to.
func CloneMove(to int) Move { return Move(to | to<<6) }

// JumpMove returns the leap from square from to square to.
func JumpMove(from, to int) Move { return Move(to | from<<6) }

// To is the destination square of a clone or jump.
func (m Move) To() int { return int(m & 63) }

// From is the source square of a jump (the destination for a clone).
func (m Move) From() int { return int(m >> 6 & 63) }

// IsClone reports whether m is a division.
func (m Move) IsClone() bool { return m < NoMove && m.From() == m.To() }

// IsJump reports whether m is a leap.
func (m Move) IsJump() bool { return m < NoMove && m.From() != m.To() }

// Position is a Bacteria War position. It is a small value: Apply returns a new one.
type Position struct {
	bb   [2]uint64
	hash uint64
	turn uint16
	side uint8
}

// Start returns the start position: O on (1,1) and (7,7), X on (1,7) and (7,1), O to move.
func Start() Position {
	var p Position
	p.bb[O] = 1<<0 | 1<<48
	p.bb[X] = 1<<6 | 1<<42
	p.hash = p.ComputeHash()
	return p
}

// NewPosition builds a position from its pieces, the side to move and the turns played.
// Overlapping bits or bits off the board are an error left to the caller: use Valid.
func NewPosition(o, x uint64, side int, turns int) Position {
	p := Position{bb: [2]uint64{o, x}, side: uint8(side), turn: uint16(turns)}
	p.hash = p.ComputeHash()
	return p
}

// Valid reports whether the pieces stay on the board and do not overlap.
func (p Position) Valid() bool {
	return p.bb[0]&p.bb[1] == 0 && (p.bb[0]|p.bb[1])&^Full == 0 && p.side < 2 && p.turn <= MaxTurns
}

// Pieces returns the bitboard of player pl.
func (p Position) Pieces(pl int) uint64 { return p.bb[pl] }

// Empty returns the bitboard of empty cells.
func (p Position) Empty() uint64 { return Full &^ (p.bb[0] | p.bb[1]) }

// Count returns the number of pieces of player pl.
func (p Position) Count(pl int) int { return bits.OnesCount64(p.bb[pl]) }

// ToMove returns the player to move (O or X).
func (p Position) ToMove() int { return int(p.side) }

// Turns returns the number of turns played so far.
func (p Position) Turns() int { return int(p.turn) }

// OwnTurnsLeft is how many more turns the side to move may still play before the turn cap
// (the cap counts both sides' turns; the side to move plays the odd ones of those left).
func (p Position) OwnTurnsLeft() int { return max(MaxTurns-int(p.turn)+1, 0) / 2 }

// NumPlayers returns 2.
func (p Position) NumPlayers() int { return NumPlayers }

// Hash returns the Zobrist hash of the pieces and the side to move (not the turn count).
func (p Position) Hash() uint64 { return p.hash }

// ComputeHash recomputes the hash from scratch; Hash is kept equal to it incrementally.
func (p Position) ComputeHash() uint64 {
	var h uint64
	for pl := range 2 {
		for b := p.bb[pl]; b != 0; b &= b - 1 {
			h ^= zobrist[pl][bits.TrailingZeros64(b)]
		}
	}
	if p.side == X {
		h ^= zobSide
	}
	return h
}

// Terminal reports whether the game is over: a player has no pieces, the board is full, or
// 400 turns have been played.
func (p Position) Terminal() bool {
	return p.bb[0] == 0 || p.bb[1] == 0 || p.bb[0]|p.bb[1] == Full || p.turn >= MaxTurns
}

// Winner returns the player with more pieces, or -1 for equal counts. It is meaningful for a
// terminal position.
func (p Position) Winner() int {
	o, x := p.Count(O), p.Count(X)
	switch {
	case o > x:
		return O
	case x > o:
		return X
	}
	return -1
}

// Values returns the result of a terminal position, one entry per player: 1 win, -1 loss,
// 0 draw. Entries past NumPlayers are zero.
func (p Position) Values() [4]float32 { return contract.WinLoss(p.Winner()) }

// LegalMoves appends the legal moves to dst[:0] and returns it: one clone per reachable empty
// cell, one jump per (source, destination), a lone Pass when the side to move is stuck, and
// nothing when the game is over. With cap(dst) >= MaxMoves it never allocates.
func (p Position) LegalMoves(dst []Move) []Move {
	dst = dst[:0]
	if p.Terminal() {
		return dst
	}
	own := p.bb[p.side]
	empty := Full &^ (p.bb[0] | p.bb[1])
	for c := Dilate(own) & empty; c != 0; c &= c - 1 {
		dst = append(dst, CloneMove(bits.TrailingZeros64(c)))
	}
	for o := own; o != 0; o &= o - 1 {
		from := bits.TrailingZeros64(o)
		for j := adj2[from] & empty; j != 0; j &= j - 1 {
			dst = append(dst, JumpMove(from, bits.TrailingZeros64(j)))
		}
	}
	if len(dst) == 0 {
		dst = append(dst, Pass)
	}
	return dst
}

// CountMoves returns len(p.LegalMoves(nil)) without generating the moves.
func (p Position) CountMoves() int {
	if p.Terminal() {
		return 0
	}
	return countMoves(p.bb[p.side], Full&^(p.bb[0]|p.bb[1]))
}

// HasMove reports whether the side to move has a clone or a jump (so may not pass): an
// empty cell within distance 2 of one of its pieces. Every search asks this (a stuck side's
// leaf), so it is the one test of it.
func (p Position) HasMove() bool {
	return Dilate(Dilate(p.bb[p.side]))&p.Empty() != 0
}

// IsLegal reports whether m is legal in p.
func (p Position) IsLegal(m Move) bool {
	if p.Terminal() {
		return false
	}
	if m == Pass {
		return !p.HasMove()
	}
	if m >= NoMove || m.To() >= NumSquares || m.From() >= NumSquares {
		return false
	}
	to, from := m.To(), m.From()
	if p.Empty()&(1<<to) == 0 {
		return false
	}
	own := p.bb[p.side]
	if from == to {
		return adj1[to]&own != 0
	}
	return own&(1<<from) != 0 && adj2[to]&(1<<from) != 0
}

// Apply returns the position after the legal move m (copy-make). The caller guarantees
// legality (IsLegal); Apply does not check.
func (p Position) Apply(m Move) Position {
	s := p.side
	o := s ^ 1
	if m != Pass {
		to := m.To()
		from := m.From()
		flips := adj1[to] & p.bb[o]
		p.bb[s] |= 1<<to | flips
		p.bb[o] &^= flips
		p.hash ^= zobrist[s][to]
		if from != to {
			p.bb[s] &^= 1 << from
			p.hash ^= zobrist[s][from]
		}
		for f := flips; f != 0; f &= f - 1 {
			p.hash ^= zobFlip[bits.TrailingZeros64(f)]
		}
	}
	p.side = o
	p.hash ^= zobSide
	p.turn++
	return p
}

// CaptureMask returns the opponent pieces that m converts in p (none for a pass): the
// neighbours of its destination that the opponent holds.
func (p Position) CaptureMask(m Move) uint64 {
	if m >= NoMove {
		return 0
	}
	return adj1[m.To()] & p.bb[p.side^1]
}

// Captures returns how many opponent pieces m converts in p.
func (p Position) Captures(m Move) int { return bits.OnesCount64(p.CaptureMask(m)) }
