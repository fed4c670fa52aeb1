// Package pipeline is Colony's AlphaZero generation cycle as a library, for any registered
// game (a registry.Game): self-play with the best model (Game.SelfPlay) -> train a candidate
// on the replay window (train.Run) -> gate the candidate against the best (arena.Run, agent
// processes at the real clock; arena.RunArgv for a game played a process per move, scored by
// average score over every seat order: see gateArgv) -> promote it into the models directory
// when it scores at least Config.Promote. A resumed run keeps the configuration recorded in its config.json
// (edit that file to change it).
//
// Everything a run makes lives in its run directory:
//
//	config.json      the run's configuration (recorded when the run is created)
//	state.json       the generation in progress, its stage, the best model, the Elo history
//	init.model       the first best model, when it was a random net (Config.Init random:BxC)
//	shards/          every generation's self-play shards (and Config.ExtraShards, copied)
//	elo.png          the best model's Elo after each generation
//	report.html      the run's training report (loss, Elo, gates, provenance; see Report)
//	gen-NNNN/        selfplay.log, train.log, train.ckpt, candidate.model, loss.csv,
//	                 loss.png, gate.log, gate.json and arena/ (the gating games' records)
//
// Killed at any moment, a run opened again resumes at the stage it was in (training from its
// checkpoint; a finished gate is not replayed). The models directory (by default
// models/<game>, embedded into the agent at build time) is written only when a candidate is
// promoted: the candidate as the next NNNNNN.model, its loss curve as NNNNNN-loss.png and a
// copy of elo.png.
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"colony/arena"
	"colony/contract"
	"colony/internal/atomicfile"
	"colony/internal/gitrev"
	"colony/nn"
	"colony/replay/report"
	"colony/selfplay"
	"colony/train"
)

// Game is what the cycle needs of a game; a registry.Game is one (registry.Lookup), so that
// this package links no game itself.
type Game interface {
	Info() contract.Info
	Symmetries() contract.Symmetries
	// Rules is the referee's view of the game (the gate).
	Rules() contract.Rules
	// SelfPlay plays PUCT self-play games with model and writes shards into dir.
	SelfPlay(ctx context.Context, cfg selfplay.Config, model *nn.Model, dir string) (selfplay.Stats, error)
}

// Stages of a generation, in order.
const (
	StageSelfPlay = "selfplay"
	StageTrain    = "train"
	StageGate     = "gate"
)

// Config configures a run. It is recorded in config.json when the run is created; a run that
// is opened again keeps its recorded configuration.
type Config struct {
	Game   string `json:"game"`   // the game's name (set by Open)
	Models string `json:"models"` // where promoted models go ("": models/<game>)
	Agent  string `json:"agent"`  // the agent binary the gate runs ("": bin/agent; see Open)
	// Init is the first best model of a new run: a model file, random:BxC for an untrained
	// net, or "" for the newest model in Models.
	Init string `json:"init,omitempty"`

	SelfPlayGames int `json:"selfplay_games"` // self-play games per generation
	Playouts      int `json:"playouts"`       // playouts of a full self-play search
	FastPlayouts  int `json:"fast_playouts"`  // playouts of a fast self-play search (0: off)
	Workers       int `json:"workers"`        // self-play workers

	TrainSteps int     `json:"train_steps"` // training steps per generation
	Batch      int     `json:"batch"`
	LR         float64 `json:"lr"`
	Window     int     `json:"window"` // replay window (examples)

	GateGames    int           `json:"gate_games"` // even: each opening with both colours
	GateClock    time.Duration `json:"-"`          // each side's clock for the whole game
	GateParallel int           `json:"gate_parallel"`
	GateOpenings int           `json:"gate_openings"` // random opening plies of the gating games
	Promote      float64       `json:"promote"`       // promote at this score or more (above 1: never)

	Seed        uint64 `json:"seed"`
	ExtraShards string `json:"extra_shards,omitempty"` // shards copied into the run's at its start

	// NNUE, when set, makes the run an NNUE generation cycle (see NNUEConfig); Models is then
	// models/<game>/nnue by default and Init a .nnue file.
	NNUE *NNUEConfig `json:"nnue,omitempty"`

	GitRevision   string `json:"git_revision,omitempty"`
	StartedAtUnix int64  `json:"started_unix"`
}

// DefaultConfig returns the defaults (for the game named by Open).
func DefaultConfig() Config {
	return Config{
		SelfPlayGames: 200, Playouts: 200, FastPlayouts: 50, Workers: 2,
		TrainSteps: 1000, Batch: 256, LR: 1e-3, Window: 300_000,
		GateGames: 40, GateClock: 10 * time.Second, GateParallel: 2, GateOpenings: 4, Promote: 0.55,
		Seed: 1,
	}
}

// DefaultNNUEConfig is DefaultConfig with the NNUE cycle (DefaultNNUE) and the training and
// promotion settings every shipped NNUE generation was made with: 30,000 steps of 1,024
// examples at a learning rate of 1e-3 over a window of 20 M examples, promoted at a confirm
// score of 0.5 (the SPRT has decided by then; the confirm match only guards against a loss at
// the clock). DefaultConfig's 256-example batches and 300,000-example window are the convnet's.
func DefaultNNUEConfig() Config {
	c := DefaultConfig()
	c.TrainSteps, c.Batch, c.LR, c.Window, c.Promote = 30_000, 1024, 1e-3, 20_000_000, 0.5
	c.NNUE = DefaultNNUE()
	return c
}

// MarshalJSON writes c with the gate clock spelled as a duration ("10s").
func (c Config) MarshalJSON() ([]byte, error) {
	type plain Config // without the methods
	return json.Marshal(struct {
		plain
		GateClock string `json:"gate_clock"`
	}{plain(c), c.GateClock.String()})
}

// UnmarshalJSON reads what MarshalJSON writes; absent fields keep their values.
func (c *Config) UnmarshalJSON(b []byte) error {
	type plain Config
	var v struct {
		plain
		GateClock string `json:"gate_clock"`
	}
	v.plain = plain(*c)
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Config(v.plain)
	if v.GateClock != "" {
		d, err := time.ParseDuration(v.GateClock)
		if err != nil {
			return fmt.Errorf("gate_clock: %w", err)
		}
		c.GateClock = d
	}
	return nil
}

func (c *Config) check() error {
	switch {
	case c.SelfPlayGames < 1 || c.Playouts < 1 || c.FastPlayouts < 0 || c.Workers < 1:
		return errors.New("pipeline: self-play needs games, playouts and workers >= 1 (fast playouts >= 0)")
	case c.TrainSteps < 0 || c.Batch < 2 || !(c.LR > 0) || c.Window < 1:
		return errors.New("pipeline: training needs steps >= 0, batch >= 2, a positive learning rate and window")
	case c.GateGames < 1 || c.GateClock <= 0 || c.GateParallel < 1 || c.GateOpenings < 0:
		return errors.New("pipeline: the gate needs games, a clock and parallel games > 0 (openings >= 0)")
	}
	return nil
}

// GenResult is one gated generation.
type GenResult struct {
	Generation      int     `json:"generation"`
	Candidate       string  `json:"candidate"`
	CandidateSHA256 string  `json:"candidate_sha256,omitempty"`
	Games           int     `json:"games,omitempty"`
	Score           float64 `json:"score"` // the candidate's
	EloDiff         float64 `json:"elo_diff"`
	EloErr          float64 `json:"elo_err"`
	Verdicts        int     `json:"verdicts,omitempty"` // the candidate's TLE, RE and crash verdicts
	Promoted        bool    `json:"promoted"`
	Model           string  `json:"model,omitempty"` // the promoted file
	Elo             float64 `json:"elo"`             // Elo of the best model after this generation
	// NNUE is an NNUE candidate's gates (Games and Score are then its last gate's).
	NNUE *NNUEGate `json:"nnue,omitempty"`
}

// record takes a match's figures into r (the candidate is A) and adds its verdicts.
func (r *GenResult) record(sum *arena.Summary) {
	r.Games, r.Score, r.EloDiff, r.EloErr = sum.Games, sum.AScore, sum.Elo, sum.EloErr
	r.Verdicts += sum.ATLE + sum.ARE + sum.ACrash
}

// State says where a run stands.
type State struct {
	Generation int         `json:"generation"` // the generation in progress (1-based)
	Stage      string      `json:"stage"`      // StageSelfPlay, StageTrain or StageGate
	Best       string      `json:"best"`       // path of the best model
	BestElo    float64     `json:"best_elo"`
	History    []GenResult `json:"history"`
}

// Cycle is an open run directory.
type Cycle struct {
	dir  string
	game Game
	cfg  Config
	kind kind // chosen by cfg.NNUE (fill)
	st   State
	logw io.Writer
	lg   *log.Logger
}

// kind is what a stage of the cycle does that depends on the kind of net the run trains:
// the AlphaZero convnet (convnetKind, convnet.go) or the NNUE net (nnueKind, nnue.go). The
// cycle holds one, picked once from Config.NNUE; it keeps the stages' order, their logs, the
// run's state and a gate's record, and the kind does the work.
type kind interface {
	// first returns the first best model of a new run (Config.Init, or the newest in
	// Config.Models), checked.
	first() (string, error)
	// selfPlay writes the generation's data into the run's shards, logging to w.
	selfPlay(ctx context.Context, w io.Writer) error
	// train trains the generation's candidate, logging to w.
	train(ctx context.Context, w io.Writer) error
	// candidate reads the generation's candidate and returns its file and SHA-256.
	candidate() (file, sha string, err error)
	// adopt checks a model trained elsewhere and copies it (with what goes with it) into the
	// generation's directory as its candidate (Cycle.GateOnly).
	adopt(candidate string) error
	// gate plays the candidate (res.Candidate) against the best, logging to w, into res.
	gate(ctx context.Context, w io.Writer, res *GenResult) error
	// promote writes the promoted candidate into Config.Models and returns its file.
	promote(res *GenResult) (string, error)
	// report adds the kind's own part to the run's report.
	report(r *report.Report) error
}

// LoadState reads the state of the run in dir.
func LoadState(dir string) (*State, error) {
	var st State
	if err := readJSON(filepath.Join(dir, "state.json"), &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Open creates the run directory dir for game g with cfg, or opens the run it holds, which
// keeps its recorded configuration: of cfg only a non-empty Agent is used then. Progress goes to logw (nil: none),
// and each stage's also to its log file in the generation's directory.
func Open(dir string, g Game, cfg Config, logw io.Writer) (*Cycle, error) {
	if logw == nil {
		logw = io.Discard
	}
	c := &Cycle{dir: dir, game: g, logw: logw, lg: log.New(logw, "", log.Ltime)}
	name := g.Info().Name
	st, err := LoadState(dir)
	switch {
	case err == nil:
		c.st = *st
		c.cfg = DefaultConfig()
		if err := readJSON(filepath.Join(dir, "config.json"), &c.cfg); err != nil {
			return nil, err
		}
		if c.cfg.Game == "" {
			c.cfg.Game = name // recorded before runs named their game
		}
		if c.cfg.Game != name {
			return nil, fmt.Errorf("pipeline: run %s is a run of %s, not %s", dir, c.cfg.Game, name)
		}
		if cfg.Agent != "" {
			c.cfg.Agent = cfg.Agent // where the binary is belongs to the machine, not the run
		}
		c.fill()
		c.lg.Printf("run %s resumed at generation %d, stage %s (with its recorded configuration)", dir, c.st.Generation, c.st.Stage)
	case errors.Is(err, os.ErrNotExist):
		cfg.Game = name
		c.cfg = cfg
		c.fill()
		if err := c.cfg.check(); err != nil {
			return nil, err
		}
		if err := c.create(); err != nil {
			return nil, err
		}
		c.lg.Printf("run %s created for %s, best model %s", dir, name, c.st.Best)
	default:
		return nil, err
	}
	if err := os.MkdirAll(c.shards(), 0o755); err != nil {
		return nil, err
	}
	return c, nil
}

// fill picks the cycle's kind (Config.NNUE) and fills in the defaults the configuration
// leaves out.
func (c *Cycle) fill() {
	models := filepath.Join("models", c.cfg.Game)
	c.kind = convnetKind{c}
	if n := c.cfg.NNUE; n != nil {
		c.kind, models = nnueKind{c, n}, filepath.Join(models, "nnue")
	}
	if c.cfg.Models == "" {
		c.cfg.Models = models
	}
	if c.cfg.Agent == "" {
		c.cfg.Agent = filepath.Join("bin", "agent")
	}
}

// Config returns the run's configuration.
func (c *Cycle) Config() Config { return c.cfg }

// State returns where the run stands.
func (c *Cycle) State() State { return c.st }

func (c *Cycle) shards() string { return filepath.Join(c.dir, "shards") }

func (c *Cycle) genDir() string {
	return filepath.Join(c.dir, fmt.Sprintf("gen-%04d", c.st.Generation))
}

// seed is the current generation's seed.
func (c *Cycle) seed() uint64 { return c.cfg.Seed*1000 + uint64(c.st.Generation) }

// create makes a new run: the first best model, the extra shards, config.json and state.json.
func (c *Cycle) create() error {
	if err := os.MkdirAll(c.shards(), 0o755); err != nil {
		return err
	}
	best, err := c.kind.first()
	if err != nil {
		return err
	}
	c.cfg.StartedAtUnix = time.Now().Unix()
	c.cfg.GitRevision = gitrev.Short()
	if c.cfg.ExtraShards != "" {
		if err := copyShards(c.cfg.ExtraShards, c.shards()); err != nil {
			return err
		}
	}
	if err := arena.WriteJSON(filepath.Join(c.dir, "config.json"), c.cfg); err != nil {
		return err
	}
	c.st = State{Generation: 1, Stage: StageSelfPlay, Best: best}
	return c.save(StageSelfPlay)
}

// afterSave, when set (by tests), is called after each state.json write.
var afterSave func(st State)

// save records the stage in state.json.
func (c *Cycle) save(stage string) error {
	c.st.Stage = stage
	if err := arena.WriteJSON(filepath.Join(c.dir, "state.json"), c.st); err != nil {
		return err
	}
	if afterSave != nil {
		afterSave(c.st)
	}
	return nil
}

// Run plays n generations (the first from the stage it is in) and returns their results.
func (c *Cycle) Run(ctx context.Context, n int) ([]GenResult, error) {
	return generations(ctx, n, c.Generation)
}

// generations calls gen n times and collects the results until an error.
func generations(ctx context.Context, n int, gen func(context.Context) (*GenResult, error)) ([]GenResult, error) {
	var out []GenResult
	for range n {
		res, err := gen(ctx)
		if err != nil {
			return out, err
		}
		out = append(out, *res)
	}
	return out, nil
}

// Generation finishes the generation in progress from the stage it is in: self-play, train,
// gate, promote. On an error (or ctx cancelled) the run stays at the failed stage and a later
// call resumes it.
func (c *Cycle) Generation(ctx context.Context) (*GenResult, error) {
	if err := os.MkdirAll(c.genDir(), 0o755); err != nil {
		return nil, fmt.Errorf("generation %d, stage %s: %w", c.st.Generation, c.st.Stage, err)
	}
	return generation{n: c.st.Generation, stage: &c.st.Stage, state: filepath.Join(c.dir, "state.json"), save: c.save,
		steps: []step{{StageSelfPlay, StageTrain, c.selfPlay}, {StageTrain, StageGate, c.train}},
		last:  StageGate, finish: c.gateAndPromote}.run(ctx)
}

// step is a stage of a generation: run, then the run is recorded at stage next.
type step struct {
	stage, next string
	run         func(context.Context) error
}

// generation is one generation of a cycle (Cycle, StoreCycle) as stages run in order from the
// one recorded (*stage): each step whose stage it is runs and saves its next stage; the last
// stage's finish gates or promotes and moves on to the next generation. On an error the run
// stays at the failed stage, named in the error.
type generation struct {
	n      int
	stage  *string
	state  string // where the stage is recorded, for the error of an unknown one
	save   func(stage string) error
	steps  []step
	last   string // the stage that finish ends
	finish func(context.Context) (*GenResult, error)
}

func (g generation) run(ctx context.Context) (*GenResult, error) {
	wrap := func(err error) error { return fmt.Errorf("generation %d, stage %s: %w", g.n, *g.stage, err) }
	for _, s := range g.steps {
		if *g.stage != s.stage {
			continue
		}
		if err := s.run(ctx); err != nil {
			return nil, wrap(err)
		}
		if err := g.save(s.next); err != nil {
			return nil, wrap(err)
		}
	}
	if *g.stage != g.last {
		return nil, wrap(fmt.Errorf("unknown stage %q in %s", *g.stage, g.state))
	}
	res, err := g.finish(ctx)
	if err != nil {
		return nil, wrap(err)
	}
	return res, nil
}

// GateOnly gates a model trained elsewhere as the candidate of the generation in progress (no
// self-play or training), then promotes it or not like any candidate. The generation must not
// have started (stage selfplay). The model is the run's kind: a convnet's .model, or with
// Config.NNUE a .nnue net (nnueKind.adopt: its training log and window manifest beside it go
// with it).
func (c *Cycle) GateOnly(ctx context.Context, candidate string) (*GenResult, error) {
	if c.st.Stage != StageSelfPlay {
		return nil, fmt.Errorf("pipeline: gate-only: generation %d is in its %s stage: finish it first", c.st.Generation, c.st.Stage)
	}
	if err := os.MkdirAll(c.genDir(), 0o755); err != nil {
		return nil, err
	}
	if err := c.kind.adopt(candidate); err != nil {
		return nil, err
	}
	c.lg.Printf("generation %d: gating %s", c.st.Generation, candidate)
	if err := c.save(StageGate); err != nil {
		return nil, err
	}
	return c.Generation(ctx)
}

// stageLog opens the stage's log file in the generation's directory and returns a writer to
// it and to the cycle's log.
func (c *Cycle) stageLog(name string) (io.Writer, func(), error) {
	f, err := os.OpenFile(filepath.Join(c.genDir(), name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(f, "# %s generation %d\n", time.Now().Format(time.RFC3339), c.st.Generation)
	return io.MultiWriter(f, c.logw), func() { f.Close() }, nil
}

// stopped is the error of a stage that ran under ctx (ctx's own when the stage returned none),
// prefixed with what; nil when the stage ran to its end.
func stopped(ctx context.Context, what string, err error) error {
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func (c *Cycle) selfPlay(ctx context.Context) error {
	w, done, err := c.stageLog("selfplay.log")
	if err != nil {
		return err
	}
	defer done()
	return c.kind.selfPlay(ctx, w)
}

func (c *Cycle) train(ctx context.Context) error {
	w, done, err := c.stageLog("train.log")
	if err != nil {
		return err
	}
	defer done()
	return c.kind.train(ctx, w)
}

// gate plays the candidate (A) against the best model (B), each an agent process, or reads
// the result of a gate of the same candidate that finished before the run was stopped.
func (c *Cycle) gate(ctx context.Context) (GenResult, error) {
	cand, sha, err := c.kind.candidate()
	if err != nil {
		return GenResult{}, err
	}
	res := GenResult{Generation: c.st.Generation, Candidate: cand, CandidateSHA256: sha}
	if prev, ok := c.finishedGate(res); ok {
		return prev, nil
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	w, done, err := c.gateLog()
	if err != nil {
		return res, err
	}
	defer done()
	if err := c.kind.gate(ctx, w, &res); err != nil {
		return res, err
	}
	return res, arena.WriteJSON(filepath.Join(c.genDir(), "gate.json"), res)
}

// finishedGate returns the gate of the same candidate that finished before the run was
// stopped, if any.
func (c *Cycle) finishedGate(res GenResult) (GenResult, bool) {
	saved := filepath.Join(c.genDir(), "gate.json")
	var prev GenResult
	if err := readJSON(saved, &prev); err == nil && prev.CandidateSHA256 == res.CandidateSHA256 && prev.Generation == res.Generation {
		c.lg.Printf("generation %d: gate already played (%s)", res.Generation, saved)
		return prev, true
	}
	return GenResult{}, false
}

// gateLog checks that the agent binary is there and opens the gate's log.
func (c *Cycle) gateLog() (io.Writer, func(), error) {
	if _, err := exec.LookPath(c.cfg.Agent); err != nil {
		return nil, nil, fmt.Errorf("the gate needs the agent binary: %w (build it with make build, or give its path: loop -agent, Config.Agent)", err)
	}
	return c.stageLog("gate.log")
}

// play plays one judge-protocol gating match (the candidate is A) with its progress on w.
func (c *Cycle) play(ctx context.Context, w io.Writer, what string, ac arena.Config) (*arena.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "%s: %d games at %v: A %s\n      B %s\n", what, ac.Games, ac.Clock, strings.Join(ac.A, " "), strings.Join(ac.B, " "))
	sum, err := arena.Run(ctx, ac, func(done int, r *arena.Record, s *arena.Summary) {
		fmt.Fprintf(w, "%s: [%d/%d] candidate %d-%d-%d (%.1f%%) game %d: %s (%s)\n",
			what, done, ac.Games, s.AWins, s.Draws, s.BWins, 100*s.AScore, r.Index, r.Winner, r.Outcome)
		for _, v := range r.Verdicts {
			fmt.Fprintf(w, "%s:   %s %s (%s)\n%s", what, v.Player, v.Kind, v.Detail, arena.StderrTail(r.Stderr[v.Player], 8))
		}
	})
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	if sum.Games == 0 {
		return nil, errors.New("arena played no game")
	}
	return sum, nil
}

// gateAndPromote gates the candidate, promotes it when it passed, records the generation and
// moves on to the next one.
func (c *Cycle) gateAndPromote(ctx context.Context) (*GenResult, error) {
	res, err := c.gate(ctx)
	if err != nil {
		return nil, err
	}
	if res.Promoted {
		name, err := c.kind.promote(&res)
		if err != nil {
			return nil, err
		}
		res.Model = name
		c.st.Best = name
		c.st.BestElo += res.EloDiff
		// The candidate's loss curve goes with it (NNNNNN-loss.png), when it was trained here.
		if loss := filepath.Join(c.genDir(), "loss.png"); fileExists(loss) {
			if err := copyFile(loss, strings.TrimSuffix(name, ".model")+"-loss.png"); err != nil {
				return nil, err
			}
		}
	}
	res.Elo = c.st.BestElo
	c.st.History = append(c.st.History, res)
	plot := filepath.Join(c.dir, "elo.png")
	if err := c.plotElo(plot); err != nil {
		c.lg.Printf("elo plot: %v", err)
	} else if res.Promoted {
		if err := copyFile(plot, filepath.Join(c.cfg.Models, "elo.png")); err != nil {
			return nil, err
		}
	}
	if err := c.writeReport(); err != nil {
		c.lg.Printf("report: %v", err)
	}
	verdict := "rejected"
	if res.Promoted {
		verdict = "promoted to " + res.Model
	}
	c.lg.Printf("generation %d: candidate scored %.1f%% in %d games (%+.0f ± %.0f Elo, %d verdicts): %s",
		res.Generation, 100*res.Score, res.Games, res.EloDiff, res.EloErr, res.Verdicts, verdict)
	c.st.Generation++
	if err := c.save(StageSelfPlay); err != nil {
		return nil, err
	}
	return &res, nil
}

func (c *Cycle) plotElo(path string) error {
	gens, elo := []int{0}, []float64{0}
	for _, h := range c.st.History {
		gens = append(gens, h.Generation)
		elo = append(elo, h.Elo)
	}
	return train.PlotElo(path, gens, elo)
}

// promote copies the candidate into the models directory under the next generation number,
// or returns the file that already holds the same bytes (a promotion redone after a stop).
func promote(dir, cand, ext string) (string, error) {
	b, err := os.ReadFile(cand)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	next := 1
	for _, n := range names {
		var k int
		if _, err := fmt.Sscanf(filepath.Base(n), "%06d"+ext, &k); err != nil {
			continue
		}
		next = max(next, k+1)
		if have, err := os.ReadFile(n); err == nil && bytes.Equal(have, b) {
			return n, nil
		}
	}
	dst := filepath.Join(dir, fmt.Sprintf("%06d", next)+ext)
	return dst, atomicfile.WriteFile(dst, b)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(dst, b)
}

func copyShards(src, dst string) error {
	names, err := filepath.Glob(filepath.Join(src, "*.shard"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("pipeline: no shards in %s", src)
	}
	for _, n := range names {
		if err := copyFile(n, filepath.Join(dst, filepath.Base(n))); err != nil {
			return err
		}
	}
	return nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
