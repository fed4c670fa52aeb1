package abrules

import (
	"math"
	"math/bits"
	"testing"

	"colony/game/ataxx"
)

// TestTurnKeysNearTheCapOnly: a position's table key is its hash at every turn before
// MixTurnsFrom (the same position sent with another move number shares its entries), and
// differs between any two turns from there to the cap (the cap may decide its value).
func TestTurnKeysNearTheCapOnly(t *testing.T) {
	k := NewTurnKeys(12345)
	p := ataxx.Start().Apply(ataxx.CloneMove(8))
	at := func(turns int) ataxx.Position {
		return ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), p.ToMove(), turns)
	}
	if MixTurnsFrom+MaxPly+2*ataxx.NumSquares > ataxx.MaxTurns || MixTurnsFrom < 150 {
		t.Fatalf("MixTurnsFrom %d: a search from before it may reach the cap's reach, or it cuts real games", MixTurnsFrom)
	}
	for _, turns := range []int{1, 2, 51, MixTurnsFrom - 1} {
		q := at(turns)
		if k.Key(&q) != q.Hash() {
			t.Errorf("turn %d: key %x, hash %x", turns, k.Key(&q), q.Hash())
		}
	}
	seen := map[uint64]int{}
	for turns := MixTurnsFrom; turns <= ataxx.MaxTurns+1; turns++ {
		q := at(turns)
		key := k.Key(&q)
		if key == q.Hash() {
			t.Errorf("turn %d: key is the bare hash", turns)
		}
		if prev, ok := seen[key]; ok {
			t.Errorf("turns %d and %d share key %x", prev, turns, key)
		}
		seen[key] = turns
	}
}

// TestExpectedMovesShape: the clock is shared among half the empty cells divided by the scale
// (50-empty)/25 clamped to [0.5, 1.5] (a float reference here, integers in the code), so the
// opening gets half the even share and the late middle game 1.5 times it; at least 3 moves,
// at most the own turns the cap leaves.
func TestExpectedMovesShape(t *testing.T) {
	ref := func(e int) int {
		sc := min(max(float64(50-e)/25, 0.5), 1.5)
		return max(int(math.Floor(float64((e+2)/2)/sc+0.5)), 3)
	}
	for e := 0; e <= ataxx.NumSquares-2; e++ {
		// e empty cells: O holds the first 49-e-1 squares, X the next one.
		n := ataxx.NumSquares - e
		o := uint64(1)<<(n-1) - 1
		x := uint64(1) << (n - 1)
		p := ataxx.NewPosition(o, x, ataxx.O, 10)
		if got := bits.OnesCount64(p.Empty()); got != e {
			t.Fatalf("built %d empty cells, want %d", got, e)
		}
		if got, want := ExpectedMoves(&p), ref(e); got != want {
			t.Errorf("%d empty: %d expected moves, want %d", e, got, want)
		}
		late := ataxx.NewPosition(o, x, ataxx.O, ataxx.MaxTurns-3)
		if got, want := ExpectedMoves(&late), min(ref(e), max(late.OwnTurnsLeft(), 1)); got != want {
			t.Errorf("%d empty near the cap: %d expected moves, want %d", e, got, want)
		}
	}
	start := ataxx.Start()
	if got, even := ExpectedMoves(&start), (bits.OnesCount64(start.Empty())+2)/2; got != 2*even {
		t.Errorf("start: %d expected moves, want twice the even share %d", got, even)
	}
}
