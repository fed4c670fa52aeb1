package web

import (
	"encoding/json"
	"fmt"
	"time"

	"colony/arena"
	"colony/contract"
	"colony/judge"
)

// RecordRequest is a game of the page to save: the position's start and moves, the seat of
// the human (player "a" of the record; the engine is "b"), the engine's words for the record's
// command, each move's thinking time and each engine move's account.
type RecordRequest struct {
	Game      string            `json:"game"`
	Start     string            `json:"start"`
	Moves     []contract.Coords `json:"moves"`
	Human     int               `json:"human"`
	Engine    string            `json:"engine"`
	Ms        []float64         `json:"ms"`
	Infos     []*judge.Info     `json:"infos"`
	StartedAt time.Time         `json:"startedAt"`
}

// Record writes the game as the arena writes a judge-protocol game (arena.Record, its format
// and version), so that view shows it and arena reads it: A is the human, B the engine.
func (g *page[P, M]) Record(r RecordRequest) ([]byte, error) {
	if r.Human != 0 && r.Human != 1 {
		return nil, fmt.Errorf("the human's seat is %d, want 0 or 1", r.Human)
	}
	ps, _, err := g.replay(r.Start, r.Moves)
	if err != nil {
		return nil, err
	}
	names := g.def.Info.PlayerNames
	rec := &arena.Record{
		Format: arena.RecordFormat, Version: arena.RecordVersion, Game: g.info.Name,
		Opening: []arena.Coords{}, Start: ps[0].String(), AFirst: r.Human == 0,
		ACmd: "human (play page)", BCmd: r.Engine + " (play page, WebAssembly)",
		PeakRSSMB: map[string]float64{}, Moves: []arena.MoveRecord{}, Verdicts: []arena.Verdict{},
		Exit: map[string]string{}, StartedAt: r.StartedAt.UTC(),
	}
	engineMoves := 0
	for i, c := range r.Moves {
		p := ps[i]
		m, err := g.def.Judge.Move(p, c)
		if err != nil {
			return nil, err
		}
		seat := p.ToMove()
		mr := arena.MoveRecord{Player: "a", Side: names[seat], Move: g.def.Judge.Coords(p, m)}
		if seat != r.Human {
			mr.Player = "b"
			engineMoves++
			if i < len(r.Infos) && r.Infos[i] != nil {
				in := *r.Infos[i]
				in.Move = engineMoves
				mr.Info = &in
			}
		}
		if i < len(r.Ms) {
			mr.Ms = r.Ms[i]
		}
		rec.Moves = append(rec.Moves, mr)
	}
	last := ps[len(ps)-1]
	rec.Final = last.String()
	switch w := contract.WinnerOf(last.Values(), last.NumPlayers()); {
	case !last.Terminal():
		rec.Outcome, rec.Winner, rec.AScore = "not finished: saved during the game", "", 0.5
	case w < 0:
		rec.Outcome, rec.Winner, rec.AScore = g.def.Outcome(last), "draw", 0.5
	case w == r.Human:
		rec.Outcome, rec.Winner, rec.AScore = g.def.Outcome(last), "a", 1
	default:
		rec.Outcome, rec.Winner, rec.AScore = g.def.Outcome(last), "b", 0
	}
	if !r.StartedAt.IsZero() {
		rec.DurationMs = time.Since(r.StartedAt).Milliseconds()
	}
	return json.MarshalIndent(rec, "", "  ")
}

// Loaded is a game record read for the page: its game, start and moves (judge coordinates),
// each move's account where the record has one, and a title.
type Loaded struct {
	Game  string            `json:"game"`
	Start string            `json:"start"`
	Moves []contract.Coords `json:"moves"`
	Infos []*judge.Info     `json:"infos"`
	Title string            `json:"title"`
}

// ReadRecord reads an arena game record (arena.Record of a version this build reads) of a
// game on the page and replays it: an illegal move, or moves that do not end in the record's
// final position, are errors.
func ReadRecord(data []byte) (*Loaded, error) {
	var rec arena.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("not a game record: %w", err)
	}
	switch {
	case rec.Format != arena.RecordFormat:
		return nil, fmt.Errorf("record format %q: the page reads %q (Bacteria War, Catch The Mouse)", rec.Format, arena.RecordFormat)
	case rec.Version < 1 || rec.Version > arena.RecordVersion:
		return nil, fmt.Errorf("%s version %d: this build reads 1 to %d", rec.Format, rec.Version, arena.RecordVersion)
	}
	g, err := Lookup(rec.Game)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Game: rec.Game, Start: rec.Start, Moves: []contract.Coords{}, Infos: []*judge.Info{},
		Title: fmt.Sprintf("%s: %s vs %s", rec.Game, rec.ACmd, rec.BCmd)}
	if !rec.AFirst {
		l.Title = fmt.Sprintf("%s: %s vs %s", rec.Game, rec.BCmd, rec.ACmd)
	}
	for _, m := range rec.Moves {
		l.Moves = append(l.Moves, m.Move)
		l.Infos = append(l.Infos, m.Info)
	}
	v, err := g.View(rec.Start, l.Moves)
	if err != nil {
		return nil, err
	}
	if rec.Final != "" && v.Board != rec.Final {
		return nil, fmt.Errorf("the moves lead to %q, the record's final position is %q", v.Board, rec.Final)
	}
	return l, nil
}
