package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Spool uploads the finished files of a local directory to a store and removes each once it
// is stored, so that a worker that cannot reach the store keeps its files on disk and uploads
// them later. A file's key is its path relative to Dir (with Prefix in front); files and
// directories whose names start with "." (temporary files of unfinished writes) are left alone. An upload is a
// Put: whole or absent, and a file uploaded twice (a kill between the Put and the remove)
// lands on the same key.
type Spool struct {
	Dir     string
	Store   Store
	Prefix  string
	Backoff Backoff       // the wait between passes after a failure (Attempts unused)
	Every   time.Duration // the wait between passes when all went well (default 1 s)
	Log     io.Writer     // one line per failed pass (nil: none)

	mu       sync.Mutex
	uploaded int
	failures int
}

// Counts returns the files uploaded and the failed passes so far.
func (s *Spool) Counts() (uploaded, failures int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uploaded, s.failures
}

// Pending lists the files waiting, as keys relative to Dir, sorted.
func (s *Spool) Pending() ([]string, error) {
	var out []string
	err := filepath.WalkDir(s.Dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		hidden := strings.HasPrefix(e.Name(), ".") && p != s.Dir
		if e.IsDir() && hidden {
			return filepath.SkipDir
		}
		if e.IsDir() || hidden {
			return nil
		}
		rel, err := filepath.Rel(s.Dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out, err
}

// pass uploads every pending file once; it stops at the first failure.
func (s *Spool) pass(ctx context.Context) (left int, err error) {
	keys, err := s.Pending()
	if err != nil {
		return 0, fmt.Errorf("store: spool %s: %w", s.Dir, err)
	}
	for i, k := range keys {
		p := filepath.Join(s.Dir, filepath.FromSlash(k))
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return len(keys) - i, fmt.Errorf("store: spool: %w", err)
		}
		if err := s.Store.Put(ctx, Join(s.Prefix, k), b); err != nil {
			return len(keys) - i, err
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return len(keys) - i, fmt.Errorf("store: spool: %w", err)
		}
		s.mu.Lock()
		s.uploaded++
		s.mu.Unlock()
	}
	return 0, nil
}

// Run uploads pending files until ctx ends: a pass every Every, and after a failed pass the
// next one after the backoff's wait (doubling up to its Max while the store stays away).
func (s *Spool) Run(ctx context.Context) {
	_ = s.drain(ctx, false)
}

// Drain uploads every pending file, retrying with backoff, until none is left (nil) or ctx
// ends (its error, with the count of files still on disk).
func (s *Spool) Drain(ctx context.Context) error { return s.drain(ctx, true) }

func (s *Spool) drain(ctx context.Context, stopWhenEmpty bool) error {
	every := s.Every
	if every <= 0 {
		every = time.Second
	}
	wait := s.Backoff.Initial
	if wait <= 0 {
		wait = 100 * time.Millisecond
	}
	limit := s.Backoff.Max
	if limit <= 0 {
		limit = 5 * time.Second
	}
	next := wait
	for {
		left, err := s.pass(ctx)
		switch {
		case err == nil:
			next = wait
			if stopWhenEmpty {
				return nil
			}
		default:
			s.mu.Lock()
			s.failures++
			s.mu.Unlock()
			if s.Log != nil {
				fmt.Fprintf(s.Log, "store: spool %s: %d files wait, again in %s: %v\n", s.Dir, left, next, err)
			}
		}
		d := every
		if err != nil {
			d, next = next, min(2*next, limit)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			if stopWhenEmpty {
				n, _ := s.Pending()
				return fmt.Errorf("store: spool %s: %d files not uploaded: %w", s.Dir, len(n), ctx.Err())
			}
			return ctx.Err()
		case <-t.C:
		}
	}
}
