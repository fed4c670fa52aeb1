package data

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ShardInfo describes a finished shard file in a directory.
type ShardInfo struct {
	Path    string
	Name    string
	ModTime time.Time
	Size    int64
}

// ListShards returns the finished shards in dir (names ending in ShardExt, not starting with
// "."), oldest first: by modification time, then by name. Temporary files are not listed;
// tmp, when non-nil, receives their count.
func ListShards(dir string, tmp *int) ([]ShardInfo, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("data: list shards: %w", err)
	}
	var out []ShardInfo
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() {
			continue
		}
		if !IsShardName(name) {
			if tmp != nil && strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") {
				*tmp++
			}
			continue
		}
		info, err := e.Info()
		if errors.Is(err, os.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("data: stat %s: %w", filepath.Join(dir, name), err)
		}
		out = append(out, ShardInfo{Path: filepath.Join(dir, name), Name: name, ModTime: info.ModTime(), Size: info.Size()})
	}
	slices.SortFunc(out, func(a, b ShardInfo) int {
		if c := a.ModTime.Compare(b.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// LoadReport counts what a directory load saw.
type LoadReport struct {
	Shards       int      // finished shard files considered
	Loaded       int      // shards read successfully
	Corrupt      int      // shards skipped as damaged (ErrCorrupt or unreadable)
	CorruptPaths []string // their paths
	TempFiles    int      // temporary files of unfinished writes, ignored
	Examples     int      // examples returned or held
}

// LoadDir reads every shard in dir, oldest first, and returns all their examples in that
// order. Damaged shards are skipped: each gets one line on warn (os.Stderr when warn is nil)
// and is counted in the report. A well-formed shard of another game, encoder version or
// format version is not skipped: LoadDir stops with an error wrapping ErrMismatch, since
// mixing data is a configuration mistake to fix, not noise to ignore.
func LoadDir(dir, game string, encoderVersion int, warn io.Writer) ([]Example, LoadReport, error) {
	var rep LoadReport
	list, err := ListShards(dir, &rep.TempFiles)
	if err != nil {
		return nil, rep, err
	}
	want := Expect{Game: game, EncoderVersion: encoderVersion}
	var out []Example
	for _, sh := range list {
		rep.Shards++
		s, err := readContent(sh.Path, &want)
		if err != nil {
			if skipErr(err) {
				rep.warnCorrupt(warn, sh.Path, err)
				continue
			}
			return nil, rep, err
		}
		rep.Loaded++
		out = append(out, s.examples()...)
	}
	rep.Examples = len(out)
	return out, rep, nil
}

// skipErr reports whether a shard read error means "skip this shard" rather than "stop".
func skipErr(err error) bool {
	return errors.Is(err, ErrCorrupt) || errors.Is(err, os.ErrNotExist)
}

func (r *LoadReport) warnCorrupt(warn io.Writer, path string, err error) {
	r.Corrupt++
	r.CorruptPaths = append(r.CorruptPaths, path)
	if warn == nil {
		warn = os.Stderr
	}
	fmt.Fprintf(warn, "warning: skipping damaged shard: %v\n", err)
}

// Writer accumulates examples and writes a shard every PerShard examples (and on Flush and
// Close). Shard names are <game>-g<generation>-w<worker>-<start time>-<sequence>.shard, so
// names from one writer sort in write order. A Writer is not safe for concurrent use.
type Writer struct {
	dir      string
	meta     Meta
	perShard int
	stamp    int64
	seq      int
	inputs   []float32
	policy   []PolicyEntry
	exs      []Example // Input and Policy index into inputs and policy via polStart
	polStart []int
	moves    []GameMoves // the pending games' moves (AddGame), nil when none were given
	paths    []string
	// Name, when set, names each shard instead of the default: a path relative to the
	// writer's directory (subdirectories are created). Set it before the first Add.
	Name func(meta *Meta) string
}

// Create returns a Writer that writes shards described by meta into dir (created if
// missing), perShard examples each (perShard <= 0 means 4096).
func Create(dir string, meta Meta, perShard int) (*Writer, error) {
	if err := meta.checkShape(); err != nil {
		return nil, fmt.Errorf("data: writer meta: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("data: writer: %w", err)
	}
	if perShard <= 0 {
		perShard = 4096
	}
	return &Writer{dir: dir, meta: meta, perShard: perShard, stamp: time.Now().UnixNano()}, nil
}

// Add copies ex into the writer (the caller may reuse its buffers) after validating it, and
// writes a shard when PerShard examples are pending.
func (w *Writer) Add(ex Example) error {
	if err := checkExample(&w.meta, &ex); err != nil {
		return fmt.Errorf("data: writer: example %d of shard %d: %w", len(w.exs), w.seq, err)
	}
	w.push(&ex)
	if len(w.exs) >= w.perShard {
		return w.Flush()
	}
	return nil
}

// AddGame adds the examples of one whole game with its moves (so the shard is version 3 and
// a reader can replay it); the shard is written after the game when PerShard examples are
// pending, so a game is never split between shards. Use AddGame or Add, not both.
func (w *Writer) AddGame(g GameMoves, exs []Example) error {
	for i := range exs {
		if exs[i].GameID != g.GameID {
			return fmt.Errorf("data: writer: example %d of game %#x has game id %#x", i, g.GameID, exs[i].GameID)
		}
		if err := checkExample(&w.meta, &exs[i]); err != nil {
			return fmt.Errorf("data: writer: example %d of game %#x: %w", i, g.GameID, err)
		}
	}
	if len(exs) == 0 {
		return nil // a game without recorded positions adds nothing to train on
	}
	for _, ex := range exs {
		w.push(&ex)
	}
	w.moves = append(w.moves, GameMoves{GameID: g.GameID, Moves: append([]int32(nil), g.Moves...)})
	if len(w.exs) >= w.perShard {
		return w.Flush()
	}
	return nil
}

func (w *Writer) push(ex *Example) {
	w.inputs = append(w.inputs, ex.Input...)
	w.polStart = append(w.polStart, len(w.policy))
	w.policy = append(w.policy, ex.Policy...)
	w.exs = append(w.exs, Example{Values: ex.Values, Scores: ex.Scores, GameID: ex.GameID, Ply: ex.Ply})
}

// Pending returns the number of examples not yet written.
func (w *Writer) Pending() int { return len(w.exs) }

// Paths returns the shards written so far.
func (w *Writer) Paths() []string { return w.paths }

// Flush writes the pending examples, if any, as one shard.
func (w *Writer) Flush() error {
	n := len(w.exs)
	if n == 0 {
		return nil
	}
	in := w.meta.InputSize
	for i := range w.exs {
		end := len(w.policy)
		if i+1 < n {
			end = w.polStart[i+1]
		}
		w.exs[i].Input = w.inputs[i*in : (i+1)*in]
		w.exs[i].Policy = w.policy[w.polStart[i]:end]
	}
	meta := w.meta
	meta.Moves = w.moves
	name := fmt.Sprintf("%s-g%04d-w%03d-%d-%06d%s", w.meta.Game, w.meta.Generation, w.meta.Worker, w.stamp, w.seq, ShardExt)
	if w.Name != nil {
		name = w.Name(&meta)
	}
	path := filepath.Join(w.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("data: writer: %w", err)
	}
	if err := WriteShard(path, meta, w.exs); err != nil {
		return err
	}
	w.seq++
	w.paths = append(w.paths, path)
	w.inputs, w.policy, w.exs, w.polStart, w.moves = w.inputs[:0], w.policy[:0], w.exs[:0], w.polStart[:0], nil
	return nil
}

// Close flushes the pending examples.
func (w *Writer) Close() error { return w.Flush() }
