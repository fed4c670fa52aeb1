// Package cluster runs Colony's generation cycle on more than one machine: self-play workers
// that put their shards into a store (Worker) and commands whose files are store URLs
// (Inputs). The Kubernetes manifests and their local run are package cluster/kube.
// docs/cluster.md is the user's guide.
package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"colony/data"
	"colony/ingest"
	"colony/selfplay"
	"colony/store"
)

// EnvIndex is the variable Kubernetes sets to the pod's index in an Indexed Job.
const EnvIndex = "JOB_COMPLETION_INDEX"

// gamesPerStart spaces the game indices of a worker's successive starts (a restarted worker
// never replays a game it played before): 2^28 games per start, 4096 starts.
const gamesPerStart = 1 << 28

// Worker is one self-play pod: it plays into a local spool directory and a Spool uploads each
// finished shard under Key(net, Index, seq) in the shards store, retrying while the store is
// away, so a worker that cannot reach the store keeps playing and uploads later.
type Worker struct {
	Shards  string // the shards store's URL (s3://bucket/run1/shards)
	Index   int    // the pod's index (JOB_COMPLETION_INDEX)
	Workers int    // the process's self-play workers (game seeds use Index*Workers+w)
	Spool   string // local directory of the shards not yet uploaded
	NetSHA  string // the net that plays (hex SHA-256; "" for an engine without one)
	Backoff store.Backoff
	// Drain is how long the worker keeps trying to upload its spool after the games (default
	// 10 min); a worker that gives up leaves the files for its next start.
	Drain time.Duration
	Log   io.Writer
}

// WorkerStart is what a worker records at each start in <shards>/workers/<index>.json.
type WorkerStart struct {
	Index     int   `json:"index"`
	Starts    int   `json:"starts"`
	NextSeq   int   `json:"next_seq"`
	StartUnix int64 `json:"start_unix"`
}

// Play runs the self-play of one worker start: dir is where shards go and place carries
// WorkerBase, FirstGame and ShardName for selfplay.Config (or BootstrapConfig.Placement).
type Play func(ctx context.Context, dir string, place selfplay.Config) (selfplay.Stats, error)

// IndexFromEnv returns JOB_COMPLETION_INDEX, or def when it is not set.
func IndexFromEnv(def int) (int, error) {
	v := os.Getenv(EnvIndex)
	if v == "" {
		return def, nil
	}
	var i int
	if _, err := fmt.Sscan(v, &i); err != nil || i < 0 {
		return 0, fmt.Errorf("cluster: %s=%q is not an index", EnvIndex, v)
	}
	return i, nil
}

// Run plays, uploads, and drains the spool. The stats are the games of this start; the error
// is the play's, or the drain's when shards are left on disk.
func (w *Worker) Run(ctx context.Context, play Play) (selfplay.Stats, error) {
	if w.Log == nil {
		w.Log = io.Discard
	}
	if w.Drain <= 0 {
		w.Drain = 10 * time.Minute
	}
	raw, err := store.Open(w.Shards)
	if err != nil {
		return selfplay.Stats{}, err
	}
	forever := store.Backoff{Initial: w.Backoff.Initial, Max: w.Backoff.Max, Log: w.Log} // until ctx ends
	st := store.WithRetry(raw, forever)
	if err := forever.Do(ctx, "bucket", func() error { return store.EnsureBucket(ctx, raw) }); err != nil {
		return selfplay.Stats{}, err
	}
	net := w.NetSHA
	if net == "" {
		net = ingest.NoNet
	}
	start, err := w.begin(ctx, st, net)
	if err != nil {
		return selfplay.Stats{}, err
	}
	fmt.Fprintf(w.Log, "worker %d: start %d, shards from %s/%s on\n", w.Index, start.Starts, w.Shards, ingest.Key(net, w.Index, start.NextSeq))
	sp := &store.Spool{Dir: w.Spool, Store: raw, Backoff: w.Backoff, Every: 500 * time.Millisecond, Log: w.Log}
	upCtx, stopUp := context.WithCancel(context.Background())
	upDone := make(chan struct{})
	go func() { sp.Run(upCtx); close(upDone) }()

	var seq atomic.Int64
	seq.Store(int64(start.NextSeq))
	place := selfplay.Config{WorkerBase: w.Index * max(w.Workers, 1), FirstGame: uint64(start.Starts-1) * gamesPerStart,
		ShardName: func(int) func(*data.Meta) string {
			return func(*data.Meta) string { return ingest.Key(net, w.Index, int(seq.Add(1)-1)) }
		}}
	stats, playErr := play(ctx, w.Spool, place)
	stopUp()
	<-upDone
	dctx, cancel := context.WithTimeout(context.Background(), w.Drain)
	defer cancel()
	drainErr := sp.Drain(dctx)
	up, fails := sp.Counts()
	fmt.Fprintf(w.Log, "worker %d: %d games, %d positions, %d shards uploaded (%d failed upload passes)\n",
		w.Index, stats.Games, stats.Positions, up, fails)
	return stats, errors.Join(playErr, drainErr)
}

// begin records this start and finds the next sequence number: past every key of this
// worker and net in the store and every file in its spool.
func (w *Worker) begin(ctx context.Context, st store.Store, net string) (WorkerStart, error) {
	rec := WorkerStart{Index: w.Index}
	key := fmt.Sprintf("workers/%d.json", w.Index)
	if b, err := st.Get(ctx, key); err == nil {
		if err := json.Unmarshal(b, &rec); err != nil {
			return rec, fmt.Errorf("cluster: %s: %w", key, err)
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return rec, err
	}
	rec.Starts++
	if rec.Starts > (1<<40)/gamesPerStart {
		return rec, fmt.Errorf("cluster: worker %d started %d times: its game indices are used up", w.Index, rec.Starts)
	}
	prefix := fmt.Sprintf("%s/%d/", net, w.Index)
	objs, err := st.List(ctx, prefix)
	if err != nil {
		return rec, err
	}
	sp := &store.Spool{Dir: w.Spool}
	pending, err := sp.Pending()
	if err != nil {
		return rec, err
	}
	rec.NextSeq = 0
	for _, k := range append(keys(objs), pending...) {
		if n, i, s, ok := ingest.ParseKey(k); ok && n == net && i == w.Index {
			rec.NextSeq = max(rec.NextSeq, s+1)
		}
	}
	rec.StartUnix = time.Now().Unix()
	b, _ := json.Marshal(rec)
	if err := st.Put(ctx, key, b); err != nil {
		return rec, err
	}
	return rec, os.MkdirAll(filepath.Join(w.Spool, filepath.FromSlash(strings.TrimSuffix(prefix, "/"))), 0o755)
}

func keys(objs []store.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.Key
	}
	return out
}

// PlayTo runs play into out: a local directory as it is, or, for a store URL, as the Worker w
// with out as its shards store.
func PlayTo(ctx context.Context, out string, w Worker, play Play) (selfplay.Stats, error) {
	if !store.IsURL(out) {
		return play(ctx, out, selfplay.Config{})
	}
	w.Shards = out
	return w.Run(ctx, play)
}
