package data

import (
	"io"

	"colony/internal/atomicfile"

	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
)

// Format constants.
const (
	Magic = "COLSHARD"
	// FormatVersion is the newest version this package reads. It writes version 3 only for a
	// shard that carries its games' moves (Meta.Moves), version 2 otherwise; version 1 (no
	// flags) is still read.
	FormatVersion = 3
	// flagScores, in the header's flags word: every record carries Scores after Values.
	flagScores = 1
	// flagMoves (version 3): after the records, the payload holds every game's moves.
	flagMoves = 2
	// ShardExt is the extension of finished shard files; readers ignore every other name.
	ShardExt = ".shard"

	prefixLen   = 16 // magic + version + header length
	checksumLen = sha256.Size
	maxHeader   = 1 << 20
	maxPayload  = 1 << 32 // uncompressed bytes in one shard
	// probTolerance is how far a policy's probabilities may sum from 1.
	probTolerance = 1e-3
)

// Error classes. Every error returned by ReadShard wraps exactly one of them, so callers can
// tell a damaged file (skip it) from a file that is fine but not what they asked for (refuse).
var (
	// ErrCorrupt: truncated file, bad magic, checksum mismatch, or content that does not
	// decode.
	ErrCorrupt = errors.New("corrupt shard")
	// ErrMismatch: a well-formed shard whose format version, game, encoder version or sizes
	// differ from what the caller expects.
	ErrMismatch = errors.New("shard mismatch")
)

// PolicyEntry is one nonzero entry of a sparse policy target.
type PolicyEntry struct {
	Index int32   // index into the game's dense policy vector, in [0, PolicySize)
	Prob  float32 // target probability (visit count / total visits)
}

// Example is one training position.
type Example struct {
	// Input is the game's network encoding of the position: InputSize float32 values laid
	// out as the game's encoder of version EncoderVersion writes them.
	Input []float32
	// Policy is the sparse search policy (visit counts normalised to sum to 1); entries may
	// come in any order and should name each index once (FillBatch adds repeated ones).
	Policy []PolicyEntry
	// Values is the final outcome of the game, one entry per player (absolute seats, not
	// relative to the side to move); entries past the number of players are 0.
	Values [4]float32
	// GameID identifies the self-play game the position comes from (unique within a run,
	// e.g. derived from the run seed, worker and game index).
	GameID uint64
	// Ply is the number of moves played before this position in its game.
	Ply int
	// Scores is the search's own score of the position, squashed to [-1, 1], per absolute
	// seat like Values; it is stored only in shards whose Meta.Scored is set (format version
	// 2). A trainer blends it with the outcome in Values.
	Scores [4]float32
	// Scored is set by the readers when the example's shard carries Scores.
	Scored bool
}

// GameMoves is the whole move sequence of one game of a shard (format version 3): the policy
// index of every move played from the game's start position, recorded or not, so that a
// reader can replay the game and check that each example is a position of it.
type GameMoves struct {
	GameID uint64
	Moves  []int32 // policy indices (games.Move.PolicyIndex), in order
}

// Meta describes a shard. Game, EncoderVersion, InputSize, PolicySize and PlaneSize are
// stored in the binary header; the rest travels as JSON.
type Meta struct {
	Game           string `json:"-"`
	EncoderVersion int    `json:"-"`
	InputSize      int    `json:"-"`
	PolicySize     int    `json:"-"`
	// PlaneSize is the packing unit of inputs (e.g. the number of board cells): each run of
	// PlaneSize values is stored as all-zero, all-one, constant, 0/1 bitmap or raw. 0 means
	// the whole input is one plane. It must divide InputSize.
	PlaneSize int `json:"-"`
	// Examples is the number of examples in the shard; WriteShard sets it.
	Examples int `json:"-"`

	NumPlayers  int    `json:"num_players,omitempty"`
	ModelSHA256 string `json:"model_sha256,omitempty"` // hex SHA-256 of the model that played
	Generation  int    `json:"generation"`             // training generation of that model
	Seed        uint64 `json:"seed"`                   // run seed
	Worker      int    `json:"worker"`                 // self-play worker index
	FirstGame   uint64 `json:"first_game,omitempty"`   // index of the first game in the shard
	Games       int    `json:"games"`                  // distinct GameIDs; WriteShard sets it
	GitRevision string `json:"git_revision,omitempty"`
	CreatedUnix int64  `json:"created_unix,omitempty"` // seconds since 1970, set by the caller
	// Scored says that every example carries Scores (a header flag, not JSON).
	Scored bool `json:"-"`
	// Moves, when set, are the moves of every game of the shard (format version 3, a header
	// flag); a shard with moves has moves for each GameID of its examples.
	Moves []GameMoves `json:"-"`
	// Extra holds anything else (search settings, temperatures, hostnames...).
	Extra map[string]string `json:"extra,omitempty"`
}

func (m *Meta) planeSize() int {
	if m.PlaneSize == 0 {
		return m.InputSize
	}
	return m.PlaneSize
}

func (m *Meta) checkShape() error {
	switch {
	case m.Game == "" || len(m.Game) > 255:
		return fmt.Errorf("game name %q must have 1..255 bytes", m.Game)
	case m.EncoderVersion < 0 || m.EncoderVersion > math.MaxInt32:
		return fmt.Errorf("encoder version %d out of range", m.EncoderVersion)
	case m.InputSize <= 0 || m.InputSize > math.MaxInt32:
		return fmt.Errorf("input size %d out of range", m.InputSize)
	case m.PolicySize <= 0 || m.PolicySize > math.MaxInt32:
		return fmt.Errorf("policy size %d out of range", m.PolicySize)
	case m.PlaneSize < 0 || m.InputSize%m.planeSize() != 0:
		return fmt.Errorf("plane size %d does not divide input size %d", m.PlaneSize, m.InputSize)
	}
	return nil
}

// checkExample validates one example against the shard shape.
func checkExample(m *Meta, ex *Example) error {
	if len(ex.Input) != m.InputSize {
		return fmt.Errorf("input has %d values, want %d", len(ex.Input), m.InputSize)
	}
	if len(ex.Policy) == 0 || len(ex.Policy) > m.PolicySize {
		return fmt.Errorf("policy has %d entries, want 1..%d", len(ex.Policy), m.PolicySize)
	}
	if ex.Ply < 0 {
		return fmt.Errorf("negative ply %d", ex.Ply)
	}
	var sum float64
	for _, e := range ex.Policy {
		if e.Index < 0 || int(e.Index) >= m.PolicySize {
			return fmt.Errorf("policy index %d outside [0,%d)", e.Index, m.PolicySize)
		}
		if !(e.Prob >= 0 && e.Prob <= 1) {
			return fmt.Errorf("policy probability %v at index %d outside [0,1]", e.Prob, e.Index)
		}
		sum += float64(e.Prob)
	}
	if math.Abs(sum-1) > probTolerance {
		return fmt.Errorf("policy probabilities sum to %v, want 1", sum)
	}
	return nil
}

// appendRecord appends the uncompressed record of ex.
func appendRecord(dst []byte, ex *Example, planeSize int, scored bool) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, ex.GameID)
	dst = binary.AppendUvarint(dst, uint64(ex.Ply))
	for _, v := range ex.Values {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
	}
	if scored {
		for _, v := range ex.Scores {
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(ex.Policy)))
	for _, e := range ex.Policy {
		dst = binary.AppendUvarint(dst, uint64(e.Index))
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(e.Prob))
	}
	return appendPackedInput(dst, ex.Input, planeSize)
}

// EncodeShard returns the bytes of a shard holding examples. It sets meta.Examples and
// meta.Games and validates every example.
func EncodeShard(meta Meta, examples []Example) ([]byte, error) {
	if err := meta.checkShape(); err != nil {
		return nil, fmt.Errorf("data: shard meta: %w", err)
	}
	meta.Examples = len(examples)
	games := make(map[uint64]struct{})
	var raw []byte
	for i := range examples {
		if err := checkExample(&meta, &examples[i]); err != nil {
			return nil, fmt.Errorf("data: example %d: %w", i, err)
		}
		games[examples[i].GameID] = struct{}{}
		raw = appendRecord(raw, &examples[i], meta.planeSize(), meta.Scored)
	}
	if meta.Moves != nil {
		var err error
		if raw, err = appendMoves(raw, meta.Moves, games, meta.PolicySize); err != nil {
			return nil, fmt.Errorf("data: shard moves: %w", err)
		}
	}
	if len(raw) > maxPayload {
		return nil, fmt.Errorf("data: %d examples take %d bytes, over the %d-byte shard limit", len(examples), len(raw), maxPayload)
	}
	meta.Games = len(games)
	js, err := json.Marshal(&meta)
	if err != nil {
		return nil, fmt.Errorf("data: shard meta: %w", err)
	}
	comp, err := compress(raw)
	if err != nil {
		return nil, err
	}

	var hdr []byte
	hdr = binary.LittleEndian.AppendUint16(hdr, uint16(len(meta.Game)))
	hdr = append(hdr, meta.Game...)
	flags := 0
	if meta.Scored {
		flags |= flagScores
	}
	version := uint32(2)
	if meta.Moves != nil {
		flags |= flagMoves
		version = 3
	}
	for _, v := range []int{meta.EncoderVersion, meta.InputSize, meta.PolicySize, meta.PlaneSize, flags} {
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(v))
	}
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(examples)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(raw)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(comp)))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(js)))
	hdr = append(hdr, js...)
	if len(hdr) > maxHeader {
		return nil, fmt.Errorf("data: shard header of %d bytes is over the %d-byte limit", len(hdr), maxHeader)
	}

	out := make([]byte, 0, prefixLen+len(hdr)+len(comp)+checksumLen)
	out = append(out, Magic...)
	out = binary.LittleEndian.AppendUint32(out, version)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(hdr)))
	out = append(out, hdr...)
	out = append(out, comp...)
	sum := sha256.Sum256(out)
	return append(out, sum[:]...), nil
}

// WriteShard writes examples to path atomically: the bytes go to a temporary file in the
// same directory, which is fsynced, renamed to path, and the directory fsynced. path should
// end in ShardExt for readers to see it.
func WriteShard(path string, meta Meta, examples []Example) error {
	buf, err := EncodeShard(meta, examples)
	if err != nil {
		return fmt.Errorf("%w (writing %s)", err, path)
	}
	return writeAtomic(path, buf)
}

// testHookMidWrite, when set (by the crash test's child process only), runs halfway through
// writing a shard's bytes, to widen the window in which a kill leaves a partial file.
var testHookMidWrite func()

func writeAtomic(path string, buf []byte) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		half := len(buf) / 2
		if _, err := w.Write(buf[:half]); err != nil {
			return err
		}
		if testHookMidWrite != nil {
			if f, ok := w.(interface{ Flush() error }); ok {
				f.Flush() // let a kill in the hook leave a partial temporary file
			}
			testHookMidWrite()
		}
		_, err := w.Write(buf[half:])
		return err
	})
	if err != nil {
		return fmt.Errorf("data: %w", err)
	}
	return nil
}

// Expect lists what a reader requires of a shard. An empty Game accepts any game and any
// encoder version (encoder versions are per game); zero sizes accept any size.
type Expect struct {
	Game           string
	EncoderVersion int // checked when Game is set
	InputSize      int
	PolicySize     int
}

func (x *Expect) check(m *Meta) error {
	if x == nil {
		return nil
	}
	switch {
	case x.Game != "" && m.Game != x.Game:
		return fmt.Errorf("%w: game %q, want %q", ErrMismatch, m.Game, x.Game)
	case x.Game != "" && m.EncoderVersion != x.EncoderVersion:
		return fmt.Errorf("%w: %s encoder version %d, want %d", ErrMismatch, m.Game, m.EncoderVersion, x.EncoderVersion)
	case x.InputSize != 0 && m.InputSize != x.InputSize:
		return fmt.Errorf("%w: input size %d, want %d", ErrMismatch, m.InputSize, x.InputSize)
	case x.PolicySize != 0 && m.PolicySize != x.PolicySize:
		return fmt.Errorf("%w: policy size %d, want %d", ErrMismatch, m.PolicySize, x.PolicySize)
	}
	return nil
}

// shardContent is a decoded shard whose inputs are still packed.
type shardContent struct {
	meta    Meta
	packed  []byte  // packed inputs of all examples, back to back
	inOff   []int32 // example i's packed input is packed[inOff[i]:inOff[i+1]]
	policy  []PolicyEntry
	polOff  []int32 // example i's policy is policy[polOff[i]:polOff[i+1]]
	values  [][4]float32
	scores  [][4]float32 // nil unless meta.Scored
	gameIDs []uint64
	plies   []int32
	// After valuesOnly: values and scores are nil and each example's first seats values,
	// then (scored) its first seats scores, lie at vals[i*stride:]; the seats after them are
	// zero in the whole shard.
	vals          []float32
	seats, stride int
}

func (s *shardContent) len() int { return len(s.gameIDs) }

// valuesOnly drops what a value-only reader never reads (the policies, the games' moves),
// trims the packed inputs to their length, and keeps the values and scores only up to the
// last seat that is not zero (to the bit) somewhere in the shard: an example then reads the
// same but with an empty Policy.
func (s *shardContent) valuesOnly() {
	s.policy, s.polOff = nil, nil
	s.meta.Moves = nil
	s.packed = append([]byte(nil), s.packed...)
	k := 0
	for i := range s.values {
		for j := k; j < 4; j++ {
			if math.Float32bits(s.values[i][j]) != 0 || (s.scores != nil && math.Float32bits(s.scores[i][j]) != 0) {
				k = j + 1
			}
		}
	}
	s.seats, s.stride = k, k
	if s.scores != nil {
		s.stride = 2 * k
	}
	s.vals = make([]float32, 0, len(s.values)*s.stride)
	for i := range s.values {
		s.vals = append(s.vals, s.values[i][:k]...)
		if s.scores != nil {
			s.vals = append(s.vals, s.scores[i][:k]...)
		}
	}
	s.values, s.scores = nil, nil
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// decodeShard parses and validates a whole shard file image.
func decodeShard(buf []byte, want *Expect) (*shardContent, error) {
	if len(buf) < prefixLen+checksumLen {
		return nil, corrupt("file is %d bytes, shorter than the smallest shard", len(buf))
	}
	if string(buf[:8]) != Magic {
		return nil, corrupt("bad magic %q, want %q", buf[:8], Magic)
	}
	body := buf[:len(buf)-checksumLen]
	sum := sha256.Sum256(body)
	if !bytes.Equal(sum[:], buf[len(body):]) {
		// Say "truncated" when the header is intact but the file is shorter than it claims.
		if need, ok := declaredLen(buf); ok && need > len(buf) {
			return nil, corrupt("truncated: file is %d bytes, header says %d", len(buf), need)
		}
		return nil, corrupt("SHA-256 checksum mismatch")
	}
	version := binary.LittleEndian.Uint32(buf[8:])
	if version < 1 || version > FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, this reader knows 1..%d", ErrMismatch, version, FormatVersion)
	}
	hlen := int(binary.LittleEndian.Uint32(buf[12:]))
	if hlen > len(body)-prefixLen {
		return nil, corrupt("header length %d beyond end of file", hlen)
	}
	r := reader{b: body[prefixLen : prefixLen+hlen]}
	var m Meta
	glen := int(r.u16())
	m.Game = string(r.bytes(glen))
	m.EncoderVersion = int(r.u32())
	m.InputSize = int(r.u32())
	m.PolicySize = int(r.u32())
	m.PlaneSize = int(r.u32())
	flags := r.u32()
	count := r.u64()
	rawLen := r.u64()
	compLen := r.u64()
	js := r.bytes(int(r.u32()))
	if r.err != nil {
		return nil, corrupt("header: %v", r.err)
	}
	if len(r.b) != 0 {
		return nil, corrupt("header has %d unexpected trailing bytes", len(r.b))
	}
	if known := map[uint32]uint32{1: 0, 2: flagScores, 3: flagScores | flagMoves}[version]; flags&^known != 0 {
		return nil, fmt.Errorf("%w: unknown header flags %#x in a version %d shard", ErrMismatch, flags, version)
	}
	m.Scored = flags&flagScores != 0
	if err := m.checkShape(); err != nil {
		return nil, corrupt("header: %v", err)
	}
	if err := want.check(&m); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, corrupt("metadata JSON: %v", err)
	}
	payload := body[prefixLen+hlen:]
	if uint64(len(payload)) != compLen {
		return nil, corrupt("payload is %d bytes, header says %d", len(payload), compLen)
	}
	if rawLen > maxPayload {
		return nil, corrupt("uncompressed payload of %d bytes over the limit", rawLen)
	}
	if count > rawLen {
		return nil, corrupt("%d examples cannot fit in %d bytes", count, rawLen)
	}
	raw, err := decompress(payload, rawLen)
	if err != nil {
		return nil, corrupt("zstd payload: %v", err)
	}
	if uint64(len(raw)) != rawLen {
		return nil, corrupt("payload decompresses to %d bytes, header says %d", len(raw), rawLen)
	}
	m.Examples = int(count)
	s, rest, err := parseRecords(raw, &m)
	if err != nil {
		return nil, err
	}
	if flags&flagMoves != 0 {
		if s.meta.Moves, err = parseMoves(rest, s); err != nil {
			return nil, err
		}
	} else if len(rest) != 0 {
		return nil, corrupt("%d bytes left after the %d examples the header announces", len(rest), m.Examples)
	}
	return s, nil
}

// declaredLen returns the file length implied by the header, if the header can be read.
func declaredLen(buf []byte) (int, bool) {
	if len(buf) < prefixLen {
		return 0, false
	}
	hlen := int(binary.LittleEndian.Uint32(buf[12:]))
	if hlen > maxHeader || prefixLen+hlen > len(buf) {
		return prefixLen + hlen + checksumLen, hlen <= maxHeader
	}
	r := reader{b: buf[prefixLen : prefixLen+hlen]}
	r.bytes(int(r.u16()))
	for range 5 {
		r.u32()
	}
	r.u64()
	r.u64()
	compLen := r.u64()
	if r.err != nil || compLen > maxPayload {
		return 0, false
	}
	return prefixLen + hlen + int(compLen) + checksumLen, true
}

// parseRecords parses the m.Examples records at the start of raw and returns what follows.
func parseRecords(raw []byte, m *Meta) (*shardContent, []byte, error) {
	n := m.Examples
	s := &shardContent{
		meta:    *m,
		inOff:   make([]int32, 1, n+1),
		polOff:  make([]int32, 1, n+1),
		values:  make([][4]float32, 0, n),
		gameIDs: make([]uint64, 0, n),
		plies:   make([]int32, 0, n),
	}
	ps := m.planeSize()
	r := reader{b: raw}
	for i := range n {
		s.gameIDs = append(s.gameIDs, r.u64())
		ply := r.uvarint()
		if ply > math.MaxInt32 {
			return nil, nil, corrupt("example %d: ply %d out of range", i, ply)
		}
		s.plies = append(s.plies, int32(ply))
		var v [4]float32
		for j := range v {
			v[j] = math.Float32frombits(r.u32())
		}
		s.values = append(s.values, v)
		if m.Scored {
			for j := range v {
				v[j] = math.Float32frombits(r.u32())
			}
			s.scores = append(s.scores, v)
		}
		np := r.uvarint()
		if r.err == nil && (np == 0 || np > uint64(m.PolicySize)) {
			return nil, nil, corrupt("example %d: %d policy entries, want 1..%d", i, np, m.PolicySize)
		}
		for j := uint64(0); j < np && r.err == nil; j++ {
			idx := r.uvarint()
			p := math.Float32frombits(r.u32())
			if r.err == nil && idx >= uint64(m.PolicySize) {
				return nil, nil, corrupt("example %d: policy index %d outside [0,%d)", i, idx, m.PolicySize)
			}
			s.policy = append(s.policy, PolicyEntry{Index: int32(idx), Prob: p})
		}
		if r.err != nil {
			return nil, nil, corrupt("example %d of %d: %v", i, n, r.err)
		}
		if len(s.policy) > math.MaxInt32 {
			return nil, nil, corrupt("too many policy entries")
		}
		s.polOff = append(s.polOff, int32(len(s.policy)))
		l, err := packedInputLen(r.b, m.InputSize, ps)
		if err != nil {
			return nil, nil, corrupt("example %d input: %v", i, err)
		}
		s.packed = append(s.packed, r.b[:l]...)
		r.b = r.b[l:]
		s.inOff = append(s.inOff, int32(len(s.packed)))
	}
	return s, r.b, nil
}

// example fills ex with example i, reusing ex.Input and ex.Policy when they have capacity.
func (s *shardContent) example(i int, ex *Example) {
	if cap(ex.Input) < s.meta.InputSize {
		ex.Input = make([]float32, s.meta.InputSize)
	}
	ex.Input = ex.Input[:s.meta.InputSize]
	unpackInput(s.packed[s.inOff[i]:s.inOff[i+1]], ex.Input, s.meta.planeSize())
	ex.Policy = ex.Policy[:0]
	if s.polOff != nil {
		ex.Policy = append(ex.Policy, s.policy[s.polOff[i]:s.polOff[i+1]]...)
	}
	ex.Scored = s.meta.Scored
	ex.Scores = [4]float32{}
	if s.values == nil {
		row := s.vals[i*s.stride : (i+1)*s.stride]
		ex.Values = [4]float32{}
		copy(ex.Values[:], row[:s.seats])
		if ex.Scored {
			copy(ex.Scores[:], row[s.seats:])
		}
	} else {
		ex.Values = s.values[i]
		if ex.Scored {
			ex.Scores = s.scores[i]
		}
	}
	ex.GameID = s.gameIDs[i]
	ex.Ply = int(s.plies[i])
}

func (s *shardContent) examples() []Example {
	n := s.len()
	out := make([]Example, n)
	inputs := make([]float32, n*s.meta.InputSize)
	for i := range out {
		out[i].Input = inputs[i*s.meta.InputSize : (i+1)*s.meta.InputSize : (i+1)*s.meta.InputSize]
		pol := s.policy[s.polOff[i]:s.polOff[i+1]:s.polOff[i+1]]
		out[i].Policy = pol // shares the decoded array; each example owns a disjoint part
		unpackInput(s.packed[s.inOff[i]:s.inOff[i+1]], out[i].Input, s.meta.planeSize())
		out[i].Values = s.values[i]
		if s.scores != nil {
			out[i].Scores, out[i].Scored = s.scores[i], true
		}
		out[i].GameID = s.gameIDs[i]
		out[i].Ply = int(s.plies[i])
	}
	return out
}

// ReadShard reads and validates the shard at path: magic, format version, checksum, sizes,
// every record, and the example count. The returned Meta has the header fields filled in.
func ReadShard(path string) (Meta, []Example, error) {
	return ReadShardExpect(path, Expect{})
}

// ReadShardExpect is ReadShard that also refuses (with an error wrapping ErrMismatch) a shard
// whose game, encoder version or sizes differ from want.
func ReadShardExpect(path string, want Expect) (Meta, []Example, error) {
	s, err := readContent(path, &want)
	if err != nil {
		return Meta{}, nil, err
	}
	return s.meta, s.examples(), nil
}

func readContent(path string, want *Expect) (*shardContent, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	s, err := decodeShard(buf, want)
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	return s, nil
}

// IsShardName reports whether a directory entry name is a finished shard (not a temporary
// file of an interrupted write).
func IsShardName(name string) bool {
	return strings.HasSuffix(name, ShardExt) && !strings.HasPrefix(name, ".")
}

// reader reads little-endian fields and remembers the first overrun.
type reader struct {
	b   []byte
	err error
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("need %d bytes, have %d", n, len(r.b))
		return false
	}
	return true
}

func (r *reader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u16() uint16 {
	if b := r.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// DecodeShard validates the shard image buf like ReadShardExpect (checksum first, then
// format version, header, every record and, in version 3, the moves) and returns its content.
func DecodeShard(buf []byte, want Expect) (Meta, []Example, error) {
	s, err := decodeShard(buf, &want)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("data: %w", err)
	}
	return s.meta, s.examples(), nil
}
