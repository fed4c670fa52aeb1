// Command arena is Colony's referee: it plays a match between two agents that speak the
// ALPHANO judge protocol, each a separate process per game, on the judge's clock; for
// King-of-the-Hill games (Slime) a tournament of four programs started once per move.
//
//	arena -game bacteria-war -games N -clock 10s -a 'CMD ARGS' -b 'CMD ARGS'
//	      [-parallel K] [-seed S] [-openings PLIES] [-out DIR] [-mem MB] [-as MB] [-json]
//
// See the usage text (arena -h) for the protocol details and the POSITION extension.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"colony/arena"
	"colony/contract"
	"colony/registry"
)

// arenaGame is what the referee's wiring needs of a game (registry.Lookup gives one).
type arenaGame interface {
	Info() contract.Info
	Rules() contract.Rules
	Protocols() []string
	ArgvProtocol() string
	OpeningFilter(bound int32) (func(contract.State) bool, error)
}

func main() {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), arena.Usage)
		fs.PrintDefaults()
	}
	code, err := run(context.Background(), fs, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "arena:", err)
		}
	}
	os.Exit(code)
}

func run(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (int, error) {
	game := fs.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	games := fs.Int("games", 2, "number of games (even numbers play every opening with both colours)")
	clock := fs.Duration("clock", 10*time.Second, "whole-game clock of each side (A's with -clock-b or -ladder)")
	clockB := fs.Duration("clock-b", 0, "B's whole-game clock when it differs from A's (time odds; 0: -clock)")
	ladder := fs.String("ladder", "", "time-odds ladder: B's clocks, e.g. 10s,20s,40s,80s; one match per clock, A keeps -clock, a table at the end")
	sprtSpec := fs.String("sprt", "", "SPRT elo0,elo1[,alpha,beta] (default 0.05 each): stop once A is shown >= elo1 (H1) or <= elo0 (H0) better than B; -games is the cap")
	ready := fs.Duration("ready", 3*time.Second, "time limit to answer READY with OK")
	aCmd := fs.String("a", "", "agent A command, split on whitespace")
	bCmd := fs.String("b", "", "agent B command, split on whitespace")
	parallel := fs.Int("parallel", 1, "games played at once")
	seed := fs.Uint64("seed", 0, "seed of the openings (0: from the clock; printed in the summary)")
	openings := fs.Int("openings", 0, "random opening plies before the agents play (sent as POSITION)")
	openingMax := fs.Int("opening-max-score", 113, "with -openings: draw an opening again when the game's opening search scores it beyond ± this (Bacteria War: nnab at 5,000 nodes, hundredths of a piece; 0: keep every opening; games without an opening search keep every one)")
	out := fs.String("out", "", "directory for the game records (default: a new temporary directory)")
	memMB := fs.Uint64("mem", 1024, "resident-memory cap of each agent in MB, enforced by a watchdog (0: none)")
	asMB := fs.Uint64("as", 0, "address-space cap (RLIMIT_AS) of each agent in MB (0: none)")
	grace := fs.Duration("grace", 500*time.Millisecond, "time an agent gets to exit after FINISH before it is killed")
	asJSON := fs.Bool("json", false, "end stdout with the summary as one JSON line")
	nodeClock := fs.Int64("node-clock", 0, "a node clock of N nodes a side: {nodeclock} in both commands becomes N (each must have it); -clock defaults to 10m as a backstop")
	paired := fs.Bool("paired", false, "compare runs game by game: the arguments are pairs of -out directories, X Y [X Y ...]")
	// King-of-the-Hill games (Slime): a process per move, four entries.
	cCmd := fs.String("c", "", "King-of-the-Hill games: entry C's command (with -a, -b, -d: four entries)")
	dCmd := fs.String("d", "", "King-of-the-Hill games: entry D's command")
	playersList := fs.String("players", "", "King-of-the-Hill games: the entries' commands separated by ';' (instead of -a -b -c -d)")
	rounds := fs.Int("rounds", 1, "King-of-the-Hill games: times every seat order (4! = 24) is played")
	fixedOrder := fs.Bool("fixed-order", false, "King-of-the-Hill games: play only the entries' own seat order, -rounds times")
	moveLimit := fs.Duration("move-limit", 2*time.Second, "King-of-the-Hill games: a program with no line after this is killed and passes")
	slowLimit := fs.Duration("slow", 100*time.Millisecond, "King-of-the-Hill games: the controller's time per move; slower moves are counted (petri: default 200ms)")
	size := fs.String("size", "10x4", "petri: arena size WxH")
	petriRules := fs.String("rules", "driver", "petri: rule reading where the page and the driver differ: driver or page")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, err
		}
		return 2, err
	}
	if *paired {
		return comparePaired(fs, stdout)
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var g arenaGame
	g, err := registry.Lookup(*game)
	if err != nil {
		return 2, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if variant, ok := registry.StdinDriver(*game); ok {
		for _, f := range []string{"clock", "clock-b", "ladder", "sprt", "ready", "openings", "opening-max-score", "as", "grace", "mem", "c", "d", "players", "rounds", "fixed-order", "node-clock"} {
			if set[f] {
				return 2, fmt.Errorf("-%s does not apply to petri", f)
			}
		}
		if !set["slow"] {
			*slowLimit = 200 * time.Millisecond
		}
		c := arena.StdinCommand{Game: *game, Variant: variant, A: *aCmd, B: *bCmd, Games: *games, Size: *size, Rules: *petriRules,
			MoveLimit: *moveLimit, SlowLimit: *slowLimit, Parallel: *parallel, Seed: *seed, Out: *out, JSON: *asJSON}
		return c.Run(stdout, stderr)
	}
	for _, f := range []string{"size", "rules"} {
		if set[f] {
			return 2, fmt.Errorf("-%s is for petri", f)
		}
	}
	if g.ArgvProtocol() != "" {
		for _, f := range []string{"games", "clock", "clock-b", "ladder", "sprt", "ready", "openings", "opening-max-score", "as", "grace", "node-clock"} {
			if set[f] {
				return 2, fmt.Errorf("-%s is for judge-protocol games; %s is a King-of-the-Hill game (a process per move)", f, *game)
			}
		}
		cmds := []string{*aCmd, *bCmd, *cCmd, *dCmd}
		if *playersList != "" {
			if *aCmd+*bCmd+*cCmd+*dCmd != "" {
				return 2, fmt.Errorf("give either -players or -a -b -c -d")
			}
			cmds = strings.Split(*playersList, ";")
		}
		k := arena.KotHCommand{Game: *game, Rules: g.Rules(), Cmds: cmds, Rounds: *rounds, Fixed: *fixedOrder,
			MoveLimit: *moveLimit, Slow: *slowLimit, RSS: *memMB << 20, Parallel: *parallel, Seed: *seed,
			Out: *out, JSON: *asJSON}
		return k.Run(stdout, stderr)
	}
	for _, f := range []string{"c", "d", "players", "rounds", "fixed-order", "move-limit", "slow"} {
		if set[f] {
			return 2, fmt.Errorf("-%s is for King-of-the-Hill games (slime)", f)
		}
	}
	var accept func(contract.State) bool
	if *openingMax < 0 {
		return 2, fmt.Errorf("-opening-max-score %d: want 0 (no filter) or a positive bound", *openingMax)
	}
	if *openings > 0 && *openingMax > 0 {
		var err error
		if accept, err = g.OpeningFilter(int32(*openingMax)); err != nil && set["opening-max-score"] {
			return 2, fmt.Errorf("-opening-max-score: %w", err)
		} else if err != nil {
			accept = nil // the game has no opening search: its openings are not filtered
		}
	}
	if accept == nil {
		*openingMax = 0
	}
	if g.Info().Players() != 2 || !slices.Contains(g.Protocols(), "judge") {
		return 2, fmt.Errorf("%s is not a two-player judge-protocol game", *game)
	}
	if set["node-clock"] && !set["clock"] {
		*clock = 10 * time.Minute
	}
	m := arena.MatchCommand{NodeClock: *nodeClock, Game: *game, Rules: g.Rules(), A: *aCmd, B: *bCmd, Games: *games, Clock: *clock,
		ClockB: *clockB, ClockBSet: set["clock-b"], Ladder: *ladder, SPRT: *sprtSpec, Ready: *ready,
		Parallel: *parallel, Seed: *seed, Openings: *openings, Out: *out, MemMB: *memMB, AsMB: *asMB,
		Grace: *grace, JSON: *asJSON, AcceptOpening: accept, OpeningMax: int32(*openingMax)}
	// An interrupt (or SIGTERM) stops a match after the games being played: they count, their
	// agents are told FINISH, and the summary of the games played is printed. A second one
	// kills at once, as any interrupt does the other commands.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	return m.Run(ctx, stdout, stderr)
}

// comparePaired is -paired: the pairs of run directories in fs's arguments, compared game by
// game (arena.Paired); no other flag applies.
func comparePaired(fs *flag.FlagSet, stdout io.Writer) (int, error) {
	var other []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "paired" {
			other = append(other, "-"+f.Name)
		}
	})
	if len(other) > 0 {
		return 2, fmt.Errorf("%s: no flag but -paired applies to a comparison", strings.Join(other, " "))
	}
	dirs := fs.Args()
	if len(dirs) == 0 || len(dirs)%2 != 0 {
		return 2, fmt.Errorf("-paired takes pairs of run directories (X Y [X Y ...]), got %d", len(dirs))
	}
	var p arena.Paired
	for i := 0; i < len(dirs); i += 2 {
		x, err := arena.ReadRecords(dirs[i])
		if err != nil {
			return 1, err
		}
		y, err := arena.ReadRecords(dirs[i+1])
		if err != nil {
			return 1, err
		}
		if err := p.Add(x, y); err != nil {
			return 1, fmt.Errorf("%s and %s: %w", dirs[i], dirs[i+1], err)
		}
	}
	n := float64(p.Games)
	fmt.Fprintf(stdout, "%d games in both runs\n", p.Games)
	fmt.Fprintf(stdout, "X: %g points, %.1f%% (%+.0f Elo against B)\n", p.ScoreX, 100*p.ScoreX/n, p.EloX())
	fmt.Fprintf(stdout, "Y: %g points, %.1f%% (%+.0f Elo against B)\n", p.ScoreY, 100*p.ScoreY/n, p.EloY())
	fmt.Fprintf(stdout, "X better in %d games, Y better in %d: z %+.2f\n", p.XBetter, p.YBetter, p.Z)
	return 0, nil
}
