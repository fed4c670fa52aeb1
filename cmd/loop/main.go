// Command loop runs the AlphaZero cycle for Bacteria War, generation after generation:
// self-play with the best model -> train a candidate on the replay window -> gate the
// candidate against the best in arena -> promote it (models/bacteria-war/NNNNNN.model) when it
// scores at least -promote. It drives the selfplay, train, arena and agent binaries of -bin.
//
// Everything lives in the run directory: state.json (generation, stage, best model, Elo
// history), config.json, shards/, and gen-NNNN/ with each generation's logs, checkpoint,
// candidate, loss CSV/PNG and arena records. Killed at any moment, `loop` started again with
// the same -run resumes at the stage it was in (training resumes from its checkpoint).
//
//	loop -run runs/bw -generations 3 -init models/bacteria-war/000001.model
package main

import (
	"colony/arena"
	"colony/nn"

	"colony/internal/atomicfile"

	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"colony/train"
)

type config struct {
	Bin           string  `json:"bin"`
	Models        string  `json:"models"`
	Games         int     `json:"selfplay_games"`
	Playouts      int     `json:"playouts"`
	FastPlayouts  int     `json:"fast_playouts"`
	Workers       int     `json:"workers"`
	Steps         int     `json:"train_steps"`
	Batch         int     `json:"batch"`
	LR            float64 `json:"lr"`
	Window        int     `json:"window"`
	GateGames     int     `json:"gate_games"`
	GateClock     string  `json:"gate_clock"`
	GateParallel  int     `json:"gate_parallel"`
	Promote       float64 `json:"promote"`
	Seed          uint64  `json:"seed"`
	ExtraShards   string  `json:"extra_shards,omitempty"`
	TrainArgs     string  `json:"train_args,omitempty"`
	SelfplayArgs  string  `json:"selfplay_args,omitempty"`
	GitRevision   string  `json:"git_revision,omitempty"`
	StartedAtUnix int64   `json:"started_unix"`
}

// genResult is one gated generation.
type genResult struct {
	Generation int     `json:"generation"`
	Candidate  string  `json:"candidate"`
	Score      float64 `json:"score"`
	EloDiff    float64 `json:"elo_diff"`
	EloErr     float64 `json:"elo_err"`
	Promoted   bool    `json:"promoted"`
	Model      string  `json:"model,omitempty"` // the promoted file
	Elo        float64 `json:"elo"`             // Elo of the best model after this generation
}

type state struct {
	Generation int         `json:"generation"` // the generation in progress (1-based)
	Stage      string      `json:"stage"`      // selfplay, train, gate
	Best       string      `json:"best"`       // path of the best model
	BestElo    float64     `json:"best_elo"`
	History    []genResult `json:"history"`
}

func main() {
	if err := runLoop(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "loop: %v\n", err)
		os.Exit(1)
	}
}

func runLoop(args []string) error {
	fs := flag.NewFlagSet("loop", flag.ContinueOnError)
	var c config
	runDir := fs.String("run", "runs/bacteria-war", "run directory (created; resumed when it exists)")
	gens := fs.Int("generations", 1, "generations to run in this invocation")
	initModel := fs.String("init", "", "first best model when the run is new: a file, or random:BxC for an untrained net (default: newest in -models)")
	gateOnly := fs.String("gate-only", "", "gate this model (trained elsewhere) as the current generation's candidate: no self-play or training")
	fs.StringVar(&c.Bin, "bin", "bin", "directory holding selfplay, train, arena and agent")
	fs.StringVar(&c.Models, "models", "models/bacteria-war", "where promoted models are written")
	fs.IntVar(&c.Games, "selfplay-games", 200, "self-play games per generation")
	fs.IntVar(&c.Playouts, "playouts", 200, "playouts of a full self-play search")
	fs.IntVar(&c.FastPlayouts, "fast-playouts", 50, "playouts of a fast self-play search (0: off)")
	fs.IntVar(&c.Workers, "workers", 2, "self-play workers")
	fs.IntVar(&c.Steps, "train-steps", 1000, "training steps per generation")
	fs.IntVar(&c.Batch, "batch", 256, "training batch")
	fs.Float64Var(&c.LR, "lr", 1e-3, "learning rate")
	fs.IntVar(&c.Window, "window", 300_000, "replay window (examples)")
	fs.IntVar(&c.GateGames, "gate-games", 40, "gating games (even: each opening with both colours)")
	fs.StringVar(&c.GateClock, "gate-clock", "10s", "gating clock per side for the whole game")
	fs.IntVar(&c.GateParallel, "gate-parallel", 2, "gating games at once")
	fs.Float64Var(&c.Promote, "promote", 0.55, "promote the candidate at this score or more")
	fs.Uint64Var(&c.Seed, "seed", 1, "run seed")
	fs.StringVar(&c.ExtraShards, "extra-shards", "", "shard directory copied into the run's shards at the start (bootstrap data)")
	fs.StringVar(&c.TrainArgs, "train-args", "", "extra arguments for train")
	fs.StringVar(&c.SelfplayArgs, "selfplay-args", "", "extra arguments for selfplay")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(*runDir, "shards"), 0o755); err != nil {
		return err
	}
	st, err := loadState(*runDir)
	if errors.Is(err, os.ErrNotExist) {
		st, err = newRun(*runDir, &c, *initModel)
	} else if err == nil {
		// A resumed run keeps its recorded configuration.
		err = readJSON(filepath.Join(*runDir, "config.json"), &c)
	}
	if err != nil {
		return err
	}
	if *gateOnly != "" {
		if st.Stage != "selfplay" {
			return fmt.Errorf("-gate-only: generation %d is in its %s stage: finish it first", st.Generation, st.Stage)
		}
		gdir := filepath.Join(*runDir, fmt.Sprintf("gen-%04d", st.Generation))
		if err := os.MkdirAll(gdir, 0o755); err != nil {
			return err
		}
		data, err := os.ReadFile(*gateOnly)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(gdir, "candidate.model"), data); err != nil {
			return err
		}
		st.Stage = "gate"
		return generation(*runDir, &c, st)
	}
	for done := 0; done < *gens; done++ {
		if err := generation(*runDir, &c, st); err != nil {
			return fmt.Errorf("generation %d, stage %s: %w", st.Generation, st.Stage, err)
		}
	}
	return nil
}

func newRun(dir string, c *config, initModel string) (*state, error) {
	if size, ok := strings.CutPrefix(initModel, "random:"); ok {
		var b, ch int
		if _, err := fmt.Sscanf(size, "%dx%d", &b, &ch); err != nil {
			return nil, fmt.Errorf("-init %q: want random:BLOCKSxCHANNELS", initModel)
		}
		initModel = filepath.Join(dir, "init.model")
		if err := nn.NewRandom(nn.AtaxxArch(b, ch), c.Seed).Save(initModel); err != nil {
			return nil, err
		}
	}
	if initModel == "" {
		names, _ := filepath.Glob(filepath.Join(c.Models, "*.model"))
		sort.Strings(names)
		if len(names) == 0 {
			return nil, fmt.Errorf("no -init model and none in %s: train one first (see README)", c.Models)
		}
		initModel = names[len(names)-1]
	}
	if _, err := os.Stat(initModel); err != nil {
		return nil, err
	}
	c.StartedAtUnix = time.Now().Unix()
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		c.GitRevision = strings.TrimSpace(string(out))
	}
	if c.ExtraShards != "" {
		if err := copyShards(c.ExtraShards, filepath.Join(dir, "shards")); err != nil {
			return nil, err
		}
	}
	if err := writeJSON(filepath.Join(dir, "config.json"), c); err != nil {
		return nil, err
	}
	st := &state{Generation: 1, Stage: "selfplay", Best: initModel}
	return st, writeJSON(filepath.Join(dir, "state.json"), st)
}

func generation(dir string, c *config, st *state) error {
	gdir := filepath.Join(dir, fmt.Sprintf("gen-%04d", st.Generation))
	if err := os.MkdirAll(gdir, 0o755); err != nil {
		return err
	}
	save := func(stage string) error {
		st.Stage = stage
		return writeJSON(filepath.Join(dir, "state.json"), st)
	}
	cand := filepath.Join(gdir, "candidate.model")
	seed := c.Seed*1000 + uint64(st.Generation)
	if st.Stage == "selfplay" {
		args := []string{"-model", st.Best, "-out", filepath.Join(dir, "shards"), "-games", fmt.Sprint(c.Games),
			"-workers", fmt.Sprint(c.Workers), "-playouts", fmt.Sprint(c.Playouts),
			"-fast-playouts", fmt.Sprint(c.FastPlayouts), "-generation", fmt.Sprint(st.Generation),
			"-seed", fmt.Sprint(seed)}
		if err := runTool(c.Bin, "selfplay", append(args, strings.Fields(c.SelfplayArgs)...), filepath.Join(gdir, "selfplay.log")); err != nil {
			return err
		}
		if err := save("train"); err != nil {
			return err
		}
	}
	if st.Stage == "train" {
		args := []string{"-model", st.Best, "-shards", filepath.Join(dir, "shards"), "-window", fmt.Sprint(c.Window),
			"-batch", fmt.Sprint(c.Batch), "-lr", fmt.Sprint(c.LR), "-steps", fmt.Sprint(c.Steps),
			"-checkpoint", filepath.Join(gdir, "train.ckpt"), "-out", cand,
			"-csv", filepath.Join(gdir, "loss.csv"), "-plot", filepath.Join(gdir, "loss.png"), "-seed", fmt.Sprint(seed)}
		if err := runTool(c.Bin, "train", append(args, strings.Fields(c.TrainArgs)...), filepath.Join(gdir, "train.log")); err != nil {
			return err
		}
		if err := save("gate"); err != nil {
			return err
		}
	}
	if st.Stage == "gate" {
		res, err := gate(c, gdir, cand, st.Best, seed)
		if err != nil {
			return err
		}
		res.Generation = st.Generation
		res.Candidate = cand
		if res.Promoted {
			name, err := promote(c.Models, cand)
			if err != nil {
				return err
			}
			res.Model = name
			st.Best = name
			st.BestElo += res.EloDiff
		}
		res.Elo = st.BestElo
		st.History = append(st.History, res)
		if err := plotElo(c.Models, st.History); err != nil {
			fmt.Fprintf(os.Stderr, "loop: elo plot: %v\n", err)
		}
		fmt.Fprintf(os.Stderr, "loop: generation %d: candidate scored %.1f%% (%+.0f ± %.0f Elo): %s\n", st.Generation,
			100*res.Score, res.EloDiff, res.EloErr, map[bool]string{true: "promoted to " + res.Model, false: "rejected"}[res.Promoted])
		st.Generation++
		if err := save("selfplay"); err != nil {
			return err
		}
	}
	return nil
}

// gate plays the candidate against the best model in arena and reads its JSON summary.
func gate(c *config, gdir, cand, best string, seed uint64) (genResult, error) {
	agent := filepath.Join(c.Bin, "agent")
	args := []string{"-game", "bacteria-war", "-games", fmt.Sprint(c.GateGames), "-clock", c.GateClock,
		"-parallel", fmt.Sprint(c.GateParallel), "-seed", fmt.Sprint(seed), "-openings", "4",
		"-out", filepath.Join(gdir, "arena"), "-json",
		"-a", agent + " -game bacteria-war -engine mcts -seed {seed} -model " + cand,
		"-b", agent + " -game bacteria-war -engine mcts -seed {seed} -model " + best}
	logPath := filepath.Join(gdir, "gate.log")
	var out strings.Builder
	if err := runToolOut(c.Bin, "arena", args, logPath, &out); err != nil {
		return genResult{}, err
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var sum arena.Summary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		return genResult{}, fmt.Errorf("arena summary: %w", err)
	}
	if sum.Games == 0 {
		return genResult{}, errors.New("arena played no game")
	}
	r := genResult{Score: sum.AScore, EloDiff: sum.Elo, EloErr: sum.EloErr}
	r.Promoted = sum.AScore >= c.Promote && sum.ATLE+sum.ARE+sum.ACrash == 0
	return r, nil
}

// promote copies the candidate into the models directory under the next generation number.
func promote(models, cand string) (string, error) {
	if err := os.MkdirAll(models, 0o755); err != nil {
		return "", err
	}
	names, _ := filepath.Glob(filepath.Join(models, "*.model"))
	next := 1
	for _, n := range names {
		var k int
		if _, err := fmt.Sscanf(filepath.Base(n), "%06d.model", &k); err == nil && k >= next {
			next = k + 1
		}
	}
	dst := filepath.Join(models, fmt.Sprintf("%06d.model", next))
	data, err := os.ReadFile(cand)
	if err != nil {
		return "", err
	}
	return dst, writeAtomic(dst, data)
}

func plotElo(models string, hist []genResult) error {
	gens := []int{0}
	elo := []float64{0}
	for _, h := range hist {
		gens = append(gens, h.Generation)
		elo = append(elo, h.Elo)
	}
	return train.PlotElo(filepath.Join(models, "elo.png"), gens, elo)
}

func runTool(bin, tool string, args []string, logPath string) error {
	return runToolOut(bin, tool, args, logPath, nil)
}

// runToolOut runs bin/tool with args, its stderr appended to logPath (and echoed), its stdout
// to out when given.
func runToolOut(bin, tool string, args []string, logPath string, out io.Writer) error {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	fmt.Fprintf(logf, "# %s %s %s\n", time.Now().Format(time.RFC3339), tool, strings.Join(args, " "))
	cmd := exec.Command(filepath.Join(bin, tool), args...)
	cmd.Stderr = io.MultiWriter(logf, os.Stderr)
	if out != nil {
		cmd.Stdout = io.MultiWriter(logf, out)
	} else {
		cmd.Stdout = logf
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w (log: %s)", tool, err, logPath)
	}
	return nil
}

func copyShards(src, dst string) error {
	names, err := filepath.Glob(filepath.Join(src, "*.shard"))
	if err != nil {
		return err
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return err
		}
		if err := writeAtomic(filepath.Join(dst, filepath.Base(n)), data); err != nil {
			return err
		}
	}
	return nil
}

func writeAtomic(path string, data []byte) error { return atomicfile.WriteFile(path, data) }

func loadState(dir string) (*state, error) {
	var st state
	if err := readJSON(filepath.Join(dir, "state.json"), &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error { return arena.WriteJSON(path, v) }
