package arena

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// ReadRecords reads the game records (game-*.json) of a run's -out directory, in index order.
// A file of another format, a newer version or another game than the first is an error.
func ReadRecords(dir string) ([]*Record, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "game-*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no game records (game-*.json)", dir)
	}
	recs := make([]*Record, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		r := new(Record)
		if err := json.Unmarshal(b, r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		switch {
		case r.Format != RecordFormat:
			return nil, fmt.Errorf("%s: format %q, want %q", p, r.Format, RecordFormat)
		case r.Version < 1 || r.Version > RecordVersion:
			return nil, fmt.Errorf("%s: record version %d, this build reads 1 to %d", p, r.Version, RecordVersion)
		case len(recs) > 0 && r.Game != recs[0].Game:
			return nil, fmt.Errorf("%s: game %q, the directory's first record is %q", p, r.Game, recs[0].Game)
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Index < recs[j].Index })
	return recs, nil
}

// Paired compares two runs of the same games: the same game, seed, openings and colours, and
// the same opponent B, with two different A agents (X and Y). Where both agents are
// deterministic (fixed nodes a move), a game's result differs between the runs only where
// X's and Y's moves differ, so the comparison counts those games instead of setting two
// independent scores side by side.
type Paired struct {
	Games            int     // games played in both runs
	ScoreX, ScoreY   float64 // A's points over those games in X's run and in Y's
	XBetter, YBetter int     // games where X's A scored more, and where Y's did
	// Z is (XBetter - YBetter) / sqrt(XBetter + YBetter): the sign test's normal score
	// (|Z| > 1.96: the two agents differ against B at 95%).
	Z float64
}

// EloX and EloY are each run's Elo against B over the paired games.
func (p Paired) EloX() float64 { return EloFromScore(clampScore(p.ScoreX / float64(p.Games))) }
func (p Paired) EloY() float64 { return EloFromScore(clampScore(p.ScoreY / float64(p.Games))) }

// clampScore keeps a score off 0 and 1, where the Elo is infinite.
func clampScore(s float64) float64 { return math.Min(math.Max(s, 1e-3), 1-1e-3) }

// Add pairs the games of x and y by index and adds them. A game found in one run only is
// skipped; a pair that is not the same game (its game, seed, start or colours differ) is an
// error, so runs of other seeds or openings are never compared.
func (p *Paired) Add(x, y []*Record) error {
	byIndex := make(map[int]*Record, len(y))
	for _, r := range y {
		byIndex[r.Index] = r
	}
	before := p.Games
	for _, a := range x {
		b, ok := byIndex[a.Index]
		if !ok {
			continue
		}
		if a.Game != b.Game || a.Seed != b.Seed || a.Start != b.Start || a.AFirst != b.AFirst {
			return fmt.Errorf("game %d is not the same game in both runs (game %s/%s, seed %d/%d, start %q/%q, A first %v/%v)",
				a.Index, a.Game, b.Game, a.Seed, b.Seed, a.Start, b.Start, a.AFirst, b.AFirst)
		}
		p.Games++
		p.ScoreX += a.AScore
		p.ScoreY += b.AScore
		switch {
		case a.AScore > b.AScore:
			p.XBetter++
		case a.AScore < b.AScore:
			p.YBetter++
		}
	}
	if p.Games == before {
		return fmt.Errorf("the runs have no game index in common")
	}
	p.Z = 0
	if d := p.XBetter + p.YBetter; d > 0 {
		p.Z = float64(p.XBetter-p.YBetter) / math.Sqrt(float64(d))
	}
	return nil
}

// Replay plays r again under rules from its start position: visit sees the state before each
// recorded move (ply 0 is the start), and Replay returns the state after the last one. It
// fails when the record is of another game, its start does not parse, or a move is illegal.
func (r *Record) Replay(rules Rules, visit func(ply int, s State) error) (State, error) {
	if g := rules.Info().Name; r.Game != g {
		return nil, fmt.Errorf("record %d is a game of %q, not %q", r.Index, r.Game, g)
	}
	s, err := rules.Parse(r.Start)
	if err != nil {
		return nil, fmt.Errorf("record %d: start: %w", r.Index, err)
	}
	for ply, m := range r.Moves {
		if visit != nil {
			if err := visit(ply, s); err != nil {
				return nil, err
			}
		}
		if s, err = s.Play(m.Move); err != nil {
			return nil, fmt.Errorf("record %d: move %d (%v): %w", r.Index, ply, m.Move, err)
		}
	}
	return s, nil
}
