package alphabeta

import "colony/game/mouse"

// Bounds of a transposition-table score.
const (
	boundNone  uint8 = 0
	boundUpper uint8 = 1 // the true value is at most score
	boundLower uint8 = 2 // the true value is at least score
	boundExact uint8 = boundUpper | boundLower
)

// ttEntry is one 16-byte slot: four make a 64-byte bucket (one cache line).
type ttEntry struct {
	key   uint64
	move  mouse.Move
	score int16
	depth int8
	bound uint8
	gen   uint8
	_     uint8
}

const bucketSize = 4

// table is a bucketed transposition table: the low bits of the key pick a bucket, the full key
// is stored to verify a hit. A stored move is only a hint: the search plays it only when it is
// among the generated moves. The game has no turn count and no repetition (the mice only walk
// forward), so the position hash is the whole key.
type table struct {
	entries []ttEntry
	mask    uint64 // number of buckets - 1
	gen     uint8
}

// alloc sizes the table to the largest power-of-two number of buckets within mb megabytes.
func (t *table) alloc(mb int) {
	mb = max(mb, 1)
	buckets := uint64(1)
	for buckets*2*bucketSize*16 <= uint64(mb)<<20 {
		buckets *= 2
	}
	t.entries = make([]ttEntry, buckets*bucketSize)
	t.mask = buckets - 1
	t.gen = 0
}

func (t *table) clear() {
	clear(t.entries)
	t.gen = 0
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	b := t.entries[(key&t.mask)*bucketSize:][:bucketSize]
	for i := range b {
		if b[i].key == key && b[i].bound != boundNone {
			return b[i], true
		}
	}
	return ttEntry{}, false
}

// store writes an entry. The slot is the one already holding key, else the least valuable one:
// entries of older searches first, then the shallowest.
func (t *table) store(key uint64, m mouse.Move, score int32, depth int, bound uint8) {
	b := t.entries[(key&t.mask)*bucketSize:][:bucketSize]
	victim := 0
	worst := int(1 << 30)
	for i := range b {
		e := &b[i]
		if e.key == key || e.bound == boundNone {
			victim = i
			if m == mouse.NoMove && e.key == key {
				m = e.move
			}
			break
		}
		v := int(e.depth)
		if e.gen != t.gen {
			v -= 64
		}
		if v < worst {
			worst, victim = v, i
		}
	}
	b[victim] = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), bound: bound, gen: t.gen}
}
