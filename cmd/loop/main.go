// Command loop runs the AlphaZero cycle of package pipeline for a registered game, generation
// after generation: self-play with the best model -> train a candidate on the replay window
// -> gate the candidate against the best (agent processes at the real clock; for a game played
// a process per move, Slime, the candidate against the best in every other seat, every seat
// order, scored by average score) -> promote it
// (models/<game>/NNNNNN.model, with a copy of the run's elo.png) when it scores at least
// -promote. Only a promotion writes into the models directory.
//
// Everything else lives in the run directory: state.json (generation, stage, best model, Elo
// history), config.json, shards/, elo.png, and gen-NNNN/ with each generation's logs,
// checkpoint, candidate, loss CSV/PNG and arena records. Killed at any moment, `loop` started
// again with the same -run resumes at the stage it was in (training from its checkpoint).
//
//	loop -game bacteria-war -run runs/bw -generations 3 -init models/bacteria-war/000001.model
//	loop -run runs/bw -gate-only m2.model [-gate-games 100 -gate-clock 2s]
//	loop -nnue -run runs/nnue23 -gate-only w256.nnue   (a net trained elsewhere; w256-train.log and w256-window.tsv beside it go with it)
//	loop -game bacteria-war -nnue -run runs/nnue -generations 1000   (see docs/nnue-cycle.md)
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
	"strings"
	"syscall"

	"colony/pipeline"
	"colony/registry"
	"colony/replay/report"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("loop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := pipeline.DefaultConfig()
	game := fs.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	runDir := fs.String("run", "", "run directory (created; resumed when it exists; default runs/<game>)")
	gens := fs.Int("generations", 1, "generations to run in this invocation")
	gateOnly := fs.String("gate-only", "", "gate this model (trained elsewhere: a .model, or with -nnue a .nnue with NAME-train.log and NAME-window.tsv beside it) as the current generation's candidate: no self-play or training")
	fs.StringVar(&c.Init, "init", "", "first best model when the run is new: a file, or random:BxC for an untrained net (default: newest in -models)")
	fs.StringVar(&c.Agent, "agent", "", "the agent binary the gate runs (default: the run's, or bin/agent for a new run)")
	fs.StringVar(&c.Models, "models", "", "where promoted models are written (default models/<game>)")
	fs.IntVar(&c.SelfPlayGames, "selfplay-games", c.SelfPlayGames, "self-play games per generation")
	fs.IntVar(&c.Playouts, "playouts", c.Playouts, "playouts of a full self-play search")
	fs.IntVar(&c.FastPlayouts, "fast-playouts", c.FastPlayouts, "playouts of a fast self-play search (0: off)")
	fs.IntVar(&c.Workers, "workers", c.Workers, "self-play workers")
	fs.IntVar(&c.TrainSteps, "train-steps", c.TrainSteps, "training steps per generation (with -nnue the default is 30000)")
	fs.IntVar(&c.Batch, "batch", c.Batch, "training batch (with -nnue the default is 1024)")
	fs.Float64Var(&c.LR, "lr", c.LR, "learning rate")
	fs.IntVar(&c.Window, "window", c.Window, "replay window (examples; with -nnue the default is 20000000)")
	fs.IntVar(&c.GateGames, "gate-games", c.GateGames, "gating games (even: each opening with both colours; a process-per-move game plays whole rounds of every seat order)")
	fs.DurationVar(&c.GateClock, "gate-clock", c.GateClock, "gating clock per side for the whole game (judge games; a process-per-move game keeps its own time per move)")
	fs.IntVar(&c.GateParallel, "gate-parallel", c.GateParallel, "gating games at once")
	fs.IntVar(&c.GateOpenings, "gate-openings", c.GateOpenings, "random opening plies of the gating games")
	fs.Float64Var(&c.Promote, "promote", c.Promote, "promote the candidate at this score or more (with -nnue: the confirm match's, default 0.5)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "run seed")
	fs.StringVar(&c.ExtraShards, "extra-shards", "", "shard directory copied into the run's shards at the start (bootstrap data)")
	reportOut := fs.String("report", "", "write the HTML training report to this file and exit: of the run given by -run, or without -run of the shipped nnue nets (-models, default models/<game>/nnue: provenance.tsv)")
	isNNUE := fs.Bool("nnue", false, "run the NNUE generation cycle (nnab data, train.RunNNUE, SPRT then confirm gate; nets in models/<game>/nnue with provenance.tsv)")
	n := pipeline.DefaultNNUE()
	fs.IntVar(&n.Games, "nnue-games", n.Games, "with -nnue: data games per generation (0: -nnue-duration)")
	fs.DurationVar(&n.Duration, "nnue-duration", n.Duration, "with -nnue: data time per generation (when -nnue-games is 0)")
	fs.IntVar(&n.Buckets, "nnue-buckets", n.Buckets, "with -nnue: the candidate's output buckets by piece count (2..16): a best net without them is first copied into them (the same function); 0: the best net's")
	fs.IntVar(&n.Widen, "nnue-widen", n.Widen, "with -nnue: the candidate's accumulator lanes (a multiple of 16): a narrower best net is first widened to them (the same function; the new lanes learn); 0: the best net's")
	fs.Int64Var(&n.Warmup, "nnue-warmup", n.Warmup, "with -nnue: the candidate's training warms its learning rate up linearly over this many steps")
	fs.Int64Var(&n.ValEvery, "nnue-val-every", n.ValEvery, "with -nnue: validate the candidate every this many training steps (0: every epoch)")
	fs.IntVar(&n.TrainThreads, "nnue-train-threads", n.TrainThreads, "with -nnue: split each training batch between this many graphs run side by side (data parallel; the batch must divide)")
	fs.Int64Var(&n.Nodes, "nnue-nodes", n.Nodes, "with -nnue: hard node budget per data move")
	fs.Int64Var(&n.SoftNodes, "nnue-soft-nodes", n.SoftNodes, "with -nnue: soft node budget per data move")
	fs.Float64Var(&n.ScoreWeight, "score-weight", n.ScoreWeight, "with -nnue: training target (1-w)·result + w·score")
	fs.Float64Var(&n.ScoreLambda, "score-lambda", n.ScoreLambda, "with -nnue: the score of each example becomes the λ-return of its game's later scores and outcome (trainnnue -score-lambda; 0: the shards' own)")
	fs.Float64Var(&n.TeacherWeight, "teacher-weight", n.TeacherWeight, "with -nnue: the best net teaches its candidate: target = (1-t)·target + t·its value (0: no teacher; below 1)")
	fs.StringVar(&n.SPRT, "sprt", n.SPRT, "with -nnue: the fast gate's SPRT elo0,elo1[,alpha,beta]")
	fs.IntVar(&n.SPRTGames, "sprt-games", n.SPRTGames, "with -nnue: the fast gate's game cap")
	fs.DurationVar(&n.SPRTClock, "sprt-clock", n.SPRTClock, "with -nnue: the fast gate's clock per side")
	fs.Int64Var(&n.SPRTNodes, "sprt-nodes", n.SPRTNodes, "with -nnue: the fast gate's nodes a move for both sides (0: play it at -sprt-clock)")
	openMax := fs.Int("nnue-opening-max", int(n.OpeningMax), "with -nnue: draw a data opening again when its first search scores beyond ± this")
	adjScore := fs.Int("nnue-adjudicate-score", int(n.AdjScore), "with -nnue: a data game ends once -nnue-adjudicate-plies searches in a row score beyond ± this (0: play out)")
	fs.IntVar(&n.AdjPlies, "nnue-adjudicate-plies", n.AdjPlies, "with -nnue: see -nnue-adjudicate-score")
	fs.IntVar(&n.ConfirmGames, "confirm-games", n.ConfirmGames, "with -nnue: confirm games at -gate-clock after SPRT H1, promote at -promote (0: none)")
	ref := fs.String("ref", "", "with -nnue: a reference opponent's command (e.g. 'bin/agent -engine uai -uai-cmd ENGINE'); after the fast gate the candidate and the best net each play -ref-games against it on the same openings at -sprt-nodes, and a candidate that does worse there (paired sign test z at or below -ref-min-z) is rejected")
	fs.IntVar(&n.RefGames, "ref-games", n.RefGames, "with -nnue -ref: games each net plays against the reference")
	fs.Float64Var(&n.RefMinZ, "ref-min-z", n.RefMinZ, "with -nnue -ref: reject the candidate when the paired sign test's z against the best net is at or below this")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "loop: unexpected arguments %q\n", fs.Args())
		return 2
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		fmt.Fprintf(stderr, "loop: %v\n", err)
		return 2
	}
	if *isNNUE {
		n.OpeningMax, n.AdjScore = int32(*openMax), int32(*adjScore)
		n.Ref = strings.Fields(*ref)
		c.NNUE = n
		nnueDefaults(fs, &c)
	}
	if *reportOut != "" {
		if err := writeReport(*reportOut, *runDir, *game, c.Models, g, stderr); err != nil {
			fmt.Fprintf(stderr, "loop: %v\n", err)
			return 1
		}
		return 0
	}
	if *runDir == "" {
		*runDir = "runs/" + *game
	}
	cy, err := pipeline.Open(*runDir, g, c, stderr)
	if err == nil {
		if *gateOnly != "" {
			_, err = cy.GateOnly(ctx, *gateOnly)
		} else {
			_, err = cy.Run(ctx, *gens)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "loop: %v\n", err)
		return 1
	}
	return 0
}

// writeReport writes the training report of the run in runDir to out, or without runDir the
// report of the game's shipped nnue nets in models ("": models/<game>/nnue).
func writeReport(out, runDir, game, models string, g registry.Game, stderr io.Writer) error {
	var r *report.Report
	var err error
	if runDir == "" {
		if models == "" {
			models = filepath.Join("models", game, "nnue")
		}
		r, err = pipeline.ShippedReport(game, models)
	} else {
		if _, err := pipeline.LoadState(runDir); err != nil {
			return fmt.Errorf("%s is not a run directory: %w", runDir, err)
		}
		var cy *pipeline.Cycle
		if cy, err = pipeline.Open(runDir, g, pipeline.DefaultConfig(), io.Discard); err == nil {
			r, err = cy.Report()
		}
	}
	if err != nil {
		return err
	}
	if err := r.WriteFile(out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "loop: wrote %s\n", out)
	return nil
}

// nnueDefaults gives the training and promotion settings that the command line leaves out
// the NNUE recipe's values (pipeline.DefaultNNUEConfig) instead of the convnet's.
func nnueDefaults(fs *flag.FlagSet, c *pipeline.Config) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	d := pipeline.DefaultNNUEConfig()
	if !set["train-steps"] {
		c.TrainSteps = d.TrainSteps
	}
	if !set["batch"] {
		c.Batch = d.Batch
	}
	if !set["lr"] {
		c.LR = d.LR
	}
	if !set["window"] {
		c.Window = d.Window
	}
	if !set["promote"] {
		c.Promote = d.Promote
	}
}
