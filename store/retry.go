package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Backoff is a retry policy: waits of Initial, doubling up to Max, for at most Attempts tries
// (0: until the context ends).
type Backoff struct {
	Initial  time.Duration // default 100 ms
	Max      time.Duration // default 5 s
	Attempts int
	Log      io.Writer // one line per failed try (nil: none)
}

// DefaultBackoff tries 8 times over about 15 s.
var DefaultBackoff = Backoff{Initial: 100 * time.Millisecond, Max: 5 * time.Second, Attempts: 8}

// Do calls fn until it succeeds, fails with a permanent error (ErrNotFound, a bad key, the
// context's end), or the attempts are used up; it returns fn's last error.
func (b Backoff) Do(ctx context.Context, what string, fn func() error) error {
	wait := b.Initial
	if wait <= 0 {
		wait = 100 * time.Millisecond
	}
	limit := b.Max
	if limit <= 0 {
		limit = 5 * time.Second
	}
	for try := 1; ; try++ {
		err := fn()
		if err == nil || permanent(err) || ctx.Err() != nil || (b.Attempts > 0 && try >= b.Attempts) {
			return err
		}
		if b.Log != nil {
			fmt.Fprintf(b.Log, "store: %s: try %d failed, again in %s: %v\n", what, try, wait, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, limit)
	}
}

func permanent(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, context.Canceled) || errors.Is(err, errBadKey)
}

// retrying is a Store whose calls are retried with backoff.
type retrying struct {
	Store
	b Backoff
}

// WithRetry returns s with every call retried under b.
func WithRetry(s Store, b Backoff) Store { return &retrying{Store: s, b: b} }

func (r *retrying) Put(ctx context.Context, key string, data []byte) error {
	return r.b.Do(ctx, "put "+key, func() error { return r.Store.Put(ctx, key, data) })
}

func (r *retrying) Get(ctx context.Context, key string) (b []byte, err error) {
	err = r.b.Do(ctx, "get "+key, func() error { b, err = r.Store.Get(ctx, key); return err })
	return b, err
}

func (r *retrying) List(ctx context.Context, prefix string) (o []Object, err error) {
	err = r.b.Do(ctx, "list "+prefix, func() error { o, err = r.Store.List(ctx, prefix); return err })
	return o, err
}

func (r *retrying) Delete(ctx context.Context, key string) error {
	return r.b.Do(ctx, "delete "+key, func() error { return r.Store.Delete(ctx, key) })
}
