// Package ingest lets shards from a store into training only after checking them, trusting
// nothing a worker sent:
//
//  1. the checksum and format version (data.DecodeShard: a flipped byte, a truncated upload,
//     an unknown version), and the game and encoder version the trainer expects;
//  2. that the shard carries its games' moves (format version 3) and every game replays
//     legally from the start position, each example being the encoding of its game's
//     position at its ply;
//  3. that the net and engine that made it are ones the run accepts (the key's net matches
//     the shard's, and Accept says yes).
//
// A rejected shard is moved to quarantine/<its key> with quarantine/<its key>.reason beside
// it; an accepted one is written into a local directory as a .shard file for the trainer.
package ingest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"colony/data"
	"colony/internal/atomicfile"
	"colony/store"
)

// ShardExt ends the key of a shard in a store.
const ShardExt = ".zst"

// QuarantinePrefix holds rejected shards.
const QuarantinePrefix = "quarantine/"

// NoNet is the net part of a key for shards of an engine that plays without a net.
const NoNet = "none"

// Key is the store key of a worker's shard: <net-sha>/<worker-index>/<seq>.zst.
func Key(netSHA string, index, seq int) string {
	if netSHA == "" {
		netSHA = NoNet
	}
	return fmt.Sprintf("%s/%d/%06d%s", netSHA, index, seq, ShardExt)
}

// ParseKey reads a key that Key made.
func ParseKey(key string) (netSHA string, index, seq int, ok bool) {
	parts := strings.Split(key, "/")
	if len(parts) != 3 || !strings.HasSuffix(parts[2], ShardExt) {
		return "", 0, 0, false
	}
	index, err1 := strconv.Atoi(parts[1])
	seq, err2 := strconv.Atoi(strings.TrimSuffix(parts[2], ShardExt))
	if err1 != nil || err2 != nil || index < 0 || seq < 0 || parts[0] == "" {
		return "", 0, 0, false
	}
	return parts[0], index, seq, true
}

// Replayer replays a game's moves (a registry.Game is one).
type Replayer interface {
	ReplayMoves(moves []int32, want func(ply int) bool, visit func(ply int, input []float32) error) error
}

// Config is one ingest pass.
type Config struct {
	Shards store.Store // where workers put shards (keys made by Key)
	// Quarantine receives rejected shards under QuarantinePrefix (default: Shards).
	Quarantine store.Store
	Expect     data.Expect // game and encoder version (and sizes) the trainer reads
	Game       Replayer
	// Accept says whether the run takes data from this net (hex SHA-256, "" for none) and
	// engine (Meta.Extra["engine"]); nil accepts every net.
	Accept func(netSHA, engine string) error
	Cache  string          // accepted shards are written here as <net>-<index>-<seq>.shard
	Seen   map[string]bool // keys ingested before (skipped; the pass adds the new ones)
	// SeenContent holds the SHA-256 (hex) of the bytes of every shard taken before: the same
	// bytes under another key (a shard uploaded twice under two names) are a duplicate, not
	// trained again. The pass adds the new ones; nil: no such check.
	SeenContent map[string]bool
	// MaxBytes refuses larger objects without reading them (default 256 MiB): only their
	// reason goes to quarantine.
	MaxBytes int64
	Log      io.Writer // one line per rejected shard (nil: none)
}

// Report counts a pass.
type Report struct {
	Accepted, Rejected, Skipped int
	Examples                    int               // examples of the accepted shards
	Reasons                     map[string]string // rejected key -> reason
	NewKeys                     []string          // accepted keys, in order
	NewHashes                   []string          // the SHA-256 of each accepted key's bytes
	PerKey                      map[string]int    // examples of each accepted key
	// Duplicates are keys whose bytes were taken before under another key (Config.SeenContent):
	// neither trained nor quarantined, and added to Seen.
	Duplicates []string
}

func (r Report) String() string {
	return fmt.Sprintf("ingest: %d shards accepted (%d examples), %d rejected to quarantine, %d duplicates of a shard taken before, %d seen before",
		r.Accepted, r.Examples, r.Rejected, len(r.Duplicates), r.Skipped)
}

// CacheName is the local file name of an accepted key.
func CacheName(key string) string {
	return strings.ReplaceAll(strings.TrimSuffix(key, ShardExt), "/", "-") + data.ShardExt
}

// Run checks every shard key in the store that is not in Seen (nor quarantined) and moves it
// into training or into quarantine. Errors of the store itself stop the pass (what was done
// is reported); a bad shard never does.
func Run(ctx context.Context, c Config) (Report, error) {
	rep := Report{Reasons: map[string]string{}, PerKey: map[string]int{}}
	if c.Quarantine == nil {
		c.Quarantine = c.Shards
	}
	if err := os.MkdirAll(c.Cache, 0o755); err != nil {
		return rep, err
	}
	objs, err := c.Shards.List(ctx, "")
	if err != nil {
		return rep, err
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Key < objs[j].Key })
	for _, o := range objs {
		if !strings.HasSuffix(o.Key, ShardExt) || strings.HasPrefix(o.Key, QuarantinePrefix) {
			continue
		}
		if c.Seen[o.Key] {
			rep.Skipped++
			continue
		}
		if limit := cmp.Or(c.MaxBytes, 256<<20); o.Size > limit {
			reason := fmt.Sprintf("size: %d bytes, over the %d-byte limit (not kept)", o.Size, limit)
			if err := reject(ctx, &c, &rep, o.Key, nil, reason); err != nil {
				return rep, err
			}
			continue
		}
		buf, err := c.Shards.Get(ctx, o.Key)
		if errors.Is(err, store.ErrNotFound) {
			continue // taken meanwhile
		}
		if err != nil {
			return rep, err
		}
		sum := sha256.Sum256(buf)
		hash := hex.EncodeToString(sum[:])
		if c.SeenContent[hash] {
			if c.Seen != nil {
				c.Seen[o.Key] = true
			}
			rep.Duplicates = append(rep.Duplicates, o.Key)
			continue
		}
		n, reason := check(&c, o.Key, buf)
		if reason != "" {
			if err := reject(ctx, &c, &rep, o.Key, buf, reason); err != nil {
				return rep, err
			}
			continue
		}
		if err := atomicfile.WriteFile(filepath.Join(c.Cache, CacheName(o.Key)), buf); err != nil {
			return rep, err
		}
		if c.Seen != nil {
			c.Seen[o.Key] = true
		}
		if c.SeenContent != nil {
			c.SeenContent[hash] = true
		}
		rep.Accepted++
		rep.NewHashes = append(rep.NewHashes, hash)
		rep.PerKey[o.Key] = n
		rep.Examples += n
		rep.NewKeys = append(rep.NewKeys, o.Key)
	}
	return rep, nil
}

// check returns the example count of an acceptable shard, or the reason to refuse it.
func check(c *Config, key string, buf []byte) (int, string) {
	keyNet, _, _, ok := ParseKey(key)
	if !ok {
		return 0, "key is not <net-sha>/<worker-index>/<seq>.zst"
	}
	meta, exs, err := data.DecodeShard(buf, c.Expect)
	if err != nil {
		return 0, "checksum/format: " + err.Error()
	}
	if meta.Moves == nil {
		return 0, "format: the shard carries no moves to replay (format version 3 needed)"
	}
	net := meta.ModelSHA256
	if net == "" {
		net = NoNet
	}
	if net != keyNet {
		return 0, fmt.Sprintf("net: the shard was made by net %s but uploaded under %s", short(net), short(keyNet))
	}
	if c.Accept != nil {
		if err := c.Accept(meta.ModelSHA256, meta.Extra["engine"]); err != nil {
			return 0, "net: " + err.Error()
		}
	}
	if err := replay(c.Game, meta.Moves, exs); err != nil {
		return 0, "replay: " + err.Error()
	}
	return len(exs), ""
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// replay checks every game of the shard: legal moves, and each example is its position.
func replay(g Replayer, games []data.GameMoves, exs []data.Example) error {
	byGame := map[uint64]map[int]*data.Example{}
	for i := range exs {
		ex := &exs[i]
		if byGame[ex.GameID] == nil {
			byGame[ex.GameID] = map[int]*data.Example{}
		}
		if byGame[ex.GameID][ex.Ply] != nil {
			return fmt.Errorf("game %#x has two examples at ply %d", ex.GameID, ex.Ply)
		}
		byGame[ex.GameID][ex.Ply] = ex
	}
	for _, gm := range games {
		at := byGame[gm.GameID]
		seen := 0
		err := g.ReplayMoves(gm.Moves, func(ply int) bool { return at[ply] != nil }, func(ply int, input []float32) error {
			seen++
			if !equalBits(input, at[ply].Input) {
				return fmt.Errorf("the example at ply %d is not the position its moves reach", ply)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("game %#x: %w", gm.GameID, err)
		}
		if seen != len(at) {
			return fmt.Errorf("game %#x: %d of its %d examples lie beyond its %d moves", gm.GameID, len(at)-seen, len(at), len(gm.Moves))
		}
	}
	return nil
}

func equalBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// reject moves key to quarantine/<key> (buf, when not nil) with the reason beside it, and
// counts it.
func reject(ctx context.Context, c *Config, rep *Report, key string, buf []byte, reason string) error {
	q := path.Join(QuarantinePrefix, key)
	if err := c.Quarantine.Put(ctx, q+".reason", []byte(reason+"\n")); err != nil {
		return err
	}
	if buf != nil {
		if err := c.Quarantine.Put(ctx, q, buf); err != nil {
			return err
		}
	}
	if err := c.Shards.Delete(ctx, key); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	rep.Rejected++
	rep.Reasons[key] = reason
	if c.Log != nil {
		fmt.Fprintf(c.Log, "ingest: %s quarantined: %s\n", key, reason)
	}
	return nil
}

// Reasons lists the quarantined keys of a store with their reasons.
func Reasons(ctx context.Context, s store.Store) (map[string]string, error) {
	objs, err := s.List(ctx, QuarantinePrefix)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, o := range objs {
		if k, ok := strings.CutSuffix(o.Key, ".reason"); ok {
			b, err := s.Get(ctx, o.Key)
			if err != nil {
				return nil, err
			}
			out[strings.TrimPrefix(k, QuarantinePrefix)] = string(bytes.TrimSpace(b))
		}
	}
	return out, nil
}
