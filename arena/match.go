package arena

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"colony/internal/splitmix"
	"colony/judge"
)

// Verdict kinds: each loses the game for the side that gets it.
const (
	TLE   = "TLE"   // the clock ran out, or no OK within the READY limit
	RE    = "RE"    // a malformed line or an illegal move
	Crash = "crash" // the agent exited or closed its stdout early, or could not be written to
)

// Config describes a match. A and B are the two agents' argument vectors.
type Config struct {
	Rules Rules
	A, B  []string
	Games int
	Clock time.Duration // whole-game clock of each side (the judge's 10 s)
	// ClockB, when set, is B's clock instead (time odds: a reference given 2, 4, 8 times
	// A's time); Clock is then A's.
	ClockB time.Duration
	// SPRT, when set, stops the match once the test decides (games already being played
	// are finished and counted).
	SPRT       *SPRT
	ReadyLimit time.Duration // time to answer READY with OK (the judge's 3000 ms)
	Mem        Limits        // memory caps of each agent
	Grace      time.Duration // time an agent gets to exit after FINISH before it is killed
	Openings   int           // random opening plies played by the referee before the agents
	Seed       uint64        // seed of the openings
	Parallel   int           // games played at once
	OutDir     string        // where game records go; "" writes none
	// AcceptOpening (nil: every opening) judges each random opening; one it refuses is drawn
	// again (FilteredOpenings). OpeningMax is its bound, for the summary, and OpeningLog (nil:
	// none) gets a line saying how many were drawn again.
	AcceptOpening func(State) bool
	OpeningMax    int32
	OpeningLog    io.Writer
}

// Defaults fills the zero fields of c with the judge's values.
func (c *Config) Defaults() {
	if c.Clock == 0 {
		c.Clock = 10 * time.Second
	}
	if c.ClockB == 0 {
		c.ClockB = c.Clock
	}
	if c.ReadyLimit == 0 {
		c.ReadyLimit = 3 * time.Second
	}
	if c.Grace == 0 {
		c.Grace = 500 * time.Millisecond
	}
	if c.Parallel < 1 {
		c.Parallel = 1
	}
}

// Spec is one game of a match: which opening it starts from and who plays FIRST.
type Spec struct {
	Index        int
	OpeningIndex int
	Opening      []Coords // the referee's random plies, in order
	Start        State    // the position after them
	AFirst       bool     // agent A plays FIRST (player 0)
}

// MoveRecord is one move of an agent.
type MoveRecord struct {
	Player  string   `json:"player"` // "a" or "b"
	Side    string   `json:"side"`   // the game's name of the mover ("O", "X")
	Move    Coords   `json:"move"`   // judge coordinates
	Ms      float64  `json:"ms"`     // thinking time measured by the referee
	ClockMs [2]int64 `json:"clock_ms"`
	// ClockMs are the remaining clocks of FIRST and SECOND after the move.
	// Info is the agent's account of the move (its info line on stderr, see judge.Info),
	// when it gave one (version 2 on).
	Info *judge.Info `json:"info,omitempty"`
}

// Verdict is a rule violation; the offending player loses.
type Verdict struct {
	Player string `json:"player"` // "a" or "b"
	Kind   string `json:"kind"`   // TLE, RE or crash
	Detail string `json:"detail"`
	Line   string `json:"line,omitempty"` // the offending line, for RE
}

// Record is everything about one played game.
type Record struct {
	Format       string             `json:"format"`
	Version      int                `json:"version"`
	Game         string             `json:"game"`
	Index        int                `json:"index"`
	Seed         uint64             `json:"seed"`
	OpeningIndex int                `json:"opening_index"`
	Opening      []Coords           `json:"opening"`
	Start        string             `json:"start"`
	AFirst       bool               `json:"a_first"`
	ACmd         string             `json:"a_cmd"`
	BCmd         string             `json:"b_cmd"`
	ClockMs      int64              `json:"clock_ms"`             // A's clock
	BClockMs     int64              `json:"b_clock_ms,omitempty"` // B's, when it differs (time odds)
	RSSLimitMB   uint64             `json:"rss_limit_mb"`
	ASLimitMB    uint64             `json:"as_limit_mb"`
	PeakRSSMB    map[string]float64 `json:"peak_rss_mb"`
	Moves        []MoveRecord       `json:"moves"`
	Final        string             `json:"final"`
	Outcome      string             `json:"outcome"`
	Verdicts     []Verdict          `json:"verdicts"`
	Winner       string             `json:"winner"` // "a", "b" or "draw"
	AScore       float64            `json:"a_score"`
	AClockLeftMs int64              `json:"a_clock_left_ms"`
	BClockLeftMs int64              `json:"b_clock_left_ms"`
	Exit         map[string]string  `json:"exit"`
	Stderr       map[string]string  `json:"stderr,omitempty"`
	StartedAt    time.Time          `json:"started_at"`
	DurationMs   int64              `json:"duration_ms"`
}

// RecordFormat and RecordVersion identify game records. Version 2 added the moves' Info;
// version 1 records read the same, without it.
const (
	RecordFormat  = "colony-arena-game"
	RecordVersion = 2
)

// seat is one side of a game being played.
type seat struct {
	name  string // "a" or "b"
	proc  *process
	clock time.Duration
	fault *Verdict
}

// Play plays one game. Agent misbehaviour ends in a verdict inside the record; the error is
// for failures of the referee itself (an agent command that cannot be started).
func Play(cfg *Config, spec Spec) (*Record, error) {
	cfg.Defaults()
	rec := &Record{
		Format: RecordFormat, Version: RecordVersion,
		Game: cfg.Rules.Info().Name, Index: spec.Index, Seed: cfg.Seed,
		OpeningIndex: spec.OpeningIndex, Opening: spec.Opening, Start: spec.Start.String(),
		AFirst: spec.AFirst, ACmd: strings.Join(cfg.A, " "), BCmd: strings.Join(cfg.B, " "),
		ClockMs: cfg.Clock.Milliseconds(), RSSLimitMB: cfg.Mem.RSS >> 20, ASLimitMB: cfg.Mem.AS >> 20,
		PeakRSSMB: map[string]float64{},
		Moves:     []MoveRecord{}, Verdicts: []Verdict{}, Exit: map[string]string{},
		StartedAt: time.Now().UTC(),
	}
	if cfg.ClockB != cfg.Clock {
		rec.BClockMs = cfg.ClockB.Milliseconds()
	}
	if rec.Opening == nil {
		rec.Opening = []Coords{}
	}
	// seats by colour: seats[0] plays FIRST.
	a := &seat{name: "a", clock: cfg.Clock}
	b := &seat{name: "b", clock: cfg.ClockB}
	seats := [2]*seat{a, b}
	if !spec.AFirst {
		seats = [2]*seat{b, a}
	}
	argvA, argvB := expand(cfg.A, cfg.Seed, spec.Index, "a"), expand(cfg.B, cfg.Seed, spec.Index, "b")
	rec.ACmd, rec.BCmd = strings.Join(argvA, " "), strings.Join(argvB, " ")
	var err error
	if a.proc, err = startProcess(argvA, cfg.Mem); err != nil {
		return nil, err
	}
	if b.proc, err = startProcess(argvB, cfg.Mem); err != nil {
		a.proc.kill()
		a.proc.reap()
		return nil, err
	}

	fault := func(s *seat, kind, detail, line string) {
		if len(line) > 200 {
			line = line[:200] + "..."
		}
		s.fault = &Verdict{Player: s.name, Kind: kind, Detail: detail, Line: line}
		if kind != RE {
			s.proc.kill() // a TLE agent may be spinning; a crashed one may have left children
		}
	}
	// readErr turns a failed read into a verdict.
	readErr := func(s *seat, ev lineEvent, timedOut bool, what string) {
		switch {
		case timedOut:
			fault(s, TLE, "no answer: waited for "+what, "")
		case ev.err == io.EOF:
			fault(s, Crash, "stdout closed (the agent exited?) while waiting for "+what, "")
		default:
			fault(s, RE, ev.err.Error()+" while waiting for "+what, "")
		}
	}

	// READY, both at once, each with its own limit.
	var sent [2]time.Time
	for c, s := range seats {
		sent[c] = time.Now()
		if err := s.proc.send(judge.ReadyLine(c)); err != nil {
			fault(s, Crash, "writing READY: "+err.Error(), "")
		}
	}
	for c, s := range seats {
		if s.fault != nil {
			continue
		}
		ev, timedOut := s.proc.next(sent[c].Add(cfg.ReadyLimit))
		switch {
		case timedOut || ev.err != nil:
			readErr(s, ev, timedOut, fmt.Sprintf("OK within %v", cfg.ReadyLimit))
		case strings.TrimSpace(ev.text) != judge.OK:
			fault(s, RE, "expected OK after READY", ev.text)
		case ev.at.Sub(sent[c]) > cfg.ReadyLimit:
			fault(s, TLE, fmt.Sprintf("OK after %v, limit %v", ev.at.Sub(sent[c]).Round(time.Millisecond), cfg.ReadyLimit), "")
		}
	}

	state := spec.Start
	if seats[0].fault == nil && seats[1].fault == nil && len(spec.Opening) > 0 {
		for _, s := range seats {
			if err := s.proc.send(judge.PositionLine(state.String())); err != nil {
				fault(s, Crash, "writing POSITION: "+err.Error(), "")
			}
		}
	}

	names := cfg.Rules.Info().PlayerNames
	for seats[0].fault == nil && seats[1].fault == nil && !state.Terminal() {
		c := state.ToMove()
		s, o := seats[c], seats[1-c]
		t0 := time.Now()
		if err := s.proc.send(judge.TurnLine(s.clock, o.clock)); err != nil {
			fault(s, Crash, "writing TURN: "+err.Error(), "")
			break
		}
		ev, timedOut := s.proc.next(t0.Add(s.clock))
		if timedOut || ev.err != nil {
			readErr(s, ev, timedOut, fmt.Sprintf("a move (%d ms left on the clock)", s.clock.Milliseconds()))
			break
		}
		elapsed := max(ev.at.Sub(t0), 0)
		if elapsed > s.clock {
			fault(s, TLE, fmt.Sprintf("a move after %d ms with %d ms left on the clock", elapsed.Milliseconds(), s.clock.Milliseconds()), ev.text)
			break
		}
		mv, perr := judge.ParseMove(ev.text)
		if perr != nil {
			fault(s, RE, perr.Error(), ev.text)
			break
		}
		next, perr := state.Play(mv)
		if perr != nil {
			fault(s, RE, "illegal move: "+perr.Error(), ev.text)
			break
		}
		s.clock -= elapsed
		state = next
		rec.Moves = append(rec.Moves, MoveRecord{
			Player: s.name, Side: names[c], Move: mv,
			Ms:      float64(elapsed.Microseconds()) / 1000,
			ClockMs: [2]int64{seats[0].clock.Milliseconds(), seats[1].clock.Milliseconds()},
		})
		if !state.Terminal() {
			if err := o.proc.send(judge.OppLine(mv, elapsed)); err != nil {
				fault(o, Crash, "writing OPP: "+err.Error(), "")
			}
		}
	}

	for _, s := range seats {
		if s.fault == nil {
			_ = s.proc.send(judge.Finish) // an agent that is gone by now has done its job
		}
	}
	for _, s := range []*seat{a, b} {
		rec.Exit[s.name] = s.proc.finish(cfg.Grace)
		attachInfos(rec.Moves, s.name, s.proc.stderr.Infos())
		if t := s.proc.stderr.String(); t != "" {
			if rec.Stderr == nil {
				rec.Stderr = map[string]string{}
			}
			rec.Stderr[s.name] = t
		}
		rec.PeakRSSMB[s.name] = float64(s.proc.peakRSS>>10) / 1024
		if over := s.proc.overRSS.Load(); over > 0 {
			detail := fmt.Sprintf("killed: resident memory %d MB over the %d MB cap", over>>20, cfg.Mem.RSS>>20)
			if s.fault == nil { // killed while the opponent was thinking, at the game's end
				s.fault = &Verdict{Player: s.name, Kind: Crash, Detail: detail}
			} else {
				s.fault.Detail = detail + "; " + s.fault.Detail
			}
		} else if s.fault != nil && s.fault.Kind == Crash && strings.Contains(rec.Stderr[s.name], "out of memory") {
			s.fault.Detail += fmt.Sprintf("; out of memory (address-space cap %d MB)", cfg.Mem.AS>>20)
		}
		if s.fault != nil {
			rec.Verdicts = append(rec.Verdicts, *s.fault)
		}
	}

	rec.Final = state.String()
	rec.Outcome = state.Outcome()
	rec.AClockLeftMs, rec.BClockLeftMs = a.clock.Milliseconds(), b.clock.Milliseconds()
	switch {
	case a.fault != nil && b.fault != nil:
		rec.Winner = "draw"
		rec.Outcome = "both agents failed"
	case a.fault != nil:
		rec.Winner = "b"
		rec.Outcome = fmt.Sprintf("a %s: %s", a.fault.Kind, a.fault.Detail)
	case b.fault != nil:
		rec.Winner = "a"
		rec.Outcome = fmt.Sprintf("b %s: %s", b.fault.Kind, b.fault.Detail)
	default:
		switch w := state.Winner(); {
		case w < 0:
			rec.Winner = "draw"
		case seats[w] == a:
			rec.Winner = "a"
		default:
			rec.Winner = "b"
		}
	}
	rec.AScore = map[string]float64{"a": 1, "draw": 0.5, "b": 0}[rec.Winner]
	rec.DurationMs = time.Since(rec.StartedAt).Milliseconds()
	return rec, nil
}

// AgentSeed is the seed that replaces {seed} in the command of player ("a" or "b") in game
// index of a match with seed seed: a hash of the three, different for every game and agent.
func AgentSeed(seed uint64, index int, player string) uint64 {
	x := seed ^ uint64(index+1)*splitmix.Gamma
	if player == "b" {
		x ^= 0xd1b54a32d192ed03
	}
	x = splitmix.Finalize(x)
	return x>>1 | 1 // positive as an int64 and never 0 (0 often means "from the clock")
}

// expand replaces {seed} and {game} in the words of argv.
func expand(argv []string, seed uint64, index int, player string) []string {
	out := make([]string, len(argv))
	for i, w := range argv {
		w = strings.ReplaceAll(w, "{seed}", strconv.FormatUint(AgentSeed(seed, index, player), 10))
		out[i] = strings.ReplaceAll(w, "{game}", strconv.Itoa(index))
	}
	return out
}

// attachInfos gives player's moves the agent's info lines: the agent numbers its moves in the
// game from 1, so its k-th move in the record gets the info of move k.
func attachInfos(moves []MoveRecord, player string, infos []judge.Info) {
	byMove := map[int]judge.Info{}
	for _, in := range infos {
		byMove[in.Move] = in
	}
	k := 0
	for i := range moves {
		if moves[i].Player != player {
			continue
		}
		k++
		if in, ok := byMove[k]; ok {
			moves[i].Info = &in
		}
	}
}
