package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"colony/agentdef"
	"colony/arena"
	"colony/contract"
	"colony/data"
	"colony/engine"
	"colony/nn/nnue"
	"colony/replay/report"
	"colony/selfplay"
	"colony/train"
)

// NNUERecipe is what both NNUE cycles (NNUEConfig, StoreNNUE) declare alike: the node budgets
// of the data's moves and how a candidate is trained from the best net. Declared once, so that
// an option reaches both cycles' training (nnueTraining) the same way.
type NNUERecipe struct {
	Nodes       int64   `json:"nodes"`        // the data's hard node budget per move
	SoftNodes   int64   `json:"soft_nodes"`   // no new iteration past this (recorded in the provenance)
	ScoreWeight float64 `json:"score_weight"` // the trainer's blend of search score and result
	// ScoreLambda, when > 0, makes each training example's search score the λ-return of its
	// game's later scores and outcome (train.NNUEConfig.ScoreLambda).
	ScoreLambda float64 `json:"score_lambda,omitempty"`
	// TeacherWeight, when > 0, blends the best net's own value into every training target
	// (train.NNUEConfig.Teacher, the parent as the teacher): a warm start on a window of only
	// new data then keeps what the parent knew instead of fitting that data alone.
	TeacherWeight float64 `json:"teacher_weight,omitempty"`
	// Buckets, when > 0, gives the candidate this many output buckets (nnue.Arch.Bucket): a
	// best net without them is first copied into them (nnue.WithBuckets, the same function)
	// and trained from there; a best net that has them is trained as it is.
	Buckets int `json:"buckets,omitempty"`
	// Widen, when > 0, gives the candidate this many accumulator lanes: a narrower best net is
	// first widened (nnue.Widen, the same function; the new lanes learn), a best net of this
	// width is trained as it is, a wider one is an error. It applies before Buckets.
	Widen int `json:"widen,omitempty"`
	// Warmup is the training's linear learning-rate warm-up in steps (a warm start's fresh Adam
	// moves every weight by about the full rate in its first steps); ValEvery validates every
	// this many steps instead of once an epoch, for a loss curve within a generation's ~1 epoch.
	Warmup   int64 `json:"warmup,omitempty"`
	ValEvery int64 `json:"val_every,omitempty"`
	// TrainThreads splits the candidate's training batch between that many graphs run side
	// by side (train.NNUEConfig.Threads; 0: one).
	TrainThreads int `json:"train_threads,omitempty"`
}

// check refuses a recipe out of range, with one text per setting for both cycles: the node
// budgets, the parent's share of the targets (outside [0, 1): at 1 the candidate would learn
// its parent alone), the output buckets, the widening, the warm-up, the validation interval,
// the training's threads and the λ of the score target.
func (r *NNUERecipe) check() error {
	switch {
	case r.Nodes < 1 || r.SoftNodes < 0 || r.SoftNodes > r.Nodes:
		return errors.New("pipeline: nnue: nodes >= 1 and 0 <= soft nodes <= nodes")
	case r.TeacherWeight < 0 || r.TeacherWeight >= 1:
		return fmt.Errorf("pipeline: nnue: teacher weight %v: want 0 (none) or in (0, 1)", r.TeacherWeight)
	case r.Buckets < 0 || r.Buckets == 1 || r.Buckets > nnue.MaxBuckets:
		return fmt.Errorf("pipeline: nnue: %d output buckets, want 0 (the best net's) or 2..%d", r.Buckets, nnue.MaxBuckets)
	case r.Widen < 0 || r.Widen%16 != 0:
		return fmt.Errorf("pipeline: nnue: widen to %d lanes, want 0 (the best net's) or a multiple of 16", r.Widen)
	case r.Warmup < 0 || r.ValEvery < 0:
		return fmt.Errorf("pipeline: nnue: warm-up %d and validation every %d steps, want >= 0", r.Warmup, r.ValEvery)
	case r.TrainThreads < 0:
		return fmt.Errorf("pipeline: nnue: %d training threads, want >= 0", r.TrainThreads)
	}
	return data.CheckScoreLambda(r.ScoreLambda)
}

// NNUEConfig makes a run an NNUE generation cycle (Config.NNUE): the data of a generation is
// the best net's engine (nnab) playing itself (Game.Bootstrap), the candidate is the best net
// trained further on the newest examples (train.RunNNUE), the gate is an SPRT at a fast clock
// then a fixed number of games at Config.GateClock, and a promoted net gets a provenance row.
type NNUEConfig struct {
	Engine string `json:"engine"` // the engine that plays with a net (nnab)
	// A generation's data: Games games, or as many as start within Duration (Games 0).
	Games          int           `json:"games"`
	Duration       time.Duration `json:"duration_ns"`
	HashMB         int           `json:"hash_mb"`
	RandomPlies    int           `json:"random_plies"`
	RandomPliesMax int           `json:"random_plies_max"`
	OpeningMax     int32         `json:"opening_max_score"`
	AdjScore       int32         `json:"adjudicate_score"`
	AdjPlies       int           `json:"adjudicate_plies"`
	// NNUERecipe is the data's node budgets and the candidate's training, as the store cycle
	// has them too (its fields are this struct's in config.json).
	NNUERecipe

	SPRT      string        `json:"sprt"`       // elo0,elo1[,alpha,beta] of the fast gate
	SPRTGames int           `json:"sprt_games"` // its cap
	SPRTClock time.Duration `json:"sprt_clock_ns"`
	// SPRTNodes, when > 0, plays the fast gate at this many nodes a move for both sides
	// (agent -nodes N, deterministic and immune to the machine's load); SPRTClock is then only
	// the games' safety clock.
	SPRTNodes    int64 `json:"sprt_nodes,omitempty"`
	ConfirmGames int   `json:"confirm_games"` // at Config.GateClock; promote at Config.Promote

	// Ref, when set, is a reference opponent's command (an engine outside the lineage, such
	// as a public one behind `agent -engine uai`). Once the fast gate passes, the candidate and
	// the best net each play RefGames games against it on the same openings and colours, at
	// SPRTNodes a move (else at SPRTClock), and the two runs are compared game by game
	// (arena.Paired): a candidate whose sign test over the games with different results is at
	// or below RefMinZ is rejected, so that a gain against its own parent that is a loss
	// against an engine outside the lineage is not promoted.
	Ref      []string `json:"ref,omitempty"`
	RefGames int      `json:"ref_games,omitempty"`
	RefMinZ  float64  `json:"ref_min_z,omitempty"`
}

// DefaultNNUE returns the data settings of the current generation and a gate of SPRT(0,20)
// at 20,000 nodes a move, then 40 games at the gate clock.
//
// The opening filter and the adjudication are the public engine's, in Colony's units: its
// scores are expected results sigmoid(s/400), Colony's (1+tanh(s/300))/2 = sigmoid(s/150), so
// one of its units is 0.375 of Colony's. Openings whose first search is beyond ±113 (its 300,
// an expected score of 0.68) are drawn again; a game ends at the first search beyond ±3000
// (its 8000). The node budget, 1,250 hard / 625 soft, was chosen at equal CPU time: each
// halving from 5,000 / 2,500 doubled the positions and taught a stronger net
// (docs/nnue-generations.md, "Labels at equal CPU time"). The score target is each game's
// λ-return at λ = 0.7: net 000015, trained so, passed the gate where the plain target's twin
// did no better than its parent against Zataxx (docs/nnue-generations.md, twenty-fifth session).
func DefaultNNUE() *NNUEConfig {
	return &NNUEConfig{Engine: "nnab", Duration: 30 * time.Minute, HashMB: 8,
		RandomPlies: 14, RandomPliesMax: 17, OpeningMax: 113, AdjScore: 3000, AdjPlies: 1,
		NNUERecipe: NNUERecipe{Nodes: 1250, SoftNodes: 625, ScoreWeight: 0.5, ScoreLambda: 0.7}, SPRT: "0,20", SPRTGames: 2000, SPRTClock: 600 * time.Second, SPRTNodes: 20000, ConfirmGames: 40,
		RefGames: 200, RefMinZ: -1.645}
}

func (n *NNUEConfig) check() error {
	switch {
	case n.Games <= 0 && n.Duration <= 0:
		return errors.New("pipeline: nnue: a generation needs games or a duration")
	case n.SPRTGames < 1 || n.SPRTClock <= 0 || n.ConfirmGames < 0 || n.SPRTNodes < 0:
		return errors.New("pipeline: nnue: the gate needs SPRT games and clock (confirm games and SPRT nodes >= 0)")
	case len(n.Ref) > 0 && n.RefGames < 2:
		return errors.New("pipeline: nnue: a reference gate needs at least 2 games")
	}
	if err := n.NNUERecipe.check(); err != nil {
		return err
	}
	_, err := arena.ParseSPRT(n.SPRT)
	return err
}

// labels is the provenance's per_move column: the data's engine and node budget, and the
// parent's share of the targets when it taught.
func labels(engine string, nodes, soft int64, teacher float64) string {
	s := fmt.Sprintf("%s nodes %d soft %d", engine, nodes, soft)
	if teacher > 0 {
		s += fmt.Sprintf(", parent teacher %g", teacher)
	}
	return s
}

// BootstrapGame is a Game whose engines play themselves into shards (a registry.Game).
type BootstrapGame interface {
	Game
	Bootstrap(ctx context.Context, bc selfplay.BootstrapConfig, engineName string, o agentdef.EngineOptions, dir string) (selfplay.Stats, error)
}

// nnueGen is what a generation's data stage recorded (gen-NNNN/selfplay.json).
type nnueGen struct {
	Positions int64   `json:"positions"`
	Games     int     `json:"games"`
	Seconds   float64 `json:"seconds"`
}

// NNUEGate is an NNUE candidate's two gates (gen-NNNN/gate.json's nnue part).
type NNUEGate struct {
	SPRT         arena.SPRTResult `json:"sprt"`
	SPRTGames    int              `json:"sprt_games"`
	SPRTScore    float64          `json:"sprt_score"`
	SPRTElo      float64          `json:"sprt_elo"`     // the fast gate's Elo difference
	SPRTEloErr   float64          `json:"sprt_elo_err"` // and its 95% half-width
	ConfirmGames int              `json:"confirm_games"`
	ConfirmScore float64          `json:"confirm_score"`
	// The distributed gate of a store run (gate.go): pairs counted, by the candidate's points
	// (0, ½, 1, 1½, 2), their keys (in gates/gen-NNNN.json only), and the pair objects refused.
	Pairs       int      `json:"pairs,omitempty"`
	Decided     int      `json:"decided_at_pairs,omitempty"` // the pairs counted when the SPRT decided (or hit its cap)
	Pentanomial [5]int   `json:"pentanomial,omitzero"`
	PairKeys    []string `json:"pair_keys,omitempty"`
	Refused     int      `json:"refused,omitempty"`
	// Ref is the reference gate's comparison (NNUEConfig.Ref), when it was played.
	Ref *RefGate `json:"ref,omitempty"`
}

// RefGate is the reference gate's result: the candidate's and the best net's games against
// the reference engine on the same openings, compared game by game.
type RefGate struct {
	Games           int     `json:"games"`            // games both played
	Candidate       float64 `json:"candidate_score"`  // the candidate's score against the reference
	Best            float64 `json:"best_score"`       // the best net's, on the same games
	CandidateBetter int     `json:"candidate_better"` // games where the candidate scored more
	BestBetter      int     `json:"best_better"`      // and where the best net did
	Z               float64 `json:"z"`                // the sign test: (candidate - best) / sqrt(both)
	MinZ            float64 `json:"min_z"`            // the rejection bound: Z <= MinZ rejects
}

// passes reports whether the candidate did not do worse than the best net against the
// reference: its sign test is above the bound.
func (r *RefGate) passes() bool { return r.Z > r.MinZ }

// String is the reference gate as the provenance writes it.
func (r *RefGate) String() string {
	return fmt.Sprintf("reference %.1f%% (parent %.1f%%) over %d games, candidate better in %d, worse in %d, z %+.2f",
		100*r.Candidate, 100*r.Best, r.Games, r.CandidateBetter, r.BestBetter, r.Z)
}

// verdict is the fast gate's verdict as the provenance writes it.
func (g *NNUEGate) verdict() string {
	if g.SPRT.Verdict != "" {
		return g.SPRT.Verdict
	}
	return fmt.Sprintf("undecided (LLR %.2f; %+.0f ± %.0f Elo, truncated: passed)", g.SPRT.LLR, g.SPRTElo, g.SPRTEloErr)
}

// nnueKind is the NNUE cycle's kind (a run with Config.NNUE, n): see NNUEConfig.
type nnueKind struct {
	c *Cycle
	n *NNUEConfig
}

// file is the generation's candidate.
func (k nnueKind) file() string { return filepath.Join(k.c.genDir(), "candidate.nnue") }

// nnueProgress is a data stage's progress (gen-NNNN/selfplay-progress.json), kept so that a
// killed stage resumes where it stopped instead of starting over.
type nnueProgress struct {
	// StartedUnix is the stage's first start: its shards are no older.
	StartedUnix int64 `json:"started_unix"`
	// Parts counts the parts started (the first run, then one per resume); each part's game
	// indices start at a fresh multiple of partStride.
	Parts int `json:"parts"`
	// Seconds is the time played by all parts, written every progressEvery while a part plays
	// (a kill loses at most that much).
	Seconds float64 `json:"seconds"`
	Done    bool    `json:"done"` // selfplay.json is written
}

// progressEvery is how often a playing data stage records its time (tests shorten it).
var progressEvery = time.Minute

// partStride spaces the first game indices of a data stage's parts (per worker), so that a
// resumed part never replays a game of an earlier one, even one a kill lost before its shard
// was written. Game indices stay below maxGameIndex (selfplay keeps 1<<39 for engine seeds).
const (
	partStride   = 1 << 28
	maxGameIndex = 1 << 38
)

// stageShards is what the finished shards of a generation's data stage hold.
type stageShards struct {
	Positions int64
	Games     int
	NextGame  uint64 // past the largest game index of any of their games
}

// stageShards counts the finished shards in the run's shards directory that this
// generation's data stage wrote: its generation, model and seed, made no earlier than since
// (so a run's extra shards copied from elsewhere do not count). Shards that do not read are
// skipped (training skips them too), each with a line on w; temporary files of a write a kill
// interrupted are not shards.
func (k nnueKind) stageShards(since int64, sha string, w io.Writer) (stageShards, error) {
	c := k.c
	var out stageShards
	err := k.eachShard(since, w, func(meta data.Meta, exs []data.Example) {
		if meta.Generation != c.st.Generation || meta.ModelSHA256 != sha || meta.Seed != c.seed() || meta.CreatedUnix < since {
			return
		}
		out.Positions += int64(meta.Examples)
		out.Games += meta.Games
		for _, ex := range exs {
			out.NextGame = max(out.NextGame, ex.GameID&(1<<40-1)+1)
		}
	})
	return out, err
}

// positionsOf counts the positions of the run's shards that the net of SHA-256 sha played: the
// new positions behind a candidate warm-started from that net. They are this run's data
// stages on it and any extra shards it made (Config.ExtraShards), but not extra shards of
// older nets, which are already behind it. Shards that do not read are skipped, as training
// skips them. At most the training window: a candidate learns from no more than that.
func (k nnueKind) positionsOf(sha string) (int64, error) {
	var n int64
	err := k.eachShard(0, io.Discard, func(meta data.Meta, _ []data.Example) {
		if meta.ModelSHA256 == sha {
			n += int64(meta.Examples)
		}
	})
	return min(n, int64(k.c.cfg.Window)), err
}

// windowManifest is the name of a generation's training-window manifest (a data.Manifest) in
// its directory, and, after the net's name and a dash, beside a promoted net.
const windowManifest = "window.tsv"

// newPositions is the count of a candidate's new training positions for its provenance row:
// the examples of its training window (the generation's manifest) from shards that no
// ancestor's window held (the manifests beside the nets, up the provenance's parent chain from
// parent). A net trained on data its parent's generation did not make (shards of an older
// net that were never trained on) counts them this way. Where the generation or the parent has
// no manifest (nets shipped before manifests), it is the older rule, said in the log: the
// examples in the run's shards played by the parent (parentSHA), at most the window.
func (k nnueKind) newPositions(rows []ProvRow, parent, parentSHA string) (int64, error) {
	c := k.c
	gen := filepath.Join(c.genDir(), windowManifest)
	own := func(id string) string { return filepath.Join(c.cfg.Models, id+"-"+windowManifest) }
	if !fileExists(gen) || parent != "-" && !fileExists(own(parent)) {
		n, err := k.positionsOf(parentSHA)
		missing, by := "the candidate", parent
		if fileExists(gen) {
			missing = parent
		}
		if parent == "-" { // a fresh net: the play of the best net it was gated against
			by = "the net it was gated against (sha256 " + parentSHA[:min(12, len(parentSHA))] + ")"
		}
		fmt.Fprintf(c.logw, "provenance: no window manifest for %s: counting the %d positions played by %s\n", missing, n, by)
		return n, err
	}
	m, err := data.ReadManifest(gen, c.cfg.Game)
	if err != nil {
		return 0, err
	}
	return unseenExamples(c.logw, m, rows, parent, func(id string) (data.Manifest, bool, error) {
		if !fileExists(own(id)) {
			return data.Manifest{}, false, nil
		}
		am, err := data.ReadManifest(own(id), c.cfg.Game)
		return am, err == nil, err
	})
}

// unseenExamples counts the examples of the window manifest m whose shards are in no manifest
// of parent's line: parent, its parent and so on up the provenance rows, as far as load finds
// a manifest (ok false ends the line). It logs the count and the nets whose manifests it read.
func unseenExamples(logw io.Writer, m data.Manifest, rows []ProvRow, parent string, load func(id string) (data.Manifest, bool, error)) (int64, error) {
	seen := map[string]bool{}
	var chain []string
	for id, hops := parent, 0; id != "" && id != "-" && hops <= len(rows); hops++ {
		am, ok, err := load(id)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		for _, e := range am.Entries {
			seen[e.SHA256] = true
		}
		chain = append(chain, id)
		p, ok := provenanceFor(rows, id)
		if !ok {
			break
		}
		id = p.Parent
	}
	var n int64
	for _, e := range m.Entries {
		if !seen[e.SHA256] {
			n += int64(e.Examples)
		}
	}
	fmt.Fprintf(logw, "provenance: %d of the window's %d positions are in no window of %s\n", n, m.Examples(), strings.Join(chain, ", "))
	return n, nil
}

// eachShard calls fn with every finished shard in the run's shards directory last modified no
// earlier than since (0: all); a shard that does not read is skipped with a line on w.
func (k nnueKind) eachShard(since int64, w io.Writer, fn func(data.Meta, []data.Example)) error {
	list, err := data.ListShards(k.c.shards(), nil)
	if err != nil {
		return err
	}
	for _, sh := range list {
		if sh.ModTime.Unix() < since {
			continue
		}
		meta, exs, err := data.ReadShard(sh.Path)
		if err != nil {
			fmt.Fprintf(w, "self-play: not counted: %v\n", err)
			continue
		}
		fn(meta, exs)
	}
	return nil
}

// stageStart returns when the stage whose log is path was first started (its first line,
// "# RFC3339 ..." from stageLog), or fallback.
func stageStart(path string, fallback int64) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return fallback
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "#" {
		return fallback
	}
	t, err := time.Parse(time.RFC3339, f[1])
	if err != nil {
		return fallback
	}
	return t.Unix()
}

// keepProgress writes p, with the time since start added, to path every progressEvery until
// the returned stop, which writes it a last time.
func keepProgress(path string, p nnueProgress, start time.Time) (stop func() error) {
	save := func() error {
		q := p
		q.Seconds += time.Since(start).Seconds()
		return arena.WriteJSON(path, q)
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		every(progressEvery, done, func() bool {
			_ = save() // the next tick, or stop, tries again
			return true
		})
	}()
	return func() error {
		close(done)
		<-exited
		return save()
	}
}

// every calls f every d until done is closed or f returns false.
func every(d time.Duration, done <-chan struct{}, f func() bool) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if !f() {
				return
			}
		}
	}
}

// selfPlay is the best net's engine playing itself (BootstrapGame). A stage killed part-way
// resumes: the finished shards it wrote are counted, only the games or the time left are
// played (with fresh game indices), and selfplay.json counts the positions and games of all
// its parts' finished shards, and their time.
func (k nnueKind) selfPlay(ctx context.Context, w io.Writer) error {
	c, n := k.c, k.n
	g, ok := c.game.(BootstrapGame)
	if !ok {
		return fmt.Errorf("%s has no bootstrap self-play", c.cfg.Game)
	}
	m, err := nnue.Load(c.st.Best)
	if err != nil {
		return err
	}
	genJSON, progPath := filepath.Join(c.genDir(), "selfplay.json"), filepath.Join(c.genDir(), "selfplay-progress.json")
	var prog nnueProgress
	if err := readJSON(progPath, &prog); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if prog.Done && fileExists(genJSON) {
		return nil // killed between selfplay.json and state.json
	}
	if prog.Parts == 0 {
		// A stage begun before progress files still has its first start in its log.
		prog.StartedUnix = stageStart(filepath.Join(c.genDir(), "selfplay.log"), c.cfg.StartedAtUnix)
	}
	prior, err := k.stageShards(prog.StartedUnix, m.SHA256(), w)
	if err != nil {
		return err
	}
	played := time.Duration(prog.Seconds * float64(time.Second))
	games, left := n.Games, n.Duration-played
	if n.Games > 0 {
		games -= prior.Games
	}
	first := max(prior.NextGame, uint64(prog.Parts)*partStride)
	if first >= maxGameIndex {
		return fmt.Errorf("pipeline: nnue: data stage part %d would start at game index %d, past %d", prog.Parts+1, first, uint64(maxGameIndex))
	}
	if prior.Games > 0 || prog.Parts > 0 {
		fmt.Fprintf(w, "self-play: resuming: %d games, %d positions in finished shards, %s played; from game index %d\n",
			prior.Games, prior.Positions, played.Round(time.Second), first)
	}
	var st selfplay.Stats
	start := time.Now()
	if (n.Games <= 0 || games > 0) && (n.Duration <= 0 || left > 0) {
		fmt.Fprintf(w, "self-play: %s on %s (sha256 %.12s), %d/%d nodes\n", n.Engine, c.st.Best, m.SHA256(), n.SoftNodes, n.Nodes)
		meta := data.Meta{Generation: c.st.Generation, ModelSHA256: m.SHA256(), GitRevision: c.cfg.GitRevision,
			Extra: map[string]string{"mode": fmt.Sprintf("bootstrap %s nodes %d soft %d", n.Engine, n.Nodes, n.SoftNodes), "model": filepath.Base(c.st.Best)}}
		bc := selfplay.BootstrapConfig{Workers: c.cfg.Workers, Games: max(games, 0), Duration: max(left, 0),
			RandomPlies: n.RandomPlies, RandomPliesMax: n.RandomPliesMax,
			Limits: engine.Limits{Nodes: n.Nodes, SoftNodes: n.SoftNodes}, OpeningMaxScore: n.OpeningMax,
			AdjudicateScore: n.AdjScore, AdjudicatePlies: n.AdjPlies, RecordScores: true, Seed: c.seed(), Meta: meta}
		bc.Placement.FirstGame = first
		bc.Progress.Progress = w
		prog.Parts++
		if err := arena.WriteJSON(progPath, prog); err != nil {
			return err
		}
		stop := keepProgress(progPath, prog, start)
		st, err = g.Bootstrap(ctx, bc, n.Engine, agentdef.EngineOptions{Model: c.st.Best, HashMB: n.HashMB}, c.shards())
		if err := stop(); err != nil {
			return err
		}
		if err := stopped(ctx, "self-play", err); err != nil {
			return err
		}
		// All parts' shards, counted again: a game that recorded no position is in none.
		if prior, err = k.stageShards(prog.StartedUnix, m.SHA256(), w); err != nil {
			return err
		}
	}
	prog.Seconds += time.Since(start).Seconds()
	total := nnueGen{Positions: prior.Positions, Games: prior.Games, Seconds: prog.Seconds}
	fmt.Fprintf(w, "self-play: %d games, %d positions in %s (this part: %d games, %d positions in %s)\n", total.Games, total.Positions,
		(time.Duration(total.Seconds) * time.Second).String(), st.Games, st.Positions, time.Since(start).Round(time.Second))
	if err := arena.WriteJSON(genJSON, total); err != nil {
		return err
	}
	prog.Done = true
	return arena.WriteJSON(progPath, prog)
}

// train trains the candidate from the best net, or on from the candidate a killed training
// left (its steps past the best's are not trained again).
func (k nnueKind) train(ctx context.Context, w io.Writer) error {
	c := k.c
	t0 := time.Now()
	err := trainNNUE(ctx, w, nnueTraining{Game: c.game, Best: c.st.Best, Out: k.file(), Shards: c.shards(),
		Steps: int64(c.cfg.TrainSteps), Window: c.cfg.Window, Batch: c.cfg.Batch, LR: c.cfg.LR, Seed: c.seed(),
		CSV: filepath.Join(c.genDir(), "loss.csv"), ValFrac: cycleValFrac, Manifest: filepath.Join(c.genDir(), windowManifest),
		NNUERecipe: k.n.NNUERecipe})
	if err != nil {
		return err
	}
	var prev float64
	_ = readJSON(filepath.Join(c.genDir(), "train.json"), &prev)
	return arena.WriteJSON(filepath.Join(c.genDir(), "train.json"), prev+time.Since(t0).Seconds())
}

// startNet returns the net a generation trains from: best itself, or best moved to the
// generation's shape, first widened to t.Widen lanes, then copied into t.Buckets output buckets
// (each the same function). A best net wider than t.Widen, or with another bucket count, is
// an error.
func startNet(w io.Writer, best *nnue.Model, t nnueTraining) (*nnue.Model, error) {
	m := best
	switch h := m.Arch.Hidden; {
	case t.Widen == 0 || t.Widen == h:
	case t.Widen < h:
		return nil, fmt.Errorf("pipeline: nnue: the best net %s has %d lanes, the generation asks for %d", t.Best, h, t.Widen)
	default:
		wide, err := nnue.Widen(m, t.Widen, t.Seed)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "train: the best net widened from %d to %d lanes\n", h, t.Widen)
		m = wide
	}
	switch b := m.Arch.Buckets; {
	case t.Buckets == 0 || b == t.Buckets:
	case b != 0:
		return nil, fmt.Errorf("pipeline: nnue: the best net %s has %d output buckets, the generation asks for %d", t.Best, b, t.Buckets)
	default:
		bucketed, err := nnue.WithBuckets(m, t.Buckets)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "train: the best net copied into %d output buckets\n", t.Buckets)
		m = bucketed
	}
	return m, nil
}

// nnueTraining is a candidate's training: Steps past the best net's step, into Out, by the
// cycle's recipe.
type nnueTraining struct {
	Game interface {
		Info() contract.Info
		Symmetries() contract.Symmetries
	}
	Best, Out, Shards, CSV string
	// Manifest, when set, gets the list of the training window's shards (train.NNUEConfig).
	Manifest string
	// ValFrac holds out this fraction of the shards (whole shards) for a validation loss every
	// epoch (NNUERecipe.ValEvery: every that many steps); with a CSV its rows go to epochs.csv
	// and the curves to loss.svg beside it.
	ValFrac       float64
	Steps         int64
	Window, Batch int
	LR            float64
	Seed          uint64
	AfterSave     func(step int64) // see train.NNUEConfig
	// NNUERecipe: TeacherWeight > 0 makes Best the teacher; Buckets, when > 0 and Best has
	// none, starts from Best copied into that many (nnue.WithBuckets, written as Out +
	// ".start"), and Widen from Best widened first; the node budgets are the data's, unused.
	NNUERecipe
}

// cycleValFrac is the share of a run's shards a generation's training holds out.
const cycleValFrac = 0.02

// trainNNUE trains t's candidate from the best net, or on from the partial Out a killed
// training left when it is past the best's step (those steps are not trained again).
func trainNNUE(ctx context.Context, w io.Writer, t nnueTraining) error {
	best, err := nnue.Load(t.Best)
	if err != nil {
		return err
	}
	start, steps := t.Best, t.Steps
	m, err := startNet(w, best, t)
	if err != nil {
		return err
	}
	if m != best {
		start = t.Out + ".start"
		if err := m.Save(start); err != nil {
			return err
		}
		fmt.Fprintf(w, "train: the candidate's start (%s): %s\n", m.Arch, start)
	}
	resume := false
	if m, err := nnue.Load(t.Out); err == nil && m.Step > best.Step {
		start, steps = t.Out, steps-(m.Step-best.Step)
		// With the checkpoint the killed training wrote beside it, the same run goes on (its
		// schedule, optimizer and sampling); without one (an older run), a new run from it.
		resume = fileExists(train.CkptPath(t.Out))
		fmt.Fprintf(w, "train: resuming from %s at step %d, %d steps left (the same schedule and optimizer: %v)\n", start, m.Step, steps, resume)
	}
	if steps <= 0 {
		return nil
	}
	tc := train.NNUEConfig{Game: t.Game.Info(), Symmetries: t.Game.Symmetries(),
		Model: start, Shards: t.Shards, Window: t.Window, Refresh: 0, Steps: steps, Batch: t.Batch,
		Threads: t.TrainThreads, LR: t.LR, Seed: t.Seed, ScoreWeight: t.ScoreWeight, ScoreLambda: t.ScoreLambda, Out: t.Out,
		Every: max(1, min(1000, t.Steps/4)), CSV: t.CSV, LogEvery: 100, AfterSave: t.AfterSave, ValFrac: t.ValFrac,
		Manifest: t.Manifest, Checkpoints: true, Resume: resume, Warmup: t.Warmup, ValEvery: t.ValEvery}
	if t.TeacherWeight > 0 {
		tc.Teacher, tc.TeacherWeight = t.Best, t.TeacherWeight
	}
	if t.ValFrac > 0 && t.CSV != "" {
		tc.EpochCSV = filepath.Join(filepath.Dir(t.CSV), "epochs.csv")
		tc.Plot = filepath.Join(filepath.Dir(t.CSV), "loss.svg")
	}
	_, err = train.RunNNUE(ctx, tc, w)
	return err
}

// netFiles are the files that go with a net: gen, the name in a generation's directory; net,
// the suffix after the net's name beside it (NNNNNN-train.log, NNNNNN-window.tsv).
var netFiles = []struct{ gen, net string }{{"train.log", "-train.log"}, {windowManifest, "-" + windowManifest}}

// adopt checks a net trained elsewhere (the run's game, the best net's input) and copies it in as
// the candidate, with its training log (NAME-train.log beside NAME.nnue, as the nets' directory
// keeps them) and its window manifest (NAME-window.tsv: the provenance row counts its new
// positions from it) where they exist. Its provenance row then names the cycle's data labels and
// teacher weight: gate only a net trained on such data.
func (k nnueKind) adopt(candidate string) error {
	c := k.c
	m, err := nnue.Load(candidate)
	if err != nil {
		return err
	}
	best, err := nnue.Load(c.st.Best)
	if err != nil {
		return err
	}
	if a, b := m.Arch, best.Arch; a.Game != c.game.Info().Name || a.Input != b.Input || a.Cells != b.Cells || a.Width != b.Width {
		return fmt.Errorf("pipeline: gate-only: %s (%s) is not for this run's game and input (the best net %s)", candidate, a, b)
	}
	if err := copyFile(candidate, k.file()); err != nil {
		return err
	}
	base := strings.TrimSuffix(candidate, ".nnue")
	for _, f := range netFiles {
		if fileExists(base + f.net) {
			if err := copyFile(base+f.net, filepath.Join(c.genDir(), f.gen)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (k nnueKind) candidate() (file, sha string, err error) {
	file = k.file()
	m, err := nnue.Load(file)
	if err != nil {
		return "", "", err
	}
	return file, m.SHA256(), nil
}

// gate plays the SPRT at the fast clock, then on H1 the confirm games at GateClock.
func (k nnueKind) gate(ctx context.Context, w io.Writer, res *GenResult) error {
	c, n := k.c, k.n
	gdir, cand := c.genDir(), res.Candidate
	agent := func(model string, nodes int64) []string {
		argv := []string{c.cfg.Agent, "-game", c.cfg.Game, "-engine", n.Engine, "-model", model}
		if nodes > 0 {
			argv = append(argv, "-nodes", fmt.Sprint(nodes))
		}
		return argv
	}
	t, _ := arena.ParseSPRT(n.SPRT)
	ac := arena.Config{Rules: c.game.Rules(), A: agent(cand, n.SPRTNodes), B: agent(c.st.Best, n.SPRTNodes), Games: n.SPRTGames,
		Clock: n.SPRTClock, Parallel: c.cfg.GateParallel, Openings: c.cfg.GateOpenings, Seed: c.seed(),
		Mem: arena.Limits{RSS: 1 << 30}, OutDir: filepath.Join(gdir, "arena-sprt"), SPRT: &t}
	sum, err := c.play(ctx, w, "sprt", ac)
	if err != nil {
		return err
	}
	g := &NNUEGate{SPRTGames: sum.Games, SPRTScore: sum.AScore, SPRTElo: sum.Elo, SPRTEloErr: sum.EloErr}
	if sum.SPRT != nil {
		g.SPRT = *sum.SPRT
	}
	res.NNUE = g
	res.record(sum)
	res.Promoted = sprtPasses(g.SPRT, g.SPRTElo, g.SPRTEloErr) && res.Verdicts == 0
	if res.Promoted && len(n.Ref) > 0 {
		if g.Ref, err = k.refGate(ctx, w, res, ac, agent); err != nil {
			return err
		}
		res.Promoted = g.Ref.passes() && res.Verdicts == 0
	}
	if res.Promoted && n.ConfirmGames > 0 {
		ac.Games, ac.Clock, ac.SPRT, ac.OutDir = n.ConfirmGames, c.cfg.GateClock, nil, filepath.Join(gdir, "arena-confirm")
		ac.A, ac.B = agent(cand, 0), agent(c.st.Best, 0)
		ac.Seed++
		sum, err := c.play(ctx, w, "confirm", ac)
		if err != nil {
			return err
		}
		g.ConfirmGames, g.ConfirmScore = sum.Games, sum.AScore
		res.record(sum)
		res.Promoted = sum.AScore >= c.cfg.Promote && res.Verdicts == 0
	}
	return nil
}

// refGate plays the candidate and the best net against the reference engine on the same
// openings (the same seed) and compares the two runs game by game. sprt is the fast gate's
// match: the reference runs keep its clock, node budget, parallelism and openings.
func (k nnueKind) refGate(ctx context.Context, w io.Writer, res *GenResult, sprt arena.Config, agent func(string, int64) []string) (*RefGate, error) {
	c, n := k.c, k.n
	var runs [2][]*arena.Record
	for i, side := range []struct{ name, model string }{{"candidate", res.Candidate}, {"best", c.st.Best}} {
		ac, dir := sprt, filepath.Join(c.genDir(), "arena-ref-"+side.name)
		ac.A, ac.B, ac.Games, ac.SPRT, ac.Seed, ac.OutDir = agent(side.model, n.SPRTNodes), n.Ref, n.RefGames, nil, sprt.Seed+2, dir
		sum, err := c.play(ctx, w, "ref-"+side.name, ac)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			// The candidate's crashes and time losses count against it; the scores stay the
			// fast gate's (the generation's Elo is measured against the best net, not this).
			res.Verdicts += sum.ATLE + sum.ARE + sum.ACrash
		}
		if runs[i], err = arena.ReadRecords(dir); err != nil {
			return nil, err
		}
	}
	var p arena.Paired
	if err := p.Add(runs[0], runs[1]); err != nil {
		return nil, fmt.Errorf("reference gate: %w", err)
	}
	r := &RefGate{Games: p.Games, Candidate: p.ScoreX / float64(p.Games), Best: p.ScoreY / float64(p.Games),
		CandidateBetter: p.XBetter, BestBetter: p.YBetter, Z: p.Z, MinZ: n.RefMinZ}
	fmt.Fprintf(w, "ref: %s (rejected at z <= %+.2f)\n", r, r.MinZ)
	return r, nil
}

// sprtPasses is the fast gate's decision: H1, or, when the games ran out first (an elo1 close
// to elo0 can need more games than the cap even for a clearly better candidate), a truncated
// SPRT that passes when the whole 95% interval of the candidate's Elo (eloDiff ± eloErr) lies
// above elo0. H0, or an undecided test whose interval reaches elo0, rejects.
func sprtPasses(r arena.SPRTResult, eloDiff, eloErr float64) bool {
	switch r.Verdict {
	case "H1":
		return true
	case "":
		return eloDiff-eloErr > r.Elo0
	}
	return false
}

// promote writes the promoted candidate as the next NNNNNN.nnue and its provenance row.
func (k nnueKind) promote(res *GenResult) (string, error) {
	c := k.c
	parent := c.st.Best
	name, err := promote(c.cfg.Models, k.file(), ".nnue")
	if err != nil {
		return "", err
	}
	var trainSec float64
	_ = readJSON(filepath.Join(c.genDir(), "train.json"), &trainSec)
	prov := filepath.Join(c.cfg.Models, "provenance.tsv")
	rows, err := ReadProvenance(prov, c.cfg.Game)
	if err != nil {
		return "", err
	}
	pid := strings.TrimSuffix(filepath.Base(parent), ".nnue")
	m, err := nnue.Load(name)
	if err != nil {
		return "", err
	}
	pm, err := nnue.Load(parent)
	if err != nil {
		return "", err
	}
	// A net not started from the parent's line (a fresh net, its steps at most the parent's)
	// has no parent: all of its window is new, and nothing stands behind it but that.
	fresh := m.Step <= pm.Step
	if fresh {
		pid = "-"
	}
	positions, err := k.newPositions(rows, pid, pm.SHA256())
	if err != nil {
		return "", err
	}
	n, g := k.n, res.NNUE
	gate := fmt.Sprintf("SPRT(%s) %s after %d games at %s, %.1f%% (%+.0f +/- %.0f Elo)", n.SPRT, g.verdict(), g.SPRTGames, moveBudget(n.SPRTNodes, n.SPRTClock),
		100*g.SPRTScore, g.SPRTElo, g.SPRTEloErr)
	if g.Ref != nil {
		gate += "; " + g.Ref.String()
	}
	if g.ConfirmGames > 0 {
		gate += fmt.Sprintf("; confirm %.1f%% in %d games at %v", 100*g.ConfirmScore, g.ConfirmGames, c.cfg.GateClock)
	}
	// The steps past the parent: the cycle's own training's, or a gate-only net's (trained
	// elsewhere, from the parent or from a net of its line); a fresh net counts all of its own.
	steps := m.Step - pm.Step
	if fresh {
		steps = m.Step
	}
	if steps <= 0 {
		steps = int64(c.cfg.TrainSteps)
	}
	row := provRow(rows, strings.TrimSuffix(filepath.Base(name), ".nnue"), pid, m, positions,
		labels(n.Engine, n.Nodes, n.SoftNodes, n.TeacherWeight), steps, trainSec, gate)
	// Its training log goes with it (NNNNNN-train.log: the shipped nets' report reads its loss),
	// and the list of the shards it was trained on (NNNNNN-window.tsv: its children's count of
	// new positions reads it).
	for _, f := range netFiles {
		if from := filepath.Join(c.genDir(), f.gen); fileExists(from) {
			if err := copyFile(from, strings.TrimSuffix(name, ".nnue")+f.net); err != nil {
				return "", err
			}
		}
	}
	return name, AppendProvenance(prov, c.cfg.Game, row)
}

// first is Config.Init, or the newest net in Config.Models; the models directory must hold the
// nets' provenance.
func (k nnueKind) first() (string, error) {
	c := k.c
	best := c.cfg.Init
	if best == "" {
		names, _ := filepath.Glob(filepath.Join(c.cfg.Models, "*.nnue"))
		if len(names) == 0 {
			return "", fmt.Errorf("pipeline: no initial net given and none in %s", c.cfg.Models)
		}
		best = names[len(names)-1]
	}
	if _, err := nnue.Load(best); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(c.cfg.Models, "provenance.tsv")); err != nil {
		return "", fmt.Errorf("pipeline: nnue: %w (the nets' provenance file)", err)
	}
	return best, k.n.check()
}

// report adds the nets' provenance (Config.Models/provenance.tsv).
func (k nnueKind) report(r *report.Report) error {
	rows, err := ReadProvenance(filepath.Join(k.c.cfg.Models, "provenance.tsv"), k.c.cfg.Game)
	if err != nil {
		return err
	}
	r.Provenance = provenanceTable(rows)
	return nil
}
