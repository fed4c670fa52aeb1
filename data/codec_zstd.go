//go:build !purego

package data

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The shard payload codec: one zstd frame (klauspost/compress). The purego build (the
// single-file export of the agent, which must be standard library only and never touches
// shards) has no codec: see codec_purego.go.

var (
	zenc = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
		if err != nil {
			panic(err) // only for invalid options
		}
		return e
	})
	zdec = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxPayload))
		if err != nil {
			panic(err)
		}
		return d
	})
)

func compress(raw []byte) ([]byte, error) { return zenc().EncodeAll(raw, nil), nil }

func decompress(payload []byte, rawLen uint64) ([]byte, error) {
	return zdec().DecodeAll(payload, make([]byte, 0, rawLen))
}
