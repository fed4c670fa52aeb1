package pipeline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"colony/cluster"
	"colony/data"
	"colony/ingest"
	"colony/mcts"
	"colony/models"
	"colony/registry"
	"colony/selfplay"
	"colony/store"
)

// storeShards plays games games with the run's best net into its shards store, as worker
// index does.
func storeShards(t *testing.T, g registry.Game, run store.Store, root string, index, games int) {
	t.Helper()
	ctx := context.Background()
	p := localCopy(t, run, "best.model")
	m, _, err := models.Load(g.Info(), p)
	if err != nil {
		t.Fatal(err)
	}
	cfg := selfplay.Config{Workers: 1, GamesPerWorker: 2, Games: games, Playouts: 8, Seed: uint64(index + 1), PerShard: 40,
		WorkerBase: index, Meta: data.Meta{ModelSHA256: m.SHA256(), Extra: map[string]string{"engine": "mcts"}},
		ShardName: shardNames(m.SHA256(), index)}
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.BatchSize = 4
	if _, err := g.SelfPlay(ctx, cfg, m, filepath.Join(root, "shards")); err != nil {
		t.Fatal(err)
	}
}

// shardNames names worker index's shards of the net sha as the worker does (ingest.Key,
// numbered from 0 across the worker's games).
func shardNames(sha string, index int) func(int) func(*data.Meta) string {
	seq := 0
	return func(int) func(*data.Meta) string {
		return func(*data.Meta) string { seq++; return ingest.Key(sha, index, seq-1) }
	}
}

// localCopy downloads the object key of run into a temporary directory and returns its path.
func localCopy(t *testing.T, run store.Store, key string) string {
	t.Helper()
	p, err := cluster.FetchObject(context.Background(), run.URL()+"/"+key, t.TempDir(), 0)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return p
}

// dirRun returns Bacteria War and a new run's directory store: its root and URL.
func dirRun(t *testing.T) (g registry.Game, root, url string) {
	t.Helper()
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	return g, root, "file://" + root
}

func mustStore(t *testing.T, url string) store.Store {
	t.Helper()
	s, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStoreCycle runs two generations of the store cycle on a directory store: the first
// creates the run, ingests a worker's shards (one from a net the run never had is
// quarantined), trains, gates and promotes; the second runs on a fresh working directory (a
// trainer pod on another machine) and finds the accepted shards again in the store.
func TestStoreCycle(t *testing.T) {
	g, root, url := dirRun(t)
	ctx := context.Background()
	cfg := DefaultStoreConfig()
	cfg.Init, cfg.TrainSteps, cfg.Batch, cfg.GateGames, cfg.GatePlayouts, cfg.Promote = "random:1x8", 10, 32, 2, 4, 0
	cfg.Wait = 10 * time.Second
	cy, err := OpenStore(ctx, url, g, cfg, t.TempDir(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	run := mustStore(t, url)
	storeShards(t, g, run, root, 0, 2)
	// A shard of a net this run never had.
	shards := mustStore(t, url+"/shards")
	objs, _ := shards.List(ctx, "")
	b, _ := shards.Get(ctx, objs[0].Key)
	meta, exs, err := data.DecodeShard(b, data.Expect{})
	if err != nil {
		t.Fatal(err)
	}
	meta.ModelSHA256 = strings.Repeat("cd", 32)
	forged, _ := data.EncodeShard(meta, exs)
	shards.Put(ctx, ingest.Key(meta.ModelSHA256, 5, 0), forged)

	res, err := cy.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := cy.State()
	if !res.Promoted || st.Generation != 2 || st.BestSHA != res.CandidateSHA256 || st.Rejected != 1 || st.Shards == 0 || st.GenShards != 0 {
		t.Fatalf("after generation 1: %+v, state %+v", res, st)
	}
	reasons, _ := ingest.Reasons(ctx, shards)
	if r := reasons[ingest.Key(meta.ModelSHA256, 5, 0)]; !strings.Contains(r, "net") {
		t.Fatalf("the unknown net's shard: reason %q", r)
	}
	for _, k := range []string{"gates/gen-0001.json", "promotions/gen-0001.json", "candidates/gen-0001.model", "nets/" + st.BestSHA + ".model"} {
		if _, err := run.Get(ctx, k); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}

	// Generation 2 on another machine: shards of the new best, a fresh working directory.
	storeShards(t, g, run, root, 1, 2)
	cy2, err := OpenStore(ctx, url, g, cfg, t.TempDir(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if cy2.State().Generation != 2 {
		t.Fatalf("reopened at generation %d", cy2.State().Generation)
	}
	if _, err := cy2.Generation(ctx); err != nil {
		t.Fatal(err)
	}
	var st2 StoreState
	sb, _ := run.Get(ctx, "state.json")
	if err := json.Unmarshal(sb, &st2); err != nil || st2.Generation != 3 || st2.Shards <= st.Shards || len(st2.Accepted) != 2 || st2.Accepted[1] != st2.BestSHA {
		t.Fatalf("after generation 2: %+v, %v", st2, err)
	}
	rs, err := ReadStoreState(ctx, url)
	var sum strings.Builder
	if err == nil {
		rs.Summary(&sum)
	}
	if !strings.Contains(sum.String(), "generation 3, stage ingest-train") || !strings.Contains(sum.String(), "1 rejected") {
		t.Fatalf("status: %q, %v", sum.String(), err)
	}
}

// TestStoreHousekeeping: state.json does not grow with the shards (their keys go to
// ingested/gen-NNNN.json); the same bytes under a second key are trained once; and with
// KeepBest 1, shards of the net that was best before the promotion are refused.
func TestStoreHousekeeping(t *testing.T) {
	g, root, url := dirRun(t)
	ctx := context.Background()
	old := t.TempDir()
	cfg := DefaultStoreConfig()
	cfg.Init, cfg.TrainSteps, cfg.Batch, cfg.GateGames, cfg.GatePlayouts, cfg.Promote, cfg.KeepBest = "random:1x8", 5, 32, 2, 4, 0, 1
	cfg.Wait = 10 * time.Second
	cy, err := OpenStore(ctx, url, g, cfg, t.TempDir(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	run := mustStore(t, url)
	shards := mustStore(t, url+"/shards")
	size := func() int {
		b, err := run.Get(ctx, "state.json")
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	storeShards(t, g, run, root, 0, 2)
	storeShards(t, g, run, old, 3, 2) // the first best net's shards, uploaded after the promotion
	objs, _ := shards.List(ctx, "")
	b, _ := shards.Get(ctx, objs[0].Key)
	copyKey := ingest.Key(cy.State().BestSHA, 7, 0)
	if err := shards.Put(ctx, copyKey, b); err != nil {
		t.Fatal(err)
	}
	rep, err := cy.Ingest(ctx)
	if err != nil || len(rep.Duplicates) != 1 || rep.Duplicates[0] != copyKey || rep.Accepted != len(objs) {
		t.Fatalf("first pass %v (%d shards and a copy), %v", rep, len(objs), err)
	}
	s1, n1 := size(), cy.State().Shards
	storeShards(t, g, run, root, 1, 6)
	if _, err := cy.Ingest(ctx); err != nil {
		t.Fatal(err)
	}
	s2, n2 := size(), cy.State().Shards
	tb, _ := run.Get(ctx, takenKey(1))
	if n2 < n1+3 || s2-s1 > 4 || !strings.Contains(string(tb), copyKey) {
		t.Fatalf("state.json %d bytes with %d shards, %d bytes with %d: it grows with the shards", s1, n1, s2, n2)
	}
	if st := cy.State(); st.Duplicates != 1 || st.GenShards != n2 {
		t.Fatalf("state %+v", st)
	}
	first := cy.State().BestSHA
	res, err := cy.Generation(ctx)
	if err != nil || !res.Promoted {
		t.Fatalf("generation 1: %+v, %v", res, err)
	}
	if st := cy.State(); len(st.Accepted) != 1 || st.Accepted[0] != res.CandidateSHA256 {
		t.Fatalf("accepted nets %v, want only the new best", st.Accepted)
	}
	// The first net's shards arrive late: refused, it is out of the window.
	oldShards := mustStore(t, "file://"+filepath.Join(old, "shards"))
	oobjs, _ := oldShards.List(ctx, "")
	for _, o := range oobjs {
		ob, _ := oldShards.Get(ctx, o.Key)
		shards.Put(ctx, o.Key, ob)
	}
	rep, err = cy.Ingest(ctx)
	if err != nil || rep.Accepted != 0 || rep.Rejected != len(oobjs) || len(oobjs) == 0 {
		t.Fatalf("the old net's %d shards: %v, %v", len(oobjs), rep, err)
	}
	for k, r := range rep.Reasons {
		if !strings.HasPrefix(k, first) || !strings.Contains(r, "accepted nets") {
			t.Fatalf("%s refused for %q", k, r)
		}
	}
	// A trainer on a fresh machine finds the taken shards again, the duplicate not among them.
	cy2, err := OpenStore(ctx, url, g, cfg, t.TempDir(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	rep, err = cy2.Ingest(ctx)
	if err != nil || rep.Accepted != 0 || len(rep.Duplicates) != 0 {
		t.Fatalf("fresh machine: %v, %v", rep, err)
	}
	files, _ := filepath.Glob(filepath.Join(cy2.cache(), "*.shard"))
	if len(files) != n2 {
		t.Fatalf("fresh machine: %d shards restored, want %d", len(files), n2)
	}
}
