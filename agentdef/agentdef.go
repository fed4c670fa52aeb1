// Package agentdef is how the agent configures a game's engines: the engines a game offers
// (EngineSpec), the settings the agent gives them (EngineOptions), the protocols it speaks
// (ProtocolSpec), and Def, a game's contract.Def with all of that added.
//
// Why a package of its own: the game contract (colony/contract) is the floor that games,
// shards, nets and the referee stand on, and the engine kit (colony/engine and below) is
// generic over any position type; neither needs the other. What joins them, a game's engines
// as constructors of engine.Engine, lives here, above both and below registry and agent,
// which read it. The game packages still fill only their contract.Def (rules, notation, clock
// hints); a registration file of colony/registry wraps it in a Def and adds the engines.
package agentdef

import (
	"fmt"
	"io"

	"colony/contract"
	"colony/engine"
	"colony/engine/alphabeta"
	"colony/nn/nnue"
)

// Def is one game's registration for the agent: the game's contract (its facts, filled by
// the game package) and what the agent adds to the generic pieces for it. Only the contract
// is required.
type Def[P contract.Position[P, M], M contract.Move] struct {
	*contract.Def[P, M]

	// Engines are the game's own engines (alpha-beta, greedy...); "random" and "mcts" are
	// added for every game by the registry.
	Engines []EngineSpec[P, M]
	// Fallback names the engine that answers when the chosen one fails or is not ready yet
	// (a cheap one, e.g. "greedy"; "" means "random").
	Fallback string
	// Finisher names the engine that "mcts" hands the game to once Phase(p) <= the agent's
	// -endgame threshold ("" or a nil Phase: no handoff).
	Finisher string
	// Prover builds the game's exact solver that "mcts" runs on EngineOptions.ProverShare of
	// every move before searching (engine.Prover); nil: none.
	Prover func() engine.Prover[P, M]
	// Scorer builds a second opinion on leaf values for "mcts" (-value-blend): values per
	// player of a search of the given depth, squashed to [-1, 1] with scale. Nil: no blend.
	Scorer func(depth int, scale float64) func(p *P) contract.Values
	// Protocols are protocols the agent speaks for this game besides the judge's (UAI).
	Protocols []ProtocolSpec[P, M]
	// Defaults are the game's defaults for the engine options the agent does not set (for
	// Bacteria War an endgame handoff at 20 empty cells, a blend scale of 300).
	Defaults EngineOptions
	// DefaultEngine names the agent's default engine ("" means "mcts").
	DefaultEngine string
	// NNUEArch is the nnue architecture (colony/nn/nnue) of the game's efficiently updatable
	// evaluator with the given sizes: how its cells, players and encoder planes map onto the
	// scheme (the trainer's fresh nets). Nil: the game has none.
	NNUEArch func(hidden, l1 int) nnue.Arch
	// OpeningSearch judges the referee's random openings (arena -opening-max-score): an
	// opening it scores beyond the bound is drawn again. Zero Engine: the game has none.
	OpeningSearch OpeningSearch
	// Bench runs the game's speed benchmark (agent -bench) and prints its lines, the last one
	// "total nodes N  R nodes/s  C nodes/cpu-s" (the C++ export's --bench searches, so that
	// make speed compares the two builds); nil: the game has none.
	Bench func(w io.Writer) error
}

// OpeningSearch is the search that scores an opening: the engine Engine with Options under
// Limits, from a new game.
type OpeningSearch struct {
	Engine  string
	Options EngineOptions
	Limits  engine.Limits
}

// EngineSpec is one engine a game offers to the agent.
type EngineSpec[P contract.Position[P, M], M contract.Move] struct {
	Name string
	Doc  string
	// Flags lists the agent flags the engine reads besides -seed (e.g. "model", "cpuct"):
	// giving it any other engine flag is an error.
	Flags []string
	// NNUE says that the engine's -model is an nnue net (a .nnue file, nn/nnue), not a
	// convnet model file.
	NNUE bool
	// New builds the engine; it may be slow (loading weights). Check, when set, validates o
	// at once (for example that the model file loads), so that a bad flag fails at start.
	New   func(o EngineOptions) (engine.Engine[P, M], error)
	Check func(o EngineOptions) error
}

// EngineOptions are the agent's engine settings, one field per engine flag of the agent; an
// engine reads those its spec lists and turns them into its own options.
type EngineOptions struct {
	Seed  uint64
	Model string // weights file; "" means the game's newest embedded model
	// CPuct is the mcts exploration constant (0: the search default).
	CPuct float64
	// Value blend of mcts: leaf value (1-BlendWeight)*network + BlendWeight*Scorer(BlendDepth,
	// BlendScale).
	BlendWeight float64
	BlendDepth  int
	BlendScale  float64
	// Endgame: mcts hands the game to the Finisher once Phase <= Endgame (0: never).
	Endgame int
	// ProverShare: mcts gives the game's Prover this part of every move's time before the
	// search (0: no prover).
	ProverShare float64
	// Playouts caps the playouts of every mcts move (0: the clock decides).
	Playouts int
	// HashMB sizes an alpha-beta engine's transposition table (-hash; 0: its default).
	HashMB int
	// Nodes is an alpha-beta engine's hard node budget per move (-nodes; 0: the clock
	// decides), for matches that no machine load can bend.
	Nodes int64
	// Experiments are an alpha-beta engine's search experiments (-exp), comma-separated
	// names of engine/alphabeta's experiment table ("": none).
	Experiments string
	// TimeRules change an alpha-beta engine's time rules (-tm): "name=value,..." of
	// engine.TimeParams ("": the engine's own).
	TimeRules string
	// NodeClock (-node-clock; 0: none) plays every game of the judge protocol on a node clock
	// of that many nodes a side, spent by the engine's time manager in place of the judge's
	// clock: games that no machine load can bend, for comparing time rules.
	NodeClock int64
	// UAICmd is an external UAI engine's command line (the "uai" engine: a public engine
	// played behind the agent's protocol); UAIGo, when set, follows go on every move.
	UAICmd, UAIGo string
	// Book, when set, answers the positions it holds before the engine is asked (an opening
	// book, see contract.Book); games with a judge notation only.
	Book *contract.Book
}

// Check refuses settings out of their range, time rules that do not parse (TimeRules) and
// search experiments that do not exist (Experiments): the one check of the engine settings,
// made where they are parsed (the agent's flags), each error naming its flag. The engines'
// constructors take the settings as checked; what they check themselves is their files (a
// model that does not load, EngineSpec.Check).
func (o EngineOptions) Check() error {
	switch {
	case o.BlendWeight < 0 || o.BlendWeight > 1:
		return fmt.Errorf("-value-blend %v: want [0, 1]", o.BlendWeight)
	case o.BlendDepth < 0 || o.BlendDepth > 8:
		return fmt.Errorf("-value-depth %d: want [0, 8]", o.BlendDepth)
	case o.BlendWeight > 0 && o.BlendScale <= 0:
		return fmt.Errorf("-value-scale %v: want > 0", o.BlendScale)
	case o.CPuct < 0:
		return fmt.Errorf("-cpuct %v: want >= 0", o.CPuct)
	case o.ProverShare < 0 || o.ProverShare > 0.9:
		return fmt.Errorf("-prove %v: want [0, 0.9]", o.ProverShare)
	case o.Endgame < 0:
		return fmt.Errorf("-endgame %d: want >= 0", o.Endgame)
	case o.Playouts < 0 || o.HashMB < 0 || o.Nodes < 0 || o.NodeClock < 0:
		return fmt.Errorf("-playouts, -hash, -nodes and -node-clock must be >= 0")
	}
	if err := alphabeta.CheckTime(o.TimeRules); err != nil {
		return fmt.Errorf("-tm: %w", err)
	}
	var so alphabeta.Options
	if err := so.SetExperiments(o.Experiments); err != nil {
		return fmt.Errorf("-exp: %w", err)
	}
	return nil
}

// ProtocolSpec is a protocol the agent speaks for one game.
type ProtocolSpec[P contract.Position[P, M], M contract.Move] struct {
	Name string
	// Serve runs a session on in/out until its end; build constructs the engine (named
	// engineName), log gets diagnostics. Nil for a protocol that only has Argv.
	Serve func(in io.Reader, out, log io.Writer, engineName string, build func() (engine.Engine[P, M], error), seed uint64) error
	// Argv, when set, answers one move of a program that its controller starts once per move
	// with the position in the command-line arguments (the King-of-the-Hill contests): the
	// agent calls it, instead of Serve, when it is given positional arguments (args). The
	// protocol, not the agent, knows the controller's time per move.
	Argv func(args []string, out, log io.Writer, engineName string, build func() (engine.Engine[P, M], error), seed uint64) error
}

// Check validates d: its contract (contract.Def.Check), and engines that each have a name
// and a constructor, no name twice.
func (d *Def[P, M]) Check() error {
	if d.Def == nil {
		return fmt.Errorf("agentdef: no game contract")
	}
	if err := d.Def.Check(); err != nil {
		return err
	}
	names := map[string]bool{}
	for _, e := range d.Engines {
		if e.Name == "" || e.New == nil || names[e.Name] {
			return fmt.Errorf("agentdef: %s: engine %q missing a name or constructor, or named twice", d.Info.Name, e.Name)
		}
		names[e.Name] = true
	}
	return nil
}
