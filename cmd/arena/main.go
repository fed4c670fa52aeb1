// Command arena is Colony's referee: it plays a match between two agents that speak the
// ALPHANO judge protocol, each a separate process per game, on the judge's clock.
//
//	arena -game bacteria-war -games N -clock 10s -a 'CMD ARGS' -b 'CMD ARGS'
//	      [-parallel K] [-seed S] [-openings PLIES] [-out DIR] [-mem MB] [-as MB] [-json]
//
// See the usage text (arena -h) for the protocol details and the POSITION extension.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"colony/arena"
	"colony/registry"
)

const usageText = `arena plays a match between two judge-protocol agents and keeps score.

Usage:
  arena -game bacteria-war -games N -clock 10s -a 'CMD ARGS' -b 'CMD ARGS'
        [-parallel K] [-seed S] [-openings PLIES] [-out DIR] [-mem MB] [-as MB] [-json]

Agents. Each game starts one process per agent. A command is split on whitespace and run
without a shell: no quoting, no variables, no word with a space in it (put such a command
in a script and name the script). Each agent runs in its own process group, which the referee kills
(SIGKILL) when the agent's clock runs out, when it crashes, and after FINISH once it has had
-grace to exit by itself; every process is reaped. Memory: a watchdog samples the agent's
resident memory (/proc/PID/statm) every 10 ms and kills it past -mem MB (default 1024, the
judge's limit; 0: none), scored as a crash ("resident memory ... over the cap" in the
record, which also keeps each agent's peak RSS). -as MB additionally sets RLIMIT_AS (via
sh -c 'ulimit -v N && exec "$0" "$@"', the agent's words passed untouched) as a hard
backstop; it is off by default because the Go runtime reserves address space it never uses:
under RLIMIT_AS = 1024 MB a Go agent gets only about 300-500 MB of heap, and under about
700 MB it cannot even start.

In a command, {seed} becomes a seed for that agent in that game (derived from -seed, the
game's index and the side) and {game} the game's index: -b 'bin/agent -engine random
-seed {seed}' gives a different random player in every game, and the match stays
reproducible with -seed.

Protocol (docs/rules.md, "Judge protocol"): READY FIRST|SECOND, answered by OK within -ready
(3000 ms); then TURN my_time opp_time (both remaining whole-game clocks in ms) answered by
MOVE x1 y1 x2 y2 (1-based row, col; -1 -1 -1 -1 for a pass, legal only when forced); the
other agent then gets OPP x1 y1 x2 y2 ms (whole milliseconds, rounded down); FINISH when the game is over. The referee measures
each move from writing TURN to reading the MOVE line and subtracts it from the mover's clock.
Verdicts, each a loss: TLE (clock exhausted, or no OK in time), RE (malformed line or
illegal move), crash (the agent exited or closed stdout early).

Openings and colours. Games 2k and 2k+1 share opening k and swap colours (A plays FIRST in
the even games). With -openings P > 0 the referee plays P random legal plies (drawn from
-seed and k, never ending the game) and sends both agents, right after OK and before
anything else, one extension line
  POSITION <board>
where <board> is the ataxx.Position String notation ("rows/.../rows side turns": seven rows
top to bottom of O, X and '.', the side to move, the turns played). The judge never sends it;
agents must accept it to be used with -openings. After it the side to move gets TURN and the
other side first gets OPP, as in the judge's own first move.

Output. Progress on stderr; one JSON record per game (moves, times, clocks, verdicts,
result, opening, seed) and summary.json under -out (default: a new temporary directory);
a summary on stdout; with -json the last line of stdout is the summary as one JSON object.

Flags:
`

func main() {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	code, err := run(fs, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "arena:", err)
		}
	}
	os.Exit(code)
}

func run(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (int, error) {
	game := fs.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	games := fs.Int("games", 2, "number of games (even numbers play every opening with both colours)")
	clock := fs.Duration("clock", 10*time.Second, "whole-game clock of each side")
	ready := fs.Duration("ready", 3*time.Second, "time limit to answer READY with OK")
	aCmd := fs.String("a", "", "agent A command, split on whitespace")
	bCmd := fs.String("b", "", "agent B command, split on whitespace")
	parallel := fs.Int("parallel", 1, "games played at once")
	seed := fs.Uint64("seed", 0, "seed of the openings (0: from the clock; printed in the summary)")
	openings := fs.Int("openings", 0, "random opening plies before the agents play (sent as POSITION)")
	out := fs.String("out", "", "directory for the game records (default: a new temporary directory)")
	memMB := fs.Uint64("mem", 1024, "resident-memory cap of each agent in MB, enforced by a watchdog (0: none)")
	asMB := fs.Uint64("as", 0, "address-space cap (RLIMIT_AS) of each agent in MB (0: none)")
	grace := fs.Duration("grace", 500*time.Millisecond, "time an agent gets to exit after FINISH before it is killed")
	asJSON := fs.Bool("json", false, "end stdout with the summary as one JSON line")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, err
		}
		return 2, err
	}
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		return 2, err
	}
	if g.Info().Players() != 2 || !slices.Contains(g.Protocols(), "judge") {
		return 2, fmt.Errorf("%s is not a two-player judge-protocol game", *game)
	}
	rules := g.Rules()
	if *aCmd == "" || *bCmd == "" {
		return 2, fmt.Errorf("both -a and -b are required")
	}
	a, err := arena.SplitCommand(*aCmd)
	if err != nil {
		return 2, err
	}
	b, err := arena.SplitCommand(*bCmd)
	if err != nil {
		return 2, err
	}
	if *games < 1 || *parallel < 1 || *openings < 0 || *clock <= 0 || *ready <= 0 {
		return 2, fmt.Errorf("-games and -parallel must be positive, -openings non-negative, -clock and -ready positive")
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	if *out == "" {
		if *out, err = os.MkdirTemp("", "arena-"); err != nil {
			return 1, err
		}
	}
	cfg := arena.Config{
		Rules: rules, A: a, B: b, Games: *games, Clock: *clock, ReadyLimit: *ready,
		Mem: arena.Limits{RSS: *memMB << 20, AS: *asMB << 20}, Grace: *grace, Openings: *openings, Seed: *seed,
		Parallel: *parallel, OutDir: *out,
	}
	fmt.Fprintf(stderr, "arena: %d games of %s, game records in %s\n", *games, *game, *out)
	start := time.Now()
	tty := isTerminal(stderr)
	progress := func(done int, r *arena.Record, s *arena.Summary) {
		el := time.Since(start)
		eta := time.Duration(float64(el) / float64(done) * float64(*games-done)).Round(time.Second)
		line := fmt.Sprintf("[%d/%d] A %d-%d-%d (%.1f%%) TLE/RE/crash A %d/%d/%d B %d/%d/%d  ETA %v",
			done, *games, s.AWins, s.Draws, s.BWins, 100*s.AScore,
			s.ATLE, s.ARE, s.ACrash, s.BTLE, s.BRE, s.BCrash, eta)
		if tty {
			fmt.Fprintf(stderr, "\r%s\033[K", line)
			if done == *games {
				fmt.Fprintln(stderr)
			}
		} else {
			fmt.Fprintf(stderr, "%s  game %d: %s (%s)\n", line, r.Index, r.Winner, r.Outcome)
		}
		// A verdict shows the offender's last words, not only in the JSON record.
		for _, v := range r.Verdicts {
			if tail := arena.StderrTail(r.Stderr[v.Player], 8); tail != "" {
				if tty {
					fmt.Fprintln(stderr)
				}
				fmt.Fprintf(stderr, "  game %d: %s %s (%s); last lines of its stderr:\n%s", r.Index, v.Player, v.Kind, v.Detail, tail)
			}
		}
	}
	sum, err := arena.Run(cfg, progress)
	if err != nil {
		return 1, err
	}
	printSummary(stdout, sum, time.Since(start))
	if *asJSON {
		j, err := json.Marshal(sum)
		if err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "%s\n", j)
	}
	return 0, nil
}

func printSummary(w io.Writer, s *arena.Summary, took time.Duration) {
	fmt.Fprintf(w, "%s: %d games in %v, clock %d ms, openings %d plies, seed %d\n",
		s.Game, s.Games, took.Round(time.Second), s.ClockMs, s.Openings, s.Seed)
	fmt.Fprintf(w, "A: %s\nB: %s\n", s.ACmd, s.BCmd)
	fmt.Fprintf(w, "A wins %d, draws %d, losses %d: score %.1f%%\n", s.AWins, s.Draws, s.BWins, 100*s.AScore)
	for i, r := range s.ByRole {
		if r.Games > 0 {
			fmt.Fprintf(w, "  A as %s (%s): %d-%d-%d, %.1f%%\n", r.Role, [2]string{"FIRST", "SECOND"}[i], r.AWins, r.Draws, r.BWins, 100*r.AScore)
		}
	}
	elo := fmt.Sprintf("%+.0f +/- %.0f (95%%)", s.Elo, s.EloErr)
	switch s.EloBound {
	case "lower":
		elo = fmt.Sprintf(">= %+.0f (A scored every point; bound at half a game lost) +/- %.0f", s.Elo, s.EloErr)
	case "upper":
		elo = fmt.Sprintf("<= %+.0f (A scored no point; bound at half a game won) +/- %.0f", s.Elo, s.EloErr)
	}
	fmt.Fprintf(w, "Elo A-B: %s\n", elo)
	fmt.Fprintf(w, "verdicts: A TLE %d RE %d crash %d; B TLE %d RE %d crash %d\n",
		s.ATLE, s.ARE, s.ACrash, s.BTLE, s.BRE, s.BCrash)
	fmt.Fprintf(w, "records: %s\n", s.OutDir)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
