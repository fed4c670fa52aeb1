package arena

import (
	"colony/judge"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// King-of-the-Hill referee: the contract of the Slime: Territory War controller
// (docs/rules.md §3), for any game whose board notation (State.String) is the program's
// argument, "P,row0,row1,...", and whose moves are four 0-based numbers:
//
//   - every move starts a new process: the entry's command plus ONE argument, the position;
//   - the referee reads the first line of its stdout as the controller's fgets(buf, 128)
//     does (up to the newline, at most 127 bytes) and parses four integers from it as its
//     istringstream does: each may follow whitespace and carry a sign, and the stream must
//     not reach its end by the fourth (so something, a newline, must follow the fourth
//     number);
//   - anything else (no output, a parse error, numbers that are no spread, jump or merge of
//     the mover: State.Play of the numbers plus one refuses them) is a pass; so is a process
//     that has printed no line after MoveLimit (it is killed), which the controller would
//     wait for forever;
//   - the referee does not wait for the program to exit after its first line: it kills the
//     process group and reaps it (the controller closes the pipe);
//   - the game ends when State.Terminal says so (Slime: a full board or 2000 turns); each
//     seat's score is Score of the final state (default CountCells: the cells it holds);
//   - seats are in entry order: the first command of a game's order is player 1.
//
// Each move is timed from just before the process starts to its first line (or its end):
// process start included, as the controller's limit of about 0.1 s per move is meant.

// ArgvConfig describes a King-of-the-Hill tournament.
type ArgvConfig struct {
	Rules Rules
	// Entries are the programs' argument vectors ({seed} and {game} are replaced as in
	// Config), one per seat of the game.
	Entries [][]string
	// Rounds is how many times every seat order is played (default 1).
	Rounds int
	// FixedOrder plays only the entries' own order (seat i = entry i) Rounds times, instead
	// of every permutation of the entries over the seats.
	FixedOrder bool
	// MoveLimit is the time after which a program that has printed no line is killed and
	// passes (default 2 s).
	MoveLimit time.Duration
	// SlowLimit is the controller's time per move: moves slower than it are counted
	// (default 100 ms).
	SlowLimit time.Duration
	// RSS caps each move's process resident memory in bytes (0: none): over it, the process is
	// killed and passes.
	RSS uint64
	// Score gives each seat's score of a finished game (default CountCells).
	Score func(State) []float64
	// Seed derives the {seed} of every command.
	Seed     uint64
	Parallel int    // games played at once (timings are only comparable with 1)
	OutDir   string // where game records go; "" writes none
}

func (c *ArgvConfig) defaults() {
	if c.Rounds < 1 {
		c.Rounds = 1
	}
	if c.MoveLimit <= 0 {
		c.MoveLimit = 2 * time.Second
	}
	if c.SlowLimit <= 0 {
		c.SlowLimit = 100 * time.Millisecond
	}
	if c.Score == nil {
		c.Score = CountCells
	}
	if c.Parallel < 1 {
		c.Parallel = 1
	}
}

// CountCells scores a board in the controller's notation "P,row0,row1,...": the number of
// cells each player holds (digit '1' is player 0, '2' player 1, ...).
func CountCells(s State) []float64 { return countCells(s.String()) }

func countCells(board string) []float64 {
	var out []float64
	if i := strings.IndexByte(board, ','); i >= 0 {
		board = board[i+1:]
	}
	for _, ch := range board {
		if ch >= '1' && ch <= '9' {
			k := int(ch - '1')
			for len(out) <= k {
				out = append(out, 0)
			}
			out[k]++
		}
	}
	return out
}

// ArgvMove is one move of a King-of-the-Hill game.
type ArgvMove struct {
	Seat  int     `json:"seat"`
	Line  string  `json:"line"`             // the first line read (without its newline)
	Pass  bool    `json:"pass,omitempty"`   // the move was a pass (invalid, or meant)
	Why   string  `json:"why,omitempty"`    // why the line is no move: parse error, illegal, timeout...
	Ms    float64 `json:"ms"`               // from process start to the first line
	Exit  string  `json:"exit,omitempty"`   // how the process ended, when not killed after its line
	RSSMB float64 `json:"rss_mb,omitempty"` // peak resident memory
	// Info is the program's account of its move (its last info line on stderr), if any.
	Info *judge.Info `json:"info,omitempty"`
}

// ArgvFormat and ArgvVersion identify King-of-the-Hill game records. Version 2 added the
// format and the game, and the moves' Info; records without a format field are version 1.
const (
	ArgvFormat  = "colony-arena-koth-game"
	ArgvVersion = 2
)

// ArgvRecord is one King-of-the-Hill game.
type ArgvRecord struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Game    string            `json:"game"`
	Index   int               `json:"index"`
	Order   []int             `json:"order"`            // the entry in each seat
	Players []string          `json:"players"`          // the commands by seat
	Moves   []ArgvMove        `json:"moves"`            // in order
	Scores  []float64         `json:"scores"`           // by seat
	Outcome string            `json:"outcome"`          // the game's description of the end
	Final   string            `json:"final"`            // the final board
	Stderr  map[string]string `json:"stderr,omitempty"` // the last stderr of each seat that wrote any
}

// Permutations returns every order of 0..n-1, in lexicographic order.
func Permutations(n int) [][]int {
	var out [][]int
	var rec func(cur []int, used []bool)
	rec = func(cur []int, used []bool) {
		if len(cur) == n {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := range n {
			if !used[i] {
				used[i] = true
				rec(append(cur, i), used)
				used[i] = false
			}
		}
	}
	rec(nil, make([]bool, n))
	return out
}

// PlayArgv plays one game with entry order[seat] in each seat.
func PlayArgv(cfg *ArgvConfig, index int, order []int) (*ArgvRecord, error) {
	cfg.defaults()
	n := cfg.Rules.Info().Players()
	if len(order) != n {
		return nil, fmt.Errorf("arena: %s needs %d players, got %d", cfg.Rules.Info().Name, n, len(order))
	}
	rec := &ArgvRecord{Format: ArgvFormat, Version: ArgvVersion, Game: cfg.Rules.Info().Name, Index: index, Order: slices.Clone(order)}
	progs := make([][]string, n)
	for seat, e := range order {
		progs[seat] = expand(cfg.Entries[e], cfg.Seed, index*16+e, "a")
		rec.Players = append(rec.Players, strings.Join(cfg.Entries[e], " "))
	}
	st := cfg.Rules.Start()
	const maxMoves = 1 << 20
	for !st.Terminal() {
		if len(rec.Moves) >= maxMoves {
			return nil, errors.New("arena: a game went on for a million moves")
		}
		seat := st.ToMove()
		res := runOnce(progs[seat], st.String(), cfg.MoveLimit, cfg.RSS)
		mv := ArgvMove{Seat: seat, Line: strings.TrimRight(res.line, "\r\n"), Ms: ms(res.took), Exit: res.exit, RSSMB: float64(res.rss) / (1 << 20)}
		if k := len(res.infos); k > 0 {
			mv.Info = &res.infos[k-1]
		}
		noteStderr(&rec.Stderr, seat, res.stderr)
		next, why := playLine(st, res)
		if why != "" {
			mv.Pass, mv.Why = true, why
			var err error
			if next, err = st.Play(PassCoords); err != nil {
				return nil, fmt.Errorf("arena: %s refuses a pass: %w", cfg.Rules.Info().Name, err)
			}
		}
		rec.Moves = append(rec.Moves, mv)
		st = next
	}
	rec.Scores = cfg.Score(st)
	for len(rec.Scores) < n {
		rec.Scores = append(rec.Scores, 0)
	}
	rec.Outcome = st.Outcome()
	rec.Final = st.String()
	return rec, nil
}

// playLine plays the program's answer in st; why says why it is a pass instead ("" when it
// was a move).
func playLine(st State, res onceResult) (State, string) {
	if res.why != "" {
		return st, res.why
	}
	c, err := ParseControllerLine(res.line)
	if err != nil {
		return st, err.Error()
	}
	next, err := st.Play(Coords{c[0] + 1, c[1] + 1, c[2] + 1, c[3] + 1})
	switch {
	case err == nil:
		return next, ""
	case c == [4]int{}:
		return st, MeantPass
	}
	return st, "illegal: " + err.Error()
}

// MeantPass is the Why of a move "0 0 0 0", the contest's spelling of a pass (no move: its
// source and target are the same cell), which is not counted as invalid output.
const MeantPass = "pass (0 0 0 0)"

// ParseControllerLine reads four integers from line as the controller's
// `iss >> x` four times does, checking after each that the stream is not at its end and did
// not fail: leading whitespace is skipped, a number is an optional sign and decimal digits
// that fit an int, and the fourth must be followed by something (a newline will do).
func ParseControllerLine(line string) ([4]int, error) {
	var out [4]int
	i := 0
	for k := range 4 {
		for i < len(line) && isCSpace(line[i]) {
			i++
		}
		j := i
		if j < len(line) && (line[j] == '+' || line[j] == '-') {
			j++
		}
		d := j
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		switch {
		case j == len(line):
			return out, fmt.Errorf("not enough input (%d of 4): %q", k, line)
		case j == d:
			return out, fmt.Errorf("parse error: %q", line)
		}
		v, ok := parseInt32(line[i:j])
		if !ok {
			return out, fmt.Errorf("parse error (out of range): %q", line)
		}
		out[k] = v
		i = j
	}
	return out, nil
}

func isCSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}

func parseInt32(s string) (int, bool) {
	neg := false
	switch s[0] {
	case '-':
		neg = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	v := 0
	for _, ch := range []byte(s) {
		v = v*10 + int(ch-'0')
		if v > math.MaxInt32+1 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, v >= math.MinInt32 && v <= math.MaxInt32
}

// fgetsMax is what the controller's fgets(buffer, 128, pipe) reads at most.
const fgetsMax = 127

// runOnce runs argv plus arg, reads its first line within limit as fgets does, then kills its
// process group and reaps it.
func runOnce(argv []string, arg string, limit time.Duration, rss uint64) onceResult {
	cmd := exec.Command(argv[0], append(slices.Clone(argv[1:]), arg)...)
	return runFirstLine(cmd, fgetsMax, limit, rss)
}

// ArgvEntry sums up one entry of a tournament.
type ArgvEntry struct {
	Command string    `json:"command"`
	Games   int       `json:"games"`
	Score   float64   `json:"score"`   // average score (Slime: cells held)
	BySeat  []float64 `json:"by_seat"` // average score in each seat
	Wins    float64   `json:"wins"`    // games with the best score, shared first places split
	Moves   int       `json:"moves"`
	Passes  int       `json:"passes"`  // moves that were passes: "0 0 0 0" or invalid output
	Invalid int       `json:"invalid"` // passes other than "0 0 0 0": lines that were no move, timeouts, no output
	InvocationTimes
	seatN []int
}

// ArgvSummary is the result of a King-of-the-Hill tournament.
type ArgvSummary struct {
	Game    string      `json:"game"`
	Games   int         `json:"games"`
	Rounds  int         `json:"rounds"`
	Orders  int         `json:"orders"`
	Entries []ArgvEntry `json:"entries"`
	OutDir  string      `json:"out_dir,omitempty"`
}

func (s *ArgvSummary) add(rec *ArgvRecord, slow time.Duration) {
	s.Games++
	best := slices.Max(rec.Scores)
	nBest := 0
	for _, v := range rec.Scores {
		if v == best {
			nBest++
		}
	}
	for seat, e := range rec.Order {
		en := &s.Entries[e]
		en.Games++
		en.Score += rec.Scores[seat]
		en.BySeat[seat] += rec.Scores[seat]
		en.seatN[seat]++
		if rec.Scores[seat] == best {
			en.Wins += 1 / float64(nBest)
		}
	}
	for _, m := range rec.Moves {
		en := &s.Entries[rec.Order[m.Seat]]
		en.Moves++
		if m.Pass {
			en.Passes++
		}
		if m.Why != "" && m.Why != MeantPass {
			en.Invalid++
		}
		en.InvocationTimes.add(slow, m.Ms)
	}
}

func (s *ArgvSummary) finish() {
	for i := range s.Entries {
		en := &s.Entries[i]
		if en.Games > 0 {
			en.Score /= float64(en.Games)
		}
		for seat := range en.BySeat {
			if en.seatN[seat] > 0 {
				en.BySeat[seat] /= float64(en.seatN[seat])
			}
		}
		en.InvocationTimes.finish()
	}
}

// RunArgv plays the tournament: every order of the entries over the seats (or the entries'
// own order with FixedOrder), Rounds times, Parallel games at once, calling progress after
// each game. Game records go to OutDir as game-NNNN.json, the summary as summary.json.
func RunArgv(cfg ArgvConfig, progress func(done, total int, r *ArgvRecord)) (*ArgvSummary, error) {
	cfg.defaults()
	n := cfg.Rules.Info().Players()
	if len(cfg.Entries) != n {
		return nil, fmt.Errorf("arena: %s needs %d entries, got %d", cfg.Rules.Info().Name, n, len(cfg.Entries))
	}
	orders := Permutations(n)
	if cfg.FixedOrder {
		orders = orders[:1]
	}
	var specs [][]int
	for range cfg.Rounds {
		specs = append(specs, orders...)
	}
	sum := &ArgvSummary{Game: cfg.Rules.Info().Name, Rounds: cfg.Rounds, Orders: len(orders), OutDir: cfg.OutDir}
	for _, e := range cfg.Entries {
		sum.Entries = append(sum.Entries, ArgvEntry{Command: strings.Join(e, " "), BySeat: make([]float64, n), seatN: make([]int, n)})
	}
	done := 0
	err := playGames(len(specs), cfg.Parallel, cfg.OutDir,
		func(i int) (*ArgvRecord, error) { return PlayArgv(&cfg, i, specs[i]) },
		func(r *ArgvRecord) int { return r.Index },
		func(r *ArgvRecord) {
			done++
			sum.add(r, cfg.SlowLimit)
			if progress != nil {
				progress(done, len(specs), r)
			}
		})
	sum.finish()
	return sum, writeSummary(cfg.OutDir, sum, err)
}
