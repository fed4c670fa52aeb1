package ingest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"colony/agentdef"
	"colony/data"
	"colony/engine"
	"colony/registry"
	"colony/selfplay"
	"colony/store"
)

// bootstrapShards plays a few quick alphabeta games of Bacteria War into a shards store under
// Key(NoNet, 0, seq) and returns the game, the store and its objects.
func bootstrapShards(t *testing.T) (registry.Game, store.Store, []store.Object) {
	t.Helper()
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	seq := 0
	place := selfplay.Config{ShardName: func(int) func(*data.Meta) string {
		return func(*data.Meta) string { seq++; return Key("", 0, seq-1) }
	}}
	_, err = g.Bootstrap(context.Background(), selfplay.BootstrapConfig{Workers: 1, Games: 4, Seed: 1, PerShard: 30,
		Limits: engine.Limits{Depth: 1}, Placement: place, Meta: data.Meta{Extra: map[string]string{"engine": "alphabeta"}}},
		"alphabeta", agentdef.EngineOptions{HashMB: 1}, dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := st.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return g, st, objs
}

// TestIngestQuarantines: good shards are taken; a flipped byte, an illegal move, an example
// that is not its game's position, a net the run does not accept and a shard without moves
// are each quarantined with their reason, and the pass goes on.
func TestIngestQuarantines(t *testing.T) {
	g, st, objs := bootstrapShards(t)
	ctx := context.Background()
	if len(objs) < 2 {
		t.Fatalf("%d shards made, want at least 2", len(objs))
	}
	good, _ := st.Get(ctx, objs[0].Key)
	meta, exs, err := data.DecodeShard(good, data.Expect{})
	if err != nil || meta.Moves == nil {
		t.Fatalf("bootstrap shard: %v, moves %v", err, meta.Moves != nil)
	}
	put := func(key string, b []byte) {
		if err := st.Put(ctx, key, b); err != nil {
			t.Fatal(err)
		}
	}
	reencode := func(m data.Meta, exs []data.Example) []byte {
		b, err := data.EncodeShard(m, exs)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// A flipped byte.
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1
	put(Key("", 7, 0), flipped)
	// An illegal first move (a valid checksum: the worker lied, the file is intact).
	m := meta
	m.Moves = cloneMoves(meta.Moves)
	m.Moves[0].Moves[0] = illegalFirst(t, g)
	put(Key("", 7, 1), reencode(m, exs))
	// An example that is not the position its game's moves reach.
	forged := append([]data.Example(nil), exs...)
	forged[0].Input = append([]float32(nil), exs[0].Input...)
	for i, v := range forged[0].Input {
		if v == 0 {
			forged[0].Input[i] = 1
			break
		}
	}
	put(Key("", 7, 2), reencode(meta, forged))
	// A net the run does not know, uploaded under its own name.
	m = meta
	m.ModelSHA256 = strings.Repeat("ab", 32)
	put(Key(m.ModelSHA256, 7, 3), reencode(m, exs))
	// No moves (format version 2).
	m = meta
	m.Moves = nil
	put(Key("", 7, 4), reencode(m, exs))

	rep, err := Run(ctx, Config{Shards: st, Expect: data.Expect{Game: "bacteria-war", EncoderVersion: g.Info().EncoderVersion},
		Game: g, Cache: filepath.Join(t.TempDir(), "cache"), Seen: map[string]bool{},
		Accept: func(net, eng string) error {
			if net != "" {
				return fmt.Errorf("net %.12s is not accepted", net)
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != len(objs) || rep.Rejected != 5 {
		t.Fatalf("%v: want %d accepted, 5 rejected; reasons %v", rep, len(objs), rep.Reasons)
	}
	want := map[string]string{
		Key("", 7, 0): "checksum", Key("", 7, 1): "illegal move", Key("", 7, 2): "not the position",
		Key(strings.Repeat("ab", 32), 7, 3): "not accepted", Key("", 7, 4): "no moves",
	}
	reasons, err := Reasons(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		if !strings.Contains(reasons[k], w) {
			t.Errorf("%s: reason %q, want one saying %q", k, reasons[k], w)
		}
		if _, err := st.Get(ctx, k); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s is still among the shards: %v", k, err)
		}
		if _, err := st.Get(ctx, QuarantinePrefix+k); err != nil {
			t.Errorf("%s is not in quarantine: %v", k, err)
		}
	}
	// A second pass takes nothing twice.
	rep2, err := Run(ctx, Config{Shards: st, Game: g, Cache: t.TempDir(), Seen: map[string]bool{objs[0].Key: true, objs[1].Key: true}})
	if err != nil || rep2.Accepted != len(objs)-2 || rep2.Skipped != 2 || rep2.Rejected != 0 {
		t.Fatalf("second pass: %v, %v", rep2, err)
	}
	// An object over the size limit is refused unread.
	put(Key("", 8, 0), make([]byte, 2000))
	seen := map[string]bool{}
	for _, o := range objs {
		seen[o.Key] = true
	}
	rep3, err := Run(ctx, Config{Shards: st, Game: g, Cache: t.TempDir(), MaxBytes: 1000, Seen: seen})
	if err != nil || rep3.Rejected != 1 || !strings.Contains(rep3.Reasons[Key("", 8, 0)], "size") {
		t.Fatalf("oversized: %v, %v", rep3, err)
	}
}

func cloneMoves(in []data.GameMoves) []data.GameMoves {
	out := make([]data.GameMoves, len(in))
	for i, g := range in {
		out[i] = data.GameMoves{GameID: g.GameID, Moves: append([]int32(nil), g.Moves...)}
	}
	return out
}

// illegalFirst is a policy index that is no legal first move.
func illegalFirst(t *testing.T, g registry.Game) int32 {
	for i := int32(0); int(i) < g.Info().PolicySize; i++ {
		if g.ReplayMoves([]int32{i}, nil, nil) != nil {
			return i
		}
	}
	t.Fatal("every policy index is a legal first move")
	return 0
}

// TestIngestDuplicateContent: the same bytes under a second key (a shard uploaded twice under
// two names) are trained once: the first key is accepted, the second counted as a duplicate,
// neither quarantined; a later pass with the content hashes it recorded does the same.
func TestIngestDuplicateContent(t *testing.T) {
	g, st, objs := bootstrapShards(t)
	ctx := context.Background()
	b, _ := st.Get(ctx, objs[0].Key)
	copyKey := Key("", 9, 0) // sorts after the worker 0 keys
	if err := st.Put(ctx, copyKey, b); err != nil {
		t.Fatal(err)
	}
	seen, content := map[string]bool{}, map[string]bool{}
	cache := t.TempDir()
	rep, err := Run(ctx, Config{Shards: st, Expect: data.Expect{Game: "bacteria-war", EncoderVersion: g.Info().EncoderVersion}, Game: g, Cache: cache, Seen: seen, SeenContent: content})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != len(objs) || len(rep.Duplicates) != 1 || rep.Duplicates[0] != copyKey || rep.Rejected != 0 || len(rep.NewHashes) != rep.Accepted {
		t.Fatalf("report %+v (%d shards and one copy)", rep, len(objs))
	}
	if files, _ := filepath.Glob(filepath.Join(cache, "*.shard")); len(files) != len(objs) {
		t.Fatalf("%d files in the cache, want %d (the copy not among them)", len(files), len(objs))
	}
	// A fresh pass that knows only the content hashes (the keys forgotten) takes nothing again.
	rep2, err := Run(ctx, Config{Shards: st, Expect: data.Expect{Game: "bacteria-war", EncoderVersion: g.Info().EncoderVersion}, Game: g, Cache: t.TempDir(), SeenContent: content})
	if err != nil || rep2.Accepted != 0 || len(rep2.Duplicates) != len(objs)+1 {
		t.Fatalf("second pass: %+v, %v", rep2, err)
	}
}
