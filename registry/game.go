package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"sync"
	"time"

	"colony/agentdef"
	"colony/arena"
	"colony/contract"
	"colony/engine"
	"colony/engine/mctsengine"
	"colony/engine/random"
	"colony/judge"
	"colony/mcts"
	"colony/models"
	"colony/nn"
	"colony/nn/nnue"
	"colony/selfplay"
)

// mctsBatch is the number of leaves the agent's search evaluates per network call: batch 8
// is where the forward pass is most efficient per position on one core.
const mctsBatch = 8

// untrained is the trunk of the network "mcts" plays with when a game ships no model yet.
const untrainedBlocks, untrainedChannels = 4, 32

// game is a registered Def with the generic pipeline instantiated for its types.
type game[P contract.Position[P, M], M contract.Move] struct {
	def     *agentdef.Def[P, M]
	engines map[string]agentdef.EngineSpec[P, M]
	// loaded caches the models read by loadModel, by -model path ("": the embedded best):
	// the agent's check at start and the engine built after it read the file once (Slime's
	// program is started for every move, and its model is most of that start).
	mu     sync.Mutex
	loaded map[string]loadedModel
}

type loadedModel struct {
	m    *nn.Model
	name string
}

func newGame[P contract.Position[P, M], M contract.Move](def *agentdef.Def[P, M]) *game[P, M] {
	g := &game[P, M]{def: def, engines: map[string]agentdef.EngineSpec[P, M]{}}
	g.engines["random"] = agentdef.EngineSpec[P, M]{Name: "random", Doc: "a uniformly random legal move",
		New: func(o agentdef.EngineOptions) (engine.Engine[P, M], error) { return random.New[P, M](o.Seed), nil }}
	mctsFlags := []string{"model", "cpuct", "playouts"}
	if def.Scorer != nil {
		mctsFlags = append(mctsFlags, "value-blend", "value-depth", "value-scale")
	}
	if def.Finisher != "" && def.Phase != nil {
		mctsFlags = append(mctsFlags, "endgame")
	}
	if def.Prover != nil {
		mctsFlags = append(mctsFlags, "prove")
	}
	g.engines["mcts"] = agentdef.EngineSpec[P, M]{Name: "mcts", Doc: "PUCT search over the game's newest embedded network (or -model)",
		Flags: mctsFlags, New: g.newMCTS, Check: g.checkModel}
	g.engines["mcts-rollout"] = agentdef.EngineSpec[P, M]{Name: "mcts-rollout", Doc: "PUCT search with random-rollout leaf values (no network)",
		Flags: []string{"cpuct", "playouts"}, New: g.newRolloutMCTS}
	for _, e := range def.Engines {
		g.engines[e.Name] = e
	}
	return g
}

func (g *game[P, M]) Info() contract.Info             { return g.def.Info }
func (g *game[P, M]) Symmetries() contract.Symmetries { return g.def.Syms() }
func (g *game[P, M]) Rules() contract.Rules           { return contract.NewRules(g.def.Def) }
func (g *game[P, M]) DefaultEngine() string {
	if g.def.DefaultEngine != "" {
		return g.def.DefaultEngine
	}
	return "mcts"
}
func (g *game[P, M]) Defaults() agentdef.EngineOptions { return g.def.Defaults }

func (g *game[P, M]) Engines() []EngineInfo {
	var out []EngineInfo
	for _, e := range g.engines {
		out = append(out, EngineInfo{Name: e.Name, Doc: e.Doc, Flags: slices.Clone(e.Flags), NNUE: e.NNUE})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (g *game[P, M]) NNUEArch(hidden, l1 int) (nnue.Arch, error) {
	if g.def.NNUEArch == nil {
		return nnue.Arch{}, fmt.Errorf("%s has no nnue evaluator", g.def.Info.Name)
	}
	return g.def.NNUEArch(hidden, l1), nil
}

// judged reports whether the game is played over the judge protocol: a judge notation and
// two players (a game of more players may still have a notation, for the in-process referee).
func (g *game[P, M]) judged() bool { return g.def.Judge != nil && g.def.Info.Players() == 2 }

func (g *game[P, M]) Protocols() []string {
	var out []string
	if g.judged() {
		out = append(out, "judge")
	}
	for _, p := range g.def.Protocols {
		out = append(out, p.Name)
	}
	return out
}

// engine returns the named engine's spec.
func (g *game[P, M]) engine(name string) (agentdef.EngineSpec[P, M], error) {
	e, ok := g.engines[name]
	if !ok {
		var names []string
		for n := range g.engines {
			names = append(names, n)
		}
		sort.Strings(names)
		return e, fmt.Errorf("%s: unknown engine %q (known: %v)", g.def.Info.Name, name, names)
	}
	return e, nil
}

func (g *game[P, M]) CheckEngine(name string, set []string, o agentdef.EngineOptions) error {
	e, err := g.engine(name)
	if err != nil {
		return err
	}
	for _, f := range set {
		if !slices.Contains(e.Flags, f) {
			return fmt.Errorf("engine %s of %s does not use -%s (it reads: %v)", name, g.def.Info.Name, f, e.Flags)
		}
	}
	if e.Check != nil {
		return e.Check(o)
	}
	return nil
}

// build constructs the named engine.
func (g *game[P, M]) build(name string, o agentdef.EngineOptions) (engine.Engine[P, M], error) {
	e, err := g.engine(name)
	if err != nil {
		return nil, err
	}
	eng, err := e.New(o)
	if err == nil && eng == nil {
		err = errors.New("the constructor returned no engine")
	}
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	if o.Book != nil {
		if g.def.Judge == nil {
			return nil, fmt.Errorf("%s has no judge notation for an opening book", g.def.Info.Name)
		}
		if o.Book.Game != g.def.Info.Name {
			return nil, fmt.Errorf("the opening book is for %s, not %s", o.Book.Game, g.def.Info.Name)
		}
		eng = &bookEngine[P, M]{Engine: eng, book: o.Book, judge: g.def.Judge}
	}
	return eng, nil
}

// bookEngine answers from an opening book while the game is in it, else asks its engine.
type bookEngine[P contract.Position[P, M], M contract.Move] struct {
	engine.Engine[P, M]
	book   *contract.Book
	judge  *contract.Judge[P, M]
	hits   int
	inBook bool // the last move came from the book
}

// Report is the engine's account of the last move, none for a book move.
func (b *bookEngine[P, M]) Report() (engine.Report, bool) {
	if b.inBook {
		return engine.Report{}, false
	}
	return engine.ReportOf(b.Engine)
}

func (b *bookEngine[P, M]) BestMove(p P, lim engine.Limits) M {
	if c, ok := b.book.Moves[p.String()]; ok {
		if m, err := b.judge.Move(p, c); err == nil {
			b.hits++
			b.inBook = true
			return m
		}
	}
	b.inBook = false
	return b.Engine.BestMove(p, lim)
}

func (g *game[P, M]) BuildBook(engineName string, o agentdef.EngineOptions, lim engine.Limits, plies int, progress func(done int, pos, move string)) (*contract.Book, error) {
	o.Book = nil
	e, err := g.build(engineName, o)
	if err != nil {
		return nil, err
	}
	search := func(p P) M {
		e.NewGame()
		return e.BestMove(p, lim)
	}
	var report func(int, P, M)
	if progress != nil {
		report = func(done int, p P, m M) { progress(done, p.String(), m.String()) }
	}
	return contract.BuildBook(g.def.Def, plies, search, report)
}

// fallback is the cheap engine that answers while the chosen one is not there.
func (g *game[P, M]) fallback(seed uint64) engine.Engine[P, M] {
	if g.def.Fallback != "" {
		if e, err := g.build(g.def.Fallback, agentdef.EngineOptions{Seed: seed}); err == nil {
			return e
		}
	}
	return random.New[P, M](seed)
}

func (g *game[P, M]) Serve(protocol, engineName string, o agentdef.EngineOptions, in io.Reader, out, log io.Writer) error {
	if _, err := g.engine(engineName); err != nil {
		return err
	}
	factory := func() (engine.Engine[P, M], error) { return g.build(engineName, o) }
	if protocol == "judge" && g.judged() {
		s, err := judge.NewSession(g.def.Def, in, out, log, factory, g.fallback(o.Seed^0xFA11BAC4))
		if err != nil {
			return err
		}
		s.NodeClock = o.NodeClock
		return s.Run()
	}
	if o.NodeClock > 0 {
		return fmt.Errorf("-node-clock: %s's %s protocol has no node clock (the judge protocol has)", g.def.Info.Name, protocol)
	}
	for _, p := range g.def.Protocols {
		if p.Name == protocol {
			if p.Serve == nil {
				return fmt.Errorf("%s: protocol %s takes the position as command-line arguments", g.def.Info.Name, protocol)
			}
			return p.Serve(in, out, log, engineName, factory, o.Seed)
		}
	}
	return fmt.Errorf("%s: unknown protocol %q (known: %v)", g.def.Info.Name, protocol, g.Protocols())
}

func (g *game[P, M]) ArgvProtocol() string {
	for _, p := range g.def.Protocols {
		if p.Argv != nil {
			return p.Name
		}
	}
	return ""
}

func (g *game[P, M]) ServeArgs(protocol, engineName string, o agentdef.EngineOptions, args []string, out, log io.Writer) error {
	if _, err := g.engine(engineName); err != nil {
		return err
	}
	if protocol == "" {
		protocol = g.ArgvProtocol()
	}
	for _, p := range g.def.Protocols {
		if p.Name == protocol && p.Argv != nil {
			return p.Argv(args, out, log, engineName, func() (engine.Engine[P, M], error) { return g.build(engineName, o) }, o.Seed)
		}
	}
	return fmt.Errorf("%s: protocol %q does not read the position from command-line arguments", g.def.Info.Name, protocol)
}

// Bench runs the game's speed benchmark (agentdef.Def.Bench) into w.
func (g *game[P, M]) Bench(w io.Writer) error {
	if g.def.Bench == nil {
		return fmt.Errorf("%s has no benchmark", g.def.Info.Name)
	}
	return g.def.Bench(w)
}

func (g *game[P, M]) Perft(board string, depth int) (uint64, error) {
	p := g.def.Start()
	if board != "" {
		var err error
		if p, err = g.def.ParseBoard(board); err != nil {
			return 0, err
		}
	}
	return g.def.CountPaths(p, depth), nil
}

// loadModel reads the model of o (or the embedded best); with none given and none embedded it
// warns on stderr and returns an untrained network.
func (g *game[P, M]) loadModel(o agentdef.EngineOptions) (*nn.Model, string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if l, ok := g.loaded[o.Model]; ok {
		return l.m, l.name, nil
	}
	m, name, err := models.Load(g.def.Info, o.Model)
	if err == nil {
		if g.loaded == nil {
			g.loaded = map[string]loadedModel{}
		}
		g.loaded[o.Model] = loadedModel{m, name}
	}
	if errors.Is(err, models.ErrNoModel) {
		fmt.Fprintf(os.Stderr, "agent: mcts: no model file given and none embedded for %s: running with an UNTRAINED %dx%d network\n",
			g.def.Info.Name, untrainedBlocks, untrainedChannels)
		return nn.NewRandom(nn.ArchFor(g.def.Info, untrainedBlocks, untrainedChannels), o.Seed), "untrained", nil
	}
	return m, name, err
}

func (g *game[P, M]) checkModel(o agentdef.EngineOptions) error {
	if o.BlendWeight > 0 && g.def.Scorer == nil {
		return fmt.Errorf("%s has no second opinion for -value-blend", g.def.Info.Name)
	}
	_, _, err := g.loadModel(o)
	return err
}

// searchOptions are the mcts engine options of the agent for this game.
// The game's prover, when it has one and o.ProverShare > 0, runs in front of the search.
func (g *game[P, M]) searchOptions(o agentdef.EngineOptions) mctsengine.Options[P, M] {
	so := mctsengine.Options[P, M]{BatchSize: mctsBatch, Seed: o.Seed, CPuct: float32(o.CPuct), MaxPlayouts: o.Playouts,
		MovesLeft: g.def.MovesLeftAt, CapLeft: g.def.CapLeftAt}
	if g.def.Prover != nil && o.ProverShare > 0 {
		so.Prover, so.ProverShare = g.def.Prover(), o.ProverShare
	}
	return so
}

// newMCTS builds "mcts": PUCT over the network of o.Model, or the embedded best model, with
// the game's value blend and endgame handoff when asked for.
func (g *game[P, M]) newMCTS(o agentdef.EngineOptions) (engine.Engine[P, M], error) {
	m, name, err := g.loadModel(o)
	if err != nil {
		return nil, err
	}
	net, err := nn.NewNet(m, mctsBatch)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", name, err)
	}
	var eval mcts.Evaluator[P, M] = nn.NewEvaluator[P, M](net)
	if o.BlendWeight > 0 {
		if g.def.Scorer == nil {
			return nil, fmt.Errorf("%s has no second opinion for -value-blend", g.def.Info.Name)
		}
		eval = &mctsengine.ValueBlend[P, M]{Inner: eval, Weight: float32(o.BlendWeight), Score: g.def.Scorer(o.BlendDepth, o.BlendScale)}
	}
	e := mctsengine.New(eval, g.searchOptions(o))
	if o.Endgame <= 0 || g.def.Finisher == "" || g.def.Phase == nil {
		return e, nil
	}
	finish, err := g.build(g.def.Finisher, agentdef.EngineOptions{Seed: o.Seed})
	if err != nil {
		return nil, err
	}
	phase, threshold := g.def.Phase, o.Endgame
	return mctsengine.WithEndgame[P, M](e, finish, func(p P) bool { return phase(p) <= threshold }), nil
}

// newRolloutMCTS builds "mcts-rollout": PUCT with random-rollout leaf values, no network.
func (g *game[P, M]) newRolloutMCTS(o agentdef.EngineOptions) (engine.Engine[P, M], error) {
	eval := mctsengine.NewRollout[P, M](o.Seed, 0, g.def.HeuristicAt)
	return renamed[P, M]{mctsengine.New(eval, g.searchOptions(o)), "mcts-rollout"}, nil
}

// renamed gives an engine the name it is registered under.
type renamed[P, M any] struct {
	engine.Engine[P, M]
	name string
}

func (r renamed[P, M]) Name() string { return r.name }

// Report is the engine's account of its last move.
func (r renamed[P, M]) Report() (engine.Report, bool) { return engine.ReportOf(r.Engine) }

func (g *game[P, M]) selfplayGame() selfplay.Game[P] {
	return selfplay.Game[P]{Info: g.def.Info, Start: g.def.Start}
}

func (g *game[P, M]) SelfPlay(ctx context.Context, cfg selfplay.Config, model *nn.Model, dir string) (selfplay.Stats, error) {
	if err := model.CheckFor(g.def.Info); err != nil {
		return selfplay.Stats{}, err
	}
	perWorker := cfg.GamesPerWorker
	if perWorker <= 0 {
		perWorker = 8
	}
	maxBatch := max(cfg.Search.BatchSize, 1) * perWorker
	return selfplay.Run(ctx, g.selfplayGame(), cfg, dir, func(int) (mcts.Evaluator[P, M], error) {
		net, err := nn.NewNet(model, maxBatch)
		if err != nil {
			return nil, err
		}
		return nn.NewEvaluator[P, M](net), nil
	})
}

func (g *game[P, M]) Bootstrap(ctx context.Context, bc selfplay.BootstrapConfig, engineName string, o agentdef.EngineOptions, dir string) (selfplay.Stats, error) {
	if _, err := g.build(engineName, o); err != nil {
		return selfplay.Stats{}, err
	}
	return selfplay.RunBootstrap(ctx, g.selfplayGame(), bc, dir, func(seed uint64) engine.Engine[P, M] {
		oo := o
		oo.Seed = seed
		e, err := g.build(engineName, oo)
		if err != nil {
			panic(err) // built once above with the same options
		}
		return e
	})
}

func (g *game[P, M]) OpeningFilter(bound int32) (func(contract.State) bool, error) {
	search := g.def.OpeningSearch
	if search.Engine == "" {
		return nil, fmt.Errorf("%s has no opening search to score openings with", g.def.Info.Name)
	}
	e, err := g.build(search.Engine, search.Options)
	if err != nil {
		return nil, err
	}
	if _, ok := engine.SearchScore(e, g.def.Start(), search.Limits); !ok {
		return nil, fmt.Errorf("%s: the opening search %s gives no search score", g.def.Info.Name, search.Engine)
	}
	return func(st contract.State) bool {
		p, ok := contract.PositionOf[P, M](st)
		if !ok {
			panic(fmt.Sprintf("registry: %s: an opening of another game (%T)", g.def.Info.Name, st))
		}
		score, _ := engine.SearchScore(e, p, search.Limits)
		return !engine.OpeningDecided(score, bound)
	}, nil
}

func (g *game[P, M]) NewPlayer(engineName string, o agentdef.EngineOptions) (arena.Player, error) {
	if g.def.Judge == nil {
		return nil, fmt.Errorf("%s has no move notation for the referee", g.def.Info.Name)
	}
	e, err := g.build(engineName, o)
	if err != nil {
		return nil, err
	}
	return &player[P, M]{g: g, e: e}, nil
}

// player is an engine seated by the in-process referee.
type player[P contract.Position[P, M], M contract.Move] struct {
	g *game[P, M]
	e engine.Engine[P, M]
}

func (pl *player[P, M]) Name() string { return pl.e.Name() }
func (pl *player[P, M]) NewGame(int)  { pl.e.NewGame() }

func (pl *player[P, M]) Move(s contract.State, clock time.Duration) (contract.Coords, error) {
	p, ok := contract.PositionOf[P, M](s)
	if !ok {
		return contract.Coords{}, fmt.Errorf("a position of another game: %T", s)
	}
	m := pl.e.BestMove(p, engine.Limits{MyTime: clock})
	return pl.g.def.Judge.Coords(p, m), nil
}
