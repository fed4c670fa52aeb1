package abrules

import (
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
