package export

import (
	"fmt"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/nn/nnue"
)

// Bacteria War's C++ export: nnab (cpp/ataxx.cpp) with the net and the search constants of
// the Go side.

func init() {
	cppGames[ataxx.Info.Name] = cppGame{template: "ataxx.cpp", engine: "nnab", fill: fillAtaxx}
}

// agentSeed is the agent's -seed default (colony/agent), the seed of the shipped engine's
// root tie-breaks.
const agentSeed = 1

func fillAtaxx(o CPPOptions) (map[string]string, CPPInfo, error) {
	net, name, err := nnab.LoadNet(o.Model)
	if err != nil {
		return nil, CPPInfo{}, err
	}
	weights, err := ataxxWeights(net.Ints())
	if err != nil {
		return nil, CPPInfo{}, fmt.Errorf("export: %s: %w", name, err)
	}
	config, err := ataxxConfig(ab.WithDefaults(nnab.SearchConfig()))
	if err != nil {
		return nil, CPPInfo{}, err
	}
	info := CPPInfo{Net: fmt.Sprintf("%s (%s)", name, net.Arch()), Notes: []string{
		fmt.Sprintf("Plays:  agent -engine nnab with its defaults: seed %d, a %d MB table, no opening book", agentSeed, nnab.DefaultHashMB),
		"Build:  g++ -std=c++17 -O2 Main.cpp",
	}}
	return map[string]string{"CONFIG": config, "WEIGHTS": weights}, info, nil
}

// ataxxConfig declares the search constants, the table keys and the Zobrist keys.
func ataxxConfig(c ab.Config[ataxx.Move]) (string, error) {
	switch {
	case c.MaxMoves != ataxx.MaxMoves || c.NoMove != ataxx.NoMove || c.Pass != ataxx.Pass:
		return "", fmt.Errorf("export: nnab's move bounds (%d, %v, %v) are not Bacteria War's", c.MaxMoves, c.NoMove, c.Pass)
	case c.HistSize&(c.HistSize-1) != 0:
		return "", fmt.Errorf("export: nnab's history size %d is not a power of two", c.HistSize)
	}
	var w cppWriter
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
	w.constant("int", "DEFAULT_HASH_MB", nnab.DefaultHashMB)
	w.constant("uint64_t", "AGENT_SEED", fmt.Sprintf("%dULL", agentSeed))
	turnKeys := make([]uint64, nnab.TurnKeys)
	for i := range turnKeys {
		turnKeys[i] = nnab.TurnKey(i)
	}
	w.array("uint64_t", "TURN_KEYS", []int{len(turnKeys)}, hex64(turnKeys), 4)
	// Zobrist keys, read back from the hashes of one-piece positions.
	var zob []uint64
	for p := range 2 {
		for sq := range ataxx.NumSquares {
			var bb [2]uint64
			bb[p] = 1 << sq
			zob = append(zob, ataxx.NewPosition(bb[0], bb[1], ataxx.O, 0).Hash())
		}
	}
	w.array("uint64_t", "ZOBRIST", []int{2, ataxx.NumSquares}, hex64(zob), 4)
	w.constant("uint64_t", "ZOB_SIDE", fmt.Sprintf("0x%016XULL", ataxx.NewPosition(0, 0, ataxx.X, 0).Hash()))
	return w.String(), nil
}

// ataxxWeights declares the net (the template's evaluator reads cell- and window-input nets
// without a hidden layer; FT is nnue.Ints' rows: 2*Cells for cells, 81 per window for windows).
func ataxxWeights(v nnue.Ints) (string, error) {
	a := v.Arch
	if a.L1 != 0 {
		return "", fmt.Errorf("the C++ export reads nets without a hidden layer, not %s", a)
	}
	windows := a.Input == nnue.WindowInput
	switch {
	case a.Input != nnue.CellInput && !windows:
		return "", fmt.Errorf("the C++ export reads cell- and window-input nets, not %s (%s input is not ported to C++)", a, a.Input)
	case windows && a.Width != ataxx.Size:
		return "", fmt.Errorf("window net of width %d, Bacteria War's board is %d wide", a.Width, ataxx.Size)
	}
	if a.Cells != ataxx.NumSquares {
		return "", fmt.Errorf("net for %d cells, Bacteria War has %d", a.Cells, ataxx.NumSquares)
	}
	var w cppWriter
	w.constant("int", "NET_HIDDEN", a.Hidden)
	w.constant("bool", "NET_SCRELU", a.Activation == nnue.SCReLU)
	w.constant("int32_t", "NET_QA", v.QA)
	w.constant("int", "NET_SHIFT", v.Shift)
	w.constant("bool", "NET_WINDOWS", windows)
	w.constant("int", "NET_WIDTH", a.Width)
	var ft []int16
	for _, row := range v.FT {
		ft = append(ft, row...)
	}
	w.array("int16_t", "FT", []int{len(v.FT), a.Hidden}, ints(ft), 16)
	w.array("int16_t", "FT_BIAS", []int{a.Hidden}, ints(v.FTBias), 16)
	w.array("int32_t", "OUT_W", []int{len(v.OutW)}, ints(v.OutW), 16)
	w.constant("int64_t", "OUT_B", fmt.Sprintf("%dLL", v.OutB))
	w.constant("int64_t", "SCORE_MUL", fmt.Sprintf("%dLL", v.ScoreMul))
	return w.String(), nil
}
