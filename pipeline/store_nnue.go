package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"colony/arena"
	"colony/data"
	"colony/models"
	"colony/nn/nnue"
	"colony/replay/report"
	"colony/store"
)

// nnueExt ends the NNUE nets' files and keys.
const nnueExt = ".nnue"

// StoreNNUE makes a store run an NNUE generation cycle (StoreConfig.NNUE): the workers run
// the engine's data generation (selfplay -bootstrap -engine nnab -model <run>/best.nnue
// -out <run>/shards with Nodes and SoftNodes), the trainer warm-starts the candidate from the
// best net (train.RunNNUE), and the gate is a pentanomial SPRT over pairs that gate workers
// play (gate.go).
type StoreNNUE struct {
	// NNUERecipe is the data workers' node budgets (their selfplay -nodes and -soft-nodes,
	// recorded in the provenance) and the candidate's training, as the local cycle has them
	// (its fields are this struct's in config.json).
	NNUERecipe

	SPRT      string `json:"sprt"`       // elo0,elo1[,alpha,beta] over pairs
	GateNodes int64  `json:"gate_nodes"` // per gate move, both sides (0: GateClock)
	// GateClock is each side's whole-game clock in the gate (with GateNodes 0).
	GateClock time.Duration `json:"gate_clock_ns"`
	GateHash  int           `json:"gate_hash_mb"`
	GatePlies int           `json:"gate_random_plies"` // the pairs' random opening plies
	// MaxPairs stops an undecided SPRT: it then passes when the whole 95% interval of the
	// candidate's Elo lies above elo0 (sprtPasses), and fails otherwise.
	MaxPairs int `json:"max_pairs"`
	// Grace is how long the gate waits, after its decision, for the started gate workers to
	// end (their last pairs count); a worker gone for good does not hold it longer.
	Grace time.Duration `json:"grace_ns"`
}

// DefaultStoreNNUE returns the single-machine cycle's data settings, SPRT and gate node
// budget (DefaultNNUE), over pairs.
func DefaultStoreNNUE() *StoreNNUE {
	n := DefaultNNUE()
	return &StoreNNUE{NNUERecipe: n.NNUERecipe, SPRT: n.SPRT,
		GateNodes: n.SPRTNodes, GateHash: n.HashMB, GatePlies: 8, MaxPairs: 2000, Grace: 2 * time.Minute}
}

// nnueArcher is a game with an NNUE evaluator (a registry.Game is one).
type nnueArcher interface {
	NNUEArch(hidden, l1 int) (nnue.Arch, error)
}

// storeNNUE is the NNUE cycle's kind on a store.
type storeNNUE struct {
	c *StoreCycle
	n *StoreNNUE
}

func (k *storeNNUE) check() error {
	n := k.n
	switch {
	case n.GateNodes <= 0 && n.GateClock <= 0:
		return errors.New("pipeline: nnue: the gate needs a node budget or a clock")
	case n.MaxPairs < 1 || n.GatePlies < 0:
		return errors.New("pipeline: nnue: the gate needs max pairs >= 1 (random plies >= 0)")
	}
	if err := n.NNUERecipe.check(); err != nil {
		return err
	}
	_, err := arena.ParseSPRT(n.SPRT)
	return err
}

func (*storeNNUE) ext() string { return nnueExt }

// initial is StoreConfig.Init: a .nnue file, random:LANES (a fresh net of that accumulator
// width on the game's cell input), or "" for the newest embedded net.
func (k *storeNNUE) initial(_ context.Context, path string) error {
	c := k.c
	info := c.game.Info()
	var m *nnue.Model
	if lanes, ok := strings.CutPrefix(c.cfg.Init, "random:"); ok {
		g, ok := c.game.(nnueArcher)
		h, err := strconv.Atoi(lanes)
		if !ok || err != nil {
			return fmt.Errorf("pipeline: init %q: want random:LANES for a game with an nnue evaluator", c.cfg.Init)
		}
		a, err := g.NNUEArch(h, 0)
		if err != nil {
			return err
		}
		m = nnue.NewRandom(a, c.cfg.Seed)
	} else {
		var err error
		if m, _, err = models.LoadNNUE(info.Name, info.EncoderVersion, c.cfg.Init); err != nil {
			return err
		}
	}
	return m.Save(path)
}

func (k *storeNNUE) sha(path string) (string, error) {
	m, err := nnue.Load(path)
	if err != nil {
		return "", err
	}
	info := k.c.game.Info()
	if err := m.CheckFor(info.Name, info.EncoderVersion); err != nil {
		return "", err
	}
	return m.SHA256(), nil
}

// netName is a net's name in the run's provenance: its SHA-256's first 12 digits.
func netName(sha string) string { return short12(sha) }

func short12(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// created starts the run's provenance.tsv with the first net's row.
func (k *storeNNUE) created(ctx context.Context, sha string) error {
	c := k.c
	p := filepath.Join(c.work, "provenance.tsv")
	if err := NewProvenance(p, c.cfg.Game); err != nil {
		return err
	}
	m, err := nnue.Load(filepath.Join(c.work, "init"+nnueExt))
	if err != nil {
		return err
	}
	init := c.cfg.Init
	if init == "" {
		init = "the newest embedded net"
	}
	row := provRow(nil, netName(sha), "-", m, 0, "-", 0, 0, "first net: "+init)
	if err := AppendProvenance(p, c.cfg.Game, row); err != nil {
		return err
	}
	return c.putFile(ctx, "provenance.tsv", p)
}

// train warm-starts the candidate from the best net; its checkpoint is the partial net,
// kept in the store at each write, so a trainer on another machine goes on from it.
func (k *storeNNUE) train(ctx context.Context, best, out string) error {
	c := k.c
	ckpt, upload, err := c.checkpoint(ctx, c.gen("checkpoints", nnueExt))
	if err != nil {
		return err
	}
	csv := filepath.Join(c.work, filepath.FromSlash(c.gen("loss", ".csv")))
	man := filepath.Join(c.work, filepath.FromSlash(c.gen("manifests", ".tsv")))
	for _, d := range []string{csv, man} {
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			return err
		}
	}
	err = trainNNUE(ctx, c.logw, nnueTraining{Game: c.game, Best: best, Out: ckpt, Shards: c.cache(),
		Steps: int64(c.cfg.TrainSteps), Window: c.cfg.Window, Batch: c.cfg.Batch, LR: c.cfg.LR,
		Seed: c.cfg.Seed*1000 + uint64(c.s.Generation), CSV: csv, ValFrac: cycleValFrac, Manifest: man,
		AfterSave: func(int64) { upload() }, NNUERecipe: k.n.NNUERecipe})
	if err != nil {
		return err
	}
	if err := copyFile(ckpt, out); err != nil {
		return err
	}
	if fileExists(man) { // the window's shards, for the provenance of the candidate's children
		if err := c.putFile(ctx, c.gen("manifests", ".tsv"), man); err != nil {
			return err
		}
	}
	if fileExists(csv) {
		return c.putFile(ctx, c.gen("loss", ".csv"), csv)
	}
	return nil
}

// gate publishes the gate task and decides from the gate workers' pairs.
func (k *storeNNUE) gate(ctx context.Context, _, candSHA, _ string) (GenResult, error) {
	c, n := k.c, k.n
	t, _ := arena.ParseSPRT(n.SPRT)
	g := &Gate{Store: c.st, SPRT: t, MaxPairs: n.MaxPairs, Grace: n.Grace, Poll: gatePoll, Log: c.logw,
		Task: GateTask{Format: GateTaskFormat, Version: GateVersion, Game: c.cfg.Game, Generation: c.s.Generation,
			Candidate: candSHA, Best: c.s.BestSHA, Engine: c.cfg.Engine, Nodes: n.GateNodes,
			ClockMS: n.GateClock.Milliseconds(), HashMB: n.GateHash, Plies: n.GatePlies, Seed: c.cfg.Seed*1000 + uint64(c.s.Generation)}}
	ng, err := g.Run(ctx)
	if err != nil {
		return GenResult{}, err
	}
	res := GenResult{Games: ng.SPRTGames, Score: ng.SPRTScore, EloDiff: ng.SPRTElo, EloErr: ng.SPRTEloErr, Verdicts: g.faults, NNUE: ng}
	res.Promoted = sprtPasses(ng.SPRT, ng.SPRTElo, ng.SPRTEloErr) && g.faults == 0
	return res, nil
}

// gatePoll, when set (tests), is how often the coordinator lists the pairs (0: Gate's default).
var gatePoll time.Duration

// moveBudget says what a gate game's move gets: nodes, when > 0, else the whole game's clock.
func moveBudget(nodes int64, clock time.Duration) string {
	if nodes > 0 {
		return fmt.Sprintf("%d nodes", nodes)
	}
	return clock.String()
}

// promoted appends the candidate's provenance row to the run's provenance.tsv and writes the
// run's training report (report.html).
func (k *storeNNUE) promoted(ctx context.Context, res *GenResult) error {
	c, n := k.c, k.n
	p, err := c.fetchFresh(ctx, "provenance.tsv")
	if err != nil {
		return err
	}
	rows, err := ReadProvenance(p, c.cfg.Game)
	if err != nil {
		return err
	}
	cand, err := c.fetch(ctx, c.netKey(res.CandidateSHA256))
	if err != nil {
		return err
	}
	m, err := nnue.Load(cand)
	if err != nil {
		return err
	}
	g := res.NNUE
	gate := fmt.Sprintf("SPRT(%s) %s after %d pairs at %s, %.1f%%, %+.0f ± %.0f Elo", n.SPRT, g.verdict(), g.Pairs,
		moveBudget(n.GateNodes, n.GateClock), 100*g.SPRTScore, g.SPRTElo, g.SPRTEloErr)
	pos, err := k.newPositions(ctx, rows, res.CandidateSHA256)
	if err != nil {
		return err
	}
	row := provRow(rows, netName(res.CandidateSHA256), netName(c.s.BestSHA), m, pos,
		labels(c.cfg.Engine, n.Nodes, n.SoftNodes, n.TeacherWeight), int64(c.cfg.TrainSteps), c.s.TrainSeconds, gate)
	if err := AppendProvenance(p, c.cfg.Game, row); err != nil {
		return err
	}
	if err := c.putFile(ctx, "provenance.tsv", p); err != nil {
		return err
	}
	return k.writeReport(ctx, append(c.s.History, *res), p)
}

// netManifest is the key of a promoted net's window manifest (a data.Manifest), by the net's
// name in the provenance.
func netManifest(net string) string { return "manifests/" + net + ".tsv" }

// newPositions is the candidate's count of new positions for its provenance row, as the
// single-machine cycle counts it: the examples of its window (the generation's manifest) from
// shards that no manifest of the best net's line lists. Without the candidate's manifest or
// the best net's (the run's first net has none), it is the generation's own examples, said in
// the log. The candidate's manifest is kept under its name for its children.
func (k *storeNNUE) newPositions(ctx context.Context, rows []ProvRow, candSHA string) (int64, error) {
	c := k.c
	load := func(key string) (data.Manifest, bool, error) {
		p, err := c.fetchFresh(ctx, key)
		if errors.Is(err, store.ErrNotFound) {
			return data.Manifest{}, false, nil
		}
		if err != nil {
			return data.Manifest{}, false, err
		}
		m, err := data.ReadManifest(p, c.cfg.Game)
		if err != nil {
			return data.Manifest{}, false, fmt.Errorf("pipeline: %s: %w", key, err)
		}
		return m, true, nil
	}
	parent, genKey := netName(c.s.BestSHA), c.gen("manifests", ".tsv")
	m, ok, err := load(genKey)
	if err != nil {
		return 0, err
	}
	if ok { // fetchFresh left it at its key under the working directory
		if err := c.putFile(ctx, netManifest(netName(candSHA)), filepath.Join(c.work, filepath.FromSlash(genKey))); err != nil {
			return 0, err
		}
	}
	_, pok, err := load(netManifest(parent))
	if err != nil {
		return 0, err
	}
	if !ok || !pok {
		fmt.Fprintf(c.logw, "provenance: no window manifest for the candidate or for %s: counting the generation's %d positions\n", parent, c.s.GenExamples)
		return c.s.GenExamples, nil
	}
	return unseenExamples(c.logw, m, rows, parent, func(id string) (data.Manifest, bool, error) { return load(netManifest(id)) })
}

// writeReport writes report.html: the generations, the loss curves in loss/ and the
// provenance.
func (k *storeNNUE) writeReport(ctx context.Context, history []GenResult, prov string) error {
	c := k.c
	r := &report.Report{Title: fmt.Sprintf("%s training run %s", c.cfg.Game, c.st.URL()), Made: time.Now()}
	r.Generations = generationRows(history)
	objs, err := c.st.List(ctx, "loss/")
	if err != nil {
		return err
	}
	for _, o := range objs {
		p, err := c.fetchFresh(ctx, o.Key)
		if err != nil {
			return err
		}
		cv, err := lossCurve(p, strings.TrimSuffix(filepath.Base(o.Key), ".csv"))
		if err != nil {
			return err
		}
		if len(cv.Step) > 0 {
			r.Loss = append(r.Loss, cv)
		}
	}
	rows, err := ReadProvenance(prov, c.cfg.Game)
	if err != nil {
		return err
	}
	r.Provenance = provenanceTable(rows)
	out := filepath.Join(c.work, ReportFile)
	if err := r.WriteFile(out); err != nil {
		return err
	}
	return c.putFile(ctx, ReportFile, out)
}

// fetchFresh downloads key into the working directory, replacing what is there.
func (c *StoreCycle) fetchFresh(ctx context.Context, key string) (string, error) {
	p := filepath.Join(c.work, filepath.FromSlash(key))
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return c.fetch(ctx, key)
}
