package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"time"

	"colony/agentdef"
	"colony/arena"
	"colony/contract"
	"colony/data"
	"colony/ingest"
	"colony/internal/atomicfile"
	"colony/store"
)

// The generation cycle on a store (StoreCycle): the run's state, nets, candidates, gate
// results and promotions live in a store, so a trainer can restart on any machine and resume.
// Self-play is not part of it: workers (cluster.Worker, the Kubernetes Indexed Job) put shards
// under shards/ with the net from best.model (best.nnue). The kind of net (storeKind: the
// convnet of the PUCT cycle, or an NNUE net with StoreConfig.NNUE) decides the extension EXT
// (.model, .nnue), the training and the gate. Keys under the run's root:
//
//	config.json                 the run's StoreConfig (recorded when the run is created)
//	state.json                  StoreState: generation, stage, best net, accepted nets, counts
//	ingested/gen-NNNN.json      the shards each generation took (keys and content hashes)
//	bestEXT                     the current best net, what workers play with
//	nets/<sha>EXT               every net that was best or a candidate, by SHA-256
//	shards/<net>/<worker>/<seq>.zst   the workers' shards (ingest.Key)
//	shards/quarantine/...       rejected shards, each with a .reason
//	checkpoints/gen-NNNN.ckpt   the training checkpoint of the generation in progress (NNUE: .nnue)
//	candidates/gen-NNNNEXT      each generation's candidate
//	gates/gen-NNNN.json         each gate's GenResult
//	gate/...                    the NNUE run's distributed gate (gate.go)
//	promotions/gen-NNNN.json    each promotion's GenResult
//	provenance.tsv              NNUE: the best nets' provenance (ReadProvenance)
//	loss/gen-NNNN.csv           NNUE: each candidate's training loss
//	report.html                 NNUE: the run's training report

// StoreStateVersion is the version of state.json a StoreCycle writes and reads (2: the
// ingested shards moved out into ingested/gen-NNNN.json, so state.json stays small).
const StoreStateVersion = 2

// Stages of a StoreCycle generation.
const (
	StageIngest  = "ingest-train" // ingest new shards, train a candidate
	StagePromote = "promote"
)

// StoreGame is what the store cycle needs of a game (a registry.Game is one).
type StoreGame interface {
	Info() contract.Info
	Symmetries() contract.Symmetries
	Rules() contract.Rules
	NewPlayer(engineName string, o agentdef.EngineOptions) (arena.Player, error)
	ReplayMoves(moves []int32, want func(ply int) bool, visit func(ply int, input []float32) error) error
}

// StoreConfig configures a run on a store.
type StoreConfig struct {
	Game string `json:"game"`
	// Init is the first best net of a new run: a model file or random:BxC.
	Init   string   `json:"init"`
	Engine string   `json:"engine"`           // the engine workers play with (default mcts)
	Accept []string `json:"accept,omitempty"` // more net SHA-256s whose shards are taken

	MinShards  int           `json:"min_shards"` // new accepted shards a generation waits for (default 1)
	Wait       time.Duration `json:"-"`          // how long it waits for them (default 1 h)
	TrainSteps int           `json:"train_steps"`
	Batch      int           `json:"batch"`
	LR         float64       `json:"lr"`
	Window     int           `json:"window"`

	GateGames    int     `json:"gate_games"`    // in-process games, seats alternating
	GatePlayouts int     `json:"gate_playouts"` // playouts per move of both sides
	Promote      float64 `json:"promote"`       // promote at this score (0..1) or more
	Seed         uint64  `json:"seed"`
	// KeepBest is how many of the latest best nets have their shards taken (default 2): the
	// accepted nets are a window, not every net that was ever best.
	KeepBest int `json:"keep_best"`
	// NNUE, when set, makes the run an NNUE cycle (store_nnue.go): Init is a .nnue file,
	// random:LANES or "" for the newest embedded net, and the gate is a distributed SPRT.
	NNUE *StoreNNUE `json:"nnue,omitempty"`
}

// DefaultStoreConfig returns the defaults.
func DefaultStoreConfig() StoreConfig {
	return StoreConfig{Engine: "mcts", MinShards: 1, Wait: time.Hour, TrainSteps: 1000, Batch: 256, LR: 1e-3,
		Window: 300_000, GateGames: 40, GatePlayouts: 200, Promote: 0.55, Seed: 1, KeepBest: 2}
}

// StoreState is state.json: a summary that grows with the generations, not the shards (their
// keys are in ingested/gen-NNNN.json).
type StoreState struct {
	Version    int    `json:"version"`
	Game       string `json:"game"`
	Generation int    `json:"generation"`
	Stage      string `json:"stage"`
	BestSHA    string `json:"best_sha256"` // nets/<sha>EXT
	// Accepted are the nets whose shards are taken: the latest StoreConfig.KeepBest bests.
	Accepted    []string `json:"accepted_nets"`
	Shards      int      `json:"shards"`     // shards taken into training, all generations
	GenShards   int      `json:"gen_shards"` // of them, this generation's
	GenExamples int64    `json:"gen_examples"`
	Duplicates  int      `json:"duplicates"` // keys whose bytes were taken before under another key
	Rejected    int      `json:"rejected"`
	// TrainSeconds is the training time of this generation's candidate (its provenance).
	TrainSeconds float64     `json:"train_seconds,omitempty"`
	History      []GenResult `json:"history"`
}

// StoreCycle is an open run on a store.
type StoreCycle struct {
	st   store.Store
	game StoreGame
	cfg  StoreConfig
	kind storeKind
	s    StoreState
	work string // local working directory: the shard cache, nets, checkpoints
	logw io.Writer
	lg   *log.Logger

	taken *taken // the shards taken (ingested/), read once
}

// storeKind is what a StoreCycle does that depends on the kind of net it trains: the
// convnet (storeConvnet) or an NNUE net (storeNNUE). The cycle keeps the stages, the state,
// the ingest and the store's keys; the kind does the work.
type storeKind interface {
	// ext is the nets' file extension (".model", ".nnue").
	ext() string
	// initial writes the first best net of a new run (StoreConfig.Init) to path.
	initial(ctx context.Context, path string) error
	// sha loads the net file at path, checked for the game, and returns its SHA-256.
	sha(path string) (string, error)
	// created is called once the run's first best net (its SHA-256) is in the store.
	created(ctx context.Context, sha string) error
	// train trains the generation's candidate from the best net's file into out.
	train(ctx context.Context, best, out string) error
	// gate plays the candidate (its file and SHA-256) against the best net's file.
	gate(ctx context.Context, cand, candSHA, best string) (GenResult, error)
	// promoted records a promotion (res) before the candidate becomes the best net.
	promoted(ctx context.Context, res *GenResult) error
}

func (c *StoreCycle) netKey(sha string) string { return "nets/" + sha + c.kind.ext() }

// BestKey is the key of a run's best net: best.model, or best.nnue for an NNUE run.
func BestKey(nnue bool) string {
	if nnue {
		return "best" + nnueExt
	}
	return "best" + convnetExt
}

// OpenStore opens the run at url (a store URL), creating it with cfg when it has no
// state.json; an existing run keeps its recorded configuration. work is a local directory
// for caches, rebuilt from the store when empty.
func OpenStore(ctx context.Context, url string, g StoreGame, cfg StoreConfig, work string, logw io.Writer) (*StoreCycle, error) {
	raw, err := store.Open(url)
	if err != nil {
		return nil, err
	}
	if err := store.EnsureBucket(ctx, raw); err != nil {
		return nil, err
	}
	if logw == nil {
		logw = io.Discard
	}
	c := &StoreCycle{st: store.WithRetry(raw, store.DefaultBackoff), game: g, work: work, logw: logw, lg: log.New(logw, "", log.Ltime)}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	b, err := c.st.Get(ctx, "state.json")
	switch {
	case err == nil:
		if err := decodeState(b, url, &c.s); err != nil {
			return nil, err
		}
		if c.s.Game != g.Info().Name {
			return nil, fmt.Errorf("pipeline: run %s is a run of %s, not %s", url, c.s.Game, g.Info().Name)
		}
		c.cfg = DefaultStoreConfig()
		cb, err := c.st.Get(ctx, "config.json")
		if err == nil {
			err = json.Unmarshal(cb, &c.cfg)
		}
		if err != nil {
			return nil, fmt.Errorf("pipeline: %s/config.json: %w", url, err)
		}
		c.cfg.Wait = cfg.Wait
		if err := c.pickKind(); err != nil {
			return nil, err
		}
		c.lg.Printf("run %s resumed at generation %d, stage %s, best %.12s", url, c.s.Generation, c.s.Stage, c.s.BestSHA)
	case errors.Is(err, store.ErrNotFound):
		cfg.Game = g.Info().Name
		c.cfg = cfg
		if err := c.pickKind(); err != nil {
			return nil, err
		}
		if err := c.create(ctx); err != nil {
			return nil, err
		}
		c.lg.Printf("run %s created for %s, best %.12s", url, cfg.Game, c.s.BestSHA)
	default:
		return nil, err
	}
	return c, nil
}

// State returns where the run stands.
func (c *StoreCycle) State() StoreState { return c.s }

// pickKind picks the run's kind from its configuration (StoreConfig.NNUE) and checks it.
func (c *StoreCycle) pickKind() error {
	if c.cfg.KeepBest < 1 {
		c.cfg.KeepBest = 1
	}
	if n := c.cfg.NNUE; n != nil {
		k := &storeNNUE{c: c, n: n}
		c.kind = k
		return k.check()
	}
	c.kind = storeConvnet{c}
	return nil
}

func (c *StoreCycle) create(ctx context.Context) error {
	p := filepath.Join(c.work, "init"+c.kind.ext())
	if err := c.kind.initial(ctx, p); err != nil {
		return err
	}
	sha, err := c.putNet(ctx, p)
	if err != nil {
		return err
	}
	if err := c.putFile(ctx, BestKey(c.cfg.NNUE != nil), p); err != nil {
		return err
	}
	if err := c.putJSON(ctx, "config.json", c.cfg); err != nil {
		return err
	}
	if err := c.kind.created(ctx, sha); err != nil {
		return err
	}
	c.s = StoreState{Version: StoreStateVersion, Game: c.game.Info().Name, Generation: 1, Stage: StageIngest, BestSHA: sha, Accepted: []string{sha}}
	return c.save(ctx, StageIngest)
}

func (c *StoreCycle) putJSON(ctx context.Context, key string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return c.st.Put(ctx, key, append(b, '\n'))
}

func (c *StoreCycle) putFile(ctx context.Context, key, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return c.st.Put(ctx, key, b)
}

// putNet stores a net file under nets/<sha>.model and returns the SHA-256 of its bytes.
func (c *StoreCycle) putNet(ctx context.Context, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sha, err := c.kind.sha(path)
	if err != nil {
		return "", err
	}
	return sha, c.st.Put(ctx, c.netKey(sha), b)
}

// fetch downloads key into the working directory (once) and returns its path.
func (c *StoreCycle) fetch(ctx context.Context, key string) (string, error) {
	p := filepath.Join(c.work, filepath.FromSlash(key))
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	b, err := c.st.Get(ctx, key)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, atomicfile.WriteFile(p, b)
}

func (c *StoreCycle) save(ctx context.Context, stage string) error {
	c.s.Stage = stage
	return c.putJSON(ctx, "state.json", c.s)
}

func (c *StoreCycle) gen(kind, ext string) string {
	return fmt.Sprintf("%s/gen-%04d%s", kind, c.s.Generation, ext)
}

// Run plays n generations.
func (c *StoreCycle) Run(ctx context.Context, n int) ([]GenResult, error) {
	return generations(ctx, n, c.Generation)
}

// Generation finishes the generation in progress from its stage: ingest and train, gate,
// promote. Killed anywhere, a later call (on any machine) resumes at the recorded stage.
func (c *StoreCycle) Generation(ctx context.Context) (*GenResult, error) {
	save := func(stage string) error { return c.save(ctx, stage) }
	return generation{n: c.s.Generation, stage: &c.s.Stage, state: "state.json", save: save,
		steps: []step{{StageIngest, StageGate, c.ingestTrain}, {StageGate, StagePromote, c.storeGate}},
		last:  StagePromote, finish: c.storePromote}.run(ctx)
}

func (c *StoreCycle) cache() string { return filepath.Join(c.work, "shards") }

// Ingest runs one ingest pass over shards/ (see package ingest) and records what it took in
// ingested/gen-NNNN.json, then the counts in state.json.
func (c *StoreCycle) Ingest(ctx context.Context) (ingest.Report, error) {
	if err := os.MkdirAll(c.cache(), 0o755); err != nil {
		return ingest.Report{}, err
	}
	if c.taken == nil {
		t, err := readTaken(ctx, c.st, c.game.Info().Name)
		if err != nil {
			return ingest.Report{}, err
		}
		c.taken = t
		// A fresh machine: bring back what was taken before (checked again by the loader),
		// dated in the order it was taken, since the replay window takes the newest files.
		if err := t.restore(ctx, c.st, c.cache()); err != nil {
			return ingest.Report{}, err
		}
	}
	shards, err := store.Open(store.Join(c.st.URL(), "shards"))
	if err != nil {
		return ingest.Report{}, err
	}
	info := c.game.Info()
	rep, err := ingest.Run(ctx, ingest.Config{
		Shards: store.WithRetry(shards, store.DefaultBackoff), Expect: data.Expect{Game: info.Name, EncoderVersion: info.EncoderVersion},
		Game: c.game, Accept: c.accept, Cache: c.cache(), Seen: c.taken.keys, SeenContent: c.taken.content, Log: c.logw})
	c.s.Rejected += rep.Rejected
	if rep.Accepted+rep.Rejected+len(rep.Duplicates) > 0 {
		if terr := c.taken.add(ctx, c.st, c.s.Generation, rep); err == nil {
			err = terr
		}
		c.s.Shards, c.s.GenShards, c.s.GenExamples, c.s.Duplicates = c.taken.counts(c.s.Generation)
		if serr := c.save(ctx, c.s.Stage); err == nil {
			err = serr
		}
	}
	c.lg.Printf("generation %d: %v", c.s.Generation, rep)
	return rep, err
}

// accept takes shards of the run's best nets (and StoreConfig.Accept) played by its engine.
func (c *StoreCycle) accept(netSHA, engine string) error {
	if engine != c.cfg.Engine {
		return fmt.Errorf("engine %q, this run's workers play %q", engine, c.cfg.Engine)
	}
	if !slices.Contains(c.s.Accepted, netSHA) && !slices.Contains(c.cfg.Accept, netSHA) {
		return fmt.Errorf("net %q is not one of this run's accepted nets (its latest %d best: %d)", netSHA, c.cfg.KeepBest, len(c.s.Accepted))
	}
	return nil
}

func (c *StoreCycle) ingestTrain(ctx context.Context) error {
	deadline := time.Now().Add(c.cfg.Wait)
	for {
		if _, err := c.Ingest(ctx); err != nil {
			return err
		}
		fresh := c.s.GenShards
		if fresh >= max(c.cfg.MinShards, 1) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d new shards after %s, want %d", fresh, c.cfg.Wait, c.cfg.MinShards)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
	best, err := c.fetch(ctx, c.netKey(c.s.BestSHA))
	if err != nil {
		return err
	}
	out := filepath.Join(c.work, filepath.FromSlash(c.gen("candidates", c.kind.ext())))
	t0 := time.Now()
	if err := c.kind.train(ctx, best, out); err != nil {
		return err
	}
	c.s.TrainSeconds += time.Since(t0).Seconds()
	if _, err := c.putNet(ctx, out); err != nil {
		return err
	}
	return c.putFile(ctx, c.gen("candidates", c.kind.ext()), out)
}

// checkpoint fetches the generation's training checkpoint (key) into the working directory,
// when the store has one, and returns its local path, and a function that puts the file at
// that path back under key (logging a failure: the next upload tries again), also after ctx
// ends (for up to a minute).
func (c *StoreCycle) checkpoint(ctx context.Context, key string) (string, func(), error) {
	p := filepath.Join(c.work, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", nil, err
	}
	if _, err := c.fetch(ctx, key); err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", nil, err
	}
	return p, func() {
		// A trainer stopped (SIGTERM) saves its checkpoint on the way out: upload it too.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := c.putFile(uctx, key, p); err != nil {
			c.lg.Printf("checkpoint upload: %v", err)
		}
	}, nil
}

func (c *StoreCycle) storeGate(ctx context.Context) error {
	if _, err := c.st.Get(ctx, c.gen("gates", ".json")); err == nil {
		return nil // played before the restart
	}
	cand, err := c.fetch(ctx, c.gen("candidates", c.kind.ext()))
	if err != nil {
		return err
	}
	best, err := c.fetch(ctx, c.netKey(c.s.BestSHA))
	if err != nil {
		return err
	}
	sha, err := c.kind.sha(cand)
	if err != nil {
		return err
	}
	res, err := c.kind.gate(ctx, cand, sha, best)
	if err != nil {
		return err
	}
	res.Generation, res.Candidate, res.CandidateSHA256 = c.s.Generation, c.gen("candidates", c.kind.ext()), sha
	c.lg.Printf("generation %d: gate %d games, candidate scores %.3f: promoted %v", res.Generation, res.Games, res.Score, res.Promoted)
	return c.putJSON(ctx, c.gen("gates", ".json"), res)
}

func (c *StoreCycle) storePromote(ctx context.Context) (*GenResult, error) {
	b, err := c.st.Get(ctx, c.gen("gates", ".json"))
	if err != nil {
		return nil, err
	}
	var res GenResult
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, err
	}
	prevElo := 0.0
	if n := len(c.s.History); n > 0 {
		prevElo = c.s.History[n-1].Elo
	}
	res.Elo = prevElo
	if res.Promoted {
		net, err := c.st.Get(ctx, c.netKey(res.CandidateSHA256))
		if err != nil {
			return nil, err
		}
		res.Elo += res.EloDiff
		res.Model = c.netKey(res.CandidateSHA256)
		if err := c.kind.promoted(ctx, &res); err != nil {
			return nil, err
		}
		if err := c.putJSON(ctx, c.gen("promotions", ".json"), res); err != nil {
			return nil, err
		}
		if err := c.st.Put(ctx, BestKey(c.cfg.NNUE != nil), net); err != nil {
			return nil, err
		}
		c.s.BestSHA = res.CandidateSHA256
		c.s.Accepted = bestWindow(c.s.Accepted, res.CandidateSHA256, c.cfg.KeepBest)
	}
	if res.NNUE != nil {
		res.NNUE.PairKeys = nil // in gates/gen-NNNN.json, not in state.json
	}
	c.s.History = append(c.s.History, res)
	c.s.Generation++
	c.s.GenShards, c.s.GenExamples, c.s.TrainSeconds = 0, 0, 0
	if err := c.save(ctx, StageIngest); err != nil {
		return nil, err
	}
	return &res, nil
}

// bestWindow is accepted with sha added as the newest best, keeping the latest k.
func bestWindow(accepted []string, sha string, k int) []string {
	out := slices.DeleteFunc(slices.Clone(accepted), func(s string) bool { return s == sha })
	out = append(out, sha)
	return out[max(0, len(out)-k):]
}

// ReadStoreState reads the state of the run at url (nothing is created).
func ReadStoreState(ctx context.Context, url string) (*StoreState, error) {
	st, err := store.Open(url)
	if err != nil {
		return nil, err
	}
	b, err := store.WithRetry(st, store.DefaultBackoff).Get(ctx, "state.json")
	if err != nil {
		return nil, err
	}
	var s StoreState
	return &s, decodeState(b, url, &s)
}

// decodeState reads state.json, refusing a version this build does not know.
func decodeState(b []byte, url string, s *StoreState) error {
	if err := json.Unmarshal(b, s); err != nil {
		return fmt.Errorf("pipeline: %s/state.json: %w", url, err)
	}
	if s.Version != StoreStateVersion {
		return fmt.Errorf("pipeline: %s/state.json has version %d, this build reads %d", url, s.Version, StoreStateVersion)
	}
	return nil
}

// Summary is a few lines on where the run stands, for `cluster status`.
func (s *StoreState) Summary(w io.Writer) {
	fmt.Fprintf(w, "%s: generation %d, stage %s, best net %.12s\n", s.Game, s.Generation, s.Stage, s.BestSHA)
	fmt.Fprintf(w, "shards: %d accepted into training (%d this generation), %d duplicates, %d rejected to quarantine; %d accepted nets\n",
		s.Shards, s.GenShards, s.Duplicates, s.Rejected, len(s.Accepted))
	for _, h := range s.History {
		fmt.Fprintf(w, "generation %d: candidate %.12s scored %.3f over %d games (elo %+.0f): promoted %v\n",
			h.Generation, h.CandidateSHA256, h.Score, h.Games, h.EloDiff, h.Promoted)
	}
}
