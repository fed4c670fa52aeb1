package arena

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"colony/internal/atomicfile"
)

// Summary is the result of a match from A's point of view.
type Summary struct {
	Game     string  `json:"game"`
	Games    int     `json:"games"`
	AWins    int     `json:"a_wins"`
	BWins    int     `json:"b_wins"`
	Draws    int     `json:"draws"`
	AScore   float64 `json:"a_score"`
	Elo      float64 `json:"elo"`
	EloErr   float64 `json:"elo_err"`
	EloBound string  `json:"elo_bound,omitempty"`
	ATLE     int     `json:"a_tle"`
	ARE      int     `json:"a_re"`
	ACrash   int     `json:"a_crash"`
	BTLE     int     `json:"b_tle"`
	BRE      int     `json:"b_re"`
	BCrash   int     `json:"b_crash"`
	Seed     uint64  `json:"seed"`
	Openings int     `json:"openings"`
	// OpeningMax is the bound of the opening filter (0: none): openings whose search scored
	// them beyond it were drawn again.
	OpeningMax int32 `json:"opening_max_score,omitempty"`
	ClockMs    int64 `json:"clock_ms"`
	// BClockMs is B's clock when it differs from A's (time odds).
	BClockMs int64       `json:"b_clock_ms,omitempty"`
	SPRT     *SPRTResult `json:"sprt,omitempty"`
	OutDir   string      `json:"out_dir,omitempty"`
	ACmd     string      `json:"a_cmd"`
	BCmd     string      `json:"b_cmd"`
	// ByRole splits A's results by the seat A played: [0] as FIRST, [1] as SECOND (an
	// asymmetric game such as Catch The Mouse is two games in one).
	ByRole [2]RoleResult `json:"by_role"`
}

// RoleResult is A's record in one seat.
type RoleResult struct {
	Role   string  `json:"role"` // the game's name of the seat ("O", "R"...)
	Games  int     `json:"games"`
	AWins  int     `json:"a_wins"`
	Draws  int     `json:"draws"`
	BWins  int     `json:"b_wins"`
	AScore float64 `json:"a_score"`
}

// Add counts one game.
func (s *Summary) Add(r *Record) {
	s.Games++
	role := &s.ByRole[0]
	if !r.AFirst {
		role = &s.ByRole[1]
	}
	role.Games++
	switch r.Winner {
	case "a":
		s.AWins++
		role.AWins++
	case "b":
		s.BWins++
		role.BWins++
	default:
		s.Draws++
		role.Draws++
	}
	role.AScore = (float64(role.AWins) + float64(role.Draws)/2) / float64(role.Games)
	for _, v := range r.Verdicts {
		n := map[string]map[string]*int{
			"a": {TLE: &s.ATLE, RE: &s.ARE, Crash: &s.ACrash},
			"b": {TLE: &s.BTLE, RE: &s.BRE, Crash: &s.BCrash},
		}[v.Player][v.Kind]
		if n != nil {
			*n++
		}
	}
	e := Estimate(s.AWins, s.Draws, s.BWins)
	s.AScore, s.Elo, s.EloErr, s.EloBound = e.Score, e.Elo, e.Err, e.Bound
}

// Openings returns the specs of n games: game 2k and 2k+1 share opening k (plies random
// legal moves from the start, drawn from a generator seeded by (seed, k), never ending the
// game), A plays FIRST in the even games.
func Openings(rules Rules, n, plies int, seed uint64) []Spec {
	specs, _, err := FilteredOpenings(rules, n, plies, seed, nil)
	if err != nil {
		panic(err) // without a filter every opening is taken
	}
	return specs
}

// maxRedraws is how many openings in a row a filter may refuse before FilteredOpenings gives up.
const maxRedraws = 10000

// FilteredOpenings is Openings with a filter: with plies > 0, accept (nil: none) judges each
// opening drawn, and one it refuses is drawn again from the same generator, so the openings
// stay a function of the seed and the filter. It also returns how many openings were drawn
// again, and fails when maxRedraws are refused in a row.
func FilteredOpenings(rules Rules, n, plies int, seed uint64, accept func(State) bool) ([]Spec, int, error) {
	specs := make([]Spec, n)
	var open []Coords
	var st State
	redrawn := 0
	for i := range specs {
		k := i / 2
		if i%2 == 0 {
			r := rand.New(rand.NewPCG(seed, uint64(k)))
			for tries := 0; ; tries++ {
				if tries > maxRedraws {
					return nil, redrawn, fmt.Errorf("arena: %s: the opening filter refused %d openings of %d plies in a row", rules.Info().Name, maxRedraws, plies)
				}
				st, open = rules.Start(), []Coords{}
				for len(open) < plies && !st.Terminal() {
					c := st.RandomMove(r)
					next, err := st.Play(c)
					if err != nil {
						panic(fmt.Sprintf("arena: %s: RandomMove gave an illegal move %v: %v", rules.Info().Name, c, err))
					}
					st, open = next, append(open, c)
				}
				if st.Terminal() {
					continue
				}
				if plies > 0 && accept != nil && !accept(st) {
					redrawn++
					continue
				}
				break
			}
		}
		specs[i] = Spec{Index: i, OpeningIndex: k, Opening: open, Start: st, AFirst: i%2 == 0}
	}
	return specs, redrawn, nil
}

// Run plays cfg.Games games, cfg.Parallel at a time, writes each record to cfg.OutDir
// (when set) and calls progress (from one goroutine) after each game. It stops at the first
// referee failure (an agent that cannot be started, a record that cannot be written). When
// ctx ends, no new game starts: the games being played finish and count, and Run returns
// their summary (no summary.json) with ctx's error.
func Run(ctx context.Context, cfg Config, progress func(done int, r *Record, s *Summary)) (*Summary, error) {
	cfg.Defaults()
	if cfg.OutDir != "" {
		if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
	}
	specs, redrawn, err := FilteredOpenings(cfg.Rules, cfg.Games, cfg.Openings, cfg.Seed, cfg.AcceptOpening)
	if err != nil {
		return nil, err
	}
	if cfg.OpeningLog != nil && cfg.AcceptOpening != nil && cfg.Openings > 0 {
		fmt.Fprintf(cfg.OpeningLog, "arena: %d openings drawn again (their search scored them beyond ±%d)\n", redrawn, cfg.OpeningMax)
	}
	type result struct {
		rec *Record
		err error
	}
	jobs := make(chan Spec)
	results := make(chan result)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for range min(cfg.Parallel, max(cfg.Games, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for spec := range jobs {
				rec, err := Play(&cfg, spec)
				if err == nil && cfg.OutDir != "" {
					err = WriteJSON(filepath.Join(cfg.OutDir, fmt.Sprintf("game-%05d.json", spec.Index)), rec)
				}
				results <- result{rec, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, s := range specs {
			if ctx.Err() != nil {
				return // a select with a waiting worker could still pick the job
			}
			select {
			case jobs <- s:
			case <-quit:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	sum := &Summary{Game: cfg.Rules.Info().Name, Seed: cfg.Seed, Openings: cfg.Openings, OpeningMax: cfg.OpeningMax,
		ClockMs: cfg.Clock.Milliseconds(), OutDir: cfg.OutDir, AScore: 0.5}
	sum.ACmd, sum.BCmd = strings.Join(cfg.A, " "), strings.Join(cfg.B, " ")
	if cfg.ClockB != cfg.Clock {
		sum.BClockMs = cfg.ClockB.Milliseconds()
	}
	stopped := false
	for i, name := range cfg.Rules.Info().PlayerNames[:2] {
		sum.ByRole[i].Role = name
	}
	var firstErr error
	done := 0
	for res := range results {
		if res.err != nil {
			if firstErr == nil {
				firstErr = res.err
				if !stopped {
					stopped = true
					close(quit)
				}
			}
			continue
		}
		done++
		sum.Add(res.rec)
		if cfg.SPRT != nil {
			r := cfg.SPRT.Update(sum.SPRT, sum.AWins, sum.Draws, sum.BWins)
			sum.SPRT = &r
			if r.Verdict != "" && !stopped {
				stopped = true // no new games; those being played still count
				close(quit)
			}
		}
		if progress != nil {
			progress(done, res.rec, sum)
		}
	}
	if firstErr != nil {
		return sum, firstErr
	}
	if err := ctx.Err(); err != nil && done < len(specs) && (sum.SPRT == nil || sum.SPRT.Verdict == "") {
		return sum, fmt.Errorf("arena: stopped after %d of %d games: %w", done, len(specs), err)
	}
	if cfg.OutDir != "" {
		if err := WriteJSON(filepath.Join(cfg.OutDir, "summary.json"), sum); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// WriteJSON writes v as indented JSON to path through a temporary file and a rename.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("arena: encoding %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, append(b, '\n')); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// StderrTail returns the last n lines of an agent's captured stderr, each indented, ending
// with a newline ("" for none).
func StderrTail(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ") + "\n"
}
