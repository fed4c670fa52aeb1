package store

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// fakeS3 starts an in-process S3 server (gofakes3) and points the environment at it.
func fakeS3(t *testing.T) {
	t.Helper()
	ts := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(ts.Close)
	t.Setenv(EnvEndpoint, ts.URL)
	t.Setenv(EnvEndpointS3, "")
	t.Setenv(EnvAccessKey, "test")
	t.Setenv(EnvSecretKey, "testsecret")
	t.Setenv(EnvRegion, "us-east-1")
}

// exercise runs the Store contract on s.
func exercise(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	if err := EnsureBucket(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "a/missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get of a missing key: %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "a/missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete of a missing key: %v, want ErrNotFound", err)
	}
	big := bytes.Repeat([]byte("colony"), 200_000)
	for k, v := range map[string][]byte{"a/1.zst": []byte("one"), "a/b/2.zst": big, "c.json": []byte("{}")} {
		if err := s.Put(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := s.Get(ctx, "a/b/2.zst"); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("get: %d bytes, %v", len(b), err)
	}
	objs, err := s.List(ctx, "a/")
	if err != nil || len(objs) != 2 || objs[0].Key != "a/1.zst" || objs[1].Key != "a/b/2.zst" || objs[1].Size != int64(len(big)) {
		t.Fatalf("list a/: %+v, %v", objs, err)
	}
	if err := Move(ctx, s, "a/1.zst", "quarantine/a/1.zst"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "a/1.zst"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("moved key still there: %v", err)
	}
	if b, err := s.Get(ctx, "quarantine/a/1.zst"); err != nil || string(b) != "one" {
		t.Fatalf("moved: %q, %v", b, err)
	}
	for _, bad := range []string{"", "/abs", "a/../b", "a//b", "."} {
		if err := s.Put(ctx, bad, nil); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
}

func TestDirStore(t *testing.T) {
	s, err := Open("file://" + t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, s)
}

func TestS3StoreFake(t *testing.T) {
	fakeS3(t)
	s, err := Open("s3://bucket/run1/shards")
	if err != nil {
		t.Fatal(err)
	}
	if s.URL() != "s3://bucket/run1/shards" {
		t.Fatalf("URL %q", s.URL())
	}
	exercise(t, s)
	// Keys are relative to the prefix: another prefix of the same bucket does not see them.
	other, _ := Open("s3://bucket/run2")
	if objs, err := other.List(context.Background(), ""); err != nil || len(objs) != 0 {
		t.Fatalf("run2 sees %+v, %v", objs, err)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Setenv(EnvAccessKey, "")
	if _, err := Open("s3://bucket/x"); err == nil {
		t.Fatal("s3 without credentials opened")
	}
	if _, err := Open("gs://bucket/x"); err == nil {
		t.Fatal("unknown scheme opened")
	}
	if _, _, err := Split("s3://bucket"); err == nil {
		t.Fatal("split of a bucket gave an object")
	}
}

// flaky fails every call while down is set.
type flaky struct {
	Store
	down  atomic.Bool
	calls atomic.Int32
}

func (f *flaky) Put(ctx context.Context, key string, data []byte) error {
	f.calls.Add(1)
	if f.down.Load() {
		return errors.New("connection refused")
	}
	return f.Store.Put(ctx, key, data)
}

func TestRetryBacksOff(t *testing.T) {
	dir, _ := OpenDir(t.TempDir())
	f := &flaky{Store: dir}
	f.down.Store(true)
	r := WithRetry(f, Backoff{Initial: time.Millisecond, Max: 4 * time.Millisecond, Attempts: 4})
	if err := r.Put(context.Background(), "k", []byte("v")); err == nil || f.calls.Load() != 4 {
		t.Fatalf("down store: %v after %d calls, want an error after 4", err, f.calls.Load())
	}
	go func() { time.Sleep(20 * time.Millisecond); f.down.Store(false) }()
	r = WithRetry(f, Backoff{Initial: time.Millisecond, Max: 4 * time.Millisecond})
	if err := r.Put(context.Background(), "k", []byte("v")); err != nil {
		t.Fatalf("store back: %v", err)
	}
	if _, err := r.Get(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("not found is retried or lost: %v", err)
	}
}

// TestSpoolKeepsFilesWhileDown: a spool whose store is away keeps every file, skips the
// temporary ones, and uploads them all once the store is back.
func TestSpoolKeepsFilesWhileDown(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"n/0/000000.zst", "n/0/000001.zst", "n/0/.000002.zst.123.tmp", ".model/best.model"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(name), 0o644)
	}
	target, _ := OpenDir(t.TempDir())
	f := &flaky{Store: target}
	f.down.Store(true)
	sp := &Spool{Dir: dir, Store: f, Backoff: Backoff{Initial: time.Millisecond, Max: 2 * time.Millisecond}, Every: time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	sp.Run(ctx)
	cancel()
	if p, _ := sp.Pending(); len(p) != 2 {
		t.Fatalf("pending while down: %v, want the 2 finished shards", p)
	}
	if up, fails := sp.Counts(); up != 0 || fails == 0 {
		t.Fatalf("uploaded %d, failed passes %d", up, fails)
	}
	f.down.Store(false)
	if err := sp.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	objs, _ := target.List(context.Background(), "")
	if len(objs) != 2 || objs[0].Key != "n/0/000000.zst" || objs[1].Key != "n/0/000001.zst" {
		t.Fatalf("uploaded %+v", objs)
	}
	if p, _ := sp.Pending(); len(p) != 0 {
		t.Fatalf("left %v", p)
	}
}
