package cluster

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"colony/agentdef"
	"colony/data"
	"colony/engine"
	"colony/ingest"
	"colony/registry"
	"colony/selfplay"
	"colony/store"
)

// TestWorkerKeysAndRestart: a worker puts its shards under none/<index>/<seq>.zst in a
// file:// store, and a second start of the same index continues the sequence with new games.
func TestWorkerKeysAndRestart(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w := Worker{Shards: "file://" + root, Index: 3, Workers: 1, Spool: t.TempDir()}
	play := func(ctx context.Context, dir string, place selfplay.Config) (selfplay.Stats, error) {
		return g.Bootstrap(ctx, selfplay.BootstrapConfig{Workers: 1, Games: 2, Seed: 1, PerShard: 1, Limits: engine.Limits{Depth: 1},
			Placement: place, Meta: data.Meta{Extra: map[string]string{"engine": "alphabeta"}}}, "alphabeta", agentdef.EngineOptions{HashMB: 1}, dir)
	}
	for range 2 {
		if _, err := w.Run(context.Background(), play); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := store.Open(root)
	objs, _ := st.List(context.Background(), "")
	var keys []string
	ids := map[uint64]bool{}
	for _, o := range objs {
		if filepath.Ext(o.Key) != ingest.ShardExt {
			continue
		}
		keys = append(keys, o.Key)
		b, _ := st.Get(context.Background(), o.Key)
		m, _, err := data.DecodeShard(b, data.Expect{})
		if err != nil || m.Worker != 3 {
			t.Fatalf("%s: worker %d, %v", o.Key, m.Worker, err)
		}
		for _, gm := range m.Moves {
			if ids[gm.GameID] {
				t.Fatalf("game %#x played twice", gm.GameID)
			}
			ids[gm.GameID] = true
		}
	}
	want := []string{"none/3/000000.zst", "none/3/000001.zst", "none/3/000002.zst", "none/3/000003.zst"}
	if len(keys) != len(want) || keys[0] != want[0] || keys[3] != want[3] {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	var rec WorkerStart
	b, _ := st.Get(context.Background(), "workers/3.json")
	if err := json.Unmarshal(b, &rec); err != nil || rec.Starts != 2 || rec.NextSeq != 2 {
		t.Fatalf("workers/3.json %+v, %v", rec, err)
	}
}
