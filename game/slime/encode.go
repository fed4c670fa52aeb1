package slime

// Input encoding for neural networks (EncoderVersion 1).
//
// One network serves every board size: a position is written onto a Grid x Grid (16x16)
// grid, its board centred: board cell (r, c) is grid cell (r+o, c+o) with o = (16-n)/2
// (rounded down, so that a board of odd size is centred in the top-left 15x15 sub-grid).
// Centring makes every symmetry of the board a symmetry of the grid that depends only on the
// parity of n: grid coordinate x maps to m-x with m = 15 for even sizes, 14 for odd ones.
// Cells off the board are 0 in every plane. NumPlanes planes, plane-major
// (index = plane*256 + gridRow*16 + gridCol), in absolute seats (no relabelling by the
// player to move):
//
//	0-3  the cells of players 1..4
//	4    empty cells of the board
//	5    the board (1 on every cell of the board): the network's view of the size
//	6-9  one-hot player to move (players 1..4), on every cell of the board
//	10   turns played / MaxTurns, on every cell of the board
const (
	EncoderVersion = 1
	Grid           = 16
	GridCells      = Grid * Grid
	NumPlanes      = 11
	InputSize      = NumPlanes * GridCells
	planeEmpty     = 4
	planeBoard     = 5
	planeToMove    = 6
	planeTurn      = 10
)

// Policy indices.
//
// A move is indexed by its target and how it reaches it: index = slot*25 + k, where slot is
// the target's grid cell (as in the encoding) in one of two blocks, slot = b*256 +
// gridRow*16 + gridCol with b = n%2 (even and odd boards have different grid symmetries, so
// they never share a slot), and k = 0 for the spread to the target (any source: all give the
// same position), k = 1..8 for the merge from the source at offset Offsets1[k-1] of the
// target, k = 9..24 for the jump from the source at offset Offsets2[k-9]. PassIndex = 12800
// is the pass; PolicySize = 12801.
const (
	PolicySize = 2*GridCells*25 + 1
	PassIndex  = 2 * GridCells * 25
)

// Offsets1 and Offsets2 list the (drow, dcol) offsets at Chebyshev distance 1 and 2, in a
// fixed order (the source of a merge or jump is the target plus the offset).
var Offsets1 [8][2]int
var Offsets2 [16][2]int

var offsetIndex [5][5]int8 // [dr+2][dc+2] -> k (1..24)

func init() {
	k1, k2 := 0, 0
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			switch max(abs(dr), abs(dc)) {
			case 1:
				Offsets1[k1] = [2]int{dr, dc}
				offsetIndex[dr+2][dc+2] = int8(1 + k1)
				k1++
			case 2:
				Offsets2[k2] = [2]int{dr, dc}
				offsetIndex[dr+2][dc+2] = int8(9 + k2)
				k2++
			}
		}
	}
}

// gridOffset is the grid row (and column) of board row 0 for an n x n board.
func gridOffset(n int) int { return (Grid - n) / 2 }

// PolicyIndex returns the policy index of m (see the constants above).
func (m Move) PolicyIndex() int {
	if m == Pass {
		return PassIndex
	}
	n := m.Size()
	o := gridOffset(n)
	r1, c1, r2, c2 := m.Coords()
	slot := (n&1)*GridCells + (r2+o)*Grid + c2 + o
	if m.kind() == kindSpread {
		return slot * 25
	}
	return slot*25 + int(offsetIndex[r1-r2+2][c1-c2+2])
}

// Encode writes the InputSize input values of p into dst[:InputSize].
func (p Position) Encode(dst []float32) {
	dst = dst[:InputSize]
	clear(dst)
	n := int(p.n)
	o := gridOffset(n)
	occ := p.Occupied()
	turn := float32(p.turn) / MaxTurns
	toMove := (planeToMove + int(p.side)) * GridCells
	for r := range n {
		for c := range n {
			sq := r*n + c
			gc := (r+o)*Grid + c + o
			dst[planeBoard*GridCells+gc] = 1
			dst[toMove+gc] = 1
			dst[planeTurn*GridCells+gc] = turn
			if !bHas(occ, sq) {
				dst[planeEmpty*GridCells+gc] = 1
				continue
			}
			for pl := range NumPlayers {
				if bHas(p.bb[pl], sq) {
					dst[pl*GridCells+gc] = 1
					break
				}
			}
		}
	}
}
