// Package slime is an engine for Slime: Territory War (docs/rules.md §3), a four-player game
// on a square board of any size from 4x4 to 16x16.
//
// # Representation
//
// Cells are numbered row-major from the top-left corner with the board's own stride:
// sq = row*n + col (0-based, as in the controller). A bitboard is four uint64 words holding
// the n*n cells packed (bit sq of the board is bit sq%64 of word sq/64): a board of up to 8x8
// fits in the first word, and the hot paths (LegalMoves, Apply, CountMoves) run on that
// single word for those sizes; larger boards use 2 to 4 words. Everything is allocation-free:
// positions are values (Apply is copy-make) and the per-size neighbour tables are built once.
//
// Players are 0..3 internally, 1..4 in the controller's notation; player 0 starts in the
// top-left corner, 1 top-right, 2 bottom-left, 3 bottom-right, and they move in that order.
//
// # Moves
//
// Spread, jump and merge exactly as docs/rules.md. Every spread to a cell gives the same
// position whatever its source (the source stays), so LegalMoves lists one spread per target,
// from its lowest-numbered own neighbour; IsLegal and MoveOf accept any own neighbour as the
// source. Merges and jumps are one move per (source, target).
//
// Pass. The controller treats any invalid output as a pass, so a program may always pass.
// LegalMoves offers Pass exactly when the mover has no spread and no jump: then every merge
// it may still have fills nothing (no empty cell touches any of its slime) and only empties
// its source, so it may not be forced into one; with a spread available a pass is never
// better on the spot (a spread gains at least a cell), and leaving it out keeps the search
// from exploring four-way pass cycles. A player without slime has only Pass.
//
// # End and score
//
// The game ends when no cell is empty or after MaxTurns turns (a pass is a turn). A player's
// score is the number of cells it holds; Values maps it to [-1, 1] as 2*cells/(n*n) - 1, a
// linear image of the score (the value head predicts each player's final share of the board).
package slime

import (
	"math/bits"

	"colony/internal/splitmix"
)

const (
	// MinSize and MaxSize bound the side of the board.
	MinSize = 4
	MaxSize = 16
	// DefaultSize is the contest's board (8x8).
	DefaultSize = 8
	// NumPlayers is the number of players.
	NumPlayers = 4
	// MaxTurns is the turn cap (500 turns of each player; a pass is a turn).
	MaxTurns = 2000
	// MaxCells is the number of cells of the largest board.
	MaxCells = MaxSize * MaxSize
	// MaxMoves bounds the number of legal moves of any position: per target cell one spread,
	// 8 merges and 16 jumps, plus a pass. A buffer of this length never grows.
	MaxMoves = MaxCells*25 + 1
	words    = 4
)

// Bitboard is a set of cells of one board: bit sq%64 of word sq/64 is cell sq = row*n + col.
type Bitboard = [words]uint64

// geometry holds the tables of one board size.
type geometry struct {
	n, cells int
	full     Bitboard // every cell of the board
	notFirst Bitboard // every cell except column 0
	notLast  Bitboard // every cell except column n-1
	adj1     [MaxCells]Bitboard
	adj2     [MaxCells]Bitboard
	row, col [MaxCells]uint8
	full64   uint64 // full[0], for boards of up to 8x8
	nf64, nl uint64
	adj1w    [64]uint64 // adj1[sq][0] for boards of up to 8x8
	adj2w    [64]uint64
}

var (
	geoms   [MaxSize + 1]geometry
	zobrist [NumPlayers][MaxCells]uint64
	zobSide [NumPlayers]uint64
	zobSize [MaxSize + 1]uint64
)

func init() {
	// SplitMix64 from a fixed seed: the keys are part of the hash's definition.
	s := uint64(0x5111E_7E44_170B)
	next := func() uint64 { return splitmix.Next(&s) }
	for p := range NumPlayers {
		for sq := range MaxCells {
			zobrist[p][sq] = next()
		}
	}
	for p := range NumPlayers {
		zobSide[p] = next()
	}
	for n := range zobSize {
		zobSize[n] = next()
	}
	for n := MinSize; n <= MaxSize; n++ {
		initGeometry(&geoms[n], n)
	}
}

func setBit(b *Bitboard, sq int) { b[sq>>6] |= 1 << (sq & 63) }

func initGeometry(g *geometry, n int) {
	g.n, g.cells = n, n*n
	for r := range n {
		for c := range n {
			sq := r*n + c
			g.row[sq], g.col[sq] = uint8(r), uint8(c)
			setBit(&g.full, sq)
			if c != 0 {
				setBit(&g.notFirst, sq)
			}
			if c != n-1 {
				setBit(&g.notLast, sq)
			}
			for r2 := max(r-2, 0); r2 <= min(r+2, n-1); r2++ {
				for c2 := max(c-2, 0); c2 <= min(c+2, n-1); c2++ {
					switch max(abs(r-r2), abs(c-c2)) {
					case 1:
						setBit(&g.adj1[sq], r2*n+c2)
					case 2:
						setBit(&g.adj2[sq], r2*n+c2)
					}
				}
			}
		}
	}
	g.full64, g.nf64, g.nl = g.full[0], g.notFirst[0], g.notLast[0]
	for sq := range min(g.cells, 64) {
		g.adj1w[sq], g.adj2w[sq] = g.adj1[sq][0], g.adj2[sq][0]
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Bitboard helpers (four words, unrolled).

func bOr(a, b Bitboard) Bitboard { return Bitboard{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]} }
func bAnd(a, b Bitboard) Bitboard {
	return Bitboard{a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]}
}
func bAndNot(a, b Bitboard) Bitboard {
	return Bitboard{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}
func bZero(a Bitboard) bool { return a[0]|a[1]|a[2]|a[3] == 0 }
func bCount(a Bitboard) int {
	return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3])
}
func bHas(a Bitboard, sq int) bool { return a[sq>>6]>>(sq&63)&1 != 0 }

// bFirst is the lowest cell of a non-empty a.
func bFirst(a Bitboard) int {
	for w := range words {
		if a[w] != 0 {
			return w<<6 | bits.TrailingZeros64(a[w])
		}
	}
	return -1
}

func shl(b Bitboard, k uint) Bitboard {
	return Bitboard{b[0] << k, b[1]<<k | b[0]>>(64-k), b[2]<<k | b[1]>>(64-k), b[3]<<k | b[2]>>(64-k)}
}

func shr(b Bitboard, k uint) Bitboard {
	return Bitboard{b[0]>>k | b[1]<<(64-k), b[1]>>k | b[2]<<(64-k), b[2]>>k | b[3]<<(64-k), b[3] >> k}
}

// dilate returns the cells at Chebyshev distance at most 1 of any cell of b (b included).
func (g *geometry) dilate(b Bitboard) Bitboard {
	h := bOr(b, bOr(bAnd(shl(b, 1), g.notFirst), bAnd(shr(b, 1), g.notLast)))
	n := uint(g.n)
	return bAnd(bOr(h, bOr(shl(h, n), shr(h, n))), g.full)
}

// dilate64 is dilate for boards of up to 8x8.
func (g *geometry) dilate64(b uint64) uint64 {
	h := b | (b<<1)&g.nf64 | (b>>1)&g.nl
	n := uint(g.n)
	return (h | h<<n | h>>n) & g.full64
}

// Move kinds (bits 21-22 of a Move).
const (
	kindPass   = 0
	kindSpread = 1
	kindMerge  = 2
	kindJump   = 3
)

// Move is a Slime move: bits 12-15, 8-11, 4-7 and 0-3 hold the controller's four numbers
// r1 c1 r2 c2 (source row and column, target row and column), bits 16-20 the board size and
// bits 21-22 the kind (spread, merge, jump). The zero Move is Pass, which the controller's
// notation spells "0 0 0 0". Moves are built by a position (LegalMoves, MoveOf), which fills
// in the size and kind.
type Move uint32

// Pass is the pass.
const Pass Move = 0

func makeMove(n, r1, c1, r2, c2, kind int) Move {
	return Move(r1<<12 | c1<<8 | r2<<4 | c2 | n<<16 | kind<<21)
}

func (g *geometry) move(s, t, kind int) Move {
	return makeMove(g.n, int(g.row[s]), int(g.col[s]), int(g.row[t]), int(g.col[t]), kind)
}

// Coords returns the controller's four numbers: source row, column, target row, column
// (0-based); all 0 for Pass.
func (m Move) Coords() (r1, c1, r2, c2 int) {
	return int(m >> 12 & 15), int(m >> 8 & 15), int(m >> 4 & 15), int(m & 15)
}

// Size is the board size the move was made for (0 for Pass).
func (m Move) Size() int { return int(m >> 16 & 31) }

func (m Move) kind() int { return int(m >> 21 & 3) }

// IsSpread, IsMerge and IsJump tell the move's kind.
func (m Move) IsSpread() bool { return m.kind() == kindSpread }
func (m Move) IsMerge() bool  { return m.kind() == kindMerge }
func (m Move) IsJump() bool   { return m.kind() == kindJump }

// From and To are the source and target cells (row*n + col).
func (m Move) From() int { r, c, _, _ := m.Coords(); return r*m.Size() + c }
func (m Move) To() int   { _, _, r, c := m.Coords(); return r*m.Size() + c }

// Position is a Slime position. It is a small value: Apply returns a new one.
type Position struct {
	bb   [NumPlayers]Bitboard
	hash uint64
	turn uint16
	n    uint8
	side uint8
}

// Start returns the start position of the default 8x8 board.
func Start() Position { return StartSize(DefaultSize) }

// StartSize returns the start position on an n x n board: one slime of each player in its
// corner, player 1 (0) to move. It panics when n is outside MinSize..MaxSize.
func StartSize(n int) Position {
	if n < MinSize || n > MaxSize {
		panic("slime: board size out of range")
	}
	var bb [NumPlayers]Bitboard
	setBit(&bb[0], 0)
	setBit(&bb[1], n-1)
	setBit(&bb[2], (n-1)*n)
	setBit(&bb[3], n*n-1)
	return NewPosition(n, bb, 0, 0)
}

// NewPosition builds a position from its size, the players' cells, the player to move and
// the turns played. Overlapping cells or cells off the board are left to the caller (Valid).
func NewPosition(n int, cells [NumPlayers]Bitboard, side, turns int) Position {
	p := Position{bb: cells, n: uint8(n), side: uint8(side), turn: uint16(turns)}
	p.hash = p.ComputeHash()
	return p
}

// Valid reports whether the size is in range, the players' cells are on the board and
// disjoint, the side to move is a player and the turn count at most MaxTurns.
func (p Position) Valid() bool {
	if p.n < MinSize || p.n > MaxSize || p.side >= NumPlayers || p.turn > MaxTurns {
		return false
	}
	g := &geoms[p.n]
	var seen Bitboard
	for pl := range NumPlayers {
		b := p.bb[pl]
		if !bZero(bAnd(b, seen)) || !bZero(bAndNot(b, g.full)) {
			return false
		}
		seen = bOr(seen, b)
	}
	return true
}

// Size is the side of the board.
func (p Position) Size() int { return int(p.n) }

// Cells returns the cells of player pl.
func (p Position) Cells(pl int) Bitboard { return p.bb[pl] }

// Count returns the number of cells of player pl.
func (p Position) Count(pl int) int { return bCount(p.bb[pl]) }

// Occupied returns the cells holding slime.
func (p Position) Occupied() Bitboard { return bOr(bOr(p.bb[0], p.bb[1]), bOr(p.bb[2], p.bb[3])) }

// Empty returns the empty cells.
func (p Position) Empty() Bitboard { return bAndNot(geoms[p.n].full, p.Occupied()) }

// EmptyCount is the number of empty cells (the game's phase).
func (p Position) EmptyCount() int { return int(p.n)*int(p.n) - bCount(p.Occupied()) }

// At returns the player holding cell (r, c), or -1 when it is empty.
func (p Position) At(r, c int) int {
	sq := r*int(p.n) + c
	for pl := range NumPlayers {
		if bHas(p.bb[pl], sq) {
			return pl
		}
	}
	return -1
}

// ToMove returns the player to move (0..3).
func (p Position) ToMove() int { return int(p.side) }

// Turns returns the number of turns played.
func (p Position) Turns() int { return int(p.turn) }

// NumPlayers returns 4.
func (p Position) NumPlayers() int { return NumPlayers }

// OwnTurnsLeft is how many more turns the side to move may still play before the turn cap.
func (p Position) OwnTurnsLeft() int { return max(MaxTurns-int(p.turn)+NumPlayers-1, 0) / NumPlayers }

// Hash returns the Zobrist hash of the cells, the side to move and the board size (not the
// turn count).
func (p Position) Hash() uint64 { return p.hash }

// ComputeHash recomputes the hash from scratch; Hash is kept equal to it incrementally.
func (p Position) ComputeHash() uint64 {
	h := zobSize[int(p.n)%(MaxSize+1)] ^ zobSide[p.side&3]
	for pl := range NumPlayers {
		for w := range words {
			for b := p.bb[pl][w]; b != 0; b &= b - 1 {
				h ^= zobrist[pl][(w<<6|bits.TrailingZeros64(b))%MaxCells]
			}
		}
	}
	return h
}

// Terminal reports whether the game is over: no empty cell, or MaxTurns turns played.
func (p Position) Terminal() bool {
	if p.turn >= MaxTurns {
		return true
	}
	if p.n <= 8 {
		return (p.bb[0][0]|p.bb[1][0]|p.bb[2][0]|p.bb[3][0])^geoms[p.n].full64 == 0
	}
	return p.Occupied() == geoms[p.n].full
}

// Scores returns the cells held by each player.
func (p Position) Scores() [NumPlayers]int {
	var s [NumPlayers]int
	for pl := range NumPlayers {
		s[pl] = p.Count(pl)
	}
	return s
}

// Values returns each player's share of the board mapped to [-1, 1]: 2*cells/(n*n) - 1. It is
// the result of a terminal position and the share so far of any other.
func (p Position) Values() [4]float32 {
	var v [4]float32
	nn := float32(int(p.n) * int(p.n))
	for pl := range NumPlayers {
		v[pl] = 2*float32(p.Count(pl))/nn - 1
	}
	return v
}

// Winner returns the player holding the most cells, or -1 when the most is shared.
func (p Position) Winner() int {
	best, who := -1, -1
	for pl := range NumPlayers {
		switch c := p.Count(pl); {
		case c > best:
			best, who = c, pl
		case c == best:
			who = -1
		}
	}
	return who
}

// LegalMoves appends the legal moves to dst[:0] and returns it: one spread per reachable
// empty cell, the merges and jumps, and Pass when the mover has no spread and no jump;
// nothing when the game is over. With cap(dst) >= MaxMoves it never allocates.
func (p Position) LegalMoves(dst []Move) []Move {
	dst = dst[:0]
	if p.Terminal() {
		return dst
	}
	g := &geoms[p.n]
	if p.n <= 8 {
		return p.legal64(g, dst)
	}
	own := p.bb[p.side]
	empty := bAndNot(g.full, p.Occupied())
	sp := bAnd(g.dilate(own), empty)
	for w := range words {
		for b := sp[w]; b != 0; b &= b - 1 {
			t := w<<6 | bits.TrailingZeros64(b)
			dst = append(dst, g.move(bFirst(bAnd(g.adj1[t], own)), t, kindSpread))
		}
	}
	moved := !bZero(sp)
	for w := range words {
		for o := own[w]; o != 0; o &= o - 1 {
			s := w<<6 | bits.TrailingZeros64(o)
			mg := bAnd(g.adj1[s], own)
			for w2 := range words {
				for b := mg[w2]; b != 0; b &= b - 1 {
					dst = append(dst, g.move(s, w2<<6|bits.TrailingZeros64(b), kindMerge))
				}
			}
			j := bAnd(g.adj2[s], empty)
			for w2 := range words {
				for b := j[w2]; b != 0; b &= b - 1 {
					dst = append(dst, g.move(s, w2<<6|bits.TrailingZeros64(b), kindJump))
					moved = true
				}
			}
		}
	}
	if !moved {
		dst = append(dst, Pass)
	}
	return dst
}

func (p Position) legal64(g *geometry, dst []Move) []Move {
	own := p.bb[p.side][0]
	empty := g.full64 &^ (p.bb[0][0] | p.bb[1][0] | p.bb[2][0] | p.bb[3][0])
	sp := g.dilate64(own) & empty
	for b := sp; b != 0; b &= b - 1 {
		t := bits.TrailingZeros64(b)
		dst = append(dst, g.move(bits.TrailingZeros64(g.adj1w[t]&own), t, kindSpread))
	}
	moved := sp != 0
	for o := own; o != 0; o &= o - 1 {
		s := bits.TrailingZeros64(o)
		for b := g.adj1w[s] & own; b != 0; b &= b - 1 {
			dst = append(dst, g.move(s, bits.TrailingZeros64(b), kindMerge))
		}
		for b := g.adj2w[s] & empty; b != 0; b &= b - 1 {
			dst = append(dst, g.move(s, bits.TrailingZeros64(b), kindJump))
			moved = true
		}
	}
	if !moved {
		dst = append(dst, Pass)
	}
	return dst
}

// CountMoves returns len(p.LegalMoves(nil)) without generating the moves.
func (p Position) CountMoves() int {
	if p.Terminal() {
		return 0
	}
	g := &geoms[p.n]
	var sp, mg, jp int
	if p.n <= 8 {
		own := p.bb[p.side][0]
		empty := g.full64 &^ (p.bb[0][0] | p.bb[1][0] | p.bb[2][0] | p.bb[3][0])
		sp = bits.OnesCount64(g.dilate64(own) & empty)
		for o := own; o != 0; o &= o - 1 {
			s := bits.TrailingZeros64(o)
			mg += bits.OnesCount64(g.adj1w[s] & own)
			jp += bits.OnesCount64(g.adj2w[s] & empty)
		}
	} else {
		own := p.bb[p.side]
		empty := bAndNot(g.full, p.Occupied())
		sp = bCount(bAnd(g.dilate(own), empty))
		for w := range words {
			for o := own[w]; o != 0; o &= o - 1 {
				s := w<<6 | bits.TrailingZeros64(o)
				mg += bCount(bAnd(g.adj1[s], own))
				jp += bCount(bAnd(g.adj2[s], empty))
			}
		}
	}
	if sp+jp == 0 {
		return mg + 1
	}
	return sp + mg + jp
}

// CanGrow reports whether the side to move has a spread or a jump (so Pass is not offered).
func (p Position) CanGrow() bool {
	g := &geoms[p.n]
	own := p.bb[p.side]
	empty := bAndNot(g.full, p.Occupied())
	if !bZero(bAnd(g.dilate(own), empty)) {
		return true
	}
	for w := range words {
		for o := own[w]; o != 0; o &= o - 1 {
			if !bZero(bAnd(g.adj2[w<<6|bits.TrailingZeros64(o)], empty)) {
				return true
			}
		}
	}
	return false
}

// MoveOf reads the controller's four numbers (source row, column, target row, column,
// 0-based) as a move of the side to move, the way the controller plays them: the source must
// hold the mover's slime; a target at distance 1 that is empty is a spread, one that holds
// the mover's slime a merge; an empty target at distance 2 is a jump. ok is false for
// anything else (the controller then passes). A spread is returned from its canonical source
// (the move LegalMoves lists); the position after it is the same. MoveOf does not look at
// whether the game is over.
func (p Position) MoveOf(r1, c1, r2, c2 int) (m Move, ok bool) {
	n := int(p.n)
	for _, v := range [4]int{r1, c1, r2, c2} {
		if v < 0 || v >= n {
			return Pass, false
		}
	}
	g := &geoms[p.n]
	s, t := r1*n+c1, r2*n+c2
	own := p.bb[p.side]
	if !bHas(own, s) {
		return Pass, false
	}
	switch d := max(abs(r1-r2), abs(c1-c2)); {
	case d == 1 && bHas(own, t):
		return g.move(s, t, kindMerge), true
	case d == 1 && !bHas(p.Occupied(), t):
		return g.move(bFirst(bAnd(g.adj1[t], own)), t, kindSpread), true
	case d == 2 && !bHas(p.Occupied(), t):
		return g.move(s, t, kindJump), true
	}
	return Pass, false
}

// Canonical returns the form of m that LegalMoves lists (a spread from its canonical source),
// or Pass when m is not a move of p that MoveOf accepts.
func (p Position) Canonical(m Move) Move {
	if m == Pass {
		return Pass
	}
	c, _ := p.MoveOf(m.Coords())
	return c
}

// IsLegal reports whether m is legal in p: a move MoveOf accepts (a spread from any own
// neighbour) made for this board size, or Pass when p offers it.
func (p Position) IsLegal(m Move) bool {
	if p.Terminal() {
		return false
	}
	if m == Pass {
		return !p.CanGrow()
	}
	c, ok := p.MoveOf(m.Coords())
	return ok && m.Size() == int(p.n) && m.kind() == c.kind()
}

// Apply returns the position after m (copy-make). m must be a move of p that MoveOf accepts
// (a spread from any own neighbour) or Pass, which Apply plays whether or not LegalMoves
// offers it (the controller accepts a pass at any time). Apply does not check.
func (p Position) Apply(m Move) Position {
	me := int(p.side)
	if m != Pass {
		g := &geoms[p.n]
		r1, c1, r2, c2 := m.Coords()
		n := int(p.n)
		s, t := r1*n+c1, r2*n+c2
		if p.n <= 8 {
			p.apply64(g, me, m.kind(), s, t)
		} else {
			p.applyN(g, me, m.kind(), s, t)
		}
	}
	next := (me + 1) & 3
	p.side = uint8(next)
	p.hash ^= zobSide[me] ^ zobSide[next]
	p.turn++
	return p
}

func (p *Position) apply64(g *geometry, me, kind, s, t int) {
	zm := &zobrist[me]
	if kind == kindMerge {
		fill := g.adj1w[t] &^ (p.bb[0][0] | p.bb[1][0] | p.bb[2][0] | p.bb[3][0])
		p.bb[me][0] = (p.bb[me][0] | fill) &^ (1 << s)
		h := zm[s]
		for b := fill; b != 0; b &= b - 1 {
			h ^= zm[bits.TrailingZeros64(b)]
		}
		p.hash ^= h
		return
	}
	a := g.adj1w[t]
	h := zm[t]
	gain := uint64(1) << t
	for q := range NumPlayers {
		if q == me {
			continue
		}
		conv := a & p.bb[q][0]
		if conv == 0 {
			continue
		}
		p.bb[q][0] &^= conv
		gain |= conv
		zq := &zobrist[q]
		for b := conv; b != 0; b &= b - 1 {
			x := bits.TrailingZeros64(b)
			h ^= zq[x] ^ zm[x]
		}
	}
	p.bb[me][0] |= gain
	if kind == kindJump {
		p.bb[me][0] &^= 1 << s
		h ^= zm[s]
	}
	p.hash ^= h
}

func (p *Position) applyN(g *geometry, me, kind, s, t int) {
	zm := &zobrist[me]
	if kind == kindMerge {
		fill := bAndNot(g.adj1[t], p.Occupied())
		p.bb[me] = bOr(p.bb[me], fill)
		p.bb[me][s>>6] &^= 1 << (s & 63)
		h := zm[s]
		for w := range words {
			for b := fill[w]; b != 0; b &= b - 1 {
				h ^= zm[w<<6|bits.TrailingZeros64(b)]
			}
		}
		p.hash ^= h
		return
	}
	a := g.adj1[t]
	h := zm[t]
	p.bb[me][t>>6] |= 1 << (t & 63)
	for q := range NumPlayers {
		if q == me {
			continue
		}
		conv := bAnd(a, p.bb[q])
		if bZero(conv) {
			continue
		}
		p.bb[q] = bAndNot(p.bb[q], conv)
		p.bb[me] = bOr(p.bb[me], conv)
		zq := &zobrist[q]
		for w := range words {
			for b := conv[w]; b != 0; b &= b - 1 {
				x := w<<6 | bits.TrailingZeros64(b)
				h ^= zq[x] ^ zm[x]
			}
		}
	}
	if kind == kindJump {
		p.bb[me][s>>6] &^= 1 << (s & 63)
		h ^= zm[s]
	}
	p.hash ^= h
}

// gain64 is Gain for boards of up to 8x8.
func (p Position) gain64(m Move) int {
	g := &geoms[p.n]
	t := m.To()
	occ := p.bb[0][0] | p.bb[1][0] | p.bb[2][0] | p.bb[3][0]
	switch m.kind() {
	case kindMerge:
		return bits.OnesCount64(g.adj1w[t]&^occ) - 1
	case kindSpread:
		return 1 + bits.OnesCount64(g.adj1w[t]&occ&^p.bb[p.side][0])
	}
	return bits.OnesCount64(g.adj1w[t] & occ &^ p.bb[p.side][0])
}

// Gain returns how many cells the side to move gains with m in p: for a spread 1 plus the
// enemy cells it converts, for a jump the converted cells, for a merge the empty cells it
// fills less the emptied source; 0 for Pass.
func (p Position) Gain(m Move) int {
	if m == Pass {
		return 0
	}
	if p.n <= 8 {
		return p.gain64(m)
	}
	g := &geoms[p.n]
	t := m.To()
	switch m.kind() {
	case kindMerge:
		return bCount(bAndNot(g.adj1[t], p.Occupied())) - 1
	case kindSpread:
		return 1 + bCount(bAnd(g.adj1[t], bAndNot(p.Occupied(), p.bb[p.side])))
	}
	return bCount(bAnd(g.adj1[t], bAndNot(p.Occupied(), p.bb[p.side])))
}

// Neighbours returns the cells at distance 1 of cell sq on an n x n board.
func Neighbours(n, sq int) Bitboard { return geoms[n].adj1[sq] }

// Dilate returns the cells at distance at most 1 of b on an n x n board (b included).
func Dilate(n int, b Bitboard) Bitboard {
	if n <= 8 {
		return Bitboard{geoms[n].dilate64(b[0])}
	}
	return geoms[n].dilate(b)
}

// Dilate64 is Dilate for boards of up to 8x8, whose cells fit in one word.
func Dilate64(n int, b uint64) uint64 { return geoms[n].dilate64(b) }

// Neighbours64 is Neighbours for boards of up to 8x8.
func Neighbours64(n, sq int) uint64 { return geoms[n].adj1w[sq&63] }

// Full returns every cell of an n x n board.
func Full(n int) Bitboard { return geoms[n].full }

// WithToMove returns p with player pl to move, cells and turn count kept (searches that
// let a player move out of turn, such as best-reply search).
func (p Position) WithToMove(pl int) Position {
	p.hash ^= zobSide[p.side] ^ zobSide[pl&3]
	p.side = uint8(pl & 3)
	return p
}
