package cpp

import (
	"fmt"

	ab "colony/engine/alphabeta"
)

// searchConfig declares c, a game engine's configuration of engine/alphabeta (defaults
// applied: ab.WithDefaults), as the static constexpr members of the configuration the C++
// searcher of templates/common.cpp is instantiated with (colony::Searcher's C): every field but
// the move bounds, which the game's template has as its own constants (each game's filler
// checks that they agree). The text is the body of a template's struct SearchConfig (marker
// SEARCH).
func searchConfig[M ab.Move](c ab.Config[M]) (string, error) {
	if c.HistSize <= 0 || c.HistSize&(c.HistSize-1) != 0 {
		return "", fmt.Errorf("export: history size %d is not a power of two", c.HistSize)
	}
	var w writer
	w.constant("int", "MAX_PLY", c.MaxPly)
	w.constant("int", "MAX_DEPTH", c.MaxDepth)
	w.constant("int", "HIST_SIZE", c.HistSize)
	w.constant("int", "RESERVE_DIV", c.ReserveDiv)
	w.constant("int32_t", "WIN_SCORE", c.WinScore)
	w.constant("int32_t", "PLY_STEP", c.PlyStep)
	w.constant("int32_t", "WIN_BOUND", c.WinBound)
	w.constant("int32_t", "ASPIRATION", c.Aspiration)
	w.array("int32_t", "KILLER_BONUS", []int{2}, ints(c.KillerBonus[:]), 2)
	w.constant("bool", "KILLER_HISTORY", c.KillerHistory)
	w.constant("bool", "ROOT_HISTORY", c.RootHistory)
	w.constant("bool", "ROOT_TIE_MOVE", c.RootTieMove)
	w.constant("bool", "STAGED", c.Staged)
	w.constant("bool", "REDUCE_PV_LESS", c.ReducePVLess)
	w.constant("unsigned", "REDUCE_SIDES", c.ReduceSides)
	w.constant("int32_t", "REDUCE_BELOW", c.ReduceBelow)
	w.constant("int", "RFP_DEPTH", c.RFPDepth)
	w.constant("int32_t", "RFP_MARGIN", c.RFPMargin)
	lmp := c.LMP
	w.constant("int", "LMP_LEN", len(lmp))
	if len(lmp) == 0 {
		lmp = []int{0} // never read
	}
	w.array("int", "LMP", []int{len(lmp)}, ints(lmp), 16)
	w.constant("bool", "HAVE_LMR", c.Reductions != nil)
	var red []int8
	if c.Reductions != nil {
		for _, row := range c.Reductions {
			red = append(red, row[:]...)
		}
	} else {
		red = make([]int8, 64*64)
	}
	w.array("int8_t", "REDUCTIONS", []int{64, 64}, ints(red), 32)
	return w.String(), nil
}
