package cpp

import (
	"fmt"
	"strconv"

	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/mouseab"
)

// Catch The Mouse's C++ export: alphabeta with its prover (templates/mouse.cpp), the engine's
// numbers taken from the Go side (mouseab.Constants).

func init() {
	Register(Game{Name: mouse.Info.Name, Template: "mouse.cpp", Engine: "alphabeta", Fill: fillMouse})
}

func fillMouse(Options) (map[string]string, Info, error) {
	if err := mouseSearchPorted(ab.WithDefaults(mouseab.SearchConfig())); err != nil {
		return nil, Info{}, err
	}
	cs := mouseab.Constants()
	params, err := mouseParams(cs)
	if err != nil {
		return nil, Info{}, err
	}
	scalar := map[string]int64{}
	for _, c := range cs {
		if len(c.Dims) == 0 {
			scalar[c.Name] = c.Values[0]
		}
	}
	info := Info{Notes: []string{
		fmt.Sprintf("Plays:  agent -engine alphabeta with its defaults: seed %d, a %d MB table, a %d MB prover table, no opening book",
			agentSeed, scalar["defaultHashMB"], scalar["defaultSolveMB"]),
		"No net: the game's registered default (mcts on its network) has no C++ port; see docs/export-cpp-mouse.md.",
	}}
	return map[string]string{"PARAMS": params}, info, nil
}

// mouseSearchPorted checks that alphabeta's search uses only what templates/mouse.cpp ports of
// engine/alphabeta: late-move reductions, killers and history, no aspiration windows, staged
// moves, pruning near the leaves, killer or root history, root ties by move or reductions
// eased on the principal variation, and a win score falling one a ply.
func mouseSearchPorted(c ab.Config[mouse.Move]) error {
	switch {
	case c.MaxMoves != mouse.MaxMoves || c.NoMove != mouse.NoMove || c.Pass != mouse.Pass:
		return fmt.Errorf("export: alphabeta's move bounds (%d, %v, %v) are not Catch The Mouse's", c.MaxMoves, c.NoMove, c.Pass)
	case c.HistSize&(c.HistSize-1) != 0:
		return fmt.Errorf("export: alphabeta's history size %d is not a power of two", c.HistSize)
	case c.Aspiration != 0 || c.Staged || c.RFPDepth != 0 || len(c.LMP) != 0 || c.KillerHistory || c.RootHistory ||
		c.RootTieMove || c.ReducePVLess || c.PlyStep != 1 || c.Reductions == nil:
		return fmt.Errorf("export: alphabeta's search uses a feature of engine/alphabeta that templates/mouse.cpp does not port: %+v", c)
	}
	return nil
}

// mouseParams declares the engine's constants (int64_t scalars, int32_t tables) and the
// agent's seed.
func mouseParams(cs []mouseab.Constant) (string, error) {
	var w writer
	for _, c := range cs {
		switch len(c.Dims) {
		case 0:
			if len(c.Values) != 1 {
				return "", fmt.Errorf("export: constant %s has %d values", c.Name, len(c.Values))
			}
			w.constant("int64_t", c.Name, strconv.FormatInt(c.Values[0], 10)+"LL")
		default:
			n := 1
			for _, d := range c.Dims {
				n *= d
			}
			if n != len(c.Values) {
				return "", fmt.Errorf("export: table %s%v has %d values", c.Name, c.Dims, len(c.Values))
			}
			w.array("int32_t", c.Name, c.Dims, ints(c.Values), min(c.Dims[len(c.Dims)-1], 32))
		}
	}
	w.constant("uint64_t", "seed", strconv.Itoa(agentSeed)+"ULL")
	return w.String(), nil
}
