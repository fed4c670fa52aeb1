package arena

// The arena command's drivers: a judge-protocol match (MatchCommand), a King-of-the-Hill
// tournament (KotHCommand) and a stdin-driver match (StdinCommand), each with its progress
// lines on stderr and its summary on stdout. cmd/arena only parses the flags and picks one.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Usage is the arena command's help text; its flags follow it.
const Usage = `arena plays a match between two judge-protocol agents and keeps score.

Usage:
  arena -game bacteria-war -games N -clock 10s -a 'CMD ARGS' -b 'CMD ARGS'
        [-parallel K] [-seed S] [-openings PLIES] [-out DIR] [-mem MB] [-as MB] [-json]
        [-clock-b 80s | -ladder 10s,20s,40s,80s] [-sprt elo0,elo1[,alpha,beta]]
  arena -game slime -a CMD -b CMD -c CMD -d CMD [-rounds R] [-fixed-order]
        [-move-limit 2s] [-slow 100ms] [-parallel K] [-seed S] [-out DIR] [-mem MB] [-json]
  arena -game petri -a CMD -b CMD [-games N] [-size 10x4] [-rules driver|page]
        [-move-limit 2s] [-slow 200ms] [-parallel K] [-seed S] [-out DIR] [-json]
  arena -paired X1 Y1 [X2 Y2 ...]

-paired compares runs game by game: each pair of -out directories holds two runs of the
same match (the same -seed, openings and B) with two A agents, X and Y. It prints the games
both played, each A's score and Elo against B, the games where X's A did better and where
Y's did, and the sign test's z over those (|z| > 1.96: they differ at 95%). At fixed nodes a
move both agents are deterministic, so results differ only where X's and Y's moves do: a
finer comparison against a reference engine than two scores side by side.

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

Node clocks. -node-clock N plays each game on a node clock of N nodes a side: {nodeclock}
in both commands becomes N (each must have it), and Colony's engines spend those nodes by
their time manager's rules in place of the judge's clock ('bin/agent -node-clock
{nodeclock}', the C++ file's '--node-clock {nodeclock}'). The games then depend on the seeds
and the rules only, not on the machine's load: the way to compare two time managers
(-sprt). The wall clock (-clock, 10 minutes by default with -node-clock) still runs as a
backstop.

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
other side first gets OPP, as in the judge's own first move. An opening worth playing is not
already lost: with -opening-max-score N > 0 (Bacteria War's default 113, in nnab's hundredths
of a piece) the game's opening search (nnab at 5,000 / 2,500 nodes on the embedded net, as the
data generator searches) scores each opening drawn, and one beyond ±N is drawn again from the same
generator; -opening-max-score 0 keeps every opening (games without an opening search do).

Output. Progress on stderr; one JSON record per game (moves, times, clocks, verdicts,
result, opening, seed) and summary.json under -out (default: a new temporary directory);
a summary on stdout; with -json the last line of stdout is the summary as one JSON object.

Flags:
`

// MatchCommand is arena's judge-protocol match between the commands A and B (a ladder of
// B clocks with Ladder, a sequential test with SPRT). Run prints the progress on stderr and
// the summary on stdout; it returns the exit status (2: a bad setting).
type MatchCommand struct {
	Game      string
	Rules     Rules
	A, B      string // commands, split on whitespace
	Games     int
	Clock     time.Duration
	ClockB    time.Duration
	ClockBSet bool   // -clock-b was given
	Ladder    string // B clocks, "10s,20s"
	SPRT      string // "elo0,elo1[,alpha,beta]"
	Ready     time.Duration
	Parallel  int
	Seed      uint64
	Openings  int
	Out       string
	MemMB     uint64
	AsMB      uint64
	Grace     time.Duration
	JSON      bool
	// NodeClock (0: none) is a node clock of that many nodes a side: it replaces {nodeclock}
	// in both commands, which must have it (NodeClockCommands).
	NodeClock int64
	// AcceptOpening (nil: none) filters the random openings: one it refuses is drawn again.
	// OpeningMax is its bound (-opening-max-score), for the summary.
	AcceptOpening func(State) bool
	OpeningMax    int32
}

// NodeClockCommands puts the node clock n into both commands in place of {nodeclock}; a
// command without it is an error (a node-clock match of an engine that plays on the wall clock
// would measure the machine's load, not its rules).
func NodeClockCommands(a, b string, n int64) (string, string, error) {
	if n <= 0 {
		return a, b, fmt.Errorf("-node-clock %d: want a positive number of nodes", n)
	}
	for _, c := range []string{a, b} {
		if !strings.Contains(c, "{nodeclock}") {
			return a, b, fmt.Errorf("-node-clock: the command %q has no {nodeclock} (e.g. 'bin/agent -node-clock {nodeclock}', 'Main --node-clock {nodeclock}')", c)
		}
	}
	v := strconv.FormatInt(n, 10)
	return strings.ReplaceAll(a, "{nodeclock}", v), strings.ReplaceAll(b, "{nodeclock}", v), nil
}

func (m MatchCommand) Run(ctx context.Context, stdout, stderr io.Writer) (int, error) {
	if m.A == "" || m.B == "" {
		return 2, fmt.Errorf("both -a and -b are required")
	}
	if m.NodeClock != 0 {
		var err error
		if m.A, m.B, err = NodeClockCommands(m.A, m.B, m.NodeClock); err != nil {
			return 2, err
		}
	}
	a, err := SplitCommand(m.A)
	if err != nil {
		return 2, err
	}
	b, err := SplitCommand(m.B)
	if err != nil {
		return 2, err
	}
	if m.Games < 1 || m.Parallel < 1 || m.Openings < 0 || m.Clock <= 0 || m.Ready <= 0 {
		return 2, fmt.Errorf("-games and -parallel must be positive, -openings non-negative, -clock and -ready positive")
	}
	if m.ClockB < 0 || (m.Ladder != "" && m.ClockBSet) {
		return 2, fmt.Errorf("-clock-b must be positive and does not go with -ladder")
	}
	var rungs []time.Duration
	if m.Ladder != "" {
		if rungs, err = ParseClocks(m.Ladder); err != nil {
			return 2, err
		}
	}
	var sprt *SPRT
	if m.SPRT != "" {
		t, err := ParseSPRT(m.SPRT)
		if err != nil {
			return 2, err
		}
		sprt = &t
	}
	if m.Seed == 0 {
		m.Seed = uint64(time.Now().UnixNano())
	}
	if m.Out == "" {
		if m.Out, err = os.MkdirTemp("", "arena-"); err != nil {
			return 1, err
		}
	}
	cfg := Config{
		Rules: m.Rules, A: a, B: b, Games: m.Games, Clock: m.Clock, ClockB: m.ClockB, ReadyLimit: m.Ready,
		Mem: Limits{RSS: m.MemMB << 20, AS: m.AsMB << 20}, Grace: m.Grace, Openings: m.Openings, Seed: m.Seed,
		Parallel: m.Parallel, OutDir: m.Out, SPRT: sprt,
	}
	if m.AcceptOpening != nil && m.Openings > 0 {
		cfg.AcceptOpening, cfg.OpeningMax, cfg.OpeningLog = m.AcceptOpening, m.OpeningMax, stderr
	}
	fmt.Fprintf(stderr, "arena: %d games of %s, game records in %s\n", m.Games, m.Game, m.Out)
	start := time.Now()
	tty := isTerminal(stderr)
	progress := func(done int, r *Record, s *Summary) {
		el := time.Since(start)
		eta := time.Duration(float64(el) / float64(done) * float64(m.Games-done)).Round(time.Second)
		line := fmt.Sprintf("[%d/%d] A %d-%d-%d (%.1f%%) TLE/RE/crash A %d/%d/%d B %d/%d/%d  ETA %v",
			done, m.Games, s.AWins, s.Draws, s.BWins, 100*s.AScore,
			s.ATLE, s.ARE, s.ACrash, s.BTLE, s.BRE, s.BCrash, eta)
		if tty {
			fmt.Fprintf(stderr, "\r%s\033[K", line)
			if done == m.Games {
				fmt.Fprintln(stderr)
			}
		} else {
			fmt.Fprintf(stderr, "%s  game %d: %s (%s)\n", line, r.Index, r.Winner, r.Outcome)
		}
		// A verdict shows the offender's last words, not only in the JSON record.
		for _, v := range r.Verdicts {
			if tail := StderrTail(r.Stderr[v.Player], 8); tail != "" {
				if tty {
					fmt.Fprintln(stderr)
				}
				fmt.Fprintf(stderr, "  game %d: %s %s (%s); last lines of its stderr:\n%s", r.Index, v.Player, v.Kind, v.Detail, tail)
			}
		}
	}
	if rungs != nil {
		sums, err := Ladder(ctx, cfg, rungs, func(rung, done int, r *Record, s *Summary) {
			if done == 1 {
				start = time.Now()
				fmt.Fprintf(stderr, "ladder: B at %v\n", rungs[rung])
			}
			progress(done, r, s)
		})
		for _, s := range sums {
			printSummary(stdout, s, 0)
		}
		printLadder(stdout, m.Clock, sums)
		if err != nil {
			return 1, err
		}
		return jsonLine(stdout, m.JSON, sums)
	}
	sum, err := Run(ctx, cfg, progress)
	if err != nil {
		if ctx.Err() != nil && sum != nil && sum.Games > 0 {
			printSummary(stdout, sum, time.Since(start)) // what was played before the stop
		}
		return 1, err
	}
	printSummary(stdout, sum, time.Since(start))
	return jsonLine(stdout, m.JSON, sum)
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
func printLadder(w io.Writer, clockA time.Duration, sums []*Summary) {
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

func printSummary(w io.Writer, s *Summary, took time.Duration) {
	clock := fmt.Sprintf("clock %d ms", s.ClockMs)
	if s.BClockMs != 0 {
		clock = fmt.Sprintf("clocks A %d ms, B %d ms", s.ClockMs, s.BClockMs)
	}
	filter := ""
	if s.OpeningMax > 0 {
		filter = fmt.Sprintf(" (any scored beyond ±%d drawn again)", s.OpeningMax)
	}
	fmt.Fprintf(w, "%s: %d games in %v, %s, openings %d plies%s, seed %d\n",
		s.Game, s.Games, took.Round(time.Second), clock, s.Openings, filter, s.Seed)
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
		if t.Verdict != "" && t.DecidedAt > 0 && t.DecidedAt != s.Games {
			v += fmt.Sprintf(" at game %d, LLR %.2f; the games in play then count after it", t.DecidedAt, t.DecidedLLR)
		}
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

// KotHCommand is arena's King-of-the-Hill tournament (Slime): every seat order of the entries, a
// process per move with the position as its argument (RunArgv). Run prints the progress on
// stderr and the summary on stdout; it returns the exit status (2: a bad setting).
type KotHCommand struct {
	Game            string
	Rules           Rules
	Cmds            []string
	Rounds          int
	Fixed           bool
	MoveLimit, Slow time.Duration
	RSS             uint64
	Parallel        int
	Seed            uint64
	Out             string
	JSON            bool
}

func (k KotHCommand) Run(stdout, stderr io.Writer) (int, error) {
	n := k.Rules.Info().Players()
	var entries [][]string
	for _, c := range k.Cmds {
		if strings.TrimSpace(c) == "" {
			return 2, fmt.Errorf("%s needs %d entries: -a, -b, -c and -d (or -players 'CMD;CMD;CMD;CMD')", k.Game, n)
		}
		argv, err := SplitCommand(c)
		if err != nil {
			return 2, err
		}
		entries = append(entries, argv)
	}
	if len(entries) != n {
		return 2, fmt.Errorf("%s needs %d entries, got %d", k.Game, n, len(entries))
	}
	if k.Rounds < 1 || k.Parallel < 1 || k.MoveLimit <= 0 {
		return 2, fmt.Errorf("-rounds and -parallel must be positive, -move-limit positive")
	}
	if k.Seed == 0 {
		k.Seed = uint64(time.Now().UnixNano())
	}
	if k.Out == "" {
		var err error
		if k.Out, err = os.MkdirTemp("", "arena-"); err != nil {
			return 1, err
		}
	}
	orders := len(Permutations(n))
	if k.Fixed {
		orders = 1
	}
	total := orders * k.Rounds
	fmt.Fprintf(stderr, "arena: %d games of %s (%d seat orders x %d rounds), a process per move, game records in %s\n", total, k.Game, orders, k.Rounds, k.Out)
	start := time.Now()
	cfg := ArgvConfig{Rules: k.Rules, Entries: entries, Rounds: k.Rounds, FixedOrder: k.Fixed, MoveLimit: k.MoveLimit,
		SlowLimit: k.Slow, RSS: k.RSS, Seed: k.Seed, Parallel: k.Parallel, OutDir: k.Out}
	sum, err := RunArgv(cfg, func(done, total int, r *ArgvRecord) {
		el := time.Since(start)
		eta := time.Duration(float64(el) / float64(done) * float64(total-done)).Round(time.Second)
		order := make([]string, len(r.Order))
		for i, e := range r.Order {
			order[i] = string(rune('A' + e))
		}
		fmt.Fprintf(stderr, "[%d/%d] game %d, seats %s: %v (%s)  ETA %v\n", done, total, r.Index, strings.Join(order, ""), r.Scores, r.Outcome, eta)
		for _, m := range r.Moves {
			if m.Why != "" && m.Why != MeantPass {
				fmt.Fprintf(stderr, "  game %d: %s passed: %s (line %q, %.0f ms)\n", r.Index, order[m.Seat], m.Why, m.Line, m.Ms)
				if tail := StderrTail(r.Stderr[fmt.Sprint(m.Seat)], 4); tail != "" {
					fmt.Fprint(stderr, tail)
				}
				break
			}
		}
	})
	if err != nil {
		return 1, err
	}
	printKotH(stdout, sum, time.Since(start), k.Slow)
	return jsonLine(stdout, k.JSON, sum)
}

func printKotH(w io.Writer, s *ArgvSummary, took time.Duration, slow time.Duration) {
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

// StdinVariant builds a stdin-driver game (Petri Dish's driver) on a w x h arena under the
// named rule reading: the game's factory for StdinConfig.New and the reading's name.
type StdinVariant func(w, h int, rules string) (newGame func(begin [2]string) StdinGame, rulesName string, err error)

// StdinCommand is arena's stdin-driver match (Petri Dish, docs/rules.md §4) between the
// commands A and B through RunStdin. Run prints the progress on stderr and the summary on
// stdout; it returns the exit status (2: a bad setting).
type StdinCommand struct {
	Game                 string
	Variant              StdinVariant
	A, B                 string // commands, split on whitespace
	Games                int
	Size, Rules          string // "WxH"; the rule reading
	MoveLimit, SlowLimit time.Duration
	Parallel             int
	Seed                 uint64
	Out                  string
	JSON                 bool
}

func (c StdinCommand) Run(stdout, stderr io.Writer) (int, error) {
	aCmd, bCmd, games, size, moveLimit, slow := c.A, c.B, c.Games, c.Size, c.MoveLimit, c.SlowLimit
	parallel, seed, out, asJSON := c.Parallel, c.Seed, c.Out, c.JSON
	var w, h int
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w < 3 || h < 3 || fmt.Sprintf("%dx%d", w, h) != size {
		return 2, fmt.Errorf("-size %q: want WxH, each at least 3", size)
	}
	newGame, rules, err := c.Variant(w, h, c.Rules)
	if err != nil {
		return 2, err
	}
	if aCmd == "" || bCmd == "" {
		return 2, fmt.Errorf("both -a and -b are required")
	}
	a, err := SplitCommand(aCmd)
	if err != nil {
		return 2, err
	}
	b, err := SplitCommand(bCmd)
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
	fmt.Fprintf(stderr, "arena: %d games of %s %s, %s rules, a process per action, game records in %s\n", games, c.Game, size, rules, out)
	start := time.Now()
	cfg := StdinConfig{Name: c.Game, Size: size, Rules: rules, A: a, B: b, Games: games, MoveLimit: moveLimit, SlowLimit: slow,
		Seed: seed, Parallel: parallel, OutDir: out,
		New: newGame}
	sum, err := RunStdin(cfg, func(done int, r *StdinRecord, s *StdinSummary) {
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
	fmt.Fprintf(stdout, "%s %s (%s rules): %d games in %v, seed %d\n", c.Game, size, rules, sum.Games, time.Since(start).Round(time.Second), sum.Seed)
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
