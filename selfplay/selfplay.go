// Package selfplay plays training games with PUCT search (or, to bootstrap, with a classical
// engine) and writes every recorded position as a training example into shards.
//
// Workers are goroutine groups: each owns one evaluator (a network is not safe for concurrent
// use) shared by GamesPerWorker games in flight, whose leaf requests are merged into batches.
// Every game's randomness comes from (run seed, worker, game index), and the shards record the
// run seed, so a run can be replayed.
package selfplay

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"colony/contract"
	"colony/data"
	"colony/internal/splitmix"
	"colony/mcts"
)

// Pos is what self-play needs from a game's position: the search interface and the network
// encoding.
type Pos[P any, M comparable] interface {
	mcts.Position[P, M]
	Encode(dst []float32)
}

// Mv is what self-play needs from a move: its policy index.
type Mv interface {
	comparable
	PolicyIndex() int
}

// Game describes a game to self-play.
type Game[P any] struct {
	Info  contract.Info // name, encoder version and sizes, as in shard and model files
	Start func() P
	// Adjudicate, when set, is called after every move; returning true ends the game with the
	// returned values (e.g. a hopeless material deficit). Nil plays every game out.
	Adjudicate func(P) (mcts.Values, bool)
}

// Config tunes a self-play run. Zero values get the defaults noted.
type Config struct {
	Workers        int           // default runtime.NumCPU()
	GamesPerWorker int           // games in flight per worker, batched together (default 8)
	Games          int           // stop after this many games in all (0: run for Duration)
	Duration       time.Duration // stop starting games after this long (0: only Games counts)
	Playouts       int           // playouts of a full, recorded search (default 200)
	// FastPlayouts and FullProb: playout-cap randomisation (KataGo). With FastPlayouts > 0 a
	// move gets a full search with probability FullProb (default 0.25) and a fast, unrecorded
	// search without noise otherwise.
	FastPlayouts int
	FullProb     float64
	TempPlies    int     // plies whose move is drawn in proportion to visits (default 8)
	NoiseAlpha   float32 // Dirichlet alpha at the root of full searches (default 0.3)
	NoiseFrac    float32 // Dirichlet fraction (default 0.25; negative turns noise off)
	Search       mcts.Config
	Seed         uint64 // run seed
	PerShard     int    // examples per shard (default 4096)
	Meta         data.Meta
	// WorkerBase numbers this process's workers WorkerBase, WorkerBase+1, ... in game seeds,
	// game ids and shards (a cluster pod's index times its workers); FirstGame is each
	// worker's first game index (a restarted pod starts past the games it already played).
	WorkerBase int
	FirstGame  uint64
	// ShardName, when set, names the shards of worker w (data.Writer.Name).
	ShardName    func(worker int) func(meta *data.Meta) string
	Progress     io.Writer     // progress lines go here (nil: none)
	ProgressTick time.Duration // default 5 s
}

func (c *Config) defaults() {
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.GamesPerWorker <= 0 {
		c.GamesPerWorker = 8
	}
	if c.Playouts <= 0 {
		c.Playouts = 200
	}
	if c.FastPlayouts > 0 && c.FullProb <= 0 {
		c.FullProb = 0.25
	}
	c.TempPlies = cmp.Or(c.TempPlies, 8)
	c.NoiseAlpha = cmp.Or(c.NoiseAlpha, 0.3)
	c.NoiseFrac = cmp.Or(c.NoiseFrac, 0.25)
	if c.NoiseFrac < 0 {
		c.NoiseFrac = 0
	}
	if c.PerShard <= 0 {
		c.PerShard = 4096
	}
	if c.ProgressTick <= 0 {
		c.ProgressTick = 5 * time.Second
	}
	if c.Search.CPuct == 0 {
		c.Search = mcts.DefaultConfig()
	}
}

// Stats summarises a run.
type Stats struct {
	Games     int
	Positions int // examples written
	Moves     int // moves played (recorded or not)
	// Wins counts the games each player finished alone at the top; Draws the others (a
	// shared top, or for a game won or lost, no value above 0).
	Wins  [mcts.MaxPlayers]int
	Draws int
	// ValueSum adds up each player's final value (for a game scored by a share, the share
	// in the game's [-1, 1] image); divided by Games it is the player's average result.
	ValueSum [mcts.MaxPlayers]float64
	Elapsed  time.Duration
	Shards   []string
	// Discarded counts the openings a bootstrap run threw away as already decided.
	Discarded int
}

// GameSeed derives the seed of one game from the run seed, the worker and the game index.
func GameSeed(run uint64, worker int, game uint64) uint64 {
	return mix(mix(run^0x5E1F_91A7_0000_0000, uint64(worker)+1), game+1)
}

// GameID packs the worker and the worker's game index into the id stored with each example.
func GameID(worker int, game uint64) uint64 { return uint64(worker)<<40 | game }

// mix combines two words through splitmix64's finaliser (the stored seeds depend on it: it
// never changes).
func mix(a, b uint64) uint64 {
	return splitmix.Finalize(a ^ (b+splitmix.Gamma)*0xBF58476D1CE4E5B9)
}

// run is the state shared by a run's goroutines.
type run struct {
	cfg       *Config
	start     time.Time
	claimed   atomic.Int64
	discarded atomic.Int64
	mu        sync.Mutex
	stats     Stats

	wg       sync.WaitGroup
	cancel   context.CancelFunc
	errOnce  sync.Once
	firstErr error
	sinks    []*sink
}

func newRun(ctx context.Context, cfg *Config) (*run, context.Context) {
	r := &run{cfg: cfg, start: time.Now()}
	ctx, r.cancel = context.WithCancel(ctx)
	return r, ctx
}

// fail records the run's first error and stops it.
func (r *run) fail(err error) {
	r.errOnce.Do(func() { r.firstErr = err; r.cancel() })
}

// record writes a finished game's examples with its moves and counts it; false means the run
// must stop.
func (r *run) record(sk *sink, g data.GameMoves, exs []data.Example, values mcts.Values, info contract.Info) bool {
	if err := sk.add(g, exs); err != nil {
		r.fail(err)
		return false
	}
	r.finished(values, info, len(g.Moves), len(exs))
	return true
}

// wait shows progress until every game goroutine is done, then closes the shard writers.
func (r *run) wait(ctx context.Context) (Stats, error) {
	done := make(chan struct{})
	go r.progress(ctx, r.cfg.Progress, done)
	r.wg.Wait()
	close(done)
	r.cancel()
	return r.close()
}

// claim reserves the next game, or reports that the run is over.
func (r *run) claim(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	if r.cfg.Duration > 0 && time.Since(r.start) >= r.cfg.Duration {
		return false
	}
	n := r.claimed.Add(1)
	return r.cfg.Games <= 0 || n <= int64(r.cfg.Games)
}

// finished counts a game. A game scored by a share is won by the single largest share,
// whatever its size (a quarter of the board and one cell can top four players); a game won
// or lost needs a positive value as well.
func (r *run) finished(values mcts.Values, info contract.Info, moves, positions int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Games++
	r.stats.Moves += moves
	r.stats.Positions += positions
	best, winner := float32(-2), -1
	for p := 0; p < info.Players(); p++ {
		r.stats.ValueSum[p] += float64(values[p])
		switch {
		case values[p] > best:
			best, winner = values[p], p
		case values[p] == best:
			winner = -1
		}
	}
	if winner >= 0 && (best > 0 || info.Scored) {
		r.stats.Wins[winner]++
	} else {
		r.stats.Draws++
	}
}

func (r *run) progress(ctx context.Context, w io.Writer, done <-chan struct{}) {
	if w == nil {
		return
	}
	t := time.NewTicker(r.cfg.ProgressTick)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			r.mu.Lock()
			s := r.stats
			r.mu.Unlock()
			el := time.Since(r.start)
			eta := "?"
			switch {
			case r.cfg.Games > 0 && s.Games > 0:
				eta = (time.Duration(float64(el) * float64(r.cfg.Games-s.Games) / float64(s.Games))).Round(time.Second).String()
			case r.cfg.Duration > 0:
				eta = max(r.cfg.Duration-el, 0).Round(time.Second).String()
			}
			total := "∞"
			if r.cfg.Games > 0 {
				total = fmt.Sprint(r.cfg.Games)
			}
			fmt.Fprintf(w, "selfplay: games %d/%s  positions %d (%.1f/s)  moves/s %.1f  elapsed %s  eta %s\n",
				s.Games, total, s.Positions, float64(s.Positions)/el.Seconds(), float64(s.Moves)/el.Seconds(),
				el.Round(time.Second), eta)
		}
	}
}

// worker groups: writer per worker, guarded by its mutex.
type sink struct {
	mu sync.Mutex
	w  *data.Writer
}

func (s *sink) add(g data.GameMoves, exs []data.Example) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.AddGame(g, exs)
}

// Run plays self-play games with PUCT search and writes shards into dir. newEval builds the
// evaluator of one worker (called once per worker, from the calling goroutine).
func Run[P Pos[P, M], M Mv](ctx context.Context, game Game[P], cfg Config, dir string,
	newEval func(worker int) (mcts.Evaluator[P, M], error)) (Stats, error) {
	cfg.defaults()
	if err := cfg.Search.Validate(); err != nil {
		return Stats{}, fmt.Errorf("selfplay: %w", err)
	}
	r, ctx := newRun(ctx, &cfg)
	var shareds []*Shared[P, M]
	for w := cfg.WorkerBase; w < cfg.WorkerBase+cfg.Workers; w++ {
		eval, err := newEval(w)
		if err != nil {
			r.fail(fmt.Errorf("selfplay: evaluator of worker %d: %w", w, err))
			break
		}
		sk, err := newSink(game, &cfg, dir, w)
		if err != nil {
			r.fail(err)
			break
		}
		r.sinks = append(r.sinks, sk)
		sh := NewShared(eval)
		shareds = append(shareds, sh)
		var next atomic.Uint64
		next.Store(cfg.FirstGame)
		for range cfg.GamesPerWorker {
			r.wg.Add(1)
			go func() {
				defer r.wg.Done()
				sc := cfg.Search
				sc.NoiseAlpha, sc.NoiseFraction = cfg.NoiseAlpha, 0
				s := mcts.New[P, M](sc, sh.Client())
				for r.claim(ctx) {
					idx := next.Add(1) - 1
					gm, exs, values, err := playSearch(ctx, game, &cfg, s, w, idx)
					if err != nil {
						if ctx.Err() == nil {
							r.fail(fmt.Errorf("selfplay: worker %d game %d: %w", w, idx, err))
						}
						return
					}
					if !r.record(sk, gm, exs, values, game.Info) {
						return
					}
				}
			}()
		}
	}
	defer func() {
		for _, sh := range shareds {
			sh.Close()
		}
	}()
	return r.wait(ctx)
}

func newSink[P any](game Game[P], cfg *Config, dir string, worker int) (*sink, error) {
	meta := cfg.Meta
	m := data.MetaFor(game.Info)
	meta.Game, meta.EncoderVersion = m.Game, m.EncoderVersion
	meta.InputSize, meta.PolicySize, meta.PlaneSize = m.InputSize, m.PolicySize, m.PlaneSize
	meta.NumPlayers = m.NumPlayers
	meta.Seed, meta.Worker = cfg.Seed, worker
	meta.CreatedUnix = time.Now().Unix()
	w, err := data.Create(dir, meta, cfg.PerShard)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	if cfg.ShardName != nil {
		w.Name = cfg.ShardName(worker)
	}
	return &sink{w: w}, nil
}

func (r *run) close() (Stats, error) {
	for _, sk := range r.sinks {
		if err := sk.w.Close(); err != nil {
			r.fail(fmt.Errorf("selfplay: %w", err))
		}
		r.stats.Shards = append(r.stats.Shards, sk.w.Paths()...)
	}
	r.stats.Elapsed = time.Since(r.start)
	r.stats.Discarded = int(r.discarded.Load())
	return r.stats, r.firstErr
}

// playSearch plays one game with the searcher and returns its moves and recorded examples.
func playSearch[P Pos[P, M], M Mv](ctx context.Context, game Game[P], cfg *Config, s *mcts.Searcher[P, M],
	worker int, idx uint64) (data.GameMoves, []data.Example, mcts.Values, error) {
	seed := GameSeed(cfg.Seed, worker, idx)
	rng := mcts.NewRand(seed)
	s.Reset()
	s.Reseed(seed)
	pos := game.Start()
	var exs []data.Example
	gm := data.GameMoves{GameID: GameID(worker, idx)}
	var values mcts.Values
	for {
		moves := len(gm.Moves)
		if pos.Terminal() {
			values = pos.Values()
			break
		}
		if game.Adjudicate != nil {
			if v, ok := game.Adjudicate(pos); ok {
				values = v
				break
			}
		}
		if err := ctx.Err(); err != nil {
			return gm, nil, values, err
		}
		full := cfg.FastPlayouts <= 0 || rng.Float64() < cfg.FullProb
		playouts := cfg.Playouts
		if full {
			s.SetNoise(cfg.NoiseAlpha, cfg.NoiseFrac)
		} else {
			playouts = cfg.FastPlayouts
			s.SetNoise(cfg.NoiseAlpha, 0)
		}
		res, err := s.Search(pos, mcts.Limit{Playouts: playouts})
		if err != nil {
			return gm, nil, values, err
		}
		if full && len(res.Moves) > 1 {
			ex := data.Example{Input: make([]float32, game.Info.InputSize()), GameID: GameID(worker, idx), Ply: moves}
			pos.Encode(ex.Input)
			for i, m := range res.Moves {
				if res.Policy[i] > 0 {
					ex.Policy = append(ex.Policy, data.PolicyEntry{Index: int32(m.PolicyIndex()), Prob: res.Policy[i]})
				}
			}
			exs = append(exs, ex)
		}
		m := res.Best
		if moves < cfg.TempPlies {
			m = res.Moves[sampleVisits(&rng, res.Visits)]
		}
		pos = pos.Apply(m)
		gm.Moves = append(gm.Moves, int32(m.PolicyIndex()))
	}
	for i := range exs {
		exs[i].Values = values
	}
	return gm, exs, values, nil
}

// sampleVisits draws an index in proportion to visits (uniformly when none has a visit).
func sampleVisits(rng *mcts.Rand, visits []int32) int {
	total := 0
	for _, v := range visits {
		total += int(v)
	}
	if total == 0 {
		return rng.IntN(len(visits))
	}
	x := rng.IntN(total)
	for i, v := range visits {
		x -= int(v)
		if x < 0 {
			return i
		}
	}
	return len(visits) - 1
}
