package cpp

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

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
	c := ab.WithDefaults(mouseab.SearchConfig())
	if err := mouseSearchPorted(c); err != nil {
		return nil, Info{}, err
	}
	search, err := searchConfig(c)
	if err != nil {
		return nil, Info{}, fmt.Errorf("%w (alphabeta)", err)
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
	return map[string]string{"PARAMS": params, "SEARCH": search}, info, nil
}

// mouseSearchPorted checks that alphabeta's search configuration fits templates/mouse.cpp:
// Catch The Mouse's move bounds, and none of the features of engine/alphabeta that call a hook
// the template's Hooks lack, as the Go engine's hooks lack them (ab.Plain): staged moves (Legal;
// singular extensions need them too) and reverse futility and futility pruning (Static).
func mouseSearchPorted(c ab.Config[mouse.Move]) error {
	switch {
	case c.MaxMoves != mouse.MaxMoves || c.NoMove != mouse.NoMove || c.Pass != mouse.Pass:
		return fmt.Errorf("export: alphabeta's move bounds (%d, %v, %v) are not Catch The Mouse's", c.MaxMoves, c.NoMove, c.Pass)
	case c.Staged || c.RFPDepth != 0 || c.FPDepth != 0:
		return fmt.Errorf("export: alphabeta's search uses a feature of engine/alphabeta whose hook templates/mouse.cpp does not port (staged moves: Legal; reverse futility and futility pruning: Static): %+v", c)
	}
	return nil
}

// mouseParams declares the engine's constants (int64_t scalars, int32_t tables) under their
// names in the C++ style of constants (upperSnake), and the agent's seed.
func mouseParams(cs []mouseab.Constant) (string, error) {
	var w writer
	for _, c := range cs {
		switch len(c.Dims) {
		case 0:
			if len(c.Values) != 1 {
				return "", fmt.Errorf("export: constant %s has %d values", c.Name, len(c.Values))
			}
			w.constant("int64_t", upperSnake(c.Name), strconv.FormatInt(c.Values[0], 10)+"LL")
		default:
			n := 1
			for _, d := range c.Dims {
				n *= d
			}
			if n != len(c.Values) {
				return "", fmt.Errorf("export: table %s%v has %d values", c.Name, c.Dims, len(c.Values))
			}
			w.array("int32_t", upperSnake(c.Name), c.Dims, ints(c.Values), min(c.Dims[len(c.Dims)-1], 32))
		}
	}
	w.constant("uint64_t", "AGENT_SEED", strconv.Itoa(agentSeed)+"ULL")
	return w.String(), nil
}

// upperSnake spells a Go name as a C++ constant: nadNearStuck NAD_NEAR_STUCK, solveTTMinDepth
// SOLVE_TT_MIN_DEPTH, defaultHashMB DEFAULT_HASH_MB.
func upperSnake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		lowerBefore := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
		wordAfter := i > 0 && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if unicode.IsUpper(r) && (lowerBefore || wordAfter) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}
