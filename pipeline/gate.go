package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"colony/agentdef"
	"colony/arena"
	"colony/internal/atomicfile"
	"colony/nn/nnue"
	"colony/store"
)

// The distributed gate of an NNUE run on a store: the trainer (the coordinator, storeNNUE.gate)
// publishes a gate task, gate workers (GateWorker, an Indexed Job) play pairs of games between
// the candidate and the best net (one opening, colours swapped) and put each finished pair as
// an object; the coordinator reads the pairs, updates a pentanomial SPRT (arena.SPRT.PairLLR)
// and writes a stop object when it decides. Keys under the run's root:
//
//	gate/current.json                         the open gate's GateTask
//	gate/gen-NNNN/<cand-sha>/workers/<index>  a worker's start on this gate
//	gate/gen-NNNN/<cand-sha>/pairs/<index>/<seq>.json   a finished pair (GatePair)
//	gate/gen-NNNN/<cand-sha>/stop             the coordinator's decision: workers end
//	gate/gen-NNNN/<cand-sha>/done/<index>     a worker ended
//
// A worker killed mid-pair loses only that pair: nothing is written until both games are
// over, and its restart goes on from the next sequence number. A pair of another candidate,
// best net, generation, game or format is refused (logged and counted, never in the SPRT).

// Formats of the gate's objects.
const (
	GateTaskFormat = "colony-gate-task"
	GatePairFormat = "colony-gate-pair"
	GateVersion    = 1
)

// GateTask is gate/current.json: what the gate workers play.
type GateTask struct {
	Format     string `json:"format"`
	Version    int    `json:"version"`
	Game       string `json:"game"`
	Generation int    `json:"generation"`
	Candidate  string `json:"candidate_sha256"` // nets/<sha>.nnue
	Best       string `json:"best_sha256"`
	Engine     string `json:"engine"`
	Nodes      int64  `json:"nodes"`    // per move, both sides (0: the clock decides)
	ClockMS    int64  `json:"clock_ms"` // each side's whole-game clock (0: none)
	HashMB     int    `json:"hash_mb"`
	Plies      int    `json:"random_plies"` // the openings' random plies
	Seed       uint64 `json:"seed"`
}

// Prefix is the task's keys' prefix, gate/gen-NNNN/<candidate-sha>.
func (t *GateTask) Prefix() string {
	return fmt.Sprintf("gate/gen-%04d/%s", t.Generation, t.Candidate)
}

// check refuses a task of another format, version or game.
func (t *GateTask) check(game string) error {
	if t.Format != GateTaskFormat || t.Version != GateVersion || t.Game != game {
		return fmt.Errorf("gate task: format %q version %d of %q, want %s version %d of %s", t.Format, t.Version, t.Game, GateTaskFormat, GateVersion, game)
	}
	if t.Nodes <= 0 && t.ClockMS <= 0 {
		return errors.New("gate task: neither a node budget nor a clock")
	}
	return nil
}

// GatePair is one finished pair of games: the candidate played first in the first game.
type GatePair struct {
	Format     string   `json:"format"`
	Version    int      `json:"version"`
	Game       string   `json:"game"`
	Generation int      `json:"generation"`
	Candidate  string   `json:"candidate_sha256"`
	Best       string   `json:"best_sha256"`
	Worker     int      `json:"worker"`
	Seq        int      `json:"seq"`
	Opening    []string `json:"opening"` // the random plies both games start from
	// Scores are the candidate's points in the two games (0, 0.5, 1).
	Scores [2]float64 `json:"scores"`
	Faults int        `json:"faults"` // RE/TLE verdicts of either side
	Plies  [2]int     `json:"plies"`
}

// points is the candidate's points in the pair, 0..4 in halves (PairLLR's index).
func (p *GatePair) points() (int, error) {
	k := 0
	for _, s := range p.Scores {
		switch s {
		case 0, 0.5, 1:
			k += int(2 * s)
		default:
			return 0, fmt.Errorf("a game scored %v", s)
		}
	}
	return k, nil
}

// check refuses a pair that is not of task t.
func (p *GatePair) check(t *GateTask) error {
	switch {
	case p.Format != GatePairFormat || p.Version != GateVersion || p.Game != t.Game:
		return fmt.Errorf("format %q version %d of %q, want %s version %d of %s", p.Format, p.Version, p.Game, GatePairFormat, GateVersion, t.Game)
	case p.Candidate != t.Candidate:
		return fmt.Errorf("a pair of candidate %.12s, the gate's is %.12s", p.Candidate, t.Candidate)
	case p.Best != t.Best || p.Generation != t.Generation:
		return fmt.Errorf("a pair of best %.12s generation %d, the gate's are %.12s and %d", p.Best, p.Generation, t.Best, t.Generation)
	}
	_, err := p.points()
	return err
}

func pairKey(t *GateTask, worker, seq int) string {
	return fmt.Sprintf("%s/pairs/%d/%06d.json", t.Prefix(), worker, seq)
}

// Gate decides a gate from the pairs the gate workers write (the NNUE store cycle's
// coordinator; any two nets in a store can be gated so).
type Gate struct {
	Store    store.Store // the run's root
	Task     GateTask
	SPRT     arena.SPRT
	MaxPairs int           // pairs after which an undecided test stops (truncated)
	Grace    time.Duration // how long it waits for the started workers to end after the stop
	Poll     time.Duration // default 1 s
	Log      io.Writer

	lg      *log.Logger
	counted map[string]bool
	refused map[string]bool
	penta   [5]int
	faults  int
}

// scan reads the pairs not read before and counts them (or refuses them).
func (g *Gate) scan(ctx context.Context) error {
	objs, err := g.Store.List(ctx, g.Task.Prefix()+"/pairs/")
	if err != nil {
		return err
	}
	for _, o := range objs {
		if g.counted[o.Key] || g.refused[o.Key] {
			continue
		}
		b, err := g.Store.Get(ctx, o.Key)
		if err != nil {
			return err
		}
		var p GatePair
		err = json.Unmarshal(b, &p)
		if err == nil {
			err = p.check(&g.Task)
		}
		var k int
		if err == nil {
			k, err = p.points()
		}
		if err != nil {
			g.refused[o.Key] = true
			g.lg.Printf("gate: refused %s: %v", o.Key, err)
			continue
		}
		g.counted[o.Key] = true
		g.penta[k]++
		g.faults += p.Faults
	}
	return nil
}

func (g *Gate) pairs() int { return len(g.counted) }

// Run publishes the task, counts pairs until the SPRT decides (or max pairs), writes the stop
// object, waits for the started workers to end, counts what they finished meanwhile, and
// returns the gate.
func (g *Gate) Run(ctx context.Context) (*NNUEGate, error) {
	g.counted, g.refused = map[string]bool{}, map[string]bool{}
	if g.Log == nil {
		g.Log = io.Discard
	}
	if g.Poll <= 0 {
		g.Poll = time.Second
	}
	g.lg = log.New(g.Log, "", log.Ltime)
	stopKey := g.Task.Prefix() + "/stop"
	_, err := g.Store.Get(ctx, stopKey)
	stopped := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if !stopped {
		b, _ := json.MarshalIndent(g.Task, "", " ")
		if err := g.Store.Put(ctx, "gate/current.json", append(b, '\n')); err != nil {
			return nil, err
		}
		g.lg.Printf("gate: generation %d, candidate %.12s against %.12s: waiting for pairs (SPRT(%v,%v), at most %d pairs)",
			g.Task.Generation, g.Task.Candidate, g.Task.Best, g.SPRT.Elo0, g.SPRT.Elo1, g.MaxPairs)
	}
	var decided *arena.SPRTResult
	decidedAt := 0
	for !stopped {
		if err := g.scan(ctx); err != nil {
			return nil, err
		}
		r := g.SPRT.PairResult(g.penta)
		if r.Verdict != "" || g.pairs() >= g.MaxPairs {
			decided, decidedAt = &r, g.pairs()
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(g.Poll):
		}
	}
	if !stopped {
		what := "decided: " + decided.Verdict
		if decided.Verdict == "" {
			what = fmt.Sprintf("stopped undecided at its cap of %d pairs", g.MaxPairs)
		}
		g.lg.Printf("gate: %s after %d pairs %v: LLR %.2f, bounds (%.2f, %.2f)", what, g.pairs(), g.penta, decided.LLR, decided.Lower, decided.Upper)
		b, _ := json.Marshal(decided)
		if err := g.Store.Put(ctx, stopKey, b); err != nil {
			return nil, err
		}
	} else {
		var r arena.SPRTResult
		if b, err := g.Store.Get(ctx, stopKey); err == nil && json.Unmarshal(b, &r) == nil {
			decided = &r
		}
	}
	if err := g.waitWorkers(ctx); err != nil {
		return nil, err
	}
	if err := g.scan(ctx); err != nil {
		return nil, err
	}
	// The pairs finished after the decision count in the score and the LLR, not against the
	// verdict (as arena.SPRT.Update).
	final := g.SPRT.PairResult(g.penta)
	if decided != nil {
		final.Verdict = decided.Verdict
		if decided.Verdict != "" {
			final.DecidedLLR, final.DecidedAt = decided.LLR, decidedAt
		}
	}
	out := &NNUEGate{SPRT: final, Pairs: g.pairs(), Decided: decidedAt, Pentanomial: g.penta, SPRTGames: 2 * g.pairs(), Refused: len(g.refused)}
	for k := range g.counted {
		out.PairKeys = append(out.PairKeys, k)
	}
	sort.Strings(out.PairKeys)
	e := arena.PairEstimate(g.penta)
	out.SPRTScore, out.SPRTElo, out.SPRTEloErr = e.Score, e.Elo, e.Err
	return out, nil
}

// waitWorkers waits until every worker that started on the gate has ended (its done
// object), for up to grace: a worker killed for good does not hold the gate.
func (g *Gate) waitWorkers(ctx context.Context) error {
	deadline := time.Now().Add(g.Grace)
	for {
		started, err := g.Store.List(ctx, g.Task.Prefix()+"/workers/")
		if err != nil {
			return err
		}
		done, err := g.Store.List(ctx, g.Task.Prefix()+"/done/")
		if err != nil {
			return err
		}
		ended := map[string]bool{}
		for _, o := range done {
			ended[path.Base(o.Key)] = true
		}
		var running []string
		for _, o := range started {
			if !ended[path.Base(o.Key)] {
				running = append(running, path.Base(o.Key))
			}
		}
		if len(running) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			g.lg.Printf("gate: workers %v have not ended %s after the stop: their unfinished pairs are not counted", running, g.Grace)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(g.Poll):
		}
	}
}

// GateWorker plays the open gate's pairs (one pod of the gate's Indexed Job).
type GateWorker struct {
	Run   string    // the run's store URL
	Index int       // the pod's index (JOB_COMPLETION_INDEX)
	Game  StoreGame // plays the games in process
	Work  string    // local directory for the nets
	Wait  time.Duration
	Poll  time.Duration // default 1 s
	Log   io.Writer
}

// Play waits (up to Wait) for an open gate, plays pairs until its stop object appears, marks
// its end and returns the pairs it wrote.
func (w *GateWorker) Play(ctx context.Context) (int, error) {
	if w.Log == nil {
		w.Log = io.Discard
	}
	if w.Poll <= 0 {
		w.Poll = time.Second
	}
	lg := log.New(w.Log, fmt.Sprintf("gate worker %d: ", w.Index), log.Ltime)
	raw, err := store.Open(w.Run)
	if err != nil {
		return 0, err
	}
	st := store.WithRetry(raw, store.DefaultBackoff)
	t, err := w.openGate(ctx, st)
	if err != nil {
		return 0, err
	}
	nets, err := w.fetchNets(ctx, st, t)
	if err != nil {
		return 0, err
	}
	seq := 0
	objs, err := st.List(ctx, fmt.Sprintf("%s/pairs/%d/", t.Prefix(), w.Index))
	if err != nil {
		return 0, err
	}
	for _, o := range objs {
		if n, err := strconv.Atoi(strings.TrimSuffix(path.Base(o.Key), ".json")); err == nil {
			seq = max(seq, n+1)
		}
	}
	if err := st.Put(ctx, fmt.Sprintf("%s/workers/%d", t.Prefix(), w.Index), []byte(time.Now().UTC().Format(time.RFC3339)+"\n")); err != nil {
		return 0, err
	}
	lg.Printf("gate of generation %d: candidate %.12s against %.12s, from pair %d", t.Generation, t.Candidate, t.Best, seq)
	written := 0
	for {
		if _, err := st.Get(ctx, t.Prefix()+"/stop"); err == nil {
			break
		} else if !errors.Is(err, store.ErrNotFound) {
			return written, err
		}
		lg.Printf("pair %d: playing", seq)
		p, err := w.playPair(t, nets, seq)
		if err != nil {
			return written, err
		}
		b, _ := json.Marshal(p)
		if err := st.Put(ctx, pairKey(t, w.Index, seq), b); err != nil {
			return written, err
		}
		written++
		lg.Printf("pair %d: written, candidate %.1f + %.1f", seq, p.Scores[0], p.Scores[1])
		seq++
	}
	lg.Printf("stop: %d pairs written", written)
	return written, st.Put(ctx, fmt.Sprintf("%s/done/%d", t.Prefix(), w.Index), []byte("done\n"))
}

// openGate waits (up to Wait) for an open gate of the worker's game and returns its task.
func (w *GateWorker) openGate(ctx context.Context, st store.Store) (*GateTask, error) {
	var t GateTask
	for deadline := time.Now().Add(w.Wait); ; {
		b, err := st.Get(ctx, "gate/current.json")
		if err == nil {
			if err := json.Unmarshal(b, &t); err != nil {
				return nil, fmt.Errorf("pipeline: gate/current.json: %w", err)
			}
			if err := t.check(w.Game.Info().Name); err != nil {
				return nil, fmt.Errorf("pipeline: gate/current.json: %w", err)
			}
			if _, err := st.Get(ctx, t.Prefix()+"/stop"); errors.Is(err, store.ErrNotFound) {
				return &t, nil // open
			} else if err != nil {
				return nil, err
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("pipeline: no open gate in %s after %s", w.Run, w.Wait)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(w.Poll):
		}
	}
}

// fetchNets downloads the gate's two nets into the worker's directory, checked against their
// SHA-256, and returns their paths by SHA-256.
func (w *GateWorker) fetchNets(ctx context.Context, st store.Store, t *GateTask) (map[string]string, error) {
	nets := map[string]string{}
	for _, sha := range []string{t.Candidate, t.Best} {
		key := "nets/" + sha + nnueExt
		b, err := st.Get(ctx, key)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(w.Work, sha+nnueExt)
		if err := os.MkdirAll(w.Work, 0o755); err != nil {
			return nil, err
		}
		if err := atomicfile.WriteFile(p, b); err != nil {
			return nil, err
		}
		m, err := nnue.Load(p)
		if err != nil {
			return nil, fmt.Errorf("pipeline: %s: %w", key, err)
		}
		if m.SHA256() != sha {
			return nil, fmt.Errorf("pipeline: %s holds the net %.12s", key, m.SHA256())
		}
		nets[sha] = p
	}
	return nets, nil
}

// playPair plays the pair seq of task t: one opening, the candidate first in the first game
// and second in the other.
func (w *GateWorker) playPair(t *GateTask, nets map[string]string, seq int) (*GatePair, error) {
	player := func(sha string, seed uint64) (arena.Player, error) {
		return w.Game.NewPlayer(t.Engine, agentdef.EngineOptions{Model: nets[sha], Nodes: t.Nodes, HashMB: t.HashMB, Seed: seed})
	}
	rules := w.Game.Rules()
	seed := t.Seed*1_000_003 + uint64(w.Index)<<32 + uint64(seq)
	cand, err := player(t.Candidate, seed)
	if err != nil {
		return nil, err
	}
	best, err := player(t.Best, seed+1)
	if err != nil {
		return nil, err
	}
	specs := arena.Openings(rules, 2, t.Plies, seed)
	p := &GatePair{Format: GatePairFormat, Version: GateVersion, Game: t.Game, Generation: t.Generation,
		Candidate: t.Candidate, Best: t.Best, Worker: w.Index, Seq: seq}
	for _, c := range specs[0].Opening {
		p.Opening = append(p.Opening, c.String())
	}
	clock := time.Duration(t.ClockMS) * time.Millisecond
	for i, seats := range [][]arena.Player{{cand, best}, {best, cand}} {
		rec, err := arena.PlayLocal(rules, seats, specs[i].Start, clock)
		if err != nil {
			return nil, err
		}
		switch rec.Winner { // the candidate sits in seat i
		case i:
			p.Scores[i] = 1
		case -1:
			p.Scores[i] = 0.5
		}
		p.Faults += len(rec.Faults)
		p.Plies[i] = len(rec.Moves)
	}
	return p, nil
}
