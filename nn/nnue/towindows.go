package nnue

import "fmt"

// ToWindows returns the window-input net (board width width) that computes the same function
// as the cell-input net m: the row of window w in a state is the sum, over the window's
// occupied cells, of the cell net's row for that piece divided by the number of windows that
// hold the cell, so the rows of all windows add up to the cell net's accumulator in every
// position. The bias and the tail are copied. It is the warm start of a window-input net from
// a trained cell-input one (as Widen is across widths); the step and metadata carry over.
func ToWindows(m *Model, width int) (*Model, error) {
	a := m.Arch
	if a.Input != CellInput {
		return nil, fmt.Errorf("nnue: to windows: %s is not a cell-input net", a)
	}
	b := a
	b.Input, b.Width = WindowInput, width
	if err := b.Validate(); err != nil {
		return nil, err
	}
	out := derive(m, b, "windows_from")
	H, W, rows := a.Hidden, width, a.Cells/width
	// share[c] is 1 over the number of windows that hold cell c.
	share := make([]float32, a.Cells)
	for c := range share {
		r, col := c/W, c%W
		n := (min(r, rows-2) - max(r-1, 0) + 1) * (min(col, W-2) - max(col-1, 0) + 1)
		share[c] = 1 / float32(n)
	}
	src, dst := &m.Weights, &out.Weights
	w := 0
	for r := range rows - 1 {
		for col := range W - 1 {
			t := r*W + col
			cells := [4]int{t, t + 1, t + W, t + W + 1}
			for code := range WindowStates {
				row := dst.FT[(w*WindowStates+code)*H:][:H]
				d := code
				for _, c := range cells {
					if f := d % 3; f != 0 {
						from := src.FT[(c+(f-1)*a.Cells)*H:][:H]
						for j := range row {
							row[j] += from[j] * share[c]
						}
					}
					d /= 3
				}
			}
			w++
		}
	}
	copy(dst.FTBias, src.FTBias)
	copy(dst.L1W, src.L1W)
	copy(dst.L1B, src.L1B)
	copy(dst.OutW, src.OutW)
	copy(dst.OutB, src.OutB)
	return out, nil
}
