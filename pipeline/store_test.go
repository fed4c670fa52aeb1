package pipeline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	b, err := run.Get(ctx, "best.model")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "best.model")
	if err := (mustStore(t, "file://"+filepath.Dir(p))).Put(ctx, "best.model", b); err != nil {
		t.Fatal(err)
	}
	m, _, err := models.Load(g.Info(), p)
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	cfg := selfplay.Config{Workers: 1, GamesPerWorker: 2, Games: games, Playouts: 8, Seed: uint64(index + 1), PerShard: 40,
		WorkerBase: index, Meta: data.Meta{ModelSHA256: m.SHA256(), Extra: map[string]string{"engine": "mcts"}},
		ShardName: func(int) func(*data.Meta) string {
			return func(*data.Meta) string { seq++; return ingest.Key(m.SHA256(), index, seq-1) }
		}}
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.BatchSize = 4
	if _, err := g.SelfPlay(ctx, cfg, m, filepath.Join(root, "shards")); err != nil {
		t.Fatal(err)
	}
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
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	root := t.TempDir()
	url := "file://" + root
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
