package mouseab

import (
	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/solve"
)

// SearchConfig is the engine's configuration of the shared search (engine/alphabeta), for
// ports of the engine: the C++ export writes it into the configuration of its searcher.
func SearchConfig() ab.Config[mouse.Move] { return config }

// Constant is one of the engine's numbers by name, for the C++ export (export -lang cpp),
// which writes them into its source so that its engine and this one share them: a scalar
// (Dims nil), or a table of Dims laid out row-major in Values.
type Constant struct {
	Name   string
	Dims   []int
	Values []int64
}

// Constants are the numbers of the evaluation, the engine's options, the prover and the clock
// that the C++ port of this engine reads besides the search's configuration (SearchConfig,
// which the export writes whole) and the clock's own (engine.MinMoveCost and
// alphabeta.DefaultMoveTime, in the C++ runtime of every game).
func Constants() []Constant {
	scalar := func(name string, v int64) Constant { return Constant{Name: name, Values: []int64{v}} }
	table := func(name string, vs ...int32) Constant {
		c := Constant{Name: name, Dims: []int{len(vs)}}
		for _, v := range vs {
			c.Values = append(c.Values, int64(v))
		}
		return c
	}
	return []Constant{
		// evaluation
		scalar("winish", int64(winish)),
		scalar("mouseValue", int64(mouseValue)),
		scalar("excessValue", excessValue),
		scalar("coverValue", coverValue),
		table("advFree", advFree[:]...),
		table("advBlocked", advBlocked[:]...),
		table("threatBonus", threatBonus[:]...),
		table("nadNear", nadNear[:]...),
		table("nadFar", nadFar[:]...),
		table("nadNearStuck", nadNearStuck[:]...),
		table("lowMobility", lowMobility[:]...),
		scalar("evalCacheBits", evalCacheBits),
		scalar("profileKey", profileKey),
		// engine options
		scalar("defaultHashMB", defaultHashMB),
		scalar("defaultSolveMB", defaultSolveMB),
		// prover
		scalar("proverSpeed", proverSpeed),
		scalar("proveFrom", solve.ProveFrom),
		scalar("solveMaxPly", solve.MaxPly),
		scalar("solveTTMinDepth", solve.TTMinDepth),
		scalar("rootMoveNodes", solve.RootMoveNodes),
		// clock
		scalar("movesLeftFloor", mouse.MovesLeftFloor),
	}
}

// Evaluate is the static evaluation of p (not terminal) for the side to move, in the profile
// the engine uses when it plays the mice (miceRole) or Nadori's team: the search's leaf value.
func Evaluate(p *mouse.Position, miceRole bool) int32 { return evaluate(p, miceRole) }
