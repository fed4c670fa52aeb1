// Command selfplay writes training shards for any registered game: PUCT self-play with a
// network, or (-bootstrap) a classical engine playing itself, which gives the first
// generation something better than random play to learn from.
//
//	selfplay -game bacteria-war -out shards/ -games 1000 [-model FILE] [-workers N] [-playouts 200] [-seed S]
//	selfplay -game bacteria-war -bootstrap -engine alphabeta -depth 3 -out shards/ -games 2000
//	selfplay -model s3://bucket/run1/best.model -out s3://bucket/run1/shards -index N -games 100  (docs/cluster.md)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"colony/agentdef"
	"colony/cluster"
	"colony/contract"
	"colony/data"
	"colony/engine"
	"colony/internal/gitrev"
	"colony/mcts"
	"colony/models"
	"colony/nn"
	"colony/registry"
	"colony/selfplay"
)

// selfplayGame is what self-play needs of a game (registry.Lookup gives one).
type selfplayGame interface {
	Info() contract.Info
	Engines() []registry.EngineInfo
	SelfPlay(ctx context.Context, cfg selfplay.Config, model *nn.Model, dir string) (selfplay.Stats, error)
	Bootstrap(ctx context.Context, bc selfplay.BootstrapConfig, engineName string, o agentdef.EngineOptions, dir string) (selfplay.Stats, error)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	out := fs.String("out", "", "directory for the shards, or a shards store URL (s3://bucket/run1/shards) (required)")
	modelPath := fs.String("model", "", "model file or URL (default: the embedded best model)")
	index := fs.Int("index", -1, "with an -out URL: this worker's index, in its keys and game seeds (default $JOB_COMPLETION_INDEX, else 0)")
	spool := fs.String("spool", "spool", "with an -out URL: local directory of the shards not yet uploaded")
	random := fs.String("random-net", "", "use a fresh random net of this size, e.g. 4x32 (testing)")
	nGames := fs.Int("games", 0, "games to play in all (0: run for -duration)")
	duration := fs.Duration("duration", 0, "stop starting games after this long")
	workers := fs.Int("workers", runtime.NumCPU(), "worker goroutines, one network each")
	perWorker := fs.Int("games-per-worker", 8, "games in flight per worker (their leaves are batched)")
	playouts := fs.Int("playouts", 200, "playouts of a full (recorded) search")
	fast := fs.Int("fast-playouts", 0, "playouts of a fast unrecorded search (0: every move is full)")
	fullProb := fs.Float64("full-prob", 0.25, "with -fast-playouts, chance that a move gets a full search")
	batch := fs.Int("batch", 8, "leaves per search batch")
	temp := fs.Int("temp-plies", 8, "opening plies drawn in proportion to visits")
	seed := fs.Uint64("seed", 1, "run seed (games are seeded from it, the worker and the game index)")
	gen := fs.Int("generation", 0, "generation number stored in the shards")
	perShard := fs.Int("per-shard", 4096, "examples per shard")
	boot := fs.Bool("bootstrap", false, "play a classical engine (-engine) against itself instead of self-play with a net")
	engineName := fs.String("engine", "alphabeta", "with -bootstrap: the engine that plays (it must report search scores for -score-weight)")
	depth := fs.Int("depth", 3, "with -bootstrap: the engine's search depth per move (0: none, with -nodes)")
	nodes := fs.Int64("nodes", 0, "with -bootstrap: hard node budget per move (0: none)")
	softNodes := fs.Int64("soft-nodes", 0, "with -bootstrap: no new iteration after this many nodes (0: none)")
	hash := fs.Int("hash", 16, "with -bootstrap: the engine's table in MB")
	randomPlies := fs.Int("random-plies", 4, "with -bootstrap: random opening plies")
	randomPliesMax := fs.Int("random-plies-max", 0, "with -bootstrap: draw the random plies from -random-plies..this (0: exactly -random-plies)")
	epsilon := fs.Float64("epsilon", 0.05, "with -bootstrap: chance of a random (unrecorded) move (0: none)")
	openingMax := fs.Int("opening-max-score", 0, "with -bootstrap: drop openings whose first search scores beyond ± this (0: keep all)")
	adjScore := fs.Int("adjudicate-score", 0, "with -bootstrap: a game ends once -adjudicate-plies searches in a row score beyond ± this for one side (0: play out)")
	adjPlies := fs.Int("adjudicate-plies", 4, "with -bootstrap: see -adjudicate-score")
	recordScores := fs.Bool("scores", false, "with -bootstrap: store the outcome and the search score apart (the trainer blends them); excludes -score-weight")
	scoreWeight := fs.Float64("score-weight", 0, "with -bootstrap: weight of alphabeta's score in the value targets, (1-w)·outcome + w·tanh(score/scale)")
	scoreScale := fs.Float64("score-scale", 300, "with -bootstrap: score (hundredths of a piece) per tanh unit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var g selfplayGame
	g, err := registry.Lookup(*game)
	if err != nil {
		fmt.Fprintf(stderr, "selfplay: %v\n", err)
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "selfplay: -out DIR is required (and no other arguments)")
		return 2
	}
	if *nGames <= 0 && *duration <= 0 {
		fmt.Fprintln(stderr, "selfplay: give -games or -duration")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *index < 0 {
		if *index, err = cluster.IndexFromEnv(0); err != nil {
			fmt.Fprintf(stderr, "selfplay: %v\n", err)
			return 2
		}
	}
	if *modelPath, err = cluster.FetchObject(ctx, *modelPath, filepath.Join(*spool, ".model"), 10*time.Minute); err != nil {
		fmt.Fprintf(stderr, "selfplay: %v\n", err)
		return 1
	}
	meta := data.Meta{Generation: *gen, GitRevision: gitrev.Short(), Extra: map[string]string{"engine": *engineName}}
	var play cluster.Play
	if *boot {
		if *depth == 0 && *nodes == 0 {
			fmt.Fprintln(stderr, "selfplay: -bootstrap needs -depth or -nodes")
			return 2
		}
		meta.Extra["mode"] = fmt.Sprintf("bootstrap %s depth %d nodes %d soft %d", *engineName, *depth, *nodes, *softNodes)
		meta.Extra["random_plies"] = fmt.Sprintf("%d..%d", *randomPlies, max(*randomPlies, *randomPliesMax))
		meta.Extra["opening_max_score"] = fmt.Sprint(*openingMax)
		meta.Extra["adjudicate"] = fmt.Sprintf("%d x %d", *adjScore, *adjPlies)
		meta.Extra["score_weight"] = fmt.Sprint(*scoreWeight)
		meta.Extra["score_scale"] = fmt.Sprint(*scoreScale)
		eo := agentdef.EngineOptions{HashMB: *hash}
		name, sha, err := registry.EngineNet(g, *engineName, *modelPath)
		if err != nil {
			fmt.Fprintf(stderr, "selfplay: %v\n", err)
			return 2
		}
		if name != "" {
			eo.Model = *modelPath
			meta.Extra["model"] = name
			meta.ModelSHA256 = sha
			fmt.Fprintf(stderr, "selfplay: %s plays with %s (sha256 %.12s)\n", *engineName, name, sha)
		}
		bc := selfplay.BootstrapConfig{Workers: *workers, Games: *nGames, Duration: *duration, RandomPlies: *randomPlies,
			RandomPliesMax: *randomPliesMax, Epsilon: *epsilon, Limits: engine.Limits{Depth: *depth, Nodes: *nodes, SoftNodes: *softNodes},
			ScoreWeight: *scoreWeight, ScoreScale: *scoreScale, OpeningMaxScore: int32(*openingMax),
			AdjudicateScore: int32(*adjScore), AdjudicatePlies: *adjPlies, RecordScores: *recordScores,
			Seed: *seed, PerShard: *perShard, Meta: meta}
		bc.Progress.Progress = stderr
		play = func(ctx context.Context, dir string, place selfplay.Config) (selfplay.Stats, error) {
			bc.Placement = place
			return g.Bootstrap(ctx, bc, *engineName, eo, dir)
		}
	} else {
		meta.Extra["engine"] = "mcts"
		m, name, err := models.LoadOrRandom(g.Info(), *modelPath, *random)
		if err != nil {
			fmt.Fprintf(stderr, "selfplay: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "selfplay: model %s (%dx%d, sha256 %.12s)\n", name, m.Arch.Blocks, m.Arch.Channels, m.SHA256())
		meta.ModelSHA256 = m.SHA256()
		meta.Extra["model"] = name
		meta.Extra["playouts"] = fmt.Sprint(*playouts)
		meta.Extra["fast_playouts"] = fmt.Sprint(*fast)
		cfg := selfplay.Config{Workers: *workers, GamesPerWorker: *perWorker, Games: *nGames, Duration: *duration,
			Playouts: *playouts, FastPlayouts: *fast, FullProb: *fullProb, TempPlies: *temp, Seed: *seed,
			PerShard: *perShard, Meta: meta, Progress: stderr}
		cfg.Search = mcts.DefaultConfig()
		cfg.Search.BatchSize = *batch
		play = func(ctx context.Context, dir string, place selfplay.Config) (selfplay.Stats, error) {
			cfg.WorkerBase, cfg.FirstGame, cfg.ShardName = place.WorkerBase, place.FirstGame, place.ShardName
			return g.SelfPlay(ctx, cfg, m, dir)
		}
	}
	st, err := cluster.PlayTo(ctx, *out, cluster.Worker{Index: *index, Workers: *workers, Spool: *spool, NetSHA: meta.ModelSHA256, Log: stderr}, play)
	var wins []string
	for i, name := range g.Info().PlayerNames {
		w := fmt.Sprintf("%s won %d", name, st.Wins[i])
		if g.Info().Scored && st.Games > 0 {
			w += fmt.Sprintf(" (mean final value %+.3f)", st.ValueSum[i]/float64(st.Games))
		}
		wins = append(wins, w)
	}
	fmt.Fprintf(stderr, "selfplay: %d games, %d positions in %s (%.1f positions/s, %.1f games/min); %s, %d draws; %d decided openings dropped; %d shards in %s\n",
		st.Games, st.Positions, st.Elapsed.Round(time.Millisecond), float64(st.Positions)/st.Elapsed.Seconds(),
		float64(st.Games)/st.Elapsed.Minutes(), strings.Join(wins, ", "), st.Draws, st.Discarded, len(st.Shards), *out)
	if err != nil {
		fmt.Fprintf(stderr, "selfplay: %v\n", err)
		return 1
	}
	return 0
}
