package tt

import (
	"testing"
	"unsafe"
)

func TestEntrySize(t *testing.T) {
	if n := unsafe.Sizeof(Entry[uint16]{}); n != 16 {
		t.Errorf("an entry with a 2-byte move is %d bytes, want 16 (four to a cache line)", n)
	}
}

func TestProbeStoreReplace(t *testing.T) {
	var tab Table[uint16]
	if tab.Allocated() {
		t.Fatal("the zero table says it is allocated")
	}
	tab.Alloc(1, 0xffff)
	if _, ok := tab.Probe(42); ok {
		t.Fatal("hit in an empty table")
	}
	tab.Store(42, 7, -300, 5, Lower)
	e, ok := tab.Probe(42)
	if !ok || e.Move != 7 || e.Score != -300 || e.Depth != 5 || e.Bound != Lower {
		t.Fatalf("probe: %+v %v", e, ok)
	}
	// A store without a move keeps the stored one.
	tab.Store(42, 0xffff, 10, 6, Exact)
	if e, _ := tab.Probe(42); e.Move != 7 || e.Score != 10 || e.Bound != Exact {
		t.Fatalf("after a moveless store: %+v", e)
	}
	// Fill one bucket (keys equal modulo the bucket count): the shallowest entry of an older
	// search goes first.
	buckets := tab.mask + 1
	for i := uint64(1); i <= 4; i++ {
		tab.Store(42+i*buckets, uint16(i), 0, int(10+i), Exact)
	}
	if _, ok := tab.Probe(42); ok {
		t.Error("the shallowest entry survived a full bucket")
	}
	tab.NextSearch()
	tab.Store(42+9*buckets, 9, 0, 1, Exact) // shallow, but the others are older now
	if _, ok := tab.Probe(42 + 9*buckets); !ok {
		t.Error("a new entry did not replace one of an older search")
	}
	if _, ok := tab.Probe(42 + 4*buckets); !ok {
		t.Error("the deepest older entry was replaced first")
	}
	tab.Clear()
	if _, ok := tab.Probe(42 + 4*buckets); ok {
		t.Error("hit after Clear")
	}
}
