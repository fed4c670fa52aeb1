// Command train fits a Colony policy/value network on self-play shards (train.Run), or
// converts a model to ONNX.
//
//	train [-game bacteria-war] -shards DIR [-model IN | -blocks B -channels C] -steps N -out MODEL
//	      [-checkpoint FILE] [-csv FILE] [-plot FILE] [-onnx FILE] [-window K] [-batch 256] [-lr 2e-3] [-seed S]
//	train [-game bacteria-war] -onnx OUT [-model IN]     (no -shards: convert IN, default the embedded best model)
//
// It samples batches uniformly (with the game's symmetries) from the newest -window examples
// of the shard directory, refreshing the window every -refresh steps, and trains until the
// start model's step + -steps. With -checkpoint, the full trainer state is saved every -every
// steps and on SIGINT or SIGTERM; when the checkpoint file already exists the run resumes from
// it, so a run killed at any moment is finished by rerunning the same command. A larger
// -steps continues from the checkpoint to the new total; a checkpoint of another game,
// architecture or start model, or one past the step asked for, is refused.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"colony/cluster"
	"colony/models"
	"colony/registry"
	"colony/train"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runCtx(ctx, args, stderr)
}

// options are the parsed flags.
type options struct {
	game   string
	cfg    train.RunConfig
	wd     float64
	accept string
}

func parse(args []string, stderr io.Writer) (*options, int) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "train fits a network on shards, or (-onnx without -shards) converts a model to ONNX.\n\nFlags:")
		fs.PrintDefaults()
	}
	o := &options{}
	c := &o.cfg
	fs.StringVar(&o.game, "game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	fs.StringVar(&c.Model, "model", "", "start model file or URL (default: a fresh net of -blocks x -channels); with -onnx alone, the model to convert (default: the embedded best)")
	fs.IntVar(&c.Blocks, "blocks", train.DefaultBlocks, "residual blocks of a fresh net")
	fs.IntVar(&c.Channels, "channels", train.DefaultChannels, "channels of a fresh net")
	fs.IntVar(&c.PolicyChannels, "policy-channels", 0, "policy-head channels of a fresh net (0: the default, 2)")
	fs.StringVar(&c.Shards, "shards", "", "self-play shard directory, or a shards store URL s3://bucket/run/shards (ingested: see docs/cluster.md) (required to train)")
	fs.StringVar(&o.accept, "accept-nets", "", "with a -shards URL: comma-separated net SHA-256s whose shards are taken (default: any)")
	fs.IntVar(&c.Window, "window", train.DefaultWindow, "replay window: newest examples sampled from")
	fs.Int64Var(&c.Refresh, "refresh", 500, "rescan the shard directory every this many steps (0: never)")
	fs.IntVar(&c.Train.Batch, "batch", 256, "batch size")
	fs.Float64Var(&c.Train.LR, "lr", 2e-3, "base learning rate")
	fs.StringVar(&c.Train.Optimizer, "optimizer", train.Adam, "adam or sgd (momentum 0.9)")
	fs.StringVar(&c.Train.Schedule, "schedule", train.Constant, "learning-rate schedule: constant, cosine or step")
	fs.Int64Var(&c.Train.WarmupSteps, "warmup", 0, "linear learning-rate warm-up steps")
	fs.Float64Var(&c.Train.MinLR, "min-lr", 0, "cosine schedule floor")
	fs.Float64Var(&o.wd, "wd", 1e-4, "L2 coefficient on conv and dense weights (0: none)")
	fs.Float64Var(&c.Train.ValueWeight, "value-weight", 1, "weight of the value loss")
	fs.Float64Var(&c.Train.ClipNorm, "clip", 0, "clip the global gradient norm (0: off)")
	fs.Int64Var(&c.Steps, "steps", 1000, "updates past the start model's step")
	fs.StringVar(&c.Checkpoint, "checkpoint", "", "checkpoint file: resumed from when present, written every -every steps")
	fs.Int64Var(&c.Every, "every", 200, "checkpoint period in steps")
	fs.StringVar(&c.Out, "out", "", "output model file or URL (required to train)")
	fs.StringVar(&c.ONNX, "onnx", "", "also write the trained model as ONNX here; without -shards, only convert -model")
	fs.StringVar(&c.CSV, "csv", "", "per-step loss CSV")
	fs.StringVar(&c.Plot, "plot", "", "loss-curve PNG drawn from -csv at the end (needs -csv)")
	fs.Int64Var(&c.LogEvery, "log", 50, "print a progress line every this many steps")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed (fresh net and batch sampling)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	usage := func(msg string) (*options, int) {
		fmt.Fprintf(stderr, "train: %s\n", msg)
		return nil, 2
	}
	switch {
	case fs.NArg() > 0:
		return usage(fmt.Sprintf("unexpected arguments %q", fs.Args()))
	case c.Shards == "" && c.ONNX == "":
		return usage("-shards DIR is required (or -onnx OUT alone to convert a model)")
	case c.Shards == "" && c.Out != "":
		return usage("-out needs -shards (to convert a model to ONNX, give -onnx OUT and -model IN)")
	case c.Shards != "" && c.Out == "":
		return usage("-out is required")
	case c.Plot != "" && c.CSV == "":
		return usage("-plot needs -csv")
	case c.Steps < 0 || c.Window <= 0:
		return usage("-steps must be >= 0 and -window > 0")
	}
	c.Train.WeightDecay = o.wd
	if o.wd == 0 {
		c.Train.WeightDecay = -1 // train.Config: negative means none
	}
	return o, -1
}

func runCtx(ctx context.Context, args []string, stderr io.Writer) int {
	o, code := parse(args, stderr)
	if o == nil {
		return code
	}
	g, err := registry.Lookup(o.game)
	if err != nil {
		fail(stderr, err)
		return 2
	}
	c := o.cfg
	c.Game, c.Symmetries = g.Info(), g.Symmetries()
	if c.Shards == "" {
		m, name, err := models.Load(c.Game, c.Model)
		if err == nil {
			err = train.ExportONNX(m, c.ONNX)
		}
		if err != nil {
			fail(stderr, err)
			return 1
		}
		fmt.Fprintf(stderr, "train: wrote %s from %s (%dx%d, step %d)\n", c.ONNX, name, m.Arch.Blocks, m.Arch.Channels, m.Step)
		return 0
	}
	in := cluster.Inputs{Shards: c.Shards, Model: c.Model, Out: c.Out, Accept: cluster.ParseAccept(o.accept), Log: stderr}
	err = in.Localize(ctx, g)
	if err == nil {
		c.Shards, c.Model, c.Out = in.Shards, in.Model, in.Out
		_, err = train.Run(ctx, c, stderr)
	}
	if err == nil {
		err = in.Publish(ctx)
	}
	if err != nil {
		fail(stderr, err)
		return 1
	}
	return 0
}

// fail prints err once prefixed with "train: ".
func fail(stderr io.Writer, err error) {
	msg := err.Error()
	if !strings.HasPrefix(msg, "train: ") {
		msg = "train: " + msg
	}
	fmt.Fprintln(stderr, msg)
}
