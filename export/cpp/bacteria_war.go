package cpp

import (
	"fmt"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/nn/nnue"
)

// Bacteria War's C++ export: nnab (templates/ataxx.cpp) with the net and the search constants
// of the Go side.

func init() {
	Register(Game{Name: ataxx.Info.Name, Template: "ataxx.cpp", Engine: "nnab", Fill: fillAtaxx})
}

func fillAtaxx(o Options) (map[string]string, Info, error) {
	net, name, err := nnab.LoadNet(o.Model)
	if err != nil {
		return nil, Info{}, err
	}
	weights, err := ataxxWeights(net.Ints())
	if err != nil {
		return nil, Info{}, fmt.Errorf("export: %s: %w", name, err)
	}
	c := nnab.SearchConfig()
	if o.config != nil { // a test's configuration in place of nnab's
		tc, ok := o.config.(ab.Config[ataxx.Move])
		if !ok {
			return nil, Info{}, fmt.Errorf("export: search configuration %T is not Bacteria War's", o.config)
		}
		c = tc
	}
	c = ab.WithDefaults(c)
	config, err := ataxxConfig(c)
	if err != nil {
		return nil, Info{}, err
	}
	search, err := searchConfig(c)
	if err != nil {
		return nil, Info{}, fmt.Errorf("%w (nnab)", err)
	}
	info := Info{Net: fmt.Sprintf("%s (%s)", name, net.Arch()), Notes: []string{
		fmt.Sprintf("Plays:  agent -engine nnab with its defaults: seed %d, a %d MB table, no opening book", agentSeed, nnab.DefaultHashMB),
		"Build:  g++ -std=c++17 -O2 Main.cpp",
	}}
	return map[string]string{"CONFIG": config, "SEARCH": search, "WEIGHTS": weights}, info, nil
}

// ataxxConfig checks nnab's move bounds and declares its table size, the agent's seed, its
// hooks' QuietLeap (abrules.Rules: the move order), the table's turn keys and the Zobrist keys.
func ataxxConfig(c ab.Config[ataxx.Move]) (string, error) {
	if c.MaxMoves != ataxx.MaxMoves || c.NoMove != ataxx.NoMove || c.Pass != ataxx.Pass {
		return "", fmt.Errorf("export: nnab's move bounds (%d, %v, %v) are not Bacteria War's", c.MaxMoves, c.NoMove, c.Pass)
	}
	var w writer
	w.constant("int", "DEFAULT_HASH_MB", nnab.DefaultHashMB)
	w.constant("uint64_t", "AGENT_SEED", fmt.Sprintf("%dULL", agentSeed))
	w.constant("int32_t", "QUIET_LEAP", nnab.QuietLeap)
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
// without a hidden layer, with one or two output perspectives and one or more output buckets;
// FT is nnue.Ints' rows: 2*Cells for cells, 81 per window for windows; OUT_W has, per bucket,
// 2*Hidden or, NET_STM_ONLY, Hidden weights; OUT_B a bias per bucket).
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
	var w writer
	w.constant("int", "NET_HIDDEN", a.Hidden)
	w.constant("bool", "NET_SCRELU", a.Activation == nnue.SCReLU)
	w.constant("int32_t", "NET_QA", v.QA)
	w.constant("int", "NET_SHIFT", v.Shift)
	w.constant("bool", "NET_WINDOWS", windows)
	w.constant("int", "NET_WIDTH", a.Width)
	w.constant("bool", "NET_STM_ONLY", a.STMOnly)
	w.constant("int", "NET_BUCKETS", a.OutputBuckets())
	w.riceInt16("FT", []int{len(v.FT), a.Hidden}, flatFT(v), 120)
	w.array("int16_t", "FT_BIAS", []int{a.Hidden}, ints(v.FTBias), 16)
	w.array("int32_t", "OUT_W", []int{len(v.OutW)}, ints(v.OutW), 16)
	outB := make([]string, len(v.OutB))
	for i, b := range v.OutB {
		outB[i] = fmt.Sprintf("%dLL", b)
	}
	w.array("int64_t", "OUT_B", []int{len(outB)}, outB, 4)
	w.constant("int64_t", "SCORE_MUL", fmt.Sprintf("%dLL", v.ScoreMul))
	return w.String(), nil
}

// flatFT is v's feature table in row-major order, as the export writes it.
func flatFT(v nnue.Ints) []int16 {
	ft := make([]int16, 0, len(v.FT)*v.Arch.Hidden)
	for _, row := range v.FT {
		ft = append(ft, row...)
	}
	return ft
}
