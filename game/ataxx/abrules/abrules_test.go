package abrules

import (
	"math"
	"math/bits"
	"testing"

	"colony/contract/contracttest"
	"colony/game/ataxx"
	"colony/internal/splitmix"
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

// TestStuckWinIsNotProven: X is stuck with 25 pieces to O's 23 and one empty cell. O filling
// it would end the game 25-24 for X, but O need not fill: it leaps back and forth, opening a hole
// next to X, and wins by the captures that follow (a game against Zataxx was lost this way from
// a "proven win"). StuckScore must not claim X's win; the exhaustive search shows O's.
func TestStuckWinIsNotProven(t *testing.T) {
	p, err := ataxx.ParseBoard(".OOOOOO/OOOXXXX/OOOOXXX/OOXXXXX/OXXXXXO/OXXXOOX/OOOXXXX X 101")
	if err != nil {
		t.Fatal(err)
	}
	if p.HasMove() {
		t.Fatal("X should be stuck")
	}
	if v, ok := StuckScore(&p, 0); ok {
		t.Fatalf("StuckScore claims %d for the stuck X", v)
	}
	if v, ok := BlockedScore(&p, 0); ok {
		t.Fatalf("BlockedScore claims %d for the stuck X", v)
	}
	if !contracttest.WinsWithin(p, 7, ataxx.O) {
		t.Fatal("O should force a win within 7 plies")
	}
}

// TestStuckLossIsSound: on random full boards with one to three empty cells out of X's reach
// (X to move, stuck), whenever StuckScore claims a result it is X's loss, and O can force a
// win within the fill's 2n plies (exhaustive search); a fill X would not lose is never claimed.
func TestStuckLossIsSound(t *testing.T) {
	seed := uint64(35)
	next := func(n int) int { return int(splitmix.Next(&seed) % uint64(n)) }
	claimed, refused := 0, 0
	for range 3000 {
		var o, x, empty uint64
		for range 1 + next(3) {
			empty |= 1 << next(ataxx.NumSquares)
		}
		near := ataxx.Dilate(ataxx.Dilate(empty)) &^ empty
		for sq := range ataxx.NumSquares {
			bit := uint64(1) << sq
			switch {
			case empty&bit != 0:
			case near&bit != 0 || next(100) < 25:
				o |= bit
			default:
				x |= bit
			}
		}
		if x == 0 {
			continue
		}
		p := ataxx.NewPosition(o, x, ataxx.X, 100)
		if p.HasMove() {
			t.Fatalf("X has a move in\n%s", p.Diagram())
		}
		ne := bits.OnesCount64(empty)
		v, ok := StuckScore(&p, 0)
		if !ok {
			if p.Count(ataxx.X)-p.Count(ataxx.O)-ne < 0 && ataxx.Dilate(o)&empty == empty {
				t.Fatalf("a losing fill of one step is not claimed in\n%s", p.Diagram())
			}
			refused++
			continue
		}
		claimed++
		if v > -WinBound {
			t.Fatalf("StuckScore claims %d (not X's loss) in\n%s", v, p.Diagram())
		}
		if !contracttest.WinsWithin(p, 2*ne, ataxx.O) {
			t.Fatalf("StuckScore claims X's loss (%d), but O cannot force a win within %d plies in\n%s", v, 2*ne, p.Diagram())
		}
	}
	t.Logf("%d claimed, %d refused", claimed, refused)
	if claimed < 100 || refused < 100 {
		t.Fatalf("only %d claimed and %d refused positions", claimed, refused)
	}
}
