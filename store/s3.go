package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Environment variables of the S3 backend (the names the AWS tools use).
const (
	EnvAccessKey    = "AWS_ACCESS_KEY_ID"
	EnvSecretKey    = "AWS_SECRET_ACCESS_KEY"
	EnvSessionToken = "AWS_SESSION_TOKEN"
	// EnvEndpointS3 (or else EnvEndpoint) is the server's URL, e.g. http://127.0.0.1:7070 or
	// https://storage.googleapis.com; without either, AWS S3 (https://s3.amazonaws.com).
	EnvEndpointS3 = "AWS_ENDPOINT_URL_S3"
	EnvEndpoint   = "AWS_ENDPOINT_URL"
	EnvRegion     = "AWS_REGION" // optional
)

// s3Store keeps objects under prefix in one bucket.
type s3Store struct {
	c        *minio.Client
	bucket   string
	prefix   string // "" or ending in "/"
	endpoint string
}

// OpenS3 returns the store of bucket under prefix on the S3 server the environment names:
// AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (default https://s3.amazonaws.com), credentials from
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), AWS_REGION. A request
// is tried once (WithRetry retries), with a 5 s connect timeout.
func OpenS3(bucket, prefix string) (Store, error) {
	if bucket == "" {
		return nil, errors.New("store: s3:// URL without a bucket")
	}
	ep := os.Getenv(EnvEndpointS3)
	if ep == "" {
		ep = os.Getenv(EnvEndpoint)
	}
	if ep == "" {
		ep = "https://s3.amazonaws.com"
	}
	u, err := url.Parse(ep)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("store: endpoint %q: want http(s)://host[:port]", ep)
	}
	ak, sk := os.Getenv(EnvAccessKey), os.Getenv(EnvSecretKey)
	if ak == "" || sk == "" {
		return nil, fmt.Errorf("store: s3://%s needs %s and %s in the environment", bucket, EnvAccessKey, EnvSecretKey)
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		ResponseHeaderTimeout: 60 * time.Second,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
	}
	c, err := minio.New(u.Host, &minio.Options{
		Creds:      credentials.NewStaticV4(ak, sk, os.Getenv(EnvSessionToken)),
		Secure:     u.Scheme == "https",
		Region:     os.Getenv(EnvRegion),
		Transport:  tr,
		MaxRetries: 1,
	})
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	prefix = strings.Trim(prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &s3Store{c: c, bucket: bucket, prefix: prefix, endpoint: ep}, nil
}

func (s *s3Store) URL() string { return "s3://" + s.bucket + "/" + strings.TrimSuffix(s.prefix, "/") }

// EnsureBucket creates the bucket of an s3:// store when it does not exist (other stores:
// nothing to do).
func EnsureBucket(ctx context.Context, st Store) error {
	for {
		switch s := st.(type) {
		case *retrying:
			st = s.Store
			continue
		case *s3Store:
			ok, err := s.c.BucketExists(ctx, s.bucket)
			if err != nil {
				return fmt.Errorf("store: bucket %s at %s: %w", s.bucket, s.endpoint, err)
			}
			if ok {
				return nil
			}
			if err := s.c.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{}); err != nil {
				return fmt.Errorf("store: make bucket %s at %s: %w", s.bucket, s.endpoint, err)
			}
		}
		return nil
	}
}

func (s *s3Store) key(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return s.prefix + key, nil
}

func (s *s3Store) wrap(op, key string, err error) error {
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return fmt.Errorf("%w: %s in %s", ErrNotFound, key, s.URL())
	}
	return fmt.Errorf("store: %s %s in %s: %w", op, key, s.URL(), err)
}

func (s *s3Store) Put(ctx context.Context, key string, data []byte) error {
	k, err := s.key(key)
	if err != nil {
		return err
	}
	// One request with the length and a Content-MD5 the server checks: the object is whole
	// or absent.
	_, err = s.c.PutObject(ctx, s.bucket, k, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{SendContentMd5: true, DisableMultipart: true, ContentType: "application/octet-stream"})
	if err != nil {
		return s.wrap("put", key, err)
	}
	return nil
}

func (s *s3Store) Get(ctx context.Context, key string) ([]byte, error) {
	k, err := s.key(key)
	if err != nil {
		return nil, err
	}
	obj, err := s.c.GetObject(ctx, s.bucket, k, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.wrap("get", key, err)
	}
	defer obj.Close()
	b, err := io.ReadAll(obj)
	if err != nil {
		return nil, s.wrap("get", key, err)
	}
	return b, nil
}

func (s *s3Store) List(ctx context.Context, prefix string) ([]Object, error) {
	var out []Object
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + prefix, Recursive: true}) {
		if o.Err != nil {
			return nil, s.wrap("list", prefix, o.Err)
		}
		out = append(out, Object{Key: strings.TrimPrefix(o.Key, s.prefix), Size: o.Size, ModTime: o.LastModified})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (s *s3Store) Delete(ctx context.Context, key string) error {
	k, err := s.key(key)
	if err != nil {
		return err
	}
	// S3 deletes of a missing key succeed: ask first, to report ErrNotFound like a directory.
	if _, err := s.c.StatObject(ctx, s.bucket, k, minio.StatObjectOptions{}); err != nil {
		return s.wrap("delete", key, err)
	}
	if err := s.c.RemoveObject(ctx, s.bucket, k, minio.RemoveObjectOptions{}); err != nil {
		return s.wrap("delete", key, err)
	}
	return nil
}
