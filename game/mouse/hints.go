package mouse

import "math/bits"

// MouseRows returns, per column, the 0-based row of its mouse (row 0 is the judge's row 1)
// or -1 when the column has none.
func (p Position) MouseRows() [Cols]int8 {
	var rows [Cols]int8
	for c := range rows {
		rows[c] = -1
	}
	for b := p.top; b != 0; b &= b - 1 {
		rows[bits.TrailingZeros16(b)] = 0
	}
	for b := p.bot; b != 0; b &= b - 1 {
		rows[bits.TrailingZeros16(b)] = Rows - 1
	}
	for b := p.mice; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		rows[i%Cols] = int8(i/Cols + 1)
	}
	return rows
}

// MouseStepsLeft is the number of mouse steps the mice on the board can still make at most
// (each walks to row 7): a bound on the length of the rest of the game.
func (p Position) MouseStepsLeft() int {
	n := 0
	for _, r := range p.MouseRows() {
		if r >= 0 {
			n += Rows - 1 - int(r)
		}
	}
	return n
}

// MovesLeft estimates how many moves the side to move still plays (the shares a whole-game
// clock is split into). Real games last about 55 plies (27 to 85): about 30 moves a side
// from the start, less the steps the mice have made (a caught mouse counted as two), at
// least MovesLeftFloor while the board allows, and never more than the mouse steps left.
func (p Position) MovesLeft() int {
	made, left := 0, 0
	for _, r := range p.MouseRows() {
		if r >= 0 {
			made += int(r)
			left += Rows - 1 - int(r)
		} else {
			made += 2
		}
	}
	n := max(30-made, MovesLeftFloor)
	return max(1, min(n, left))
}

// MovesLeftFloor is the fewest shares the clock is split into before the mouse steps left
// bound the game: each move at the floor spends an eighth of what is left. A floor of 4
// (more of the clock for the last moves) was measured against it over 100 games and gained
// nothing (44.5%, Elo -38 +/- 69) while losing more games on time to the machine's stalls: the
// clock a game leaves unspent is mostly in games the prover has already decided (docs/mouse-clock.md).
const MovesLeftFloor = 8

// Heuristic values an unfinished position per player in [-1, 1] (random-rollout cut-offs and
// adjudication): material (mice left) and advancement, the mouse with a free path to row 7
// that is furthest down weighing most.
func (p Position) Heuristic() [4]float32 {
	if p.Terminal() {
		return p.Values()
	}
	free := p.FreeMice()
	n, sum, lead := 0, 0, 0
	for c, r := range p.MouseRows() {
		if r < 0 {
			continue
		}
		n++
		sum += int(r)
		if free>>c&1 != 0 {
			lead = max(lead, int(r))
		}
	}
	x := 0.15*float32(n-6) + 0.03*float32(sum-2*n) + 0.25*float32(max(0, lead-2))
	v := x / (1 + max(x, -x))
	return [4]float32{v, -v}
}

// FreeMice returns the columns (bit c for column c) whose mouse has a free path: no piece in
// its column between it and row 7. Columns without a mouse or with a mouse on row 7 are clear.
func (p Position) FreeMice() uint16 {
	occ := p.Occupied()
	var free uint16
	for c, r := range p.MouseRows() {
		if r < 0 || r >= Rows-1 {
			continue
		}
		if occ&PathBelow(int(r), c) == 0 {
			free |= 1 << c
		}
	}
	return free
}

// pathBelow[r][c] are the inner cells of column c on the 0-based rows r+1..5.
var pathBelow = func() (t [Rows][Cols]uint64) {
	for r := range Rows {
		for c := range Cols {
			for rr := r + 1; rr <= 5; rr++ {
				t[r][c] |= 1 << ((rr-1)*Cols + c)
			}
		}
	}
	return t
}()

// PathBelow is the path of a mouse on 0-based row r of column c as inner cells: column c on
// rows r+1..5 (none from row 5 on). The mouse's path is free when no piece stands on it.
func PathBelow(r, c int) uint64 { return pathBelow[r][c] }
