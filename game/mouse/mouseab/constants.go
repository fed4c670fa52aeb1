package mouseab

import (
	ab "colony/engine/alphabeta"
	"colony/game/mouse"
	"colony/game/mouse/solve"
)

// SearchConfig is the engine's configuration of the shared search (engine/alphabeta), for
// ports of the engine: the C++ export checks that it uses no feature the port lacks.
func SearchConfig() ab.Config[mouse.Move] { return config }

// Constant is one of the engine's numbers by name, for the C++ export (export -lang cpp),
// which writes them into its source so that its engine and this one share them: a scalar
// (Dims nil), or a table of Dims laid out row-major in Values.
type Constant struct {
	Name   string
	Dims   []int
	Values []int64
}

// Constants are the numbers of the evaluation, the search, the prover and the clock that the
// C++ port of this engine reads (the clock's own, engine.MinMoveCost and
// alphabeta.DefaultMoveTime, are in the C++ runtime of every game).
func Constants() []Constant {
	scalar := func(name string, v int64) Constant { return Constant{Name: name, Values: []int64{v}} }
	table := func(name string, vs ...int32) Constant {
		c := Constant{Name: name, Dims: []int{len(vs)}}
		for _, v := range vs {
			c.Values = append(c.Values, int64(v))
		}
		return c
	}
	lmr := Constant{Name: "reductions", Dims: []int{len(reductions), len(reductions[0])}}
	for _, row := range reductions {
		for _, v := range row {
			lmr.Values = append(lmr.Values, int64(v))
		}
	}
	return []Constant{
		// evaluation
		scalar("winScore", int64(winScore)),
		scalar("winBound", int64(winBound)),
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
		// search
		scalar("defaultHashMB", defaultHashMB),
		scalar("defaultSolveMB", defaultSolveMB),
		scalar("maxPly", maxPly),
		scalar("maxDepth", maxDepth),
		scalar("histSize", int64(config.HistSize)),
		table("killerBonus", config.KillerBonus[:]...),
		scalar("reduceSides", int64(config.ReduceSides)),
		scalar("reduceBelow", int64(config.ReduceBelow)),
		lmr,
		// prover
		scalar("proverSpeed", proverSpeed),
		scalar("proveFrom", solve.ProveFrom),
		scalar("solveMaxPly", solve.MaxPly),
		scalar("solveTTMinDepth", solve.TTMinDepth),
		scalar("rootMoveNodes", solve.RootMoveNodes),
		// clock
		scalar("reserveDiv", int64(config.ReserveDiv)),
		scalar("movesLeftFloor", mouse.MovesLeftFloor),
	}
}

// Evaluate is the static evaluation of p (not terminal) for the side to move, in the profile
// the engine uses when it plays the mice (miceRole) or Nadori's team: the search's leaf value.
func Evaluate(p *mouse.Position, miceRole bool) int32 { return evaluate(p, miceRole) }
