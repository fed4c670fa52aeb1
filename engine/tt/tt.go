// Package tt is the transposition table of Colony's alpha-beta engines, for any game: a
// bucketed table of 16-byte entries (for a move of at most 4 bytes) keyed by the position's
// hash, with an age so that entries of older searches are replaced first.
package tt

// Bounds of a stored score.
const (
	None  uint8 = 0
	Upper uint8 = 1 // the true value is at most the score
	Lower uint8 = 2 // the true value is at least the score
	Exact uint8 = Upper | Lower
)

// Entry is one slot: four make a bucket (one 64-byte cache line for a 2-byte move).
type Entry[M comparable] struct {
	Key   uint64
	Move  M
	Score int16
	Depth int8
	Bound uint8
	Gen   uint8
}

const bucketSize = 4

// Table is a bucketed transposition table: the low bits of the key pick a bucket, the full key
// is stored to verify a hit. A stored move is only a hint: a search plays it only when it is
// among the generated moves. The zero Table has no storage: Alloc first.
type Table[M comparable] struct {
	entries []Entry[M]
	mask    uint64 // number of buckets - 1
	gen     uint8
	noMove  M
}

// Alloc sizes the table to the largest power-of-two number of buckets within mb megabytes
// (at least one), forgetting everything. noMove is the game's "no move" value: a store
// without a move keeps the move already stored for the key.
func (t *Table[M]) Alloc(mb int, noMove M) {
	mb = max(mb, 1)
	buckets := uint64(1)
	for buckets*2*bucketSize*16 <= uint64(mb)<<20 {
		buckets *= 2
	}
	t.entries = make([]Entry[M], buckets*bucketSize)
	t.mask = buckets - 1
	t.gen = 0
	t.noMove = noMove
}

// Allocated reports whether Alloc was called.
func (t *Table[M]) Allocated() bool { return t.entries != nil }

// Clear forgets every entry.
func (t *Table[M]) Clear() {
	clear(t.entries)
	t.gen = 0
}

// NextSearch ages every stored entry by one search: they are replaced first from now on.
func (t *Table[M]) NextSearch() { t.gen++ }

// Probe returns the entry stored for key.
func (t *Table[M]) Probe(key uint64) (Entry[M], bool) {
	b := t.entries[(key&t.mask)*bucketSize:][:bucketSize]
	for i := range b {
		if b[i].Key == key && b[i].Bound != None {
			return b[i], true
		}
	}
	return Entry[M]{}, false
}

// Store writes an entry. The slot is the one already holding key, else the least valuable one:
// entries of older searches first, then the shallowest.
func (t *Table[M]) Store(key uint64, m M, score int32, depth int, bound uint8) {
	b := t.entries[(key&t.mask)*bucketSize:][:bucketSize]
	victim := 0
	worst := int(1 << 30)
	for i := range b {
		e := &b[i]
		if e.Key == key || e.Bound == None {
			victim = i
			// Keep the old move when the new entry has none.
			if m == t.noMove && e.Key == key {
				m = e.Move
			}
			break
		}
		v := int(e.Depth)
		if e.Gen != t.gen {
			v -= 64
		}
		if v < worst {
			worst, victim = v, i
		}
	}
	b[victim] = Entry[M]{Key: key, Move: m, Score: int16(score), Depth: int8(depth), Bound: bound, Gen: t.gen}
}
