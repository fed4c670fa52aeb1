// Command trainnnue fits a game's efficiently updatable evaluator (colony/nn/nnue) on
// self-play shards (train.RunNNUE): value regression against each example's value target of
// the side to move.
//
//	trainnnue [-game bacteria-war] -shards DIR -out FILE [-model IN | -hidden 128 -l1 0
//	          -activation crelu -input cells -perspectives 2] [-buckets B] -steps N
//	          [-batch 1024] [-threads 1] [-lr 2e-3] [-lr-schedule cosine|step|constant] [-warmup 0]
//	          [-window K] [-val-frac 0.02] [-val-every 0] [-best-val]
//	          [-csv FILE] [-epoch-csv FILE] [-plot FILE] [-every 1000] [-score-scale 300]
//	          [-teacher NET -teacher-weight T]
//	trainnnue ... -model OUT -resume [-steps N]   (go on with a stopped run: OUT.ckpt)
//	trainnnue [-game bacteria-war] -model FILE -eval DIR      (value MSE over DIR's examples)
//	trainnnue [-game bacteria-war] -model A,B,... -screen DIR[,DIR...] [-screen-plies 30-89]
//	          (each net's error on the results of the arena games recorded in the DIRs,
//	          paired with the first net's game by game)
//
// The model is written to -out every -every steps, at the end and on SIGINT/SIGTERM, each
// time with its resume checkpoint OUT.ckpt (with -best-val, the last model's as
// OUT.last.ckpt; none for an output URL). A stopped run is continued with -model set to that
// file: as a new run (a fresh schedule and optimizer), or with -resume as the same run (the
// checkpoint's schedule, Adam state and sampling; -steps only to go past its end). -val-frac
// of the shards (whole shards, picked by a hash of their names) are held out of training and validated every epoch
// (the training window over the batch) or -val-every steps; the rows go to -epoch-csv
// (default OUT.epochs.csv), the loss and learning-rate curves to -plot (default OUT.loss.svg)
// at the end ("none": not written). -input windows starts a fresh net on
// the board's 2x2 windows (nnue.WindowInput); a start model keeps its own input kind, unless
// -to-windows first moves a cell-input start model to window input (nnue.ToWindows, the same
// function), as -widen moves it to more lanes (random new lanes, nnue.Widen; with -split to
// twice the lanes, each lane split in two, nnue.Split). -perspectives 1 starts a fresh net whose output
// reads the side to move's accumulator only (nnue.Arch.STMOnly); with -model, a
// two-perspective start net is first cut to one (nnue.ToSTMOnly: the side to move's output
// weights kept, the other's dropped; not the same function, a warm start); -untie instead moves
// it to one perspective of twice the lanes computing the same function (nnue.Untie: the shared
// feature transformer becomes two). -buckets B gives the
// net B output layers, one per range of piece counts (nnue.Arch.Bucket); with -model, an
// unbucketed start net is first copied into B identical buckets (nnue.WithBuckets: the same
// function, written next to -out as OUT.buckets), and a start net with B buckets is
// continued as it is.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"colony/arena"
	"colony/cluster"
	"colony/contract"
	"colony/nn/nnue"
	"colony/registry"
	"colony/train"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if os.Getenv("GOGC") == "" {
		// The training window is most of the heap and lives the whole run: the default
		// (collect at twice the live heap) would let it double in memory. The window is
		// pointer-free arrays, so a collection costs little.
		debug.SetGCPercent(25)
	}
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("trainnnue", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "bacteria-war", "game: "+strings.Join(registry.Names(), ", "))
	hidden := fs.Int("hidden", 128, "accumulator width per perspective of a fresh net (multiple of 16)")
	l1 := fs.Int("l1", 0, "hidden dense units after the accumulators of a fresh net (0: none)")
	activation := fs.String("activation", "crelu", "the accumulators' activation of a fresh net: crelu or screlu")
	input := fs.String("input", "cells", "the input features of a fresh net: cells (cells x own/other) or windows (2x2 windows x 81 states)")
	persp := fs.Int("perspectives", 0, "accumulators the output reads: 2 both (a fresh net's default), 1 the side to move's (nnue.Arch.STMOnly); with -model, 1 first cuts a two-perspective start net to one (written next to -out as OUT.stm); 0: the start model's own")
	var c train.NNUEConfig
	fs.StringVar(&c.Model, "model", "", "start model file or URL (default: a fresh net)")
	fs.StringVar(&c.Shards, "shards", "", "shard directory, or a shards store URL s3://bucket/run/shards (ingested: docs/cluster.md) (required)")
	fs.StringVar(&c.Out, "out", "", "output model file or URL (required)")
	accept := fs.String("accept-nets", "", "with a -shards URL: comma-separated net SHA-256s whose shards are taken (default: any)")
	fs.IntVar(&c.Window, "window", 2_000_000, "newest examples sampled from")
	fs.Int64Var(&c.Refresh, "refresh", 0, "rescan the shards every this many steps (0: never)")
	fs.Int64Var(&c.Steps, "steps", 10000, "updates past the start model's step")
	fs.IntVar(&c.Batch, "batch", 1024, "batch size")
	fs.IntVar(&c.Threads, "threads", 1, "split each batch between this many graphs run side by side (data parallel; the batch must divide); the result differs from one thread's only in the order of float sums")
	fs.Float64Var(&c.LR, "lr", 2e-3, "Adam learning rate (before the schedule)")
	fs.StringVar(&c.Schedule, "lr-schedule", "cosine", "learning-rate schedule: cosine (lr to -min-lr over the steps), step (times -lr-drop every -lr-drop-every steps) or constant")
	fs.Int64Var(&c.Warmup, "warmup", 0, "linear learning-rate warm-up over this many steps first")
	fs.Float64Var(&c.MinLR, "min-lr", 0, "the cosine schedule's final learning rate (0: lr/20)")
	fs.Float64Var(&c.LRDrop, "lr-drop", 0.3, "the step schedule's factor")
	fs.Int64Var(&c.LRDropEvery, "lr-drop-every", 0, "the step schedule's period in steps (0: a third of -steps)")
	fs.Float64Var(&c.ValFrac, "val-frac", 0.02, "fraction of the shards held out for validation, whole shards picked by a hash of their names (0: none)")
	fs.IntVar(&c.ValMax, "val-max", train.DefaultValMax, "validation examples evaluated (the newest of the held-out shards)")
	fs.Int64Var(&c.ValEvery, "val-every", 0, "validate every this many steps (0: every epoch, the training window over the batch)")
	fs.BoolVar(&c.BestVal, "best-val", false, "write the model of the lowest validation loss to -out (the last one to OUT.last)")
	fs.StringVar(&c.EpochCSV, "epoch-csv", "", "per-validation CSV (default OUT.epochs.csv with a validation split; none: not written)")
	fs.StringVar(&c.Plot, "plot", "", "loss and learning-rate curves at the end, SVG or PNG by extension (default OUT.loss.svg; none: not drawn)")
	fs.Float64Var(&c.WeightDecay, "wd", 0, "L2 on the weight matrices")
	fs.Int64Var(&c.Every, "every", 1000, "write the model every this many steps")
	fs.StringVar(&c.CSV, "csv", "", "per-step loss CSV")
	fs.StringVar(&c.Manifest, "manifest", "", "list the training window's shards here (file hash, examples used: the loop's count of a child net's new positions reads it)")
	fs.Int64Var(&c.LogEvery, "log", 200, "a progress line every this many steps")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed (fresh net and sampling)")
	fs.IntVar(&c.ScoreScale, "score-scale", 300, "the shards' score scale (selfplay -score-scale): score per logit unit, stored in the model")
	fs.Float64Var(&c.ScoreWeight, "score-weight", 0.5, "target = (1-w)·result + w·score for shards that store search scores (selfplay -scores); older shards' mixed values are used as they are")
	fs.Float64Var(&c.ScoreLambda, "score-lambda", 0.7, "the score of each training example becomes the λ-return of its game's later search scores and outcome, (1-λ)·Σ λ^k·score(t+k) + λ^n·result (0: the shards' own scores; below 1)")
	fs.StringVar(&c.Teacher, "teacher", "", "a net whose value blends into every training target at -teacher-weight (distillation into a fresh shape); validation keeps the shards' targets")
	fs.Float64Var(&c.TeacherWeight, "teacher-weight", 0, "target = (1-t)·target + t·tanh(teacher logit), with -teacher (0..1)")
	toWindows := fs.Bool("to-windows", false, "with -model: first move the cell-input start net to the 2x2 window input (the same function; the window rows learn), written next to -out as OUT.windows")
	widen := fs.Int("widen", 0, "with -model: first widen the start net to this many lanes (the same function; new lanes learn), written next to -out as OUT.widened")
	untie := fs.Bool("untie", false, "with -model: first move a two-perspective start net to one perspective of twice the lanes, the same function (nnue.Untie: the feature transformer the perspectives share becomes two), written next to -out as OUT.untied")
	split := fs.Float64("split", -1, "with -widen to twice the start's lanes: split each lane in two (the same function; the halves nudged apart by this fraction of the feature weights' rms, e.g. 0.05) instead of adding random lanes")
	buckets := fs.Int("buckets", 0, "output buckets by piece count (2..16; 0: one output); with -model, an unbucketed start net is first copied into them (the same function), written next to -out as OUT.buckets")
	eval := fs.String("eval", "", "only print the value MSE of -model over the shards in this directory (a held-out check)")
	screen := fs.String("screen", "", "only score the comma-separated nets of -model on the positions of the arena games recorded in these comma-separated directories (game-*.json), each position labelled with its game's result for the side to move; each net paired game by game with the first")
	average := fs.String("average", "", "only write the weight-wise mean of these comma-separated nets of -game (one architecture: fine-tunes of one parent) to -out")
	screenPlies := fs.String("screen-plies", "30-89", "with -screen: the plies of each recorded game scored, FIRST-LAST (ply 0: the game's start after its opening)")
	fs.BoolVar(&c.Resume, "resume", false, "continue the run that wrote -model from MODEL.ckpt (written beside every saved model): its schedule, Adam state and sampling, the learning-rate flags unread; without -steps, to the end of its schedule")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if c.Resume {
		stepsSet, converts := false, false // a converted start is another net than the run's
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "steps":
				stepsSet = true
			case "widen", "to-windows", "buckets", "perspectives", "untie":
				converts = true
			}
		})
		if converts || c.Model == "" {
			fmt.Fprintln(stderr, "trainnnue: -resume needs -model (the stopped run's model) and no conversion of it (-widen, -to-windows, -buckets, -perspectives, -untie)")
			return 2
		}
		if !stepsSet {
			c.Steps = 0
		}
	}
	if *eval != "" {
		return evalOnly(*game, c.Model, *eval, stderr)
	}
	if *average != "" {
		return averageOnly(*game, *average, c.Out, stderr)
	}
	if *screen != "" {
		return screenOnly(*game, c.Model, *screen, *screenPlies, stderr)
	}
	if fs.NArg() > 0 || c.Shards == "" || c.Out == "" {
		fmt.Fprintln(stderr, "trainnnue: -shards and -out are required, and no positional arguments")
		return 2
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		fmt.Fprintln(stderr, "trainnnue:", err)
		return 2
	}
	c.Game, c.Symmetries = g.Info(), g.Symmetries()
	in := cluster.Inputs{Shards: c.Shards, Model: c.Model, Out: c.Out, Accept: cluster.ParseAccept(*accept), Log: stderr}
	if err := in.Localize(ctx, g); err != nil {
		fmt.Fprintln(stderr, "trainnnue:", err)
		return 1
	}
	local := in.Out == c.Out // an output URL is written through a cache: no files beside it
	c.Checkpoints = local
	c.Shards, c.Model, c.Out = in.Shards, in.Model, in.Out
	c.EpochCSV = besideOut(c.EpochCSV, c.Out, ".epochs.csv", local && c.ValFrac > 0)
	c.Plot = besideOut(c.Plot, c.Out, ".loss.svg", local)
	if *widen > 0 {
		conv := func(m *nnue.Model) (*nnue.Model, error) { return nnue.Widen(m, *widen, c.Seed) }
		if *split >= 0 {
			conv = func(m *nnue.Model) (*nnue.Model, error) {
				if *widen != 2*m.Arch.Hidden {
					return nil, fmt.Errorf("-split: -widen %d is not twice the start's %d lanes", *widen, m.Arch.Hidden)
				}
				return nnue.Split(m, *split, c.Seed)
			}
		}
		if code := convertStart(&c, "widen", "widened", conv, stderr); code != 0 {
			return code
		}
	}
	if *split >= 0 && *widen == 0 {
		fmt.Fprintln(stderr, "trainnnue: -split needs -widen (twice the start's lanes)")
		return 2
	}
	if *persp < 0 || *persp > 2 {
		fmt.Fprintf(stderr, "trainnnue: -perspectives %d, want 1 or 2\n", *persp)
		return 2
	}
	if *toWindows {
		if code := convertStart(&c, "to-windows", "windows", func(m *nnue.Model) (*nnue.Model, error) { return nnue.ToWindows(m, c.Game.Width) }, stderr); code != 0 {
			return code
		}
	}
	if *untie {
		if *widen > 0 || *persp != 0 {
			fmt.Fprintln(stderr, "trainnnue: -untie is a conversion of its own (no -widen or -perspectives with it)")
			return 2
		}
		if code := convertStart(&c, "untie", "untied", nnue.Untie, stderr); code != 0 {
			return code
		}
	}
	if *persp == 1 && c.Model != "" {
		if code := convertStart(&c, "perspectives 1", "stm", nnue.ToSTMOnly, stderr); code != 0 {
			return code
		}
	}
	if *buckets != 0 && c.Model != "" {
		m, err := nnue.Load(c.Model)
		switch {
		case err != nil:
		case m.Arch.Buckets == 0:
			if code := convertStart(&c, "buckets", "buckets", func(m *nnue.Model) (*nnue.Model, error) { return nnue.WithBuckets(m, *buckets) }, stderr); code != 0 {
				return code
			}
		case m.Arch.Buckets != *buckets:
			err = fmt.Errorf("-buckets %d: the start model %s has %d output buckets", *buckets, c.Model, m.Arch.Buckets)
		}
		if err != nil {
			fmt.Fprintln(stderr, "trainnnue:", err)
			return 2
		}
	}
	if *persp == 2 && c.Model != "" {
		m, err := nnue.Load(c.Model)
		if err == nil && m.Arch.STMOnly {
			err = fmt.Errorf("-perspectives 2: the start model %s reads one perspective (none is added back)", c.Model)
		}
		if err != nil {
			fmt.Fprintln(stderr, "trainnnue:", err)
			return 2
		}
	}
	if c.Model == "" {
		if c.Arch, err = g.NNUEArch(*hidden, *l1); err != nil {
			fmt.Fprintln(stderr, "trainnnue:", err)
			return 2
		}
		if c.Arch.Activation, err = nnue.ParseActivation(*activation); err != nil {
			fmt.Fprintln(stderr, "trainnnue:", err)
			return 2
		}
		if c.Arch.Input, err = nnue.ParseInput(*input); err != nil {
			fmt.Fprintln(stderr, "trainnnue:", err)
			return 2
		}
		if c.Arch.Input == nnue.WindowInput {
			c.Arch.Width = g.Info().Width
		}
		c.Arch.STMOnly = *persp == 1
		c.Arch.Buckets = *buckets
		if err := c.Arch.Validate(); err != nil {
			fmt.Fprintln(stderr, "trainnnue:", err)
			return 2
		}
	}
	_, err = train.RunNNUE(ctx, c, stderr)
	if err == nil {
		err = in.Publish(ctx)
	}
	if err != nil {
		fmt.Fprintln(stderr, "trainnnue:", err)
		return 1
	}
	return 0
}

func evalOnly(game, model, dir string, stderr io.Writer) int {
	g, err := registry.Lookup(game)
	if err == nil && model == "" {
		err = fmt.Errorf("-eval needs -model")
	}
	var m *nnue.Model
	if err == nil {
		m, err = nnue.Load(model)
	}
	var mse float64
	var n int
	if err == nil {
		mse, n, err = train.EvalNNUE(m, g.Info(), dir)
	}
	if err != nil {
		fmt.Fprintln(stderr, "trainnnue:", err)
		return 1
	}
	fmt.Fprintf(stderr, "trainnnue: %s (%s, step %d): value MSE %.4f over %d examples of %s\n", model, m.Arch, m.Step, mse, n, dir)
	return 0
}

// loadNets loads the nets of the files names, each checked to be for the game of info.
func loadNets(info contract.Info, names []string) ([]*nnue.Model, error) {
	nets := make([]*nnue.Model, len(names))
	for i, name := range names {
		m, err := nnue.Load(name)
		if err == nil {
			err = m.CheckFor(info.Name, info.EncoderVersion)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		nets[i] = m
	}
	return nets, nil
}

// averageOnly writes nnue.Average of the nets in list (comma-separated) to out, each checked
// to be for game.
func averageOnly(game, list, out string, stderr io.Writer) int {
	err := func() error {
		g, err := registry.Lookup(game)
		if err != nil {
			return err
		}
		if out == "" {
			return fmt.Errorf("-average needs -out")
		}
		ms, err := loadNets(g.Info(), strings.Split(list, ","))
		if err != nil {
			return err
		}
		avg, err := nnue.Average(ms...)
		if err != nil {
			return err
		}
		if err := avg.Save(out); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "trainnnue: %s: the mean of %d nets (%s, step %d), sha256 %.12s\n", out, len(ms), avg.Arch, avg.Step, avg.SHA256())
		return nil
	}()
	if err != nil {
		fmt.Fprintln(stderr, "trainnnue:", err)
		return 1
	}
	return 0
}

// screenGame is what -screen needs of a game.
type screenGame interface {
	Info() contract.Info
	Rules() contract.Rules
	EncodeState(st contract.State, dst []float32) error
}

// screenOnly prints train.ScreenNNUE of the nets in models (comma-separated) over the plies
// of the arena games recorded in dirs (comma-separated); a game that did not end on the
// board (a verdict) has no result there and is left out, and counted.
func screenOnly(game, models, dirs, plies string, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintln(stderr, "trainnnue: -screen:", err)
		return code
	}
	var lo, hi int
	if _, err := fmt.Sscanf(plies, "%d-%d", &lo, &hi); err != nil || lo < 0 || hi < lo || fmt.Sprintf("%d-%d", lo, hi) != plies {
		return fail(2, fmt.Errorf("-screen-plies %q: want FIRST-LAST, 0 <= FIRST <= LAST", plies))
	}
	if models == "" {
		return fail(2, fmt.Errorf("needs -model (one net or more, comma-separated)"))
	}
	rg, err := registry.Lookup(game)
	if err != nil {
		return fail(2, err)
	}
	g, ok := rg.(screenGame)
	if !ok {
		return fail(2, fmt.Errorf("%s cannot encode a position", game))
	}
	names := strings.Split(models, ",")
	nets, err := loadNets(g.Info(), names)
	if err != nil {
		return fail(1, err)
	}
	var games [][]train.GamePosition
	positions, unfinished := 0, 0
	input := make([]float32, g.Info().InputSize())
	for _, dir := range strings.Split(dirs, ",") {
		recs, err := arena.ReadRecords(dir)
		if err != nil {
			return fail(1, err)
		}
		for _, r := range recs {
			var gp []train.GamePosition
			end, err := r.Replay(g.Rules(), func(ply int, s contract.State) error {
				if ply < lo || ply > hi {
					return nil
				}
				if err := g.EncodeState(s, input); err != nil {
					return err
				}
				pieces, stm, err := nets[0].Arch.Pieces(input)
				if err == nil && stm != s.ToMove() {
					err = fmt.Errorf("the encoding's side to move %d is not the referee's %d", stm, s.ToMove())
				}
				gp = append(gp, train.GamePosition{Pieces: pieces, STM: stm})
				return err
			})
			if err != nil {
				return fail(1, fmt.Errorf("%s: %w", dir, err))
			}
			if !end.Terminal() {
				unfinished++
				continue
			}
			v := end.Values()
			for i := range gp {
				gp[i].Result = v[gp[i].STM]
			}
			if len(gp) > 0 {
				games = append(games, gp)
				positions += len(gp)
			}
		}
	}
	sc, err := train.ScreenNNUE(nets, games)
	if err != nil {
		return fail(1, err)
	}
	fmt.Fprintf(stderr, "trainnnue: screen: %d positions (plies %s) of %d games in %s (%d games not ended on the board left out)\n",
		positions, plies, len(games), dirs, unfinished)
	for i, s := range sc {
		if i == 0 {
			fmt.Fprintf(stderr, "%s: MSE %.4f\n", names[i], s.MSE)
			continue
		}
		fmt.Fprintf(stderr, "%s: MSE %.4f, %+.4f ± %.4f against %s\n", names[i], s.MSE, s.Diff, s.DiffSE, names[0])
	}
	return 0
}

// besideOut is a file flag's value: "" becomes OUT+suffix when byDefault, "none" nothing.
func besideOut(flag, out, suffix string, byDefault bool) string {
	switch {
	case flag == "none" || (flag == "" && !byDefault):
		return ""
	case flag == "":
		return out + suffix
	}
	return flag
}

// convertStart (for the flag -flag) replaces the start model c.Model by conv of it (the same function in another
// architecture), saved next to c.Out as OUT.suffix: the warm start across architectures.
func convertStart(c *train.NNUEConfig, flag, suffix string, conv func(*nnue.Model) (*nnue.Model, error), stderr io.Writer) int {
	if c.Model == "" {
		fmt.Fprintf(stderr, "trainnnue: -%s needs -model\n", flag)
		return 2
	}
	out := c.Out + "." + suffix
	m, err := nnue.Load(c.Model)
	if err == nil {
		m, err = conv(m)
	}
	if err == nil {
		err = m.Save(out)
	}
	if err != nil {
		fmt.Fprintln(stderr, "trainnnue:", err)
		return 2
	}
	fmt.Fprintf(stderr, "trainnnue: %s moved to %s: %s\n", c.Model, m.Arch, out)
	c.Model = out
	return 0
}
