package registry

import (
	"fmt"
	"io"
	"strings"
	"time"

	"colony/agentdef"
	"colony/arena"
	"colony/engine"
	"colony/game/petri"
)

// Petri Dish (docs/rules.md §4): the game package's contract, its cell programs as engines,
// and the program's protocol "cell": the driver starts the program once per action with the
// input on stdin (BEGIN, or one cell's view) and reads one line; the protocol's Serve reads
// stdin once and answers (agent -game petri [-engine colony|sample|random]).
func init() {
	type (
		pos  = petri.Position
		move = petri.Action
		eng  = engine.Engine[pos, move]
	)
	def := &agentdef.Def[pos, move]{Def: petri.Def()}
	for _, c := range petri.Cells {
		def.Engines = append(def.Engines, agentdef.EngineSpec[pos, move]{Name: c.Name, Doc: c.Doc,
			New: func(o agentdef.EngineOptions) (eng, error) { return &petriCell{c: c, seed: o.Seed}, nil }})
	}
	def.Fallback = "sample"
	def.DefaultEngine = "colony"
	def.Protocols = []agentdef.ProtocolSpec[pos, move]{{Name: "cell", Serve: servePetriCell}}
	Register(def)
	registerStdin(def.Info.Name, petriMatch)
}

// petriMatch is the referee's side of the driver (arena -game petri): a match on a w x h
// arena under the named rule reading (petri.ParseRules).
func petriMatch(w, h int, rules string) (func(begin [2]string) arena.StdinGame, string, error) {
	r, err := petri.ParseRules(rules)
	if err != nil {
		return nil, "", err
	}
	return func(begin [2]string) arena.StdinGame { return petri.NewMatch(w, h, r, begin) }, r.String(), nil
}

// inputQuiet is how long the program waits for more input once what it has read is a whole
// input but the driver has not closed stdin.
const inputQuiet = 30 * time.Millisecond

// petriCell is a cell program as an engine: its move is the acting cell's action.
type petriCell struct {
	c    petri.Cell
	seed uint64
}

func (e *petriCell) Name() string           { return e.c.Name }
func (e *petriCell) NewGame()               {}
func (e *petriCell) Species() petri.Species { return e.c.Species }
func (e *petriCell) BestMove(p petri.Position, _ engine.Limits) petri.Action {
	return e.c.Decide(p.G, e.seed)
}

// servePetriCell answers one driver invocation: the species for BEGIN, else the action of
// the cell whose view is on stdin (never an illegal one: REST instead). An engine without a
// species of its own (mcts) plays 4 8 0.
func servePetriCell(in io.Reader, out, log io.Writer, engineName string, build func() (engine.Engine[petri.Position, petri.Action], error), _ uint64) error {
	input, err := petri.ReadInput(in, inputQuiet)
	if err != nil {
		fmt.Fprintln(out, "REST")
		return err
	}
	e, err := build()
	if err != nil {
		fmt.Fprintln(out, "REST")
		return err
	}
	sp := petri.Species{HP: 4, Energy: 8}
	if s, ok := e.(interface{ Species() petri.Species }); ok {
		sp = s.Species()
	}
	if strings.TrimSpace(input) == "BEGIN" {
		_, err := fmt.Fprintln(out, sp)
		return err
	}
	v, err := petri.ParseView(input)
	if err != nil {
		fmt.Fprintln(out, "REST")
		return err
	}
	g := v.Game(petri.DriverRules, sp, sp)
	// A searching engine (mcts, mcts-rollout) gets 100 ms: the driver's budget is about
	// 200 ms per invocation, process start included.
	a := e.BestMove(petri.Position{G: g}, engine.Limits{MoveTime: 100 * time.Millisecond})
	if !g.Legal(v.X, v.Y, a) {
		fmt.Fprintf(log, "petri: engine %s answered %v, not legal here: REST\n", engineName, a)
		a = petri.Action{Kind: petri.Rest}
	}
	_, err = fmt.Fprintln(out, a)
	return err
}
