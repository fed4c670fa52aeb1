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
	"strings"
	"time"

	"colony/agentdef"
	"colony/arena"
	"colony/contract"
	"colony/data"
	"colony/ingest"
	"colony/internal/atomicfile"
	"colony/models"
	"colony/nn"
	"colony/store"
	"colony/train"
)

// The generation cycle on a store (StoreCycle): the run's state, nets, candidates, gate
// results and promotions live in a store, so a trainer can restart on any machine and resume.
// Self-play is not part of it: workers (cluster.Worker, the Kubernetes Indexed Job) put shards
// under shards/ with the net from best.model. Keys under the run's root:
//
//	config.json                 the run's StoreConfig (recorded when the run is created)
//	state.json                  StoreState: generation, stage, best net, accepted nets, ingested shards
//	best.model                  the current best net, what workers play with
//	nets/<sha>.model            every net that was best or a candidate, by SHA-256
//	shards/<net>/<worker>/<seq>.zst   the workers' shards (ingest.Key)
//	shards/quarantine/...       rejected shards, each with a .reason
//	checkpoints/gen-NNNN.ckpt   the training checkpoint of the generation in progress
//	candidates/gen-NNNN.model   each generation's candidate
//	gates/gen-NNNN.json         each gate's GenResult
//	promotions/gen-NNNN.json    each promotion's GenResult

// StoreStateVersion is the version of state.json a StoreCycle writes and reads.
const StoreStateVersion = 1

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
}

// DefaultStoreConfig returns the defaults.
func DefaultStoreConfig() StoreConfig {
	return StoreConfig{Engine: "mcts", MinShards: 1, Wait: time.Hour, TrainSteps: 1000, Batch: 256, LR: 1e-3,
		Window: 300_000, GateGames: 40, GatePlayouts: 200, Promote: 0.55, Seed: 1}
}

// StoreState is state.json.
type StoreState struct {
	Version    int         `json:"version"`
	Game       string      `json:"game"`
	Generation int         `json:"generation"`
	Stage      string      `json:"stage"`
	BestSHA    string      `json:"best_sha256"` // nets/<sha>.model
	Accepted   []string    `json:"accepted_nets"`
	Ingested   []string    `json:"ingested"`  // shard keys taken into training, in order
	GenStart   int         `json:"gen_start"` // len(Ingested) when the generation began
	Rejected   int         `json:"rejected"`
	History    []GenResult `json:"history"`
}

// StoreCycle is an open run on a store.
type StoreCycle struct {
	st   store.Store
	game StoreGame
	cfg  StoreConfig
	s    StoreState
	work string // local working directory: the shard cache, nets, checkpoints
	logw io.Writer
	lg   *log.Logger
}

func netKey(sha string) string { return "nets/" + sha + ".model" }

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
		c.lg.Printf("run %s resumed at generation %d, stage %s, best %.12s", url, c.s.Generation, c.s.Stage, c.s.BestSHA)
	case errors.Is(err, store.ErrNotFound):
		cfg.Game = g.Info().Name
		c.cfg = cfg
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

func (c *StoreCycle) create(ctx context.Context) error {
	info := c.game.Info()
	var m *nn.Model
	if size, ok := strings.CutPrefix(c.cfg.Init, "random:"); ok {
		var b, ch int
		if _, err := fmt.Sscanf(size, "%dx%d", &b, &ch); err != nil || b < 0 || ch < 1 {
			return fmt.Errorf("pipeline: init %q: want random:BLOCKSxCHANNELS", c.cfg.Init)
		}
		m = nn.NewRandom(nn.ArchFor(info, b, ch), c.cfg.Seed)
	} else {
		var err error
		if m, _, err = models.Load(info, c.cfg.Init); err != nil {
			return err
		}
	}
	p := filepath.Join(c.work, "init.model")
	if err := m.Save(p); err != nil {
		return err
	}
	sha, err := c.putNet(ctx, p)
	if err != nil {
		return err
	}
	if err := c.putFile(ctx, "best.model", p); err != nil {
		return err
	}
	if err := c.putJSON(ctx, "config.json", c.cfg); err != nil {
		return err
	}
	c.s = StoreState{Version: StoreStateVersion, Game: info.Name, Generation: 1, Stage: StageIngest, BestSHA: sha, Accepted: []string{sha}}
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
	m, _, err := models.Load(c.game.Info(), path)
	if err != nil {
		return "", err
	}
	sha := m.SHA256()
	return sha, c.st.Put(ctx, netKey(sha), b)
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
	gen := c.s.Generation
	wrap := func(err error) error { return fmt.Errorf("generation %d, stage %s: %w", gen, c.s.Stage, err) }
	if c.s.Stage == StageIngest {
		if err := c.ingestTrain(ctx); err != nil {
			return nil, wrap(err)
		}
		if err := c.save(ctx, StageGate); err != nil {
			return nil, wrap(err)
		}
	}
	if c.s.Stage == StageGate {
		if err := c.storeGate(ctx); err != nil {
			return nil, wrap(err)
		}
		if err := c.save(ctx, StagePromote); err != nil {
			return nil, wrap(err)
		}
	}
	if c.s.Stage != StagePromote {
		return nil, wrap(fmt.Errorf("unknown stage %q in state.json", c.s.Stage))
	}
	res, err := c.storePromote(ctx)
	if err != nil {
		return nil, wrap(err)
	}
	return res, nil
}

func (c *StoreCycle) cache() string { return filepath.Join(c.work, "shards") }

// Ingest runs one ingest pass over shards/ (see package ingest) and records what it took.
func (c *StoreCycle) Ingest(ctx context.Context) (ingest.Report, error) {
	seen := map[string]bool{}
	if err := os.MkdirAll(c.cache(), 0o755); err != nil {
		return ingest.Report{}, err
	}
	// A fresh machine: bring back what was taken before (checked again by the loader), dated
	// in the order it was taken, since the replay window takes the newest files.
	t0 := time.Now().Add(-time.Duration(len(c.s.Ingested)) * time.Millisecond)
	for i, k := range c.s.Ingested {
		seen[k] = true
		p := filepath.Join(c.cache(), ingest.CacheName(k))
		if _, err := os.Stat(p); err == nil {
			continue
		}
		b, err := c.st.Get(ctx, store.Join("shards", k))
		if err == nil {
			err = atomicfile.WriteFile(p, b)
		}
		if err == nil {
			t := t0.Add(time.Duration(i) * time.Millisecond)
			err = os.Chtimes(p, t, t)
		}
		if err != nil {
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
		Game: c.game, Accept: c.accept, Cache: c.cache(), Seen: seen, Log: c.logw})
	c.s.Ingested = append(c.s.Ingested, rep.NewKeys...)
	c.s.Rejected += rep.Rejected
	if rep.Accepted+rep.Rejected > 0 {
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
		return fmt.Errorf("net %q is not one of this run's (%d accepted: its best nets)", netSHA, len(c.s.Accepted))
	}
	return nil
}

func (c *StoreCycle) ingestTrain(ctx context.Context) error {
	deadline := time.Now().Add(c.cfg.Wait)
	for {
		if _, err := c.Ingest(ctx); err != nil {
			return err
		}
		fresh := len(c.s.Ingested) - c.s.GenStart
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
	best, err := c.fetch(ctx, netKey(c.s.BestSHA))
	if err != nil {
		return err
	}
	ckKey := c.gen("checkpoints", ".ckpt")
	ckpt := filepath.Join(c.work, filepath.FromSlash(ckKey))
	if _, err := c.fetch(ctx, ckKey); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	out := filepath.Join(c.work, filepath.FromSlash(c.gen("candidates", ".model")))
	const every = 100
	g := c.game
	_, err = train.Run(ctx, train.RunConfig{
		Game: g.Info(), Symmetries: g.Symmetries(), Model: best, Shards: c.cache(), Window: c.cfg.Window,
		Steps: int64(c.cfg.TrainSteps), Train: train.Config{Batch: c.cfg.Batch, LR: c.cfg.LR}, Seed: c.cfg.Seed*1000 + uint64(c.s.Generation),
		Checkpoint: ckpt, Every: every, Out: out, LogEvery: 50,
		AfterStep: func(step int64) {
			if step%every == 0 { // the checkpoint was just written: keep it in the store
				if err := c.putFile(ctx, ckKey, ckpt); err != nil {
					c.lg.Printf("checkpoint upload: %v", err)
				}
			}
		},
	}, c.logw)
	if err != nil {
		return err
	}
	if _, err := c.putNet(ctx, out); err != nil {
		return err
	}
	return c.putFile(ctx, c.gen("candidates", ".model"), out)
}

func (c *StoreCycle) storeGate(ctx context.Context) error {
	if _, err := c.st.Get(ctx, c.gen("gates", ".json")); err == nil {
		return nil // played before the restart
	}
	cand, err := c.fetch(ctx, c.gen("candidates", ".model"))
	if err != nil {
		return err
	}
	best, err := c.fetch(ctx, netKey(c.s.BestSHA))
	if err != nil {
		return err
	}
	cm, _, err := models.Load(c.game.Info(), cand)
	if err != nil {
		return err
	}
	seed := c.cfg.Seed*1000 + uint64(c.s.Generation)
	a, err := c.game.NewPlayer(c.cfg.Engine, agentdef.EngineOptions{Model: cand, Playouts: c.cfg.GatePlayouts, Seed: seed})
	if err != nil {
		return err
	}
	b, err := c.game.NewPlayer(c.cfg.Engine, agentdef.EngineOptions{Model: best, Playouts: c.cfg.GatePlayouts, Seed: seed + 1})
	if err != nil {
		return err
	}
	sum, _, err := arena.RunLocal(c.game.Rules(), []arena.Player{a, b}, c.cfg.GateGames, 0)
	if err != nil {
		return err
	}
	score := (sum.Score[0] + 1) / 2 // values in [-1, 1] -> a score in [0, 1]
	res := GenResult{Generation: c.s.Generation, Candidate: c.gen("candidates", ".model"), CandidateSHA256: cm.SHA256(),
		Games: sum.Games, Score: score, Verdicts: sum.Faults}
	res.Promoted = score >= c.cfg.Promote && sum.Faults == 0
	if score > 0 && score < 1 {
		res.EloDiff = arena.EloFromScore(score)
	}
	c.lg.Printf("generation %d: gate %d games, candidate scores %.3f (promote at %.3f): promoted %v", res.Generation, res.Games, score, c.cfg.Promote, res.Promoted)
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
		net, err := c.st.Get(ctx, netKey(res.CandidateSHA256))
		if err != nil {
			return nil, err
		}
		res.Elo += res.EloDiff
		res.Model = netKey(res.CandidateSHA256)
		if err := c.putJSON(ctx, c.gen("promotions", ".json"), res); err != nil {
			return nil, err
		}
		if err := c.st.Put(ctx, "best.model", net); err != nil {
			return nil, err
		}
		c.s.BestSHA = res.CandidateSHA256
		if !slices.Contains(c.s.Accepted, res.CandidateSHA256) {
			c.s.Accepted = append(c.s.Accepted, res.CandidateSHA256)
		}
	}
	c.s.History = append(c.s.History, res)
	c.s.Generation++
	c.s.GenStart = len(c.s.Ingested)
	if err := c.save(ctx, StageIngest); err != nil {
		return nil, err
	}
	return &res, nil
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
	fmt.Fprintf(w, "shards: %d accepted into training (%d this generation), %d rejected to quarantine; %d accepted nets\n",
		len(s.Ingested), len(s.Ingested)-s.GenStart, s.Rejected, len(s.Accepted))
	for _, h := range s.History {
		fmt.Fprintf(w, "generation %d: candidate %.12s scored %.3f over %d games (elo %+.0f): promoted %v\n",
			h.Generation, h.CandidateSHA256, h.Score, h.Games, h.EloDiff, h.Promoted)
	}
}
