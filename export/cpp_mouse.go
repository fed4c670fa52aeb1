package export

import (
	"fmt"
	"strconv"

	"colony/game/mouse"
	"colony/game/mouse/alphabeta"
)

// Catch The Mouse's C++ export: alphabeta with its prover (cpp/mouse.cpp), the engine's numbers
// taken from the Go side (alphabeta.Constants).

func init() {
	cppGames[mouse.Info.Name] = cppGame{template: "mouse.cpp", engine: "alphabeta", fill: fillMouse}
}

func fillMouse(CPPOptions) (map[string]string, CPPInfo, error) {
	cs := alphabeta.Constants()
	params, err := mouseParams(cs)
	if err != nil {
		return nil, CPPInfo{}, err
	}
	scalar := map[string]int64{}
	for _, c := range cs {
		if len(c.Dims) == 0 {
			scalar[c.Name] = c.Values[0]
		}
	}
	info := CPPInfo{Notes: []string{
		fmt.Sprintf("Plays:  agent -engine alphabeta with its defaults: seed %d, a %d MB table, a %d MB prover table, no opening book",
			agentSeed, scalar["defaultHashMB"], scalar["defaultSolveMB"]),
		"No net: the game's registered default (mcts on its network) has no C++ port; see docs/export-cpp-mouse.md.",
	}}
	return map[string]string{"PARAMS": params}, info, nil
}

// mouseParams declares the engine's constants (int64_t scalars, int32_t tables) and the
// agent's seed.
func mouseParams(cs []alphabeta.Constant) (string, error) {
	var w cppWriter
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
