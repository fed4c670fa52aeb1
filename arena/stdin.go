package arena

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// The stdin referee, for any two-player game played one process per single action with the
// input on stdin (its contract is the Petri Dish driver petri.js's, docs/rules.md §4; package
// petri's Match is the game that registers it):
//
//   - at the start of each game each program is run once with "BEGIN" on stdin; its first
//     line is handed to the game (an invalid answer is the game's business: Petri Dish
//     forfeits the seat of an invalid species, the driver's fatal error);
//   - then every action starts a new process with the game's Input on stdin (Petri Dish: the
//     acting cell's view); the first line of its stdout (up to the newline, or everything
//     before EOF) is the action; a line that is no legal action is played as the game decides
//     (Petri Dish: a REST) and counted as invalid, and so is a process with no line after
//     MoveLimit (killed);
//   - the referee does not wait for the program to exit after its line: it kills the
//     process group and reaps it;
//   - the game (not the referee) checks for a winner after every action;
//   - colours alternate: A is seat 0 (player 1, who moves first) in the even games.
//
// Each invocation is timed from just before the process starts to its first line.

// StdinGame is one game as the stdin referee drives it (package petri's Match).
type StdinGame interface {
	Over() (bool, int) // ended, and the winner seat (-1: a tie)
	Seat() int         // the seat whose program answers next
	Input() string     // its stdin
	Play(line string) string
	Cells() []int // each seat's score (Petri Dish: living cells)
	Outcome() string
	Board() string
}

// StdinConfig describes a stdin-referee match between A and B.
type StdinConfig struct {
	Name string
	// Size ("WxH") and Rules (the rule reading's name) are written into the records, so that
	// a replay can rebuild the game (StdinVariant).
	Size, Rules string
	// New starts a game from the two programs' answers to BEGIN, seat 0 first.
	New   func(begin [2]string) StdinGame
	A, B  []string // commands; {seed} and {game} as in Config
	Games int
	// MoveLimit: a program with no line after it is killed (default 2 s). SlowLimit: slower
	// invocations are counted (default 200 ms).
	MoveLimit, SlowLimit time.Duration
	Seed                 uint64
	Parallel             int
	OutDir               string // game records; "" writes none
}

// StdinFormat and StdinVersion identify stdin-referee game records. Version 2 added the
// format, the game, its size and rules and the actions; records without a format field are
// version 1 (no actions: they cannot be replayed).
const (
	StdinFormat  = "colony-arena-stdin-game"
	StdinVersion = 2
)

// StdinAction is one program invocation of a game after BEGIN: the acting seat and its line.
type StdinAction struct {
	Seat int     `json:"seat"`
	Line string  `json:"line"`
	Why  string  `json:"why,omitempty"` // why the line was no legal action (played as REST)
	Ms   float64 `json:"ms"`
}

// StdinRecord is one game.
type StdinRecord struct {
	Format  string   `json:"format"`
	Version int      `json:"version"`
	Game    string   `json:"game"`
	Size    string   `json:"size"`  // "WxH"
	Rules   string   `json:"rules"` // the rule reading
	Index   int      `json:"index"`
	AFirst  bool     `json:"a_first"`
	Players []string `json:"players"` // commands by seat
	Species []string `json:"species"` // BEGIN answers by seat (Petri Dish: the species)
	Winner  string   `json:"winner"`  // "A", "B" or "draw"
	Cells   []int    `json:"cells"`   // by seat
	Outcome string   `json:"outcome"`
	Final   string   `json:"final"`
	Actions []int    `json:"actions"` // invocations by seat (BEGIN included)
	Invalid []int    `json:"invalid"` // by seat
	// FirstInvalid lists up to 5 invalid answers per game: "seat: why (line)".
	FirstInvalid []string          `json:"first_invalid,omitempty"`
	Stderr       map[string]string `json:"stderr,omitempty"`
	// ActionList is every invocation after BEGIN, in order.
	ActionList []StdinAction `json:"action_list"`
	times      [2][]float64
}

// StdinEntry sums up one side.
type StdinEntry struct {
	Command string `json:"command"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
	WDLAs1  [3]int `json:"wdl_as_player1"`
	WDLAs2  [3]int `json:"wdl_as_player2"`
	Actions int    `json:"actions"`
	Invalid int    `json:"invalid"`
	InvocationTimes
}

// StdinSummary is a match's result.
type StdinSummary struct {
	Game    string        `json:"game"`
	Games   int           `json:"games"`
	Seed    uint64        `json:"seed"`
	Entries [2]StdinEntry `json:"entries"` // A, B
	OutDir  string        `json:"out_dir,omitempty"`
}

func (c *StdinConfig) defaults() {
	if c.MoveLimit <= 0 {
		c.MoveLimit = 2 * time.Second
	}
	if c.SlowLimit <= 0 {
		c.SlowLimit = 200 * time.Millisecond
	}
	if c.Parallel < 1 {
		c.Parallel = 1
	}
	if c.Games < 1 {
		c.Games = 1
	}
}

// PlayStdin plays game index (A first when index is even).
func PlayStdin(cfg *StdinConfig, index int) (*StdinRecord, error) {
	cfg.defaults()
	aFirst := index%2 == 0
	progs := [2][]string{expand(cfg.A, cfg.Seed, index, "a"), expand(cfg.B, cfg.Seed, index, "b")}
	names := [2]string{strings.Join(cfg.A, " "), strings.Join(cfg.B, " ")}
	if !aFirst {
		progs[0], progs[1] = progs[1], progs[0]
		names[0], names[1] = names[1], names[0]
	}
	rec := &StdinRecord{Format: StdinFormat, Version: StdinVersion, Game: cfg.Name, Size: cfg.Size, Rules: cfg.Rules,
		Index: index, AFirst: aFirst, Players: names[:], Actions: make([]int, 2), Invalid: make([]int, 2), ActionList: []StdinAction{}}
	note := func(seat int, res onceResult) {
		rec.Actions[seat]++
		rec.times[seat] = append(rec.times[seat], ms(res.took))
		noteStderr(&rec.Stderr, seat, res.stderr)
	}
	var begin [2]string
	for seat := range 2 {
		res := runStdin(progs[seat], "BEGIN", cfg.MoveLimit)
		note(seat, res)
		begin[seat] = strings.TrimRight(res.line, "\r\n")
		rec.Species = append(rec.Species, begin[seat])
	}
	g := cfg.New(begin)
	const maxActions = 1 << 22
	for n := 0; ; n++ {
		over, _ := g.Over()
		if over {
			break
		}
		if n >= maxActions {
			return nil, errors.New("arena: a game went on for 4 million actions")
		}
		seat := g.Seat()
		res := runStdin(progs[seat], g.Input(), cfg.MoveLimit)
		note(seat, res)
		line := strings.TrimRight(res.line, "\r\n")
		why := g.Play(line)
		rec.ActionList = append(rec.ActionList, StdinAction{Seat: seat, Line: line, Why: why, Ms: ms(res.took)})
		if why != "" {
			rec.Invalid[seat]++
			if res.why != "" { // no line at all: say why
				why += ", " + res.why
			}
			if len(rec.FirstInvalid) < 5 {
				rec.FirstInvalid = append(rec.FirstInvalid, fmt.Sprintf("player %d: %s (line %q)", seat+1, why, line))
			}
		}
	}
	_, w := g.Over()
	rec.Winner = "draw"
	if w >= 0 {
		rec.Winner = "A"
		if (w == 0) != aFirst {
			rec.Winner = "B"
		}
	}
	rec.Cells, rec.Outcome, rec.Final = g.Cells(), g.Outcome(), g.Board()
	return rec, nil
}

// runStdin runs argv with input on stdin, reads its first line within limit, then kills its
// process group and reaps it.
func runStdin(argv []string, input string, limit time.Duration) onceResult {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(input)
	return runFirstLine(cmd, 4096, limit, 0)
}

// RunStdin plays the match, Parallel games at once, calling progress after each game. Game
// records go to OutDir as game-NNNN.json, the summary as summary.json.
func RunStdin(cfg StdinConfig, progress func(done int, r *StdinRecord, s *StdinSummary)) (*StdinSummary, error) {
	cfg.defaults()
	sum := &StdinSummary{Game: cfg.Name, Seed: cfg.Seed, OutDir: cfg.OutDir}
	sum.Entries[0].Command = strings.Join(cfg.A, " ")
	sum.Entries[1].Command = strings.Join(cfg.B, " ")
	done := 0
	err := playGames(cfg.Games, cfg.Parallel, cfg.OutDir,
		func(i int) (*StdinRecord, error) { return PlayStdin(&cfg, i) },
		func(r *StdinRecord) int { return r.Index },
		func(r *StdinRecord) {
			done++
			sum.add(r, cfg.SlowLimit)
			if progress != nil {
				progress(done, r, sum)
			}
		})
	sum.finish()
	return sum, writeSummary(cfg.OutDir, sum, err)
}

func (s *StdinSummary) add(rec *StdinRecord, slow time.Duration) {
	s.Games++
	for e := range 2 { // entry A = 0, B = 1
		seat := e
		if !rec.AFirst {
			seat = 1 - e
		}
		en := &s.Entries[e]
		k := 1 // draw
		switch {
		case rec.Winner == "A" && e == 0, rec.Winner == "B" && e == 1:
			en.Wins++
			k = 0
		case rec.Winner == "draw":
			en.Draws++
		default:
			en.Losses++
			k = 2
		}
		if seat == 0 {
			en.WDLAs1[k]++
		} else {
			en.WDLAs2[k]++
		}
		en.Actions += rec.Actions[seat]
		en.Invalid += rec.Invalid[seat]
		en.InvocationTimes.add(slow, rec.times[seat]...)
	}
}

func (s *StdinSummary) finish() {
	for i := range s.Entries {
		s.Entries[i].InvocationTimes.finish()
	}
}
