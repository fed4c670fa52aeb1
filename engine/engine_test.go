package engine

import (
	"testing"
	"time"
)

func TestSpendable(t *testing.T) {
	for _, tc := range []struct {
		clock    time.Duration
		moves    int
		wantLeft time.Duration
		wantOK   bool
	}{
		{10 * time.Second, 200, 10*time.Second - 200*MinMoveCost, true},
		{100 * time.Millisecond, 0, 100 * time.Millisecond, true},
		{50*MinMoveCost + 2*MinMoveCost, 50, 2 * MinMoveCost, true},
		{50*MinMoveCost + MinMoveCost, 50, MinMoveCost, false},
		{10 * time.Millisecond, 120, 10*time.Millisecond - 120*MinMoveCost, false},
		{time.Second, -3, time.Second, true}, // a negative count reserves nothing
	} {
		left, ok := Spendable(tc.clock, tc.moves)
		if left != tc.wantLeft || ok != tc.wantOK {
			t.Errorf("Spendable(%v, %d) = %v, %v; want %v, %v", tc.clock, tc.moves, left, ok, tc.wantLeft, tc.wantOK)
		}
	}
}
