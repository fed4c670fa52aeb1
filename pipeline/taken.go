package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"colony/ingest"
	"colony/internal/atomicfile"
	"colony/store"
)

// The shards a StoreCycle took, one object a generation (ingested/gen-NNNN.json), so that
// state.json stays the size of the generations, not of the shards.

// takenFormat and takenVersion start every ingested/gen-NNNN.json.
const (
	takenFormat  = "colony-ingested"
	takenVersion = 1
)

// takenShard is one key an ingest pass took: trained, or a duplicate of bytes taken before.
type takenShard struct {
	Key      string `json:"key"`
	SHA256   string `json:"sha256,omitempty"` // of the bytes (trained keys)
	Examples int    `json:"examples,omitempty"`
	Dup      bool   `json:"dup,omitempty"`
}

// takenGen is ingested/gen-NNNN.json.
type takenGen struct {
	Format     string       `json:"format"`
	Version    int          `json:"version"`
	Game       string       `json:"game"`
	Generation int          `json:"generation"`
	Shards     []takenShard `json:"shards"`
}

// taken is every generation's takenGen, with the keys and content hashes seen.
type taken struct {
	game    string
	gens    map[int]*takenGen
	order   []int // generations, ascending
	keys    map[string]bool
	content map[string]bool
}

func takenKey(gen int) string { return fmt.Sprintf("ingested/gen-%04d.json", gen) }

// readTaken reads every ingested/gen-NNNN.json of the run, refusing another format, version
// or game.
func readTaken(ctx context.Context, st store.Store, game string) (*taken, error) {
	t := &taken{game: game, gens: map[int]*takenGen{}, keys: map[string]bool{}, content: map[string]bool{}}
	objs, err := st.List(ctx, "ingested/")
	if err != nil {
		return nil, err
	}
	for _, o := range objs { // sorted by key: by generation
		b, err := st.Get(ctx, o.Key)
		if err != nil {
			return nil, err
		}
		var g takenGen
		if err := json.Unmarshal(b, &g); err != nil {
			return nil, fmt.Errorf("pipeline: %s: %w", o.Key, err)
		}
		if g.Format != takenFormat || g.Version != takenVersion || g.Game != game || takenKey(g.Generation) != o.Key {
			return nil, fmt.Errorf("pipeline: %s: format %q version %d of %q, generation %d: want %s version %d of %s",
				o.Key, g.Format, g.Version, g.Game, g.Generation, takenFormat, takenVersion, game)
		}
		t.gens[g.Generation] = &g
		t.order = append(t.order, g.Generation)
		for _, s := range g.Shards {
			t.keys[s.Key] = true
			if !s.Dup {
				t.content[s.SHA256] = true
			}
		}
	}
	return t, nil
}

// add records an ingest pass of generation gen and writes its object.
func (t *taken) add(ctx context.Context, st store.Store, gen int, rep ingest.Report) error {
	g := t.gens[gen]
	if g == nil {
		g = &takenGen{Format: takenFormat, Version: takenVersion, Game: t.game, Generation: gen}
		t.gens[gen] = g
		t.order = append(t.order, gen)
	}
	for i, k := range rep.NewKeys {
		g.Shards = append(g.Shards, takenShard{Key: k, SHA256: rep.NewHashes[i], Examples: rep.PerKey[k]})
	}
	for _, k := range rep.Duplicates {
		g.Shards = append(g.Shards, takenShard{Key: k, Dup: true})
	}
	b, err := json.MarshalIndent(g, "", " ")
	if err != nil {
		return err
	}
	return st.Put(ctx, takenKey(gen), append(b, '\n'))
}

// counts are the trained shards of all generations, and of gen its trained shards and
// examples; and the duplicates of all generations.
func (t *taken) counts(gen int) (all, genShards int, genExamples int64, dups int) {
	for n, g := range t.gens {
		for _, s := range g.Shards {
			switch {
			case s.Dup:
				dups++
			default:
				all++
				if n == gen {
					genShards++
					genExamples += int64(s.Examples)
				}
			}
		}
	}
	return all, genShards, genExamples, dups
}

// restore brings the trained shards back into the cache dir when they are not there, dated
// in the order they were taken (the replay window takes the newest files).
func (t *taken) restore(ctx context.Context, st store.Store, dir string) error {
	var keys []string
	for _, gen := range t.order {
		for _, s := range t.gens[gen].Shards {
			if !s.Dup {
				keys = append(keys, s.Key)
			}
		}
	}
	t0 := time.Now().Add(-time.Duration(len(keys)) * time.Millisecond)
	for i, k := range keys {
		p := filepath.Join(dir, ingest.CacheName(k))
		if _, err := os.Stat(p); err == nil {
			continue
		}
		b, err := st.Get(ctx, store.Join("shards", k))
		if err == nil {
			err = atomicfile.WriteFile(p, b)
		}
		if err == nil {
			ti := t0.Add(time.Duration(i) * time.Millisecond)
			err = os.Chtimes(p, ti, ti)
		}
		if err != nil {
			return fmt.Errorf("pipeline: restoring %s: %w", strings.TrimSpace(k), err)
		}
	}
	return nil
}
