package registry

import (
	"errors"
	"os"
	"strings"

	"colony/agentdef"
	"colony/contract"
	"colony/engine"
	"colony/engine/alphabeta"
	"colony/engine/mctsengine"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
	"colony/game/ataxx/ataxxab"
	"colony/game/ataxx/ataxxgreedy"
	"colony/game/ataxx/nnab"
	"colony/game/ataxx/uai"
)

// Bacteria War (Ataxx 7x7): the game package's contract plus its engines and UAI.
func init() {
	type (
		pos  = ataxx.Position
		move = ataxx.Move
		eng  = engine.Engine[pos, move]
	)
	def := &agentdef.Def[pos, move]{Def: ataxx.Def()}
	def.Engines = []agentdef.EngineSpec[pos, move]{
		{Name: "greedy", Doc: "the move that leaves the most own pieces",
			New: func(o agentdef.EngineOptions) (eng, error) { return ataxxgreedy.New(o.Seed), nil }},
		{Name: "alphabeta", Doc: "PVS alpha-beta with a transposition table and a hand-made evaluation",
			Flags: []string{"hash", "nodes", "tm"}, New: func(o agentdef.EngineOptions) (eng, error) {
				so, err := abOptions(o)
				if err != nil {
					return nil, err
				}
				return ataxxab.NewWithOptions(ataxxab.Options{Options: so}), nil
			}},
		{Name: "nnab", Doc: "PVS alpha-beta on an incrementally updated nnue net (-model FILE: an nnue model)",
			Flags: []string{"model", "hash", "nodes", "exp", "tm"}, NNUE: true, New: func(o agentdef.EngineOptions) (eng, error) { return newNNAB(o) },
			Check: checkNNAB},
		{Name: "uai", Doc: "an external UAI engine (a public Ataxx engine): -uai-cmd 'PROGRAM ARGS', -uai-go 'nodes 5000' for a fixed budget (default: the clocks)",
			Flags: []string{"uai-cmd", "uai-go"}, New: func(o agentdef.EngineOptions) (eng, error) { return uai.Dial(o.UAICmd, o.UAIGo, os.Stderr) },
			Check: func(o agentdef.EngineOptions) error {
				if strings.TrimSpace(o.UAICmd) == "" {
					return errors.New("-engine uai needs -uai-cmd 'PROGRAM ARGS'")
				}
				return nil
			}},
	}
	def.Fallback = "greedy"
	// nnab is the default, the strongest engine; mcts stays as the reference (the matches:
	// docs/results.md, "Bacteria War: the nnue evaluator and nnab").
	def.DefaultEngine = "nnab"
	def.Bench = nnab.Bench
	def.Finisher = "alphabeta"
	// The second opinion of -value-blend: a depth-d alpha-beta score of the leaf, squashed.
	def.Scorer = func(depth int, scale float64) func(p *pos) contract.Values {
		e := ataxxab.NewWithOptions(ataxxab.Options{Options: alphabeta.Options{HashMB: 16}})
		return func(p *pos) contract.Values {
			return mctsengine.TwoPlayer(p.ToMove(), mctsengine.Squash(e.Score(p, depth), scale, abrules.WinBound))
		}
	}
	// mcts's defaults: the network's value alone (blend 0; a depth-1 blend at scale 300 when
	// -value-blend is set), and alphabeta plays the last 20 empty cells (the screens that
	// chose them: docs/results.md, "Strength").
	def.Defaults = agentdef.EngineOptions{BlendDepth: 1, BlendScale: 300, Endgame: 20}
	def.Protocols = []agentdef.ProtocolSpec[pos, move]{{Name: "uai", Serve: uai.Serve}}
	def.NNUEArch = nnab.Arch
	// The referee's openings are judged as the data generator judges its own (selfplay
	// -opening-max-score: nnab on the embedded net, an 8 MB table), at 5,000 / 2,500 nodes:
	// of the 256 two-ply openings, 16 lose by force within a few moves, and this search scores
	// all 16 as proven results and no other beyond ±80; at 1,250 / 625 nodes it missed 7 of them.
	def.OpeningSearch = agentdef.OpeningSearch{Engine: "nnab", Options: agentdef.EngineOptions{HashMB: 8},
		Limits: engine.Limits{Nodes: 5000, SoftNodes: 2500}}
	Register(def)
}
