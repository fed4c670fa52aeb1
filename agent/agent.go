// Package agent is the agent program of every registered game: flags, the engine's checks at
// start, and the game's protocols on stdin/stdout (cmd/agent only calls Main).
package agent

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"colony/agentdef"
	"colony/contract"
	"colony/engine"
	"colony/engine/alphabeta"
	"colony/models"
	"colony/registry"
)

// Game is what the agent needs of a game (registry.Lookup gives one): its engines and their
// checks, the protocols it speaks and perft.
type Game interface {
	Info() contract.Info
	// Engines lists the engines, sorted by name; DefaultEngine is the strongest.
	Engines() []registry.EngineInfo
	DefaultEngine() string
	// Defaults are the game's values of the engine options the flags leave unset.
	Defaults() agentdef.EngineOptions
	// CheckEngine validates an engine and its options without building it.
	CheckEngine(name string, set []string, o agentdef.EngineOptions) error
	// Protocols lists the protocols spoken on stdin/stdout ("judge" first, if any).
	Protocols() []string
	// Serve plays protocol with the named engine until the session ends.
	Serve(protocol, engineName string, o agentdef.EngineOptions, in io.Reader, out, log io.Writer) error
	// ArgvProtocol is the protocol that reads the position from the arguments ("": none);
	// ServeArgs answers such arguments.
	ArgvProtocol() string
	ServeArgs(protocol, engineName string, o agentdef.EngineOptions, args []string, out, log io.Writer) error
	// Perft counts move paths from board (the start when "") to depth.
	Perft(board string, depth int) (uint64, error)
	// Bench runs the game's speed benchmark into w (an error when it has none).
	Bench(w io.Writer) error
}

// engineFlags are the flags that configure an engine: those that some engine of some game
// reads (agentdef.EngineSpec.Flags). Each engine refuses the others.
func engineFlags() map[string]bool {
	flags := map[string]bool{}
	for _, name := range registry.Names() {
		g, err := registry.Lookup(name)
		if err != nil {
			continue
		}
		for _, e := range g.Engines() {
			for _, f := range e.Flags {
				flags[f] = true
			}
		}
	}
	return flags
}

// Main is the whole program: it returns the exit status (0 fine, 1 I/O failure, 2 usage or a
// bad engine setting such as an unreadable model).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gameName := fs.String("game", "bacteria-war", "game to play: "+strings.Join(registry.Names(), ", "))
	engineName := fs.String("engine", "", "engine (default: the game's strongest; -engines lists them and marks the default)")
	listEngines := fs.Bool("engines", false, "list the game's engines and the flags each reads, then exit")
	protocol := fs.String("protocol", "", "protocol on stdin/stdout (default: the game's first: judge for the ALPHANO games; uai for Bacteria War too); given positional arguments, the game's protocol that reads the position from them (Slime: koth)")
	seed := fs.Uint64("seed", 1, "seed of the engine's random choices")
	model := fs.String("model", "", "mcts: model file (default: the game's newest embedded model)")
	cpuct := fs.Float64("cpuct", 0, "mcts: exploration constant (0: the search default)")
	playouts := fs.Int("playouts", 0, "mcts: cap on the playouts of every move (0: the clock decides)")
	blendW := fs.Float64("value-blend", 0, "mcts: weight of the game's alpha-beta value blended into the network's (0: network only)")
	blendD := fs.Int("value-depth", 0, "mcts: depth of the alpha-beta search behind -value-blend (default: the game's)")
	blendS := fs.Float64("value-scale", 0, "mcts: alpha-beta score mapped to value tanh(score/scale) (default: the game's)")
	endgame := fs.Int("endgame", -1, "mcts: hand the game to the game's finishing engine once its phase (Bacteria War: empty cells; Catch The Mouse: mouse steps left) is at most this (0: never; default: the game's)")
	prove := fs.Float64("prove", -1, "mcts: part of every move's time the game's prover (Catch The Mouse: game/mouse/solve) gets before the search, to play forced wins and leave out proven losses (0: no prover; default: the game's)")
	hash := fs.Int("hash", 0, "alphabeta: transposition table in MB (0: the engine's default)")
	nodes := fs.Int64("nodes", 0, "alphabeta, nnab: hard node budget per move (0: the clock decides); both sides of a match at N nodes play the same games on any machine load")
	tm := fs.String("tm", "", "alphabeta, nnab: the time manager's rules changed, 'name=value,...' (engine.TimeParams: "+strings.Join(engine.TimeParamNames(), ", ")+")")
	nodeClock := fs.Int64("node-clock", 0, "judge protocol: play every game on a node clock of N nodes a side, spent by the engine's time manager in place of the judge's clock (0: none); the same seeds give the same games on any load")
	exp := fs.String("exp", "", "nnab: comma-separated search experiments (docs/search.md): "+alphabeta.ExperimentsHelp())
	uaiCmd := fs.String("uai-cmd", "", "uai: the external UAI engine's command line ('PROGRAM ARGS' or PROGRAM,ARGS: no shell, commas stand for spaces), played behind this agent's protocol")
	uaiGo := fs.String("uai-go", "", "uai: what follows go on every move (e.g. 'nodes 5000' or nodes,5000; default: the clocks)")
	book := fs.String("book", "none", "opening book played before the engine is asked (judge-protocol games): none, embedded (models/<game>/book.txt) or a book file")
	perft := fs.Int("perft", -1, "print the perft count to this depth and exit")
	board := fs.String("board", "", "with -perft: the position in the game's board notation (docs/rules.md; Bacteria War and Catch The Mouse: 'rows side')")
	bench := fs.Bool("bench", false, "print the default engine's nodes per second on the C++ export's --bench searches and exit (Bacteria War)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "agent: "+format+"\n", a...)
		return 2
	}
	var g Game
	g, err := registry.Lookup(*gameName)
	if err != nil {
		return fail("%v", err)
	}
	// Positional arguments are the position of a game whose controller starts the program
	// once per move (agentdef.ProtocolSpec.Argv).
	posArgs := fs.Args()
	if len(posArgs) > 0 && g.ArgvProtocol() == "" {
		return fail("unexpected arguments %q", posArgs)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *perft >= 0 {
		return runPerft(g, *perft, *board, stdout, stderr)
	}
	if *bench {
		if err := g.Bench(stdout); err != nil {
			fmt.Fprintf(stderr, "agent: -bench: %v\n", err)
			return 1
		}
		return 0
	}
	if *board != "" {
		return fail("-board only goes with -perft")
	}
	if *listEngines {
		for _, e := range g.Engines() {
			mark := ""
			if e.Name == g.DefaultEngine() {
				mark = " [default]"
			}
			fmt.Fprintf(stdout, "%-13s %s (flags: %v)%s\n", e.Name, e.Doc, e.Flags, mark)
		}
		return 0
	}
	if *engineName == "" {
		*engineName = g.DefaultEngine()
	}
	if *protocol == "" && len(posArgs) > 0 {
		*protocol = g.ArgvProtocol()
	}
	if *protocol == "" {
		ps := g.Protocols()
		if len(ps) == 0 {
			return fail("%s has no protocol the agent speaks", *gameName)
		}
		*protocol = ps[0]
	}
	if !slices.Contains(g.Protocols(), *protocol) {
		return fail("%s: unknown protocol %q (known: %v)", *gameName, *protocol, g.Protocols())
	}
	o := g.Defaults()
	o.Seed, o.Model, o.CPuct, o.Playouts, o.HashMB, o.Nodes, o.Experiments = *seed, *model, *cpuct, *playouts, *hash, *nodes, *exp
	o.UAICmd, o.UAIGo = *uaiCmd, *uaiGo
	o.TimeRules, o.NodeClock = *tm, *nodeClock
	if set["value-blend"] {
		o.BlendWeight = *blendW
	}
	if set["value-depth"] {
		o.BlendDepth = *blendD
	}
	if set["value-scale"] {
		o.BlendScale = *blendS
	}
	if set["endgame"] {
		o.Endgame = *endgame
	}
	if set["prove"] {
		o.ProverShare = *prove
	}
	if err := o.Check(); err != nil {
		return fail("%v", err)
	}
	if *book != "none" {
		if !slices.Contains(g.Protocols(), "judge") {
			return fail("-book: %s is not a judge-protocol game", *gameName)
		}
		b, err := models.LoadBook(g.Info(), *book)
		if err != nil {
			return fail("%v", err)
		}
		o.Book = b
	}
	var setEngineFlags []string
	isEngineFlag := engineFlags()
	fs.Visit(func(f *flag.Flag) {
		if isEngineFlag[f.Name] {
			setEngineFlags = append(setEngineFlags, f.Name)
		}
	})
	if err := g.CheckEngine(*engineName, setEngineFlags, o); err != nil {
		return fail("%v", err)
	}
	if *protocol == g.ArgvProtocol() && len(posArgs) == 0 {
		return fail("%s is played one process per move: give the position as the argument (docs/rules.md), e.g. agent -game %s 'POSITION'", *gameName, *gameName)
	}
	serve := func() error { return g.Serve(*protocol, *engineName, o, stdin, stdout, stderr) }
	if len(posArgs) > 0 {
		serve = func() error { return g.ServeArgs(*protocol, *engineName, o, posArgs, stdout, stderr) }
	}
	if err := serve(); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// runPerft prints the perft count of board (the start position when empty) to depth.
func runPerft(g Game, depth int, board string, stdout, stderr io.Writer) int {
	start := time.Now()
	n, err := g.Perft(board, depth)
	if err != nil {
		fmt.Fprintf(stderr, "agent: -board: %v\n", err)
		return 2
	}
	el := time.Since(start)
	fmt.Fprintln(stdout, n)
	fmt.Fprintf(stderr, "perft %d: %d nodes in %v (%.0f nodes/s)\n", depth, n, el.Round(time.Millisecond), float64(n)/max(el.Seconds(), 1e-9))
	return 0
}
