package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"colony/agentdef"
	"colony/data"
	"colony/engine"
	"colony/nn/nnue"
	"colony/registry"
	"colony/selfplay"
	"colony/store"
)

// nnabShards plays games of the run's best net (best.nnue) with nnab at a small node budget
// into the shards store under root, as data worker index does.
func nnabShards(t *testing.T, g registry.Game, run store.Store, root string, index, games int) {
	t.Helper()
	ctx := context.Background()
	p := localCopy(t, run, BestKey(true))
	m, err := nnue.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	bc := selfplay.BootstrapConfig{Workers: 1, Games: games, Seed: uint64(index + 1), PerShard: 200, RandomPlies: 6,
		Limits: engine.Limits{Nodes: 300}, RecordScores: true,
		Meta: data.Meta{ModelSHA256: m.SHA256(), Extra: map[string]string{"engine": "nnab"}}}
	bc.Placement = selfplay.Config{WorkerBase: index, ShardName: shardNames(m.SHA256(), index)}
	if _, err := g.Bootstrap(ctx, bc, "nnab", agentdef.EngineOptions{Model: p, HashMB: 1}, filepath.Join(root, "shards")); err != nil {
		t.Fatal(err)
	}
}

// TestStoreNNUECycle runs one NNUE generation on a directory store: nnab data of a random
// 16-lane net, the candidate trained from it, a gate of two gate workers (goroutines) and the
// coordinator's SPRT, a forged pair of another candidate refused; the gate counts exactly the
// pair objects written, and a promotion leaves best.nnue, the provenance row and report.html.
func TestStoreNNUECycle(t *testing.T) {
	g, root, url := dirRun(t)
	ctx := context.Background()
	cfg := DefaultStoreConfig()
	cfg.Engine, cfg.Init, cfg.TrainSteps, cfg.Batch, cfg.LR, cfg.Wait = "nnab", "random:16", 300, 256, 5e-3, 10*time.Second
	n := DefaultStoreNNUE()
	n.Nodes, n.SoftNodes, n.GateNodes, n.SPRT, n.MaxPairs, n.Grace, n.ScoreWeight = 300, 0, 300, "0,200", 40, 30*time.Second, 0
	n.TeacherWeight = 0.25 // the best net teaches its candidate
	cfg.NNUE = n
	gatePoll = 100 * time.Millisecond
	defer func() { gatePoll = 0 }()
	cy, err := OpenStore(ctx, url, g, cfg, t.TempDir(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	run := mustStore(t, url)
	t0 := time.Now()
	nnabShards(t, g, run, root, 0, 40)
	t.Logf("data: %s", time.Since(t0))
	st0 := cy.State()
	// A forged pair of another candidate, already waiting where the gate's pairs go.
	forged := GatePair{Format: GatePairFormat, Version: GateVersion, Game: "bacteria-war", Generation: 1,
		Candidate: strings.Repeat("ab", 32), Best: st0.BestSHA, Worker: 9, Seq: 0, Scores: [2]float64{1, 1}}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // the forged pair goes in once the task names the candidate
		for gctx.Err() == nil {
			if b, err := run.Get(ctx, "gate/current.json"); err == nil {
				var task GateTask
				json.Unmarshal(b, &task)
				fb, _ := json.Marshal(forged)
				run.Put(ctx, fmt.Sprintf("%s/pairs/9/000000.json", task.Prefix()), fb)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	res, written, err := withGateWorkers(t, g, url, func() (*GenResult, error) { return cy.Generation(ctx) })
	if err != nil {
		t.Fatal(err)
	}
	gate := res.NNUE
	t.Logf("gate: %d pairs %v, LLR %.2f, verdict %q, promoted %v, refused %d, in %s", gate.Pairs, gate.Pentanomial, gate.SPRT.LLR, gate.SPRT.Verdict, res.Promoted, gate.Refused, time.Since(t0))
	if gate.Refused != 1 {
		t.Errorf("refused %d pairs, want the forged one", gate.Refused)
	}
	objs, _ := run.List(ctx, fmt.Sprintf("gate/gen-0001/%s/pairs/", res.CandidateSHA256))
	var keys []string
	for _, o := range objs {
		if !strings.Contains(o.Key, "/pairs/9/") {
			keys = append(keys, o.Key)
		}
	}
	var sb []byte
	sb, _ = run.Get(ctx, "gates/gen-0001.json")
	var saved GenResult
	json.Unmarshal(sb, &saved)
	if fmt.Sprint(keys) != fmt.Sprint(saved.NNUE.PairKeys) || gate.Pairs != written[0]+written[1] || gate.Pairs != len(keys) {
		t.Fatalf("counted %d pairs %v, the workers wrote %v, the store holds %v", gate.Pairs, saved.NNUE.PairKeys, written, keys)
	}
	if gate.SPRT.Verdict == "" && gate.Pairs < n.MaxPairs {
		t.Fatalf("the gate stopped undecided before its cap: %+v", gate)
	}
	if m, err := nnue.Load(localCopy(t, run, cy.netKey(res.CandidateSHA256))); err != nil ||
		m.Meta["train.teacher_sha256"] != st0.BestSHA || m.Meta["train.teacher_weight"] != "0.25" {
		t.Fatalf("the candidate's teacher (want the best net %.12s at 0.25): %v", st0.BestSHA, err)
	}
	if !res.Promoted {
		t.Skipf("the candidate was not promoted (%+v): nothing more to check", gate)
	}
	st := cy.State()
	if st.BestSHA != res.CandidateSHA256 || st.Generation != 2 || len(st.Accepted) != 2 {
		t.Fatalf("state after the promotion %+v", st)
	}
	if m, err := nnue.Load(localCopy(t, run, BestKey(true))); err != nil || m.SHA256() != st.BestSHA {
		t.Fatalf("best.nnue: %v", err)
	}
	rows, err := ReadProvenance(localCopy(t, run, "provenance.tsv"), "bacteria-war")
	if err != nil || len(rows) != 2 || rows[1].Net != st.BestSHA[:12] || rows[1].Parent != st0.BestSHA[:12] || rows[1].PositionsNew != int64(countExamples(t, run)) || rows[1].PositionsNew == 0 ||
		!strings.HasSuffix(rows[1].PerMove, ", parent teacher 0.25") {
		t.Fatalf("provenance %+v, %v", rows, err)
	}
	if _, err := run.Get(ctx, ReportFile); err != nil {
		t.Fatal(err)
	}
	// The window's manifest is kept under the generation and, promoted, under the net's name.
	m1 := readStoreManifest(t, run, netManifest(rows[1].Net))
	if g1 := readStoreManifest(t, run, "manifests/gen-0001.tsv"); len(m1.Entries) == 0 || fmt.Sprint(g1) != fmt.Sprint(m1) {
		t.Fatalf("generation 1's manifest %+v, the net's %+v", g1, m1)
	}
	if m, err := nnue.Load(localCopy(t, run, cy.netKey(st.BestSHA))); err != nil || m.Step != int64(cfg.TrainSteps) {
		t.Fatalf("the candidate was not trained %d steps from the random net: %v", cfg.TrainSteps, err)
	}

	// Generation 2: the trainer is killed while it trains (after a checkpoint), and a trainer
	// on another machine (a fresh working directory) goes on from the store alone: the
	// checkpoint's steps are not trained again.
	nnabShards(t, g, run, root, 1, 40)
	kctx, kill := context.WithCancel(ctx)
	cy2, err := OpenStore(ctx, url, g, cfg, t.TempDir(), cancelOn{testLog{t}, "step 500/600", kill})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cy2.Generation(kctx); err == nil || cy2.State().Stage != StageIngest {
		t.Fatalf("the killed trainer: %v, stage %s", err, cy2.State().Stage)
	}
	var log strings.Builder
	cy3, err := OpenStore(ctx, url, g, cfg, t.TempDir(), io.MultiWriter(testLog{t}, &log))
	if err != nil {
		t.Fatal(err)
	}
	res2, _, err := withGateWorkers(t, g, url, func() (*GenResult, error) { return cy3.Generation(ctx) })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "at step 500, 100 steps left") {
		t.Fatalf("the second trainer did not go on from the checkpoint at step 500:\n%s", log.String())
	}
	cand := localCopy(t, run, "candidates/gen-0002.nnue")
	if m, err := nnue.Load(cand); err != nil || m.Step != 2*int64(cfg.TrainSteps) || m.SHA256() != res2.CandidateSHA256 {
		t.Fatalf("candidate 2: %v", err)
	}
	// Candidate 2's new positions, as its promotion counts them (its gate rarely passes at
	// this size, so the count is asked of the kind directly, at generation 2): the examples of
	// its window from shards that generation 1's window (the best net's manifest) did not
	// hold. Generation 1's shards are in its window again.
	m2 := readStoreManifest(t, run, "manifests/gen-0002.tsv")
	seen := m1.Set()
	var want int64
	for _, e := range m2.Entries {
		if !seen[e.SHA256] {
			want += int64(e.Examples)
		}
	}
	if cy3.s.BestSHA != st.BestSHA {
		t.Skipf("candidate 2 was promoted (%v): the count below asks for generation 1's net as the best", res2.Promoted)
	}
	cy3.s.Generation = 2
	log.Reset()
	got, err := cy3.kind.(*storeNNUE).newPositions(ctx, rows, res2.CandidateSHA256)
	if err != nil || got != want || want == 0 || want == m2.Examples() {
		t.Fatalf("candidate 2: %d new positions (%v), want %d of its window's %d (by the manifests)", got, err, want, m2.Examples())
	}
	if !strings.Contains(log.String(), fmt.Sprintf("%d of the window's %d positions are in no window of %s", want, m2.Examples(), rows[1].Net)) {
		t.Fatalf("the count's log line:\n%s", log.String())
	}
	if fmt.Sprint(readStoreManifest(t, run, netManifest(netName(res2.CandidateSHA256)))) != fmt.Sprint(m2) {
		t.Fatal("candidate 2's manifest is not kept under its name")
	}
}

// readStoreManifest reads the window manifest at key of the run's store.
func readStoreManifest(t *testing.T, run store.Store, key string) data.Manifest {
	t.Helper()
	m, err := data.ReadManifest(localCopy(t, run, key), "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cancelOn is a log that calls cancel once a line holds what.
type cancelOn struct {
	w      io.Writer
	what   string
	cancel func()
}

func (c cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.what) {
		c.cancel()
	}
	return c.w.Write(p)
}

// withGateWorkers runs two gate workers of the run at url while gen runs, ends them when gen
// fails, and returns gen's result and the pairs each worker wrote.
func withGateWorkers(t *testing.T, g registry.Game, url string, gen func() (*GenResult, error)) (*GenResult, []int, error) {
	t.Helper()
	var wg sync.WaitGroup
	written := make([]int, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &GateWorker{Run: url, Index: i, Game: g, Work: t.TempDir(), Wait: 5 * time.Minute, Poll: 100 * time.Millisecond, Log: testLog{t}}
			var err error
			if written[i], err = w.Play(ctx); err != nil && ctx.Err() == nil {
				t.Errorf("gate worker %d: %v", i, err)
			}
		}()
	}
	res, err := gen()
	if err != nil {
		cancel()
	}
	wg.Wait()
	return res, written, err
}

// countExamples counts the examples of generation 1's taken shards.
func countExamples(t *testing.T, run store.Store) int {
	b, err := run.Get(context.Background(), takenKey(1))
	if err != nil {
		t.Fatal(err)
	}
	var g takenGen
	json.Unmarshal(b, &g)
	n := 0
	for _, s := range g.Shards {
		n += s.Examples
	}
	return n
}
