// Package web is the play page's engine side: what the page (web/static/play.js) asks of a
// game, with no types of the game's own, for every game the page offers. The page never
// knows a rule: the position, its legal moves, the engine's search and the game record all
// come from here, compiled to WebAssembly (web/wasm) from the same game and engine packages
// as the native agent; the page only draws and clicks.
//
// A position is always given as a start board (the game's notation; "" for the standard
// start) and the moves played from it in judge coordinates, so that the page may ask any
// instance (the page's own for the rules, the Web Worker's for the search) about any
// position without either keeping a game.
package web

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"colony/contract"
	"colony/engine"
	"colony/judge"
)

// GameInfo is what the page's menus show of a game.
type GameInfo struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Players []string `json:"players"` // seat names, FIRST first
	Roles   []string `json:"roles"`   // what each seat is, for people
	Engine  string   `json:"engine"`  // the engine's registry name
	Net     string   `json:"net"`     // the net it plays with ("" until SetNet)
	Rows    int      `json:"rows"`
	Cols    int      `json:"cols"`
}

// Pair is a click pair that plays a legal move: the cell of the piece and its destination
// (row-major cell indices) and the judge coordinates the page sends back.
type Pair struct {
	From   int             `json:"from"`
	To     int             `json:"to"`
	Coords contract.Coords `json:"coords"`
}

// MoveView is a move played, as the page lists it.
type MoveView struct {
	Seat   int             `json:"seat"`
	Coords contract.Coords `json:"coords"`
	Text   string          `json:"text"`
	From   int             `json:"from"` // -1 for a pass
	To     int             `json:"to"`
}

// View is a position for the page: the picture, whose turn, the result when it is over, the
// legal moves as click pairs, and the moves that led there.
type View struct {
	Game     string     `json:"game"`
	Rows     int        `json:"rows"`
	Cols     int        `json:"cols"`
	Cells    string     `json:"cells"` // the game's letters, row-major; '.' empty
	Owner    []int8     `json:"owner"`
	Counts   []int      `json:"counts"`
	ToMove   int        `json:"toMove"` // -1 once over
	Terminal bool       `json:"terminal"`
	Outcome  string     `json:"outcome,omitempty"`
	Winner   int        `json:"winner"` // -1: none (or a draw)
	Board    string     `json:"board"`  // the position in the game's notation
	Start    string     `json:"start"`  // the start board
	Legal    []Pair     `json:"legal"`
	Pass     bool       `json:"pass"` // the side to move must pass: its only move
	Moves    []MoveView `json:"moves"`
	Flipped  []int      `json:"flipped"` // cells whose owner the last move changed
}

// Request is what a search is asked: the position (Start, Moves), the budget (Nodes a move,
// or MoveMs milliseconds; neither: a second) and whether to forget the
// previous game first (the engine keeps its tables from move to move as the agent does).
type Request struct {
	Game     string            `json:"game"`
	Start    string            `json:"start"`
	Moves    []contract.Coords `json:"moves"`
	Nodes    int64             `json:"nodes"`
	MoveMs   int64             `json:"moveMs"`
	NewGame  bool              `json:"newGame"`
	Analysis bool              `json:"analysis"`
}

// Info is the engine's account while it thinks (after each iteration) and of its choice:
// a score (alpha-beta: hundredths of a piece) or a value (mcts: [-1, 1]) for the side to
// move, the depth, the nodes (mcts: playouts), the best line.
type Info struct {
	Mover  int     `json:"mover"`
	HasAB  bool    `json:"hasAB"`
	Score  int32   `json:"score"`
	Value  float64 `json:"value"`
	Proven int     `json:"proven"`
	Depth  int     `json:"depth"`
	Nodes  int64   `json:"nodes"`
	Visits int     `json:"visits,omitempty"`
	Ms     int64   `json:"ms"`
	// Bar is the mover's expected result in [-1, 1] (alpha-beta scores through
	// tanh(score/400), as the replay viewer draws them; proven results ±1).
	Bar    float64           `json:"bar"`
	PV     []string          `json:"pv"`
	PVMove []contract.Coords `json:"pvCoords"`
	Final  bool              `json:"final"`
}

// Result is a search's move and its account (Judge: the record's info of the move).
type Result struct {
	Move  MoveView    `json:"move"`
	Info  Info        `json:"info"`
	Judge *judge.Info `json:"judge,omitempty"`
}

// Game is one game of the page, type-free.
type Game interface {
	Info() GameInfo
	// SetNet gives the engine its net: the bytes of the model file.
	SetNet(name string, data []byte) error
	// View replays moves from start and shows the position reached.
	View(start string, moves []contract.Coords) (*View, error)
	// Search runs the engine on the request's position; info gets each iteration.
	Search(r Request, info func(Info)) (*Result, error)
	// Record writes the game as the arena's record (MakeRecord).
	Record(r RecordRequest) ([]byte, error)
}

var games = map[string]Game{}

// add registers a game of the page.
func add(g Game) { games[g.Info().Name] = g }

// Games lists the page's games by name.
func Games() []GameInfo {
	var out []GameInfo
	for _, g := range games {
		out = append(out, g.Info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the named game of the page.
func Lookup(name string) (Game, error) {
	if g, ok := games[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("web: no game %q on the page", name)
}

// page is a game with the game's types: its contract and its engine.
type page[P contract.Position[P, M], M contract.Move] struct {
	def   *contract.Def[P, M]
	info  GameInfo
	build func(net []byte) (engine.Engine[P, M], error)
	// setInfo gives an alpha-beta engine its iteration callback; nil for mcts (searched in
	// steps instead).
	setInfo func(e engine.Engine[P, M], f func(engine.Iteration[M]))
	// pv is the best line of an engine without iterations (mcts), nil otherwise.
	pv func(e engine.Engine[P, M], max int) []M

	net     []byte
	eng     engine.Engine[P, M]
	engGame int // games started on eng
}

func (g *page[P, M]) Info() GameInfo { return g.info }

func (g *page[P, M]) SetNet(name string, data []byte) error {
	e, err := g.build(data)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", g.info.Name, name, err)
	}
	g.net, g.eng, g.info.Net = data, e, name
	return nil
}

// replay plays moves from start; it returns the positions (start first) and the moves.
func (g *page[P, M]) replay(start string, moves []contract.Coords) ([]P, []M, error) {
	p := g.def.Start()
	if start != "" {
		var err error
		if p, err = g.def.ParseBoard(start); err != nil {
			return nil, nil, fmt.Errorf("start: %w", err)
		}
	}
	ps, ms := []P{p}, []M{}
	for i, c := range moves {
		if p.Terminal() {
			return nil, nil, fmt.Errorf("move %d (%v): the game is over", i+1, c)
		}
		m, err := g.def.Judge.Move(p, c)
		if err != nil {
			return nil, nil, fmt.Errorf("move %d (%v): %w", i+1, c, err)
		}
		p = p.Apply(m)
		ps, ms = append(ps, p), append(ms, m)
	}
	return ps, ms, nil
}

// cell is the row-major index of judge (row, col), 1-based; -1 off the board.
func (g *page[P, M]) cell(r, c int) int {
	if r < 1 || c < 1 || r > g.info.Rows || c > g.info.Cols {
		return -1
	}
	return (r-1)*g.info.Cols + c - 1
}

func (g *page[P, M]) moveView(p P, m M) MoveView {
	c := g.def.Judge.Coords(p, m)
	mv := MoveView{Seat: p.ToMove(), Coords: c, Text: m.String(), From: -1, To: -1}
	if c != contract.PassCoords {
		mv.From, mv.To = g.cell(c[0], c[1]), g.cell(c[2], c[3])
	}
	return mv
}

func (g *page[P, M]) View(start string, moves []contract.Coords) (*View, error) {
	ps, ms, err := g.replay(start, moves)
	if err != nil {
		return nil, err
	}
	p := ps[len(ps)-1]
	pic := g.def.Picture(p)
	v := &View{Game: g.info.Name, Rows: pic.Rows, Cols: pic.Cols, Cells: pic.Cells, Owner: pic.Owner, Counts: pic.Counts,
		ToMove: pic.ToMove, Terminal: p.Terminal(), Winner: -1, Board: p.String(), Start: ps[0].String(),
		Legal: []Pair{}, Moves: []MoveView{}, Flipped: []int{}}
	for i, m := range ms {
		v.Moves = append(v.Moves, g.moveView(ps[i], m))
	}
	if len(ps) > 1 {
		prev := g.def.Picture(ps[len(ps)-2])
		for i := range pic.Owner {
			if prev.Owner[i] >= 0 && pic.Owner[i] >= 0 && prev.Owner[i] != pic.Owner[i] {
				v.Flipped = append(v.Flipped, i)
			}
		}
	}
	if v.Terminal {
		v.Outcome = g.def.Outcome(p)
		v.Winner = contract.WinnerOf(p.Values(), p.NumPlayers())
		return v, nil
	}
	legal := p.LegalMoves(nil)
	tos := map[int]bool{}
	for _, m := range legal {
		mv := g.moveView(p, m)
		if mv.From < 0 {
			v.Pass = true
			continue
		}
		v.Legal = append(v.Legal, Pair{From: mv.From, To: mv.To, Coords: mv.Coords})
		tos[mv.To] = true
	}
	// Other pieces that play the same move (an Ataxx copy from any neighbour): the judge's
	// notation accepts them, so a click on any of them works.
	seen := map[[2]int]bool{}
	for _, pr := range v.Legal {
		seen[[2]int{pr.From, pr.To}] = true
	}
	for f := range pic.Owner {
		if int(pic.Owner[f]) != p.ToMove() {
			continue
		}
		for t := range tos {
			if seen[[2]int{f, t}] {
				continue
			}
			c := contract.Coords{f/pic.Cols + 1, f%pic.Cols + 1, t/pic.Cols + 1, t%pic.Cols + 1}
			if _, err := g.def.Judge.Move(p, c); err == nil {
				v.Legal = append(v.Legal, Pair{From: f, To: t, Coords: c})
				seen[[2]int{f, t}] = true
			}
		}
	}
	sort.Slice(v.Legal, func(i, j int) bool {
		a, b := v.Legal[i], v.Legal[j]
		return a.From < b.From || a.From == b.From && a.To < b.To
	})
	return v, nil
}

// bar is the mover's expected result drawn from an alpha-beta score or a value.
func (in *Info) setBar() {
	switch {
	case in.Proven != 0:
		in.Bar = float64(in.Proven)
	case in.HasAB:
		in.Bar = math.Tanh(float64(in.Score) / 400)
	default:
		in.Bar = in.Value
	}
}

func (g *page[P, M]) line(p P, pv []M) ([]string, []contract.Coords) {
	texts, coords := []string{}, []contract.Coords{}
	for _, m := range pv {
		if p.Terminal() {
			break
		}
		texts, coords = append(texts, m.String()), append(coords, g.def.Judge.Coords(p, m))
		p = p.Apply(m)
	}
	return texts, coords
}

// errNoEngine is a search before SetNet.
var errNoEngine = errors.New("the engine has no net yet")

func (g *page[P, M]) Search(r Request, report func(Info)) (*Result, error) {
	if g.eng == nil {
		return nil, fmt.Errorf("%s: %w", g.info.Name, errNoEngine)
	}
	ps, _, err := g.replay(r.Start, r.Moves)
	if err != nil {
		return nil, err
	}
	p := ps[len(ps)-1]
	if p.Terminal() {
		return nil, errors.New("the game is over")
	}
	if r.NewGame {
		g.eng.NewGame()
		g.engGame++
	}
	lim := engine.Limits{Nodes: r.Nodes}
	switch {
	case r.Nodes > 0:
	case r.MoveMs > 0:
		lim.MoveTime = time.Duration(r.MoveMs) * time.Millisecond
	default:
		lim.MoveTime = time.Second
	}
	start := time.Now()
	var last Info
	if g.setInfo != nil {
		g.setInfo(g.eng, func(it engine.Iteration[M]) {
			in := Info{Mover: p.ToMove(), HasAB: true, Score: it.Score, Depth: it.Depth, Nodes: it.Nodes, Ms: it.Elapsed.Milliseconds()}
			in.PV, in.PVMove = g.line(p, it.PV)
			in.setBar()
			last = in
			if report != nil {
				report(in)
			}
		})
		defer g.setInfo(g.eng, nil)
	}
	var m M
	if g.setInfo == nil && r.Analysis && report != nil {
		m = g.searchInSteps(p, lim, start, report)
	} else {
		m = g.eng.BestMove(p, lim)
	}
	res := &Result{Move: g.moveView(p, m)}
	in := Info{Mover: p.ToMove(), Ms: time.Since(start).Milliseconds(), Final: true}
	if rep, ok := engine.ReportOf(g.eng); ok {
		in.HasAB, in.Score, in.Value, in.Proven, in.Depth, in.Nodes, in.Visits = rep.HasAB, rep.Score, rep.Value, rep.Proven, rep.Depth, rep.Nodes, rep.Visits
		ji := judge.InfoOf(0, rep)
		res.Judge = &ji
	}
	switch {
	case g.pv != nil:
		in.PV, in.PVMove = g.line(p, g.pv(g.eng, 12))
	case len(last.PV) > 0:
		in.PV, in.PVMove = last.PV, last.PVMove
	}
	if len(in.PV) == 0 || in.PVMove[0] != res.Move.Coords {
		in.PV, in.PVMove = g.line(p, []M{m})
	}
	in.setBar()
	res.Info = in
	return res, nil
}

// searchInSteps runs an engine without iterations (mcts) in steps of playouts on the same
// tree, reporting after each, until the request's budget is spent (analysis only: a move
// played by the engine is one search, as the agent's).
func (g *page[P, M]) searchInSteps(p P, lim engine.Limits, start time.Time, report func(Info)) M {
	var m M
	step, done := int64(64), int64(0)
	for {
		n := step
		if lim.Nodes > 0 {
			n = min(step, lim.Nodes-done)
		}
		m = g.eng.BestMove(p, engine.Limits{Nodes: n})
		done += n
		in := Info{Mover: p.ToMove(), Nodes: done, Ms: time.Since(start).Milliseconds()}
		if rep, ok := engine.ReportOf(g.eng); ok {
			in.Value, in.Proven, in.Depth, in.Visits = rep.Value, rep.Proven, rep.Depth, rep.Visits
			if rep.Proven != 0 {
				in.PV, in.PVMove = g.line(p, []M{m})
				in.setBar()
				report(in)
				return m
			}
		}
		in.PV, in.PVMove = g.line(p, g.pv(g.eng, 12))
		in.setBar()
		report(in)
		if lim.Nodes > 0 && done >= lim.Nodes || lim.Nodes <= 0 && time.Since(start) >= lim.MoveTime {
			return m
		}
	}
}
