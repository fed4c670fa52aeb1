package splitmix

import "testing"

// The first outputs of splitmix64 seeded with 0 (Vigna's reference splitmix64.c): the
// Zobrist keys of every game depend on them.
func TestReferenceStream(t *testing.T) {
	want := []uint64{0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC}
	var s uint64
	for i, w := range want {
		if got := Next(&s); got != w {
			t.Fatalf("output %d: %#x, want %#x", i, got, w)
		}
	}
	if Mix(0) != want[0] || Mix(Gamma) != want[1] {
		t.Errorf("Mix does not match the stream: %#x %#x", Mix(0), Mix(Gamma))
	}
}

func TestNextAllocatesNothing(t *testing.T) {
	var s uint64
	if n := testing.AllocsPerRun(100, func() { Next(&s) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
