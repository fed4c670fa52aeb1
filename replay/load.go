package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"colony/arena"
	"colony/contract"
	"colony/registry"
)

// probe is what Load reads first to tell the record kinds apart.
type probe struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Game    string          `json:"game"`
	Order   json.RawMessage `json:"order"`
	Species json.RawMessage `json:"species"`
}

// Load reads one game record of any kind the arena writes and replays it. game names the
// game of a King-of-the-Hill record written before records named their game ("": refuse).
func Load(path, game string) (*Game, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	g, err := Parse(b, game)
	if err != nil {
		return nil, fmt.Errorf("replay: %s: %w", path, err)
	}
	g.File = path
	return g, nil
}

// Parse reads a game record (Load) from its bytes.
func Parse(b []byte, game string) (*Game, error) {
	var p probe
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("not a game record: %w", err)
	}
	switch {
	case p.Format == arena.RecordFormat:
		if p.Version < 1 || p.Version > arena.RecordVersion {
			return nil, fmt.Errorf("%s version %d, this build reads 1 to %d", p.Format, p.Version, arena.RecordVersion)
		}
		var r arena.Record
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, err
		}
		return fromJudge(&r)
	case p.Format == arena.ArgvFormat || (p.Format == "" && p.Order != nil):
		if p.Format == "" {
			p.Version = 1 // written before records had a format
		}
		if p.Version < 1 || p.Version > arena.ArgvVersion {
			return nil, fmt.Errorf("%s version %d, this build reads 1 to %d", arena.ArgvFormat, p.Version, arena.ArgvVersion)
		}
		var r arena.ArgvRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, err
		}
		if r.Game == "" {
			if r.Game = game; game == "" {
				return nil, errors.New("a King-of-the-Hill record of version 1 does not name its game: give it (view -game)")
			}
		}
		return fromArgv(&r)
	case p.Format == arena.StdinFormat || (p.Format == "" && p.Species != nil):
		if p.Format == "" {
			return nil, errors.New("a stdin-driver record of version 1 holds no actions: it cannot be replayed (record the game again)")
		}
		if p.Version < 2 || p.Version > arena.StdinVersion {
			return nil, fmt.Errorf("%s version %d, this build reads 2 to %d", p.Format, p.Version, arena.StdinVersion)
		}
		var r arena.StdinRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, err
		}
		return fromStdin(&r)
	case p.Format != "":
		return nil, fmt.Errorf("unknown record format %q", p.Format)
	}
	return nil, errors.New("not a game record (no format field, and not a record of an older version)")
}

// rulesOf returns the registered game's rules.
func rulesOf(name string) (contract.Rules, error) {
	g, err := registry.Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Rules(), nil
}

// fromJudge replays a judge-protocol game from its start through its moves.
func fromJudge(r *arena.Record) (*Game, error) {
	rules, err := rulesOf(r.Game)
	if err != nil {
		return nil, err
	}
	st, err := rules.Parse(r.Start)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	names := rules.Info().PlayerNames
	entries := [2]string{"A", "B"}
	cmds := [2]string{r.ACmd, r.BCmd}
	clockA, clockB := r.ClockMs, r.ClockMs
	if r.BClockMs != 0 {
		clockB = r.BClockMs
	}
	clocks := []int64{clockA, clockB}
	if !r.AFirst {
		entries, cmds = [2]string{"B", "A"}, [2]string{r.BCmd, r.ACmd}
		clocks = []int64{clockB, clockA}
	}
	g := &Game{Game: r.Game, Index: r.Index, Opening: len(r.Opening), Clocks: clocks, Base: 1, Winner: -1}
	for s := range 2 {
		g.Seats = append(g.Seats, Seat{Name: names[s], Entry: entries[s], Command: cmds[s]})
	}
	g.Title = fmt.Sprintf("%s game %d: %s (%s) vs %s (%s)", r.Game, r.Index,
		shortCommand(cmds[0]), entries[0], shortCommand(cmds[1]), entries[1])
	b := &builder{g: g}
	if err := b.start(r.Game, st); err != nil {
		return nil, err
	}
	for i, m := range r.Moves {
		mv := Move{Seat: st.ToMove(), Text: coordsText(m.Move, 1), Ms: m.Ms, Clocks: m.ClockMs[:], Info: m.Info, From: -1, To: -1}
		if m.Move != contract.PassCoords {
			mv.From, mv.To = b.cell(m.Move[0], m.Move[1], 1), b.cell(m.Move[2], m.Move[3], 1)
		}
		if st, err = b.play(st, m.Move, mv); err != nil {
			return nil, fmt.Errorf("move %d (%v): %w", i+1, m.Move, err)
		}
	}
	if err := checkFinal(st, r.Final); err != nil {
		return nil, err
	}
	for _, v := range r.Verdicts {
		seat := 0
		if (v.Player == "a") != r.AFirst {
			seat = 1
		}
		g.Verdicts = append(g.Verdicts, Verdict{Seat: seat, Kind: v.Kind, Detail: v.Detail})
	}
	switch r.Winner {
	case "a", "b":
		g.Winner = 0
		if (r.Winner == "a") != r.AFirst {
			g.Winner = 1
		}
		g.Result = fmt.Sprintf("%s (%s) wins: %s", names[g.Winner], strings.ToUpper(r.Winner), r.Outcome)
	default:
		g.Result = "draw: " + r.Outcome
	}
	return g, nil
}

// fromArgv replays a King-of-the-Hill game: each move's line as the referee played it.
func fromArgv(r *arena.ArgvRecord) (*Game, error) {
	rules, err := rulesOf(r.Game)
	if err != nil {
		return nil, err
	}
	names := rules.Info().PlayerNames
	g := &Game{Game: r.Game, Index: r.Index, Base: 0, Winner: -1, Scores: r.Scores}
	var short []string
	for s, e := range r.Order {
		cmd := ""
		if s < len(r.Players) {
			cmd = r.Players[s]
		}
		g.Seats = append(g.Seats, Seat{Name: names[s], Entry: entryName(e), Command: cmd})
		short = append(short, fmt.Sprintf("%s (%s)", shortCommand(cmd), entryName(e)))
	}
	g.Title = fmt.Sprintf("%s game %d: %s", r.Game, r.Index, strings.Join(short, ", "))
	st := rules.Start()
	b := &builder{g: g}
	if err := b.start(r.Game, st); err != nil {
		return nil, err
	}
	for i, m := range r.Moves {
		mv := Move{Seat: m.Seat, Ms: m.Ms, Info: m.Info, From: -1, To: -1, Text: "pass"}
		c := arena.PassCoords
		if !m.Pass {
			n, err := arena.ParseControllerLine(m.Line + "\n")
			if err != nil {
				return nil, fmt.Errorf("move %d (%q): %w", i+1, m.Line, err)
			}
			c = contract.Coords{n[0] + 1, n[1] + 1, n[2] + 1, n[3] + 1}
			mv.Text = coordsText(c, 0)
			mv.From, mv.To = b.cell(n[0], n[1], 0), b.cell(n[2], n[3], 0)
		} else if m.Why != "" {
			mv.Note = m.Why
		}
		var err error
		if st, err = b.play(st, c, mv); err != nil {
			return nil, fmt.Errorf("move %d (%q): %w", i+1, m.Line, err)
		}
	}
	if err := checkFinal(st, r.Final); err != nil {
		return nil, err
	}
	best, n := -1.0, 0
	for s, v := range r.Scores {
		switch {
		case v > best:
			best, n, g.Winner = v, 1, s
		case v == best:
			n++
		}
	}
	if n != 1 {
		g.Winner = -1
	}
	g.Result = r.Outcome
	return g, nil
}

// fromStdin replays a stdin-driver game (Petri Dish) through the game's referee adapter.
func fromStdin(r *arena.StdinRecord) (*Game, error) {
	variant, ok := registry.StdinDriver(r.Game)
	if !ok {
		return nil, fmt.Errorf("%q is not a stdin-driver game", r.Game)
	}
	var w, h int
	if _, err := fmt.Sscanf(r.Size, "%dx%d", &w, &h); err != nil {
		return nil, fmt.Errorf("size %q: %w", r.Size, err)
	}
	newGame, _, err := variant(w, h, r.Rules)
	if err != nil {
		return nil, err
	}
	if len(r.Species) != 2 || len(r.Players) != 2 {
		return nil, errors.New("want two species and two players")
	}
	sg := newGame([2]string{r.Species[0], r.Species[1]})
	draw := func() (contract.Picture, error) {
		if d, ok := sg.(interface{ Picture() contract.Picture }); ok {
			return d.Picture(), nil
		}
		return contract.Picture{}, fmt.Errorf("%s positions cannot be drawn", r.Game)
	}
	entries := [2]string{"A", "B"}
	if !r.AFirst {
		entries = [2]string{"B", "A"}
	}
	g := &Game{Game: r.Game, Index: r.Index, Base: 0, Winner: -1}
	for s := range 2 {
		g.Seats = append(g.Seats, Seat{Name: fmt.Sprintf("%d (%s)", s+1, r.Species[s]), Entry: entries[s], Command: r.Players[s]})
	}
	g.Title = fmt.Sprintf("%s game %d: %s (%s) vs %s (%s)", r.Game, r.Index,
		shortCommand(r.Players[0]), entries[0], shortCommand(r.Players[1]), entries[1])
	p, err := draw()
	if err != nil {
		return nil, err
	}
	g.Frames = append(g.Frames, frameOf(p, nil))
	b := &builder{g: g, cols: p.Cols}
	for i, a := range r.ActionList {
		if over, _ := sg.Over(); over {
			return nil, fmt.Errorf("action %d after the end of the game", i+1)
		}
		if seat := sg.Seat(); seat != a.Seat {
			return nil, fmt.Errorf("action %d: seat %d acts, the record says %d", i+1, seat, a.Seat)
		}
		actor := b.g.Frames[len(b.g.Frames)-1].Actor
		why := sg.Play(a.Line)
		text := strings.ToUpper(strings.TrimSpace(a.Line))
		if why != "" {
			text = "REST"
		}
		p, err := draw()
		if err != nil {
			return nil, err
		}
		b.addPicture(Move{Seat: a.Seat, Text: text, Note: why, Ms: a.Ms, From: actor, To: -1}, p)
	}
	if f := sg.Board(); r.Final != "" && f != r.Final {
		return nil, fmt.Errorf("the actions lead to %q, the record's final board is %q", f, r.Final)
	}
	switch r.Winner {
	case "A", "B":
		g.Winner = 0
		if (r.Winner == "A") != r.AFirst {
			g.Winner = 1
		}
		g.Result = fmt.Sprintf("player %d (%s) wins: %s", g.Winner+1, r.Winner, r.Outcome)
	default:
		g.Result = "draw: " + r.Outcome
	}
	for _, c := range r.Cells {
		g.Scores = append(g.Scores, float64(c))
	}
	return g, nil
}

// LoadDir reads every game record (game-*.json) of an arena run folder, in game order, and
// the run's summary.json when there is one (nil otherwise).
func LoadDir(dir, game string) ([]*Game, json.RawMessage, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "game-*.json"))
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("replay: no game records (game-*.json) in %s", dir)
	}
	sort.Slice(paths, func(i, j int) bool { return recordIndex(paths[i]) < recordIndex(paths[j]) })
	if game == "" {
		game = summaryGame(dir)
	}
	var out []*Game
	for _, p := range paths {
		g, err := Load(p, game)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, g)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		if !os.IsNotExist(err) {
			return nil, nil, err
		}
		sum = nil
	}
	return out, sum, nil
}

// recordIndex is the number in a record's file name (game-00012.json: 12).
func recordIndex(path string) int {
	base := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "game-"), ".json")
	n, _ := strconv.Atoi(base)
	return n
}

// summaryGame is the game named by a run's summary.json ("" when none).
func summaryGame(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return ""
	}
	var s struct {
		Game string `json:"game"`
	}
	_ = json.Unmarshal(b, &s)
	return s.Game
}
