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
	"colony/game/petri"
	"colony/registry"
)

const usageText = `arena plays a match between two judge-protocol agents and keeps score.

Usage:
  arena -game bacteria-war -games N -clock 10s -a 'CMD ARGS' -b 'CMD ARGS'
        [-parallel K] [-seed S] [-openings PLIES] [-out DIR] [-mem MB] [-as MB] [-json]
        [-clock-b 80s | -ladder 10s,20s,40s,80s] [-sprt elo0,elo1[,alpha,beta]]
  arena -game slime -a CMD -b CMD -c CMD -d CMD [-rounds R] [-fixed-order]
        [-move-limit 2s] [-slow 100ms] [-parallel K] [-seed S] [-out DIR] [-mem MB] [-json]
  arena -game petri -a CMD -b CMD [-games N] [-size 10x4] [-rules driver|page]
        [-move-limit 2s] [-slow 200ms] [-parallel K] [-seed S] [-out DIR] [-json]

Petri Dish (docs/rules.md §4) follows its driver petri.js: each program is run once per
game with BEGIN on stdin (its species), then once per cell action with the cell's view on
stdin; the first line of its stdout is the action (invalid: a REST, counted). The win check
runs after every action; 150 turns each. Colours alternate (A is player 1 in even games).
-rules picks the reading where the page and the driver differ (default: driver). The
summary gives W/D/L (and by colour), invalid outputs and per-invocation times.

King-of-the-Hill games (Slime, docs/rules.md §3) follow their controller instead: every
move starts the entry's command with ONE more argument, the position "P,row0,row1,...";
the first line of its stdout (at most 127 bytes) must hold four integers followed by
something (a newline); anything else is a pass, and so is a program with no line after
-move-limit (killed). The program is not waited for after its line (its process group is
killed). Each move is timed from the process start to its first line; the summary gives
each entry's average score (cells held), by seat, its moves over -slow and its max, 99th
percentile and median move times. A tournament plays every order of the four entries over
the seats (4! = 24), -rounds times (-fixed-order: the given order only; seats in entry
order, player 1 first). -players 'CMD;CMD;CMD;CMD' may replace -a -b -c -d.

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

Time odds, ladders and SPRT (judge-protocol games). -clock-b gives B its own whole-game
clock (a reference engine given 2, 4 or 8 times A's time). -ladder 10s,20s,40s,80s plays
the match once per B clock on the same openings, A keeping -clock, and ends with a table
(B clock, W-D-L, score, Elo, verdicts); each rung's records go to -out/b-<clock>.
-sprt elo0,elo1[,alpha,beta] runs a sequential probability ratio test (H0: A is elo0
better than B; H1: elo1 better; alpha and beta default to 0.05): the match stops as soon as
the log-likelihood ratio (normal approximation on the game results) leaves its bounds, and
the summary says which hypothesis was accepted; -games is the cap.

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
	out := fs.String("out", "", "directory for the game records (default: a new temporary directory)")
	memMB := fs.Uint64("mem", 1024, "resident-memory cap of each agent in MB, enforced by a watchdog (0: none)")
	asMB := fs.Uint64("as", 0, "address-space cap (RLIMIT_AS) of each agent in MB (0: none)")
	grace := fs.Duration("grace", 500*time.Millisecond, "time an agent gets to exit after FINISH before it is killed")
	asJSON := fs.Bool("json", false, "end stdout with the summary as one JSON line")
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
	if fs.NArg() > 0 {
		return 2, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		return 2, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *game == "petri" {
		for _, f := range []string{"clock", "clock-b", "ladder", "sprt", "ready", "openings", "as", "grace", "mem", "c", "d", "players", "rounds", "fixed-order"} {
			if set[f] {
				return 2, fmt.Errorf("-%s does not apply to petri", f)
			}
		}
		if !set["slow"] {
			*slowLimit = 200 * time.Millisecond
		}
		return runPetri(*aCmd, *bCmd, *games, *size, *petriRules, *moveLimit, *slowLimit, *parallel, *seed, *out, *asJSON, stdout, stderr)
	}
	for _, f := range []string{"size", "rules"} {
		if set[f] {
			return 2, fmt.Errorf("-%s is for petri", f)
		}
	}
	if g.ArgvProtocol() != "" {
		for _, f := range []string{"games", "clock", "clock-b", "ladder", "sprt", "ready", "openings", "as", "grace"} {
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
		k := kothRun{game: *game, rules: g.Rules(), cmds: cmds, rounds: *rounds, fixed: *fixedOrder,
			moveLimit: *moveLimit, slow: *slowLimit, rss: *memMB << 20, parallel: *parallel, seed: *seed,
			out: *out, json: *asJSON}
		return k.run(stdout, stderr)
	}
	for _, f := range []string{"c", "d", "players", "rounds", "fixed-order", "move-limit", "slow"} {
		if set[f] {
			return 2, fmt.Errorf("-%s is for King-of-the-Hill games (slime)", f)
		}
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
	if *clockB < 0 || (*ladder != "" && set["clock-b"]) {
		return 2, fmt.Errorf("-clock-b must be positive and does not go with -ladder")
	}
	var rungs []time.Duration
	if *ladder != "" {
		if rungs, err = arena.ParseClocks(*ladder); err != nil {
			return 2, err
		}
	}
	var sprt *arena.SPRT
	if *sprtSpec != "" {
		t, err := arena.ParseSPRT(*sprtSpec)
		if err != nil {
			return 2, err
		}
		sprt = &t
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
		Rules: rules, A: a, B: b, Games: *games, Clock: *clock, ClockB: *clockB, ReadyLimit: *ready,
		Mem: arena.Limits{RSS: *memMB << 20, AS: *asMB << 20}, Grace: *grace, Openings: *openings, Seed: *seed,
		Parallel: *parallel, OutDir: *out, SPRT: sprt,
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
	if rungs != nil {
		sums, err := arena.Ladder(cfg, rungs, func(rung, done int, r *arena.Record, s *arena.Summary) {
			if done == 1 {
				start = time.Now()
				fmt.Fprintf(stderr, "ladder: B at %v\n", rungs[rung])
			}
			progress(done, r, s)
		})
		for _, s := range sums {
			printSummary(stdout, s, 0)
		}
		printLadder(stdout, *clock, sums)
		if err != nil {
			return 1, err
		}
		return jsonLine(stdout, *asJSON, sums)
	}
	sum, err := arena.Run(cfg, progress)
	if err != nil {
		return 1, err
	}
	printSummary(stdout, sum, time.Since(start))
	return jsonLine(stdout, *asJSON, sum)
}

// jsonLine ends stdout with v as one JSON line when on is set (-json); the exit status.
func jsonLine(stdout io.Writer, on bool, v any) (int, error) {
	if !on {
		return 0, nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "%s\n", j)
	return 0, nil
}

// printLadder prints a time-odds ladder as a table: one row per B clock.
func printLadder(w io.Writer, clockA time.Duration, sums []*arena.Summary) {
	fmt.Fprintf(w, "ladder: A at %v against B at each clock\n", clockA)
	fmt.Fprintf(w, "%-8s %6s %-12s %7s %-16s %s\n", "B clock", "games", "A W-D-L", "A score", "Elo A-B", "TLE/RE/crash A, B")
	for _, s := range sums {
		cb := s.ClockMs
		if s.BClockMs != 0 {
			cb = s.BClockMs
		}
		fmt.Fprintf(w, "%-8v %6d %-12s %6.1f%% %-16s %d/%d/%d, %d/%d/%d\n", time.Duration(cb)*time.Millisecond, s.Games,
			fmt.Sprintf("%d-%d-%d", s.AWins, s.Draws, s.BWins), 100*s.AScore, fmt.Sprintf("%+.0f +/- %.0f", s.Elo, s.EloErr),
			s.ATLE, s.ARE, s.ACrash, s.BTLE, s.BRE, s.BCrash)
	}
}

func printSummary(w io.Writer, s *arena.Summary, took time.Duration) {
	clock := fmt.Sprintf("clock %d ms", s.ClockMs)
	if s.BClockMs != 0 {
		clock = fmt.Sprintf("clocks A %d ms, B %d ms", s.ClockMs, s.BClockMs)
	}
	fmt.Fprintf(w, "%s: %d games in %v, %s, openings %d plies, seed %d\n",
		s.Game, s.Games, took.Round(time.Second), clock, s.Openings, s.Seed)
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
	if t := s.SPRT; t != nil {
		v := map[string]string{"H1": fmt.Sprintf("H1 accepted (A >= %+.0f Elo)", t.Elo1), "H0": fmt.Sprintf("H0 accepted (A <= %+.0f Elo)", t.Elo0), "": "undecided (the games ran out)"}[t.Verdict]
		fmt.Fprintf(w, "SPRT elo0 %+.0f elo1 %+.0f alpha %.2f beta %.2f: LLR %.2f in [%.2f, %.2f]: %s\n",
			t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR, t.Lower, t.Upper, v)
	}
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

// kothRun is a King-of-the-Hill tournament (Slime): every seat order of the entries, a
// process per move with the position as its argument (arena.RunArgv).
type kothRun struct {
	game            string
	rules           arena.Rules
	cmds            []string
	rounds          int
	fixed           bool
	moveLimit, slow time.Duration
	rss             uint64
	parallel        int
	seed            uint64
	out             string
	json            bool
}

func (k kothRun) run(stdout, stderr io.Writer) (int, error) {
	n := k.rules.Info().Players()
	var entries [][]string
	for _, c := range k.cmds {
		if strings.TrimSpace(c) == "" {
			return 2, fmt.Errorf("%s needs %d entries: -a, -b, -c and -d (or -players 'CMD;CMD;CMD;CMD')", k.game, n)
		}
		argv, err := arena.SplitCommand(c)
		if err != nil {
			return 2, err
		}
		entries = append(entries, argv)
	}
	if len(entries) != n {
		return 2, fmt.Errorf("%s needs %d entries, got %d", k.game, n, len(entries))
	}
	if k.rounds < 1 || k.parallel < 1 || k.moveLimit <= 0 {
		return 2, fmt.Errorf("-rounds and -parallel must be positive, -move-limit positive")
	}
	if k.seed == 0 {
		k.seed = uint64(time.Now().UnixNano())
	}
	if k.out == "" {
		var err error
		if k.out, err = os.MkdirTemp("", "arena-"); err != nil {
			return 1, err
		}
	}
	orders := len(arena.Permutations(n))
	if k.fixed {
		orders = 1
	}
	total := orders * k.rounds
	fmt.Fprintf(stderr, "arena: %d games of %s (%d seat orders x %d rounds), a process per move, game records in %s\n", total, k.game, orders, k.rounds, k.out)
	start := time.Now()
	cfg := arena.ArgvConfig{Rules: k.rules, Entries: entries, Rounds: k.rounds, FixedOrder: k.fixed, MoveLimit: k.moveLimit,
		SlowLimit: k.slow, RSS: k.rss, Seed: k.seed, Parallel: k.parallel, OutDir: k.out}
	sum, err := arena.RunArgv(cfg, func(done, total int, r *arena.ArgvRecord) {
		el := time.Since(start)
		eta := time.Duration(float64(el) / float64(done) * float64(total-done)).Round(time.Second)
		order := make([]string, len(r.Order))
		for i, e := range r.Order {
			order[i] = string(rune('A' + e))
		}
		fmt.Fprintf(stderr, "[%d/%d] game %d, seats %s: %v (%s)  ETA %v\n", done, total, r.Index, strings.Join(order, ""), r.Scores, r.Outcome, eta)
		for _, m := range r.Moves {
			if m.Why != "" && m.Why != arena.MeantPass {
				fmt.Fprintf(stderr, "  game %d: %s passed: %s (line %q, %.0f ms)\n", r.Index, order[m.Seat], m.Why, m.Line, m.Ms)
				if tail := arena.StderrTail(r.Stderr[fmt.Sprint(m.Seat)], 4); tail != "" {
					fmt.Fprint(stderr, tail)
				}
				break
			}
		}
	})
	if err != nil {
		return 1, err
	}
	printKotH(stdout, sum, time.Since(start), k.slow)
	return jsonLine(stdout, k.json, sum)
}

func printKotH(w io.Writer, s *arena.ArgvSummary, took time.Duration, slow time.Duration) {
	fmt.Fprintf(w, "%s: %d games (%d seat orders x %d rounds) in %v\n", s.Game, s.Games, s.Orders, s.Rounds, took.Round(time.Second))
	fmt.Fprintf(w, "entry  avg score  by seat 1/2/3/4              wins   moves  passes invalid  >%v  max ms  p99 ms  p50 ms\n", slow)
	for i, e := range s.Entries {
		seats := make([]string, len(e.BySeat))
		for j, v := range e.BySeat {
			seats[j] = fmt.Sprintf("%5.1f", v)
		}
		fmt.Fprintf(w, "%-5c  %9.2f  %s  %5.1f  %6d  %6d  %7d  %5d  %6.1f  %6.1f  %6.1f\n", 'A'+i, e.Score, strings.Join(seats, " "),
			e.Wins, e.Moves, e.Passes, e.Invalid, e.Slow, e.MaxMs, e.P99Ms, e.P50Ms)
	}
	for i, e := range s.Entries {
		fmt.Fprintf(w, "%c: %s\n", 'A'+i, e.Command)
	}
	fmt.Fprintf(w, "records: %s\n", s.OutDir)
}

// runPetri is a Petri Dish match through arena.RunStdin.
func runPetri(aCmd, bCmd string, games int, size, rulesName string, moveLimit, slow time.Duration, parallel int, seed uint64, out string, asJSON bool, stdout, stderr io.Writer) (int, error) {
	var w, h int
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w < 3 || h < 3 || fmt.Sprintf("%dx%d", w, h) != size {
		return 2, fmt.Errorf("-size %q: want WxH, each at least 3", size)
	}
	rules, err := petri.ParseRules(rulesName)
	if err != nil {
		return 2, err
	}
	if aCmd == "" || bCmd == "" {
		return 2, fmt.Errorf("both -a and -b are required")
	}
	a, err := arena.SplitCommand(aCmd)
	if err != nil {
		return 2, err
	}
	b, err := arena.SplitCommand(bCmd)
	if err != nil {
		return 2, err
	}
	if games < 1 || parallel < 1 || moveLimit <= 0 {
		return 2, fmt.Errorf("-games and -parallel must be positive, -move-limit positive")
	}
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	if out == "" {
		if out, err = os.MkdirTemp("", "arena-"); err != nil {
			return 1, err
		}
	}
	fmt.Fprintf(stderr, "arena: %d games of petri %s, %s rules, a process per action, game records in %s\n", games, size, rules, out)
	start := time.Now()
	cfg := arena.StdinConfig{Name: "petri", A: a, B: b, Games: games, MoveLimit: moveLimit, SlowLimit: slow,
		Seed: seed, Parallel: parallel, OutDir: out,
		New: func(begin [2]string) arena.StdinGame { return petri.NewMatch(w, h, rules, begin) }}
	sum, err := arena.RunStdin(cfg, func(done int, r *arena.StdinRecord, s *arena.StdinSummary) {
		el := time.Since(start)
		eta := time.Duration(float64(el) / float64(done) * float64(games-done)).Round(time.Second)
		e := s.Entries[0]
		fmt.Fprintf(stderr, "[%d/%d] A %d-%d-%d  game %d: %s (%s)  ETA %v\n", done, games, e.Wins, e.Draws, e.Losses, r.Index, r.Winner, r.Outcome, eta)
		for _, inv := range r.FirstInvalid {
			fmt.Fprintf(stderr, "  game %d: invalid: %s\n", r.Index, inv)
		}
	})
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "petri %s (%s rules): %d games in %v, seed %d\n", size, rules, sum.Games, time.Since(start).Round(time.Second), sum.Seed)
	fmt.Fprintf(stdout, "entry  W-D-L        as player 1  as player 2  actions  invalid  >%v  max ms  p99 ms  p50 ms\n", slow)
	for i, e := range sum.Entries {
		fmt.Fprintf(stdout, "%c      %3d-%d-%-3d    %2d-%d-%-2d      %2d-%d-%-2d      %7d  %7d  %5d  %6.1f  %6.1f  %6.1f\n", 'A'+i,
			e.Wins, e.Draws, e.Losses, e.WDLAs1[0], e.WDLAs1[1], e.WDLAs1[2], e.WDLAs2[0], e.WDLAs2[1], e.WDLAs2[2],
			e.Actions, e.Invalid, e.Slow, e.MaxMs, e.P99Ms, e.P50Ms)
	}
	for i, e := range sum.Entries {
		fmt.Fprintf(stdout, "%c: %s\n", 'A'+i, e.Command)
	}
	fmt.Fprintf(stdout, "records: %s\n", sum.OutDir)
	return jsonLine(stdout, asJSON, sum)
}
