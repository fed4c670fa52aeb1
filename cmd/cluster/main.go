// Command cluster runs Colony's generation cycle beyond one machine (docs/cluster.md):
//
//	cluster manifests -o deploy/k8s [config flags]   write the Kubernetes manifests (kube.Config)
//	cluster manifests -nnue -o deploy/k8s-nnue        the NNUE cycle's: data Job, gate Job, trainer
//	cluster local -workers N -store s3://b/run1 -endpoint http://127.0.0.1:7070 [-bin bin] [-generations G]
//	                                                 run those manifests' pods as local processes
//	                                                 (-nnue: the NNUE cycle's data, gate and trainer pods)
//	cluster cycle -game G -run s3://b/run1 -init random:4x32 [-generations 1]
//	                                                 the trainer: ingest, train, gate, promote on the store
//	cluster cycle -nnue -run s3://b/run1 [-init FILE.nnue|random:LANES] [-sprt 0,10 -gate-nodes 20000]
//	                                                 the NNUE cycle's trainer and gate coordinator
//	cluster gate-worker -run s3://b/run1 [-index N]   plays the open gate's pairs (NNUE)
//	cluster status -run s3://b/run1                   where the run stands
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"colony/cluster"
	"colony/cluster/kube"
	"colony/pipeline"
	"colony/registry"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: cluster manifests|local|cycle|gate-worker|status [flags] (cluster CMD -h)")
		return 2
	}
	fs := flag.NewFlagSet("cluster "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	var err error
	switch args[0] {
	case "manifests":
		err = manifests(fs, args[1:], stderr)
	case "local":
		err = local(ctx, fs, args[1:], stderr)
	case "cycle":
		err = cycle(ctx, fs, args[1:], stderr)
	case "gate-worker":
		err = gateWorker(ctx, fs, args[1:], stderr)
	case "status":
		err = status(ctx, fs, args[1:], stderr)
	default:
		fmt.Fprintf(stderr, "cluster: unknown command %q (manifests, local, cycle, gate-worker, status)\n", args[0])
		return 2
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "cluster %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

var errUsage = errors.New("usage")

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected arguments %q\n", fs.Name(), fs.Args())
		return errUsage
	}
	return nil
}

func manifests(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	c := kube.DefaultConfig()
	c.Flags(fs)
	out := fs.String("o", "deploy/k8s", "directory for the manifests")
	if err := parse(fs, args); err != nil {
		return err
	}
	c.NNUEDefaults(fs)
	written, err := c.Write(*out)
	if err == nil {
		_, err = kube.Decode(*out)
	}
	fmt.Fprintf(stderr, "cluster manifests: %d files changed in %s\n", len(written), *out)
	return err
}

func local(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) error {
	c := kube.DefaultConfig()
	c.Flags(fs)
	out := fs.String("o", "", "write the manifests here and run them (default: a temporary directory)")
	bin := fs.String("bin", "bin", "directory of the local binaries that replace the image's /colony/")
	work := fs.String("work", "", "directory of the pods' volumes (default: a temporary directory)")
	gens := fs.Int("generations", 1, "generations: each runs the self-play Job and the trainer Job together")
	if err := parse(fs, args); err != nil {
		return err
	}
	c.NNUEDefaults(fs)
	for _, d := range []*string{out, work} {
		if *d == "" {
			tmp, err := os.MkdirTemp("", "colony-local-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			*d = tmp
		}
	}
	if _, err := c.Write(*out); err != nil {
		return err
	}
	m, err := kube.Decode(*out)
	if err != nil {
		return err
	}
	l := &kube.Local{Manifests: m, Bin: *bin, Work: *work, Stdout: stderr}
	for g := 1; g <= *gens; g++ {
		t0 := time.Now()
		fmt.Fprintf(stderr, "cluster local: generation %d: %d self-play pods, %d gate pods and the trainer\n", g, l.WorkerPods(), l.GatePods())
		if err := l.RunGeneration(ctx); err != nil {
			return fmt.Errorf("generation %d: %w", g, err)
		}
		fmt.Fprintf(stderr, "cluster local: generation %d done in %s\n", g, time.Since(t0).Round(time.Millisecond))
	}
	return nil
}

func cycle(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) error {
	c := pipeline.DefaultStoreConfig()
	game := fs.String("game", "bacteria-war", "game")
	runURL := fs.String("run", "", "the run's store URL, e.g. s3://bucket/run1 (required)")
	work := fs.String("work", "work", "local working directory (caches; rebuilt from the store)")
	gens := fs.Int("generations", 1, "generations to run")
	fs.StringVar(&c.Init, "init", "", "first best net of a new run: a model file or random:BxC")
	fs.IntVar(&c.MinShards, "min-shards", c.MinShards, "new shards a generation waits for")
	fs.DurationVar(&c.Wait, "wait", c.Wait, "how long a generation waits for them")
	fs.IntVar(&c.TrainSteps, "train-steps", c.TrainSteps, "training steps per generation")
	fs.IntVar(&c.Batch, "batch", c.Batch, "training batch")
	fs.Float64Var(&c.LR, "lr", c.LR, "learning rate")
	fs.IntVar(&c.Window, "window", c.Window, "replay window (examples)")
	fs.IntVar(&c.GateGames, "gate-games", c.GateGames, "gating games (in process, seats alternating)")
	fs.IntVar(&c.GatePlayouts, "gate-playouts", c.GatePlayouts, "playouts per gating move")
	fs.Float64Var(&c.Promote, "promote", c.Promote, "promote at this score or more")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "run seed")
	fs.IntVar(&c.KeepBest, "keep-best", c.KeepBest, "shards of the latest this many best nets are taken")
	fs.StringVar(&c.Engine, "engine", "", "the engine the workers play with (default mcts; nnab with -nnue)")
	isNNUE := fs.Bool("nnue", false, "the NNUE cycle: -init is a .nnue file, random:LANES or \"\" (the embedded net); a distributed SPRT gate")
	n := pipeline.DefaultStoreNNUE()
	fs.Int64Var(&n.Nodes, "nodes", n.Nodes, "with -nnue: the data workers' hard node budget per move (their selfplay -nodes; for the provenance)")
	fs.Int64Var(&n.SoftNodes, "soft-nodes", n.SoftNodes, "with -nnue: the data workers' soft node budget (selfplay -soft-nodes)")
	fs.Float64Var(&n.ScoreWeight, "score-weight", n.ScoreWeight, "with -nnue: the training target's weight of the search score")
	fs.Float64Var(&n.ScoreLambda, "score-lambda", n.ScoreLambda, "with -nnue: the score of each example becomes the λ-return of its game's later scores and outcome (0: the shards' own)")
	fs.Float64Var(&n.TeacherWeight, "teacher-weight", n.TeacherWeight, "with -nnue: the best net teaches its candidate: target = (1-t)·target + t·its value (0: no teacher; below 1)")
	fs.IntVar(&n.TrainThreads, "train-threads", n.TrainThreads, "with -nnue: the trainer splits each batch between this many graphs run side by side (data parallel; the batch must divide)")
	fs.StringVar(&n.SPRT, "sprt", n.SPRT, "with -nnue: the gate's SPRT over pairs, elo0,elo1[,alpha,beta]")
	fs.Int64Var(&n.GateNodes, "gate-nodes", n.GateNodes, "with -nnue: nodes per gate move, both sides (0: -gate-clock)")
	fs.DurationVar(&n.GateClock, "gate-clock", n.GateClock, "with -nnue and -gate-nodes 0: each side's clock for a whole gate game")
	fs.IntVar(&n.GatePlies, "gate-plies", n.GatePlies, "with -nnue: random opening plies of a gate pair")
	fs.IntVar(&n.MaxPairs, "max-pairs", n.MaxPairs, "with -nnue: an undecided SPRT stops here (passes when the 95% interval is above elo0)")
	fs.DurationVar(&n.Grace, "grace", n.Grace, "with -nnue: how long the gate waits for the started gate workers to end after its decision")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *isNNUE {
		c.NNUE = n
		if c.Engine == "" {
			c.Engine = "nnab"
		}
	}
	if c.Engine == "" {
		c.Engine = pipeline.DefaultStoreConfig().Engine
	}
	if *runURL == "" {
		fmt.Fprintln(stderr, "cluster cycle: -run URL is required")
		return errUsage
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		return err
	}
	cy, err := pipeline.OpenStore(ctx, *runURL, g, c, *work, stderr)
	if err != nil {
		return err
	}
	_, err = cy.Run(ctx, *gens)
	return err
}

func gateWorker(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) error {
	game := fs.String("game", "bacteria-war", "game")
	runURL := fs.String("run", "", "the run's store URL, e.g. s3://bucket/run1 (required)")
	index := fs.Int("index", -1, "this worker's index (default $JOB_COMPLETION_INDEX, else 0)")
	work := fs.String("work", "gate-work", "local directory for the nets")
	wait := fs.Duration("wait", time.Hour, "how long to wait for an open gate")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *runURL == "" {
		fmt.Fprintln(stderr, "cluster gate-worker: -run URL is required")
		return errUsage
	}
	var err error
	if *index < 0 {
		if *index, err = cluster.IndexFromEnv(0); err != nil {
			return err
		}
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		return err
	}
	w := &pipeline.GateWorker{Run: *runURL, Index: *index, Game: g, Work: *work, Wait: *wait, Log: stderr}
	_, err = w.Play(ctx)
	return err
}

func status(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) error {
	runURL := fs.String("run", "", "the run's store URL (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	st, err := pipeline.ReadStoreState(ctx, *runURL)
	if err != nil {
		return err
	}
	st.Summary(os.Stdout)
	return nil
}
