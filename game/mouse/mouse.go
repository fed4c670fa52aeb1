// Package mouse is a Catch The Mouse engine (docs/rules.md §2): a 7x11 board, eleven mice
// against four cats and Nadori.
//
// Cells are numbered row-major from the top-left corner: sq = row*11 + col with row and col
// 0-based (row 0 is the judge's row 1, where the mice start). The mice are player 0 (FIRST,
// "R"), Nadori's team is player 1 (SECOND, "N": the cats "C" and Nadori "N").
//
// Representation. Cats and Nadori never leave rows 2..6 (0-based 1..5), and every piece that
// blocks them stands there, so those five rows form one 55-bit "inner" bitboard (bit
// i = cell sq = i + 11, i.e. inner row i/11, column i%11): the queen rays of the cats are
// precomputed per inner cell and direction and cut at the first blocker. Mice on row 1 (not
// yet moved) are an 11-bit row mask, mice in rows 2..6 are an inner bitboard, and a mouse on
// row 7 (the game is won) is a second 11-bit row mask. Mice never change column and start one
// per column, so every column holds at most one mouse.
package mouse

import (
	"math/bits"

	"colony/contract"
	"colony/internal/splitmix"
)

const (
	// Rows and Cols are the board's size.
	Rows = 7
	Cols = 11
	// NumCells is the number of cells.
	NumCells = Rows * Cols
	// InnerCells is the number of cells of rows 2..6, where cats and Nadori live.
	InnerCells = 5 * Cols
	// InnerFull has one bit per inner cell.
	InnerFull uint64 = 1<<InnerCells - 1
	// RowFull has one bit per column of a row mask.
	RowFull uint16 = 1<<Cols - 1
	// MaxCats, MaxNadori and MaxMice bound the pieces of a valid position.
	MaxCats   = 4
	MaxNadori = 1
	MaxMice   = Cols
	// maxQueen is the most cells a queen reaches on the 5x11 inner board.
	maxQueen = 22
	// MaxMoves bounds the number of legal moves of any valid position: 4 cats of at most 22
	// queen moves and Nadori's 8 steps (the mice have at most 11); a buffer of this length
	// never grows.
	MaxMoves = MaxCats*maxQueen + 8
	// NumPlayers is the number of players.
	NumPlayers = 2
)

// The players.
const (
	Mice = 0 // the mice, FIRST, "R"
	Team = 1 // Nadori's team (cats and Nadori), SECOND, "N"
)

// Directions of the queen rays, in inner-board steps: the first four increase the index.
const (
	dirE = iota
	dirS
	dirSE
	dirSW
	dirW
	dirN
	dirNW
	dirNE
	numDirs
)

var dirDelta = [numDirs][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}, {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}}

var (
	// rays[d][i]: the inner cells from inner cell i in direction d, i excluded, to the edge of
	// rows 2..6.
	rays [numDirs][InnerCells]uint64
	// kingAtt[i]: the inner cells adjacent to inner cell i.
	kingAtt [InnerCells]uint64
	// Zobrist keys per full cell.
	zMouse, zCat, zNad [NumCells]uint64
	zSide              uint64
)

func init() {
	for i := range InnerCells {
		r, c := i/Cols, i%Cols
		for d, dd := range dirDelta {
			for r2, c2 := r+dd[0], c+dd[1]; r2 >= 0 && r2 < 5 && c2 >= 0 && c2 < Cols; r2, c2 = r2+dd[0], c2+dd[1] {
				rays[d][i] |= 1 << (r2*Cols + c2)
			}
			if r2, c2 := r+dd[0], c+dd[1]; r2 >= 0 && r2 < 5 && c2 >= 0 && c2 < Cols {
				kingAtt[i] |= 1 << (r2*Cols + c2)
			}
		}
	}
	// SplitMix64 from a fixed seed: the keys are part of the hash's definition.
	s := uint64(0x4D6F7573654B6579) // "MouseKey"
	next := func() uint64 { return splitmix.Next(&s) }
	for sq := range NumCells {
		zMouse[sq] = next()
		zCat[sq] = next()
		zNad[sq] = next()
	}
	zSide = next()
	initPolicy()
}

// QueenAttacks returns the inner cells a queen on inner cell i reaches with the inner cells
// of occ occupied: every ray up to and including its first occupied cell.
func QueenAttacks(i int, occ uint64) uint64 {
	var a uint64
	r := rays[dirE][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirE][bits.TrailingZeros64(b)]
	}
	a |= r
	r = rays[dirS][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirS][bits.TrailingZeros64(b)]
	}
	a |= r
	r = rays[dirSE][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirSE][bits.TrailingZeros64(b)]
	}
	a |= r
	r = rays[dirSW][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirSW][bits.TrailingZeros64(b)]
	}
	a |= r
	r = rays[dirW][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirW][63-bits.LeadingZeros64(b)]
	}
	a |= r
	r = rays[dirN][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirN][63-bits.LeadingZeros64(b)]
	}
	a |= r
	r = rays[dirNW][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirNW][63-bits.LeadingZeros64(b)]
	}
	a |= r
	r = rays[dirNE][i]
	if b := r & occ; b != 0 {
		r ^= rays[dirNE][63-bits.LeadingZeros64(b)]
	}
	return a | r
}

// KingAttacks returns the inner cells adjacent to inner cell i.
func KingAttacks(i int) uint64 { return kingAtt[i] }

// Move is a Catch The Mouse move: bits 0-6 hold the source cell, bits 7-13 the destination
// (full cell numbers), bit 14 is set for a move of Nadori's team (a cat or Nadori), so that a
// mouse step and a cat's step down the same column are different moves. A mouse step has
// destination = source + 11.
type Move uint16

// teamBit marks a move of Nadori's team.
const teamBit = 1 << 14

const (
	// Pass is the forced pass of Nadori's team (the only pass there is).
	Pass Move = 0xFFFF
	// NoMove is no move at all (an empty slot); it is never legal.
	NoMove Move = 0xFFFE
)

// NewMove returns the move of player side (Mice or Team) from cell from to cell to.
func NewMove(side, from, to int) Move { return Move(from | to<<7 | side&1<<14) }

// MouseStep returns the mouse step from cell from to the cell below.
func MouseStep(from int) Move { return Move(from | (from+Cols)<<7) }

// IsTeam reports whether m is a move of Nadori's team (a pass included).
func (m Move) IsTeam() bool { return m&teamBit != 0 }

// From is the source cell.
func (m Move) From() int { return int(m & 127) }

// To is the destination cell.
func (m Move) To() int { return int(m >> 7 & 127) }

// Position is a Catch The Mouse position. It is a small value: Apply returns a new one.
type Position struct {
	mice, cats, nad uint64 // inner bitboards (rows 2..6)
	hash            uint64
	top, bot        uint16 // mice on row 1 and on row 7, one bit per column
	side            uint8
}

// Start returns the start position: mice on all of row 1, cats on (6,4), (6,5), (6,7), (6,8),
// Nadori on (6,6), the mice to move.
func Start() Position {
	in := func(r, c int) uint64 { return 1 << ((r-2)*Cols + c - 1) }
	return NewPosition(RowFull, 0, in(6, 4)|in(6, 5)|in(6, 7)|in(6, 8), in(6, 6), 0, Mice)
}

// NewPosition builds a position from its pieces (top: mice on row 1, one bit per column;
// mice, cats, nadori: inner bitboards of rows 2..6; bot: mice on row 7) and the side to move.
// Overlaps and stray bits are left to the caller: use Valid.
func NewPosition(top uint16, mice, cats, nadori uint64, bot uint16, side int) Position {
	p := Position{mice: mice, cats: cats, nad: nadori, top: top, bot: bot, side: uint8(side)}
	p.hash = p.ComputeHash()
	return p
}

// Valid reports whether p can occur: pieces on the board without overlaps, cats and Nadori in
// rows 2..6, at most 4 cats, one Nadori, and one mouse per column.
func (p Position) Valid() bool {
	if (p.mice|p.cats|p.nad)&^InnerFull != 0 || (p.top|p.bot)&^RowFull != 0 || p.side > 1 {
		return false
	}
	if p.mice&p.cats != 0 || p.mice&p.nad != 0 || p.cats&p.nad != 0 {
		return false
	}
	if bits.OnesCount64(p.cats) > MaxCats || bits.OnesCount64(p.nad) > MaxNadori {
		return false
	}
	if p.top&p.bot != 0 {
		return false
	}
	seen := p.top | p.bot
	for r := range 5 {
		row := uint16(p.mice >> (r * Cols) & uint64(RowFull))
		if seen&row != 0 {
			return false
		}
		seen |= row
	}
	return true
}

// TopMice returns the mice on row 1 (bit c: column c+1).
func (p Position) TopMice() uint16 { return p.top }

// InnerMice returns the mice on rows 2..6 (inner bitboard).
func (p Position) InnerMice() uint64 { return p.mice }

// BottomMice returns the mice on row 7 (non-zero only in a won game).
func (p Position) BottomMice() uint16 { return p.bot }

// Cats returns the cats (inner bitboard).
func (p Position) Cats() uint64 { return p.cats }

// Nadori returns Nadori (inner bitboard: one bit, or none).
func (p Position) Nadori() uint64 { return p.nad }

// Occupied returns every occupied inner cell.
func (p Position) Occupied() uint64 { return p.mice | p.cats | p.nad }

// NumMice is the number of mice on the board.
func (p Position) NumMice() int {
	return bits.OnesCount16(p.top) + bits.OnesCount64(p.mice) + bits.OnesCount16(p.bot)
}

// ToMove returns the player to move (Mice or Team).
func (p Position) ToMove() int { return int(p.side) }

// NumPlayers returns 2.
func (p Position) NumPlayers() int { return NumPlayers }

// Hash returns the Zobrist hash of the pieces and the side to move.
func (p Position) Hash() uint64 { return p.hash }

// ComputeHash recomputes the hash from scratch; Hash is kept equal to it incrementally.
func (p Position) ComputeHash() uint64 {
	var h uint64
	for b := p.top; b != 0; b &= b - 1 {
		h ^= zMouse[bits.TrailingZeros16(b)]
	}
	for b := p.bot; b != 0; b &= b - 1 {
		h ^= zMouse[6*Cols+bits.TrailingZeros16(b)]
	}
	for b := p.mice; b != 0; b &= b - 1 {
		h ^= zMouse[Cols+bits.TrailingZeros64(b)]
	}
	for b := p.cats; b != 0; b &= b - 1 {
		h ^= zCat[Cols+bits.TrailingZeros64(b)]
	}
	for b := p.nad; b != 0; b &= b - 1 {
		h ^= zNad[Cols+bits.TrailingZeros64(b)]
	}
	if p.side == Team {
		h ^= zSide
	}
	return h
}

// mouseMovers returns the mice that can step: row-1 mice (as inner row-2 cells they step to)
// and inner mice whose cell below is empty (a mouse on row 6 always can: row 7 is empty).
func (p Position) mouseMovers() (top uint64, inner uint64) {
	occ := p.mice | p.cats | p.nad
	return uint64(p.top) &^ occ, p.mice &^ (occ >> Cols)
}

// Terminal reports whether the game is over: a mouse reached row 7, the mice are all gone, or
// the mice are to move and cannot.
func (p Position) Terminal() bool {
	if p.bot != 0 || p.top == 0 && p.mice == 0 {
		return true
	}
	if p.side == Mice {
		t, i := p.mouseMovers()
		return t|i == 0
	}
	return false
}

// Winner returns the winner of a terminal position (Mice when a mouse reached row 7, else
// Team); -1 while the game goes on.
func (p Position) Winner() int {
	switch {
	case p.bot != 0:
		return Mice
	case p.Terminal():
		return Team
	}
	return -1
}

// Values returns the result of a terminal position, one entry per player: 1 win, -1 loss
// (zeros while the game goes on).
func (p Position) Values() [4]float32 { return contract.WinLoss(p.Winner()) }

// LegalMoves appends the legal moves to dst[:0] and returns it: the mice's steps, or the cats'
// queen moves and Nadori's king steps (captures included), or a lone Pass when Nadori's team
// is stuck; nothing when the game is over. With cap(dst) >= MaxMoves it never allocates.
func (p Position) LegalMoves(dst []Move) []Move {
	dst = dst[:0]
	if p.bot != 0 {
		return dst
	}
	if p.side == Mice {
		top, inner := p.mouseMovers()
		for b := top; b != 0; b &= b - 1 {
			c := bits.TrailingZeros64(b)
			dst = append(dst, Move(c|(c+Cols)<<7))
		}
		for b := inner; b != 0; b &= b - 1 {
			sq := bits.TrailingZeros64(b) + Cols
			dst = append(dst, Move(sq|(sq+Cols)<<7))
		}
		return dst
	}
	if p.top == 0 && p.mice == 0 {
		return dst
	}
	occ := p.mice | p.cats | p.nad
	for b := p.nad; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		for t := kingAtt[i] &^ (p.cats | p.nad); t != 0; t &= t - 1 {
			dst = append(dst, Move(i+Cols|(bits.TrailingZeros64(t)+Cols)<<7|teamBit))
		}
	}
	for b := p.cats; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		for t := QueenAttacks(i, occ) &^ occ; t != 0; t &= t - 1 {
			dst = append(dst, Move(i+Cols|(bits.TrailingZeros64(t)+Cols)<<7|teamBit))
		}
	}
	if len(dst) == 0 {
		dst = append(dst, Pass)
	}
	return dst
}

// CountMoves returns len(p.LegalMoves(nil)) without generating the moves.
func (p Position) CountMoves() int {
	if p.bot != 0 {
		return 0
	}
	if p.side == Mice {
		top, inner := p.mouseMovers()
		return bits.OnesCount64(top) + bits.OnesCount64(inner)
	}
	if p.top == 0 && p.mice == 0 {
		return 0
	}
	occ := p.mice | p.cats | p.nad
	n := 0
	for b := p.nad; b != 0; b &= b - 1 {
		n += bits.OnesCount64(kingAtt[bits.TrailingZeros64(b)] &^ (p.cats | p.nad))
	}
	for b := p.cats; b != 0; b &= b - 1 {
		n += bits.OnesCount64(QueenAttacks(bits.TrailingZeros64(b), occ) &^ occ)
	}
	if n == 0 {
		return 1
	}
	return n
}

// IsLegal reports whether m is legal in p.
func (p Position) IsLegal(m Move) bool {
	var buf [MaxMoves]Move
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// Apply returns the position after the legal move m (copy-make). The caller guarantees
// legality; Apply does not check.
func (p Position) Apply(m Move) Position {
	if m != Pass {
		from, to := m.From(), m.To()
		if p.side == Mice {
			p.hash ^= zMouse[from] ^ zMouse[to]
			if from < Cols {
				p.top &^= 1 << from
			} else {
				p.mice &^= 1 << (from - Cols)
			}
			if to >= 6*Cols {
				p.bot |= 1 << (to - 6*Cols)
			} else {
				p.mice |= 1 << (to - Cols)
			}
		} else {
			fb, tb := uint64(1)<<(from-Cols), uint64(1)<<(to-Cols)
			if p.cats&fb != 0 {
				p.cats ^= fb | tb
				p.hash ^= zCat[from] ^ zCat[to]
			} else {
				p.nad ^= fb | tb
				p.hash ^= zNad[from] ^ zNad[to]
				if p.mice&tb != 0 {
					p.mice &^= tb
					p.hash ^= zMouse[to]
				}
			}
		}
	}
	p.side ^= 1
	p.hash ^= zSide
	return p
}

// IsCapture reports whether m takes a mouse in p (Nadori steps onto it).
func (p Position) IsCapture(m Move) bool {
	if m >= NoMove || p.side != Team {
		return false
	}
	to := m.To() - Cols
	return to >= 0 && to < InnerCells && p.mice>>to&1 != 0
}
