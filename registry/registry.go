// Package registry maps -game names to games, like database/sql's drivers: each game is
// registered by one file of this package (bacteria_war.go, ...) that wraps the game's
// contract.Def in an agentdef.Def with its engines and protocols and hands it to Register.
// Register instantiates the generic pipeline (search engines, the judge protocol, self-play,
// the in-process referee) for the game's types, so that the binaries reach every game through
// the type-free Game interface and import no game package.
package registry

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"colony/agentdef"
	"colony/arena"
	"colony/contract"
	"colony/engine"
	"colony/nn"
	"colony/nn/nnue"
	"colony/selfplay"
)

// Game is a registered game, with no types of its own: all that the programs do with a game.
// No consumer needs all of it: each declares the small part it uses and accepts that
// (agent.Game, pipeline.Game and pipeline.BootstrapGame, the commands' bookGame,
// selfplayGame and arenaGame), and a Game from Lookup is each of them.
type Game interface {
	Info() contract.Info
	Symmetries() contract.Symmetries
	// Rules is the referee's view of the game.
	Rules() contract.Rules
	// Engines lists the engines the agent offers for the game, sorted by name.
	Engines() []EngineInfo
	// DefaultEngine is the strongest engine (the agent's default).
	DefaultEngine() string
	// Defaults are the game's defaults of the engine options the agent does not set.
	Defaults() agentdef.EngineOptions
	// Protocols lists the protocols the agent speaks for the game ("judge" first, if any).
	Protocols() []string
	// CheckEngine validates an engine name and its options at once (the model file loads and
	// fits the game; no option the engine does not read is set), without building it.
	CheckEngine(name string, set []string, o agentdef.EngineOptions) error
	// Serve runs the agent's side of protocol with the named engine until the session ends.
	Serve(protocol, engineName string, o agentdef.EngineOptions, in io.Reader, out, log io.Writer) error
	// ArgvProtocol is the game's first protocol that reads the position from the program's
	// command-line arguments (agentdef.ProtocolSpec.Argv), or "" when it has none.
	ArgvProtocol() string
	// ServeArgs answers the program's positional arguments args with protocol's Argv
	// ("": ArgvProtocol) and the named engine.
	ServeArgs(protocol, engineName string, o agentdef.EngineOptions, args []string, out, log io.Writer) error
	// Perft counts move paths from board (the start position when "") to depth.
	Perft(board string, depth int) (uint64, error)
	// Bench runs the game's speed benchmark into w (agentdef.Def.Bench; an error when it has none).
	Bench(w io.Writer) error
	// BuildBook searches the opening positions of both seats within plies of the start with
	// the named engine under lim (contract.BuildBook); progress gets each position and move.
	BuildBook(engineName string, o agentdef.EngineOptions, lim engine.Limits, plies int, progress func(done int, pos, move string)) (*contract.Book, error)
	// SelfPlay plays PUCT self-play games with model and writes shards into dir.
	SelfPlay(ctx context.Context, cfg selfplay.Config, model *nn.Model, dir string) (selfplay.Stats, error)
	// Bootstrap plays games of the named engine against itself and writes shards into dir.
	Bootstrap(ctx context.Context, bc selfplay.BootstrapConfig, engineName string, o agentdef.EngineOptions, dir string) (selfplay.Stats, error)
	// OpeningFilter is the referee's filter of random openings (arena -opening-max-score): the
	// game's opening search (agentdef.Def.OpeningSearch) scores each opening, and accept is
	// false for one scored beyond ±bound for the side to move (engine.OpeningDecided). It fails
	// for a game without an opening search. The filter searches one opening at a time.
	OpeningFilter(bound int32) (accept func(contract.State) bool, err error)
	// NewPlayer builds the named engine as an in-process contestant for the referee.
	NewPlayer(engineName string, o agentdef.EngineOptions) (arena.Player, error)
	// NNUEArch is the nnue architecture (colony/nn/nnue) of the game's efficiently updatable
	// evaluator with the given sizes, or an error when the game has none.
	NNUEArch(hidden, l1 int) (nnue.Arch, error)
	// ReplayMoves replays a shard's recorded moves (policy indices) from the start position,
	// showing visit the encoded position of each ply want asks for (ingest's check).
	ReplayMoves(moves []int32, want func(ply int) bool, visit func(ply int, input []float32) error) error
	// EncodeState writes the network encoding of a state of the game's Rules.
	EncodeState(st contract.State, dst []float32) error
}

// EngineInfo describes one engine of a game.
type EngineInfo struct {
	Name  string
	Doc   string
	Flags []string // agent flags the engine reads besides -seed
	NNUE  bool     // its -model is an nnue net (agentdef.EngineSpec.NNUE)
}

var (
	mu       sync.RWMutex
	registry = map[string]Game{}
	// stdin holds the games whose programs a driver starts once per action with the input
	// on stdin (Petri Dish), by name.
	stdin = map[string]arena.StdinVariant{}
	// tools holds the game-specific programs (mousesolve), by name.
	tools = map[string]func(args []string, stdout, stderr io.Writer) int{}
)

// registerTool adds a game-specific program.
func registerTool(name string, main func(args []string, stdout, stderr io.Writer) int) {
	mu.Lock()
	defer mu.Unlock()
	tools[name] = main
}

// Tool returns the named game-specific program (its Main: the exit status), so that its
// command imports no game package.
func Tool(name string) (func(args []string, stdout, stderr io.Writer) int, bool) {
	mu.RLock()
	defer mu.RUnlock()
	t, ok := tools[name]
	return t, ok
}

// registerStdin gives the registered game name its stdin driver (arena.StdinCommand).
func registerStdin(name string, v arena.StdinVariant) {
	mu.Lock()
	defer mu.Unlock()
	stdin[name] = v
}

// StdinDriver returns the named game's stdin-driver match (Petri Dish: the referee starts
// each program once per action with the input on stdin), or false when it is not one.
func StdinDriver(name string) (arena.StdinVariant, bool) {
	mu.RLock()
	defer mu.RUnlock()
	v, ok := stdin[name]
	return v, ok
}

// Register adds a game. It panics on an invalid definition or a name registered twice (both
// programming errors, found by any test that imports the package).
func Register[P contract.Position[P, M], M contract.Move](def *agentdef.Def[P, M]) Game {
	if err := def.Check(); err != nil {
		panic(err)
	}
	g := newGame(def)
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[def.Info.Name]; dup {
		panic(fmt.Sprintf("registry: game %q registered twice", def.Info.Name))
	}
	registry[def.Info.Name] = g
	return g
}

// Lookup returns the named game, or an error that lists the registered ones.
func Lookup(name string) (Game, error) {
	mu.RLock()
	defer mu.RUnlock()
	if g, ok := registry[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (registered: %s)", name, strings.Join(namesLocked(), ", "))
}

// Names lists the registered games, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
