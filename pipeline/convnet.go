package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"colony/arena"
	"colony/contract"
	"colony/data"
	"colony/mcts"
	"colony/models"
	"colony/nn"
	"colony/replay/report"
	"colony/selfplay"
	"colony/train"
)

// convnetKind is the AlphaZero cycle's kind (a run without Config.NNUE): PUCT self-play with
// the best net (Game.SelfPlay), the candidate trained from the best on the replay window
// (train.Run), a gate of Config.GateGames agent processes playing mcts at Config.GateClock
// (or arena.RunArgv for an ArgvGame: see gateArgv), and the promoted net saved as the next
// NNNNNN.model.
type convnetKind struct{ c *Cycle }

// file is the generation's candidate.
func (k convnetKind) file() string { return filepath.Join(k.c.genDir(), "candidate.model") }

// adopt checks a convnet model trained elsewhere and copies it in as the candidate.
func (k convnetKind) adopt(candidate string) error {
	if _, _, err := models.Load(k.c.game.Info(), candidate); err != nil {
		return err
	}
	return copyFile(candidate, k.file())
}

// first is Config.Init (random:BxC: a random net saved as init.model), or the newest model in
// Config.Models.
func (k convnetKind) first() (string, error) {
	c := k.c
	info := c.game.Info()
	best := c.cfg.Init
	if m, err := randomConvnet(info, best, c.cfg.Seed); err != nil {
		return "", err
	} else if m != nil {
		best = filepath.Join(c.dir, "init.model")
		if err := m.Save(best); err != nil {
			return "", err
		}
	}
	if best == "" {
		names, _ := filepath.Glob(filepath.Join(c.cfg.Models, "*.model"))
		sort.Strings(names)
		if len(names) == 0 {
			return "", fmt.Errorf("pipeline: no initial model given and none in %s: train one first (see README)", c.cfg.Models)
		}
		best = names[len(names)-1]
	}
	if _, _, err := models.Load(info, best); err != nil {
		return "", err
	}
	return best, nil
}

func (k convnetKind) selfPlay(ctx context.Context, w io.Writer) error {
	c := k.c
	m, name, err := models.Load(c.game.Info(), c.st.Best)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "self-play: %d games with %s (%dx%d, sha256 %.12s)\n", c.cfg.SelfPlayGames, name, m.Arch.Blocks, m.Arch.Channels, m.SHA256())
	meta := data.Meta{Generation: c.st.Generation, ModelSHA256: m.SHA256(), GitRevision: c.cfg.GitRevision,
		Extra: map[string]string{"model": name, "playouts": fmt.Sprint(c.cfg.Playouts), "fast_playouts": fmt.Sprint(c.cfg.FastPlayouts)}}
	sc := selfplay.Config{Workers: c.cfg.Workers, Games: c.cfg.SelfPlayGames,
		Playouts: c.cfg.Playouts, FastPlayouts: c.cfg.FastPlayouts, Seed: c.seed(), Meta: meta, Progress: w}
	sc.Search = mcts.DefaultConfig()
	sc.Search.BatchSize = 8
	st, err := c.game.SelfPlay(ctx, sc, m, c.shards())
	if err := stopped(ctx, "self-play", err); err != nil {
		return err
	}
	fmt.Fprintf(w, "self-play: %d games, %d positions in %s, %d shards\n", st.Games, st.Positions, st.Elapsed.Round(time.Millisecond), len(st.Shards))
	return nil
}

func (k convnetKind) train(ctx context.Context, w io.Writer) error {
	c := k.c
	g, gdir := c.game, c.genDir()
	_, err := train.Run(ctx, train.RunConfig{
		Game: g.Info(), Symmetries: g.Symmetries(), Model: c.st.Best,
		Shards: c.shards(), Window: c.cfg.Window, Refresh: 500, Steps: int64(c.cfg.TrainSteps),
		Train: train.Config{Batch: c.cfg.Batch, LR: c.cfg.LR}, Seed: c.seed(),
		Checkpoint: filepath.Join(gdir, "train.ckpt"), Every: 200, Out: k.file(),
		CSV: filepath.Join(gdir, "loss.csv"), Plot: filepath.Join(gdir, "loss.png"), LogEvery: 50,
	}, w)
	return err
}

func (k convnetKind) candidate() (file, sha string, err error) {
	file = k.file()
	m, _, err := models.Load(k.c.game.Info(), file)
	if err != nil {
		return "", "", err
	}
	return file, m.SHA256(), nil
}

// gate plays the candidate net against the best with mcts.
func (k convnetKind) gate(ctx context.Context, w io.Writer, res *GenResult) error {
	c := k.c
	agent := func(model string) []string {
		return []string{c.cfg.Agent, "-game", c.game.Info().Name, "-engine", "mcts", "-seed", "{seed}", "-model", model}
	}
	if a, ok := c.game.(ArgvGame); ok && a.ArgvProtocol() != "" {
		return k.gateArgv(res, w, agent(res.Candidate), agent(c.st.Best))
	}
	ac := arena.Config{Rules: c.game.Rules(), A: agent(res.Candidate), B: agent(c.st.Best), Games: c.cfg.GateGames,
		Clock: c.cfg.GateClock, Parallel: c.cfg.GateParallel, Openings: c.cfg.GateOpenings, Seed: c.seed(),
		Mem: arena.Limits{RSS: 1 << 30}, OutDir: filepath.Join(c.genDir(), "arena")}
	sum, err := c.play(ctx, w, "gate", ac)
	if err != nil {
		return err
	}
	res.record(sum)
	res.Promoted = sum.AScore >= c.cfg.Promote && res.Verdicts == 0
	return nil
}

func (k convnetKind) promote(*GenResult) (string, error) {
	return promote(k.c.cfg.Models, k.file(), ".model")
}

// report adds nothing: a convnet run's report is the cycle's.
func (convnetKind) report(*report.Report) error { return nil }

// randomConvnet is the untrained net that init names, random:BLOCKSxCHANNELS, made from seed
// (Config.Init, StoreConfig.Init); nil when init names a file.
func randomConvnet(info contract.Info, init string, seed uint64) (*nn.Model, error) {
	size, ok := strings.CutPrefix(init, "random:")
	if !ok {
		return nil, nil
	}
	var b, ch int
	if _, err := fmt.Sscanf(size, "%dx%d", &b, &ch); err != nil || b < 0 || ch < 1 {
		return nil, fmt.Errorf("pipeline: init %q: want random:BLOCKSxCHANNELS", init)
	}
	return nn.NewRandom(nn.ArchFor(info, b, ch), seed), nil
}

// ArgvGame is a Game whose programs are started once per move with the position as their
// argument (a King-of-the-Hill controller: Slime); a registry.Game is one. Its gate is
// arena.RunArgv instead of the judge protocol.
type ArgvGame interface {
	Game
	ArgvProtocol() string // "" when the game has no such protocol
}

// gateArgv gates a King-of-the-Hill game: the candidate in one seat and the best model in
// every other, every seat order, ceil(GateGames / orders) rounds; each move's program
// keeps the game's own time per move (GateClock and GateOpenings do not apply). The games
// are scored by each program's average score (Slime: cells held); the candidate's Score is
// its average over the sum of its and the best programs' mean average, 0.5 for equals, so
// that Promote reads as for two players. Its verdicts are its moves that were no move (no
// line in time, output that is not a legal move).
func (k convnetKind) gateArgv(res *GenResult, w io.Writer, cand, best []string) error {
	c := k.c
	n := c.game.Info().Players()
	entries := [][]string{cand}
	for range n - 1 {
		entries = append(entries, best)
	}
	orders := len(arena.Permutations(n))
	ac := arena.ArgvConfig{Rules: c.game.Rules(), Entries: entries, Rounds: max(1, (c.cfg.GateGames+orders-1)/orders),
		RSS: 1 << 30, Seed: c.seed(), Parallel: c.cfg.GateParallel, OutDir: filepath.Join(c.genDir(), "arena")}
	fmt.Fprintf(w, "gate: %d games (%d seat orders x %d rounds), a process per move: A %s\n      others %s\n",
		orders*ac.Rounds, orders, ac.Rounds, strings.Join(cand, " "), strings.Join(best, " "))
	sum, err := arena.RunArgv(ac, func(done, total int, r *arena.ArgvRecord) {
		fmt.Fprintf(w, "gate: [%d/%d] game %d, seats %v: %v (%s)\n", done, total, r.Index, r.Order, r.Scores, r.Outcome)
	})
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if sum.Games == 0 {
		return errors.New("arena played no game")
	}
	a, b := sum.Entries[0].Score, 0.0
	for _, e := range sum.Entries[1:] {
		b += e.Score / float64(n-1)
	}
	res.Games, res.Score = sum.Games, 0.5
	if a+b > 0 {
		res.Score = a / (a + b)
	}
	if res.Score > 0 && res.Score < 1 {
		res.EloDiff = arena.EloFromScore(res.Score)
	}
	res.Verdicts = sum.Entries[0].Invalid
	res.Promoted = res.Score >= c.cfg.Promote && res.Verdicts == 0
	fmt.Fprintf(w, "gate: candidate %.2f, best %.2f on average: score %.3f\n", a, b, res.Score)
	return nil
}
