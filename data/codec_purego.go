//go:build purego

package data

import "errors"

// errNoCodec: the purego build (the agent exported as one standard-library-only file) cannot
// read or write shards; nothing in the agent does.
var errNoCodec = errors.New("data: this build (purego) has no zstd codec: shards need the standard build")

func compress([]byte) ([]byte, error) { return nil, errNoCodec }

func decompress([]byte, uint64) ([]byte, error) { return nil, errNoCodec }
