package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"colony/data"
	"colony/ingest"
	"colony/internal/atomicfile"
	"colony/registry"
	"colony/store"
)

// Inputs are a command's file arguments, each a local path or a store URL (s3://..., file://...):
// Localize brings the URLs onto the local disk (shards through ingest's checks) and Publish
// puts a locally written output where its URL says.
type Inputs struct {
	Shards string   // a shard directory, or the URL of a shards store (keys <net>/<index>/<seq>.zst)
	Model  string   // a model or net file, or an object URL
	Out    string   // the output file, or an object URL
	Accept []string // nets (hex SHA-256) whose shards are taken; empty: any net
	Cache  string   // local directory for what Localize fetches (default a temporary one)
	Log    io.Writer
	Report ingest.Report // the ingest's counts, after Localize

	localOut string
}

// Localize rewrites the URLs of in to local paths. A shards URL is ingested: every shard is
// checked (checksum and format version, legal replay of every game, an accepted net), the
// rejected ones quarantined in the store, and the accepted ones written into the cache, whose
// path replaces Shards.
func (in *Inputs) Localize(ctx context.Context, game registry.Game) error {
	want := data.Expect{Game: game.Info().Name, EncoderVersion: game.Info().EncoderVersion}
	if in.Log == nil {
		in.Log = io.Discard
	}
	if in.Cache == "" {
		dir, err := os.MkdirTemp("", "colony-cache-")
		if err != nil {
			return err
		}
		in.Cache = dir
	}
	if store.IsURL(in.Model) {
		p, err := FetchObject(ctx, in.Model, filepath.Join(in.Cache, "model"), 0)
		if err != nil {
			return err
		}
		in.Model = p
	}
	if store.IsURL(in.Out) {
		in.localOut = in.Out
		in.Out = filepath.Join(in.Cache, "out", path.Base(in.Out))
		if err := os.MkdirAll(filepath.Dir(in.Out), 0o755); err != nil {
			return err
		}
	}
	if !store.IsURL(in.Shards) {
		return nil
	}
	raw, err := store.Open(in.Shards)
	if err != nil {
		return err
	}
	var accept func(string, string) error
	if len(in.Accept) > 0 {
		accept = func(net, _ string) error {
			for _, a := range in.Accept {
				if a == net || (len(a) >= 12 && strings.HasPrefix(net, a)) {
					return nil
				}
			}
			return fmt.Errorf("net %q is not among the accepted (-accept-nets)", net)
		}
	}
	local := filepath.Join(in.Cache, "shards")
	in.Report, err = ingest.Run(ctx, ingest.Config{Shards: store.WithRetry(raw, store.DefaultBackoff), Expect: want,
		Game: game, Accept: accept, Cache: local, Log: in.Log})
	fmt.Fprintln(in.Log, in.Report)
	if err != nil {
		return err
	}
	if in.Report.Accepted == 0 {
		return errors.New("cluster: no shard in " + in.Shards + " passed ingest")
	}
	in.Shards = local
	return nil
}

// Publish puts the local output at its URL (nothing to do for a local -out).
func (in *Inputs) Publish(ctx context.Context) error {
	if in.localOut == "" {
		return nil
	}
	b, err := os.ReadFile(in.Out)
	if err != nil {
		return err
	}
	st, key, err := store.Split(in.localOut)
	if err != nil {
		return err
	}
	if err := store.WithRetry(st, store.DefaultBackoff).Put(ctx, key, b); err != nil {
		return err
	}
	fmt.Fprintf(in.Log, "cluster: wrote %s (%d bytes)\n", in.localOut, len(b))
	return nil
}

// ParseAccept splits a comma-separated -accept-nets value.
func ParseAccept(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// FetchObject downloads the object at url into dir (created) under its base name and returns
// the file's path; a plain path is returned as it is. A missing object is waited for up to
// wait (a worker started with the trainer that creates the run's best.model).
func FetchObject(ctx context.Context, url, dir string, wait time.Duration) (string, error) {
	if !store.IsURL(url) {
		return url, nil
	}
	st, key, err := store.Split(url)
	if err != nil {
		return "", err
	}
	st = store.WithRetry(st, store.DefaultBackoff)
	deadline := time.Now().Add(wait)
	var b []byte
	for {
		b, err = st.Get(ctx, key)
		if !errors.Is(err, store.ErrNotFound) || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Second):
		}
	}
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, path.Base(key))
	return p, atomicfile.WriteFile(p, b)
}
