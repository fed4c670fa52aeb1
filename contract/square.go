package contract

// The 8 symmetries of a square grid, numbered as every square game here numbers them:
// symmetry k first transposes if k&4, then mirrors the rows if k&1, then the columns if k&2;
// symmetry 0 is the identity.

// SquareCell maps (r, c) through symmetry k on a grid whose mirror maps x to m-x (m is the
// last index of a board, or of the grid the board is centred in).
func SquareCell(k, r, c, m int) (int, int) {
	if k&4 != 0 {
		r, c = c, r
	}
	if k&1 != 0 {
		r = m - r
	}
	if k&2 != 0 {
		c = m - c
	}
	return r, c
}

// SquareOffset maps a displacement (dr, dc) through symmetry k.
func SquareOffset(k, dr, dc int) (int, int) { return SquareCell(k, dr, dc, 0) }
