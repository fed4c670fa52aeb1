// Package store is where Colony keeps what more than one machine reads: shards, nets and a
// run's state. One small interface (Store) with two backends chosen by URL:
//
//	s3://bucket/prefix   an S3-compatible object store, through minio-go (see OpenS3 for the
//	                     environment variables)
//	file:///abs/dir, dir a local directory: each object is a file, written to a temporary
//	                     file and renamed into place
//
// Every Put is whole or absent: a reader sees the old object, the new one, or none, never part
// of one (S3 PutObject with a Content-MD5 the server checks; a rename on a file system).
// WithRetry wraps a Store so that transient failures are retried with exponential backoff.
package store

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"
)

// ErrNotFound is wrapped by Get, Delete and Move when the key does not exist.
var ErrNotFound = errors.New("store: no such key")

var errBadKey = errors.New("store: bad key")

// Object is one listed object.
type Object struct {
	Key     string // relative to the store's root, "/"-separated
	Size    int64
	ModTime time.Time
}

// Store holds objects by key. Keys are "/"-separated paths relative to the store's root, with
// no empty, "." or ".." element. Implementations are safe for concurrent use.
type Store interface {
	// Put stores data under key, whole or not at all, replacing any object there.
	Put(ctx context.Context, key string, data []byte) error
	// Get returns the object's bytes (an error wrapping ErrNotFound when there is none).
	Get(ctx context.Context, key string) ([]byte, error)
	// List returns the objects whose keys start with prefix, sorted by key.
	List(ctx context.Context, prefix string) ([]Object, error)
	// Delete removes key (an error wrapping ErrNotFound when there is none).
	Delete(ctx context.Context, key string) error
	// URL names the store's root, as Open reads it.
	URL() string
}

// Open returns the store that url names: s3://bucket[/prefix] (OpenS3), or a local directory
// (file:///dir or a plain path; OpenDir).
func Open(url string) (Store, error) {
	if rest, ok := strings.CutPrefix(url, "s3://"); ok {
		bucket, prefix, _ := strings.Cut(rest, "/")
		return OpenS3(bucket, prefix)
	}
	if strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") {
		return nil, fmt.Errorf("store: %q: unknown scheme (want s3://bucket/prefix, file:///dir or a directory)", url)
	}
	return OpenDir(strings.TrimPrefix(url, "file://"))
}

// IsURL reports whether s names a store by URL (s3:// or file://) rather than a plain local
// path: the commands keep today's plain-directory behaviour for plain paths.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "s3://") || strings.HasPrefix(s, "file://")
}

// Split cuts an object URL into its store and the key in it: s3://bucket/run1/best.model is
// the store s3://bucket/run1 and the key best.model.
func Split(url string) (Store, string, error) {
	i := strings.LastIndex(url, "/")
	if i < 0 || i == len(url)-1 || strings.HasSuffix(url[:i+1], "://") {
		return nil, "", fmt.Errorf("store: %q names no object (want s3://bucket/dir/name)", url)
	}
	st, err := Open(url[:i])
	if err != nil {
		return nil, "", err
	}
	return st, url[i+1:], nil
}

// CheckKey refuses keys that are empty, absolute, or have an empty, "." or ".." element.
func CheckKey(key string) error {
	if key == "" || strings.HasPrefix(key, "/") || path.Clean(key) != key || strings.HasPrefix(key, "../") || key == ".." || key == "." {
		return fmt.Errorf("%w %q", errBadKey, key)
	}
	return nil
}

// Move moves the object at from to to (a copy, then a delete of from).
func Move(ctx context.Context, s Store, from, to string) error {
	b, err := s.Get(ctx, from)
	if err != nil {
		return err
	}
	if err := s.Put(ctx, to, b); err != nil {
		return err
	}
	return s.Delete(ctx, from)
}

// Join joins key elements with "/".
func Join(elem ...string) string {
	var parts []string
	for _, e := range elem {
		if e = strings.Trim(e, "/"); e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, "/")
}
