package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"colony/arena"
	"colony/cluster"
	"colony/nn/nnue"
	"colony/pipeline"
	"colony/registry"
	"colony/store"
)

// tinyNNUE is an NNUE configuration small enough for a test: a random 16-lane net, nnab
// data at 300 nodes a move, 300 training steps, and an SPRT over pairs at 300 nodes that a
// trained candidate passes in a few pairs against the random net. The candidate scores about
// 79% (+230 Elo), but about 40% of its pairs are 1-1 and one pair in 60 is lost: a lost pair
// and a tie among the first few pairs end an SPRT(0,200) at 5% errors in H0 (in 3.6% of
// simulated sequences). Hypotheses 0 and +100 Elo with a 0.1% chance of a false H0 leave that
// at 0.003% and decide in about the same number of pairs.
func tinyNNUE(run, endpoint string) Config {
	c := DefaultNNUEConfig()
	c.Store, c.Endpoint = run, endpoint
	c.Workers, c.WorkerGames, c.PerShard, c.WorkerThreads = 2, 20, 100, 1
	c.NNUEInit, c.Nodes, c.SoftNodes, c.HashMB, c.RandomPlies, c.OpeningMax, c.AdjScore = "random:16", 300, 0, 1, "6..8", 0, 0
	c.TrainSteps, c.LR, c.ScoreWeight, c.MinShards = 300, "0.005", "0", 16
	c.GateWorkers, c.SPRT, c.GateNodes, c.MaxPairs = 2, "0,100,0.05,0.001", 300, 400
	return c
}

// getFile downloads the object key of s into a temporary directory and returns its path.
func getFile(t *testing.T, s store.Store, key string) string {
	t.Helper()
	p, err := cluster.FetchObject(context.Background(), s.URL()+"/"+key, t.TempDir(), 0)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return p
}

// TestS3NNUEGeneration: the NNUE manifests' three Jobs run locally against versitygw: two
// nnab data pods, two gate pods and the trainer make one generation through the store; the
// SPRT over the gate pods' pairs decides, and the promoted net is read back from the store,
// loaded, and has its provenance row; the gate counted exactly the pairs in the store.
func TestS3NNUEGeneration(t *testing.T) {
	gw, bins := s3Env(t)
	ctx := context.Background()
	var out syncBuf
	c := tinyNNUE("s3://colony/nnue", "http://"+gw.addr)
	run, st := oneGeneration(t, c, bins, &out)
	if st.Generation != 2 || len(st.History) != 1 || st.Shards < c.MinShards || st.Rejected != 0 {
		t.Fatalf("state after one generation: %+v\n%s", st, out.String())
	}
	h := st.History[0]
	if h.NNUE == nil || h.NNUE.SPRT.Verdict == "" || h.NNUE.Decided >= c.MaxPairs {
		t.Fatalf("the SPRT did not decide: %+v\n%s", h.NNUE, out.String())
	}
	if !h.Promoted || st.BestSHA != h.CandidateSHA256 {
		t.Fatalf("not promoted: %+v", h)
	}
	init := st.Accepted[0]
	m, err := nnue.Load(getFile(t, run, pipeline.BestKey(true)))
	if err != nil || m.SHA256() != st.BestSHA {
		t.Fatalf("best.nnue from the store: %v", err)
	}
	rows, err := pipeline.ReadProvenance(getFile(t, run, "provenance.tsv"), c.Game)
	if err != nil || len(rows) != 2 || rows[1].Net != st.BestSHA[:12] || rows[1].Parent != init[:12] || rows[1].PositionsNew == 0 ||
		!strings.Contains(rows[1].Gate, "SPRT(0,100,0.05,0.001) H1") || !strings.Contains(rows[1].PerMove, "nnab nodes 300") {
		t.Fatalf("provenance %+v, %v", rows, err)
	}
	if _, err := run.Get(ctx, pipeline.ReportFile); err != nil {
		t.Fatal(err)
	}
	var gate pipeline.GenResult
	if b, err := run.Get(ctx, "gates/gen-0001.json"); err != nil || json.Unmarshal(b, &gate) != nil {
		t.Fatalf("gates/gen-0001.json: %v", err)
	}
	objs, _ := run.List(ctx, fmt.Sprintf("gate/gen-0001/%s/pairs/", h.CandidateSHA256))
	var keys []string
	for _, o := range objs {
		keys = append(keys, o.Key)
	}
	if !slices.Equal(keys, gate.NNUE.PairKeys) || gate.NNUE.Pairs != len(keys) {
		t.Fatalf("the gate counted %v, the store holds %v", gate.NNUE.PairKeys, keys)
	}
	for _, i := range []int{0, 1} {
		if !strings.Contains(out.String(), fmt.Sprintf("gate worker %d: ", i)) || !strings.Contains(out.String(), fmt.Sprintf("worker %d: ", i)) {
			t.Errorf("no line from gate or data worker %d", i)
		}
	}
	t.Logf("gate: decided at %d pairs; %d pairs %v in all, LLR %.2f, %s", h.NNUE.Decided, h.NNUE.Pairs, h.NNUE.Pentanomial, h.NNUE.SPRT.LLR, rows[1].Gate)
}

var pairPlaying = regexp.MustCompile(`gate worker 1: \S+ pair (\d+): playing`)

// TestS3GateWorkerKill: a gate worker SIGKILLed while it plays a pair loses only that pair:
// nothing of it is in the store, its restart plays that pair's number again and goes on, and
// the gate counts every finished pair once: its counted keys are exactly the pair objects.
func TestS3GateWorkerKill(t *testing.T) {
	gw, bins := s3Env(t)
	ctx := context.Background()
	c := tinyNNUE("s3://colony/gatekill", "http://"+gw.addr)
	raw := openStore(t, c.Store)
	run := store.WithRetry(raw, store.DefaultBackoff)
	var shas []string
	for seed := range uint64(2) {
		shas = append(shas, putRandomNNUE(t, run, c.Game, seed+1, func(sha string) string { return "nets/" + sha + ".nnue" }))
	}
	// A test that cannot decide in 14 pairs (hypotheses 1 Elo apart at 0.1% errors): the gate
	// ends at its cap, after the kill and the restart.
	sprt, _ := arena.ParseSPRT("0,1,0.001,0.001")
	var out syncBuf
	task := pipeline.GateTask{Format: pipeline.GateTaskFormat, Version: pipeline.GateVersion, Game: c.Game, Generation: 1,
		Candidate: shas[0], Best: shas[1], Engine: "nnab", Nodes: 20000, HashMB: 1, Plies: 6, Seed: 7}
	coord := &pipeline.Gate{Store: run, Task: task, SPRT: sprt, MaxPairs: 14, Grace: 3 * time.Minute, Poll: 200 * time.Millisecond, Log: &out}
	type result struct {
		g   *pipeline.NNUEGate
		err error
	}
	res := make(chan result, 1)
	go func() { g, err := coord.Run(ctx); res <- result{g, err} }()
	l := localRun(t, c, bins, &out)
	start := func(i int) *exec.Cmd {
		cmd, err := l.GateCommand(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	w0, w1 := start(0), start(1)
	killed := -1
	for deadline := time.Now().Add(3 * time.Minute); killed < 0; time.Sleep(10 * time.Millisecond) {
		if m := pairPlaying.FindAllStringSubmatch(out.String(), -1); len(m) >= 2 {
			killed, _ = strconv.Atoi(m[len(m)-1][1])
			w1.Process.Signal(syscall.SIGKILL)
		}
		if time.Now().After(deadline) {
			t.Fatalf("gate worker 1 played no second pair in 3 minutes\n%s", out.String())
		}
	}
	w1.Wait()
	mine := task.Prefix() + "/pairs/1/"
	key := fmt.Sprintf("%s%06d.json", mine, killed)
	if _, err := run.Get(ctx, key); err == nil {
		t.Fatalf("pair %d was written although its worker was killed while playing it", killed)
	}
	t.Logf("gate worker 1 killed while playing pair %d", killed)
	w1 = start(1)
	r := <-res
	w0.Wait()
	w1.Wait()
	if r.err != nil {
		t.Fatalf("gate: %v\n%s", r.err, out.String())
	}
	objs, _ := run.List(ctx, task.Prefix()+"/pairs/")
	var keys []string
	seqs := map[int][]int{}
	for _, o := range objs {
		keys = append(keys, o.Key)
		var p pipeline.GatePair
		b, _ := run.Get(ctx, o.Key)
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		seqs[p.Worker] = append(seqs[p.Worker], p.Seq)
	}
	if !slices.Equal(keys, r.g.PairKeys) || r.g.Pairs != len(keys) || r.g.Refused != 0 {
		t.Fatalf("the gate counted %d pairs %v, the store holds %v", r.g.Pairs, r.g.PairKeys, keys)
	}
	n := 0
	for _, c := range r.g.Pentanomial {
		n += c
	}
	if n != len(keys) || len(keys) < 14 {
		t.Fatalf("pentanomial %v over %d pairs", r.g.Pentanomial, len(keys))
	}
	for w, s := range seqs { // each worker's pairs are 0..k-1: the killed pair was played again, nothing skipped or doubled
		for i, q := range s {
			if q != i {
				t.Fatalf("worker %d wrote pairs %v", w, s)
			}
		}
	}
	if len(seqs[1]) <= killed {
		t.Fatalf("the restarted worker 1 did not play pair %d again: %v", killed, seqs[1])
	}
	if !strings.Contains(out.String(), fmt.Sprintf("from pair %d", killed)) {
		t.Fatalf("the restart did not go on from pair %d\n%s", killed, out.String())
	}
	t.Logf("gate: %d pairs %v, each once; worker 1 wrote %v", len(keys), r.g.Pentanomial, seqs[1])
}

// putRandomNNUE puts a random 16-lane net of game (seed) under key(its SHA-256) and returns
// the SHA-256.
func putRandomNNUE(t *testing.T, s store.Store, game string, seed uint64, key func(sha string) string) string {
	t.Helper()
	g, _ := registry.Lookup(game)
	arch, err := g.NNUEArch(16, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := nnue.NewRandom(arch, seed)
	p := filepath.Join(t.TempDir(), "n.nnue")
	if err := m.Save(p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if err := s.Put(context.Background(), key(m.SHA256()), b); err != nil {
		t.Fatal(err)
	}
	return m.SHA256()
}

// TestS3NNUEDataOutage: two nnab data workers play while the store is down for 30 s: no
// position is lost (every position they report is in the store, and ingest takes them all).
func TestS3NNUEDataOutage(t *testing.T) {
	gw, bins := s3Env(t)
	c := tinyNNUE("s3://colony/nnueoutage", "http://"+gw.addr)
	raw := openStore(t, c.Store)
	putRandomNNUE(t, raw, c.Game, 3, func(string) string { return pipeline.BestKey(true) })
	c.WorkerGames, c.WorkerDuration, c.PerShard = 0, "40s", 1000
	outage(t, gw, c, bins, t.TempDir(), openStore(t, c.Store+"/shards"))
}
