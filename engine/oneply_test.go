package engine

import "testing"

// row is a toy position: its moves are the indices of its values.
type row []int

func (r row) LegalMoves(dst []int) []int {
	dst = dst[:0]
	for i := range r {
		dst = append(dst, i)
	}
	return dst
}

func TestOnePly(t *testing.T) {
	score := func(r row, m int) int { return r[m] }
	e := NewOnePly("toy", 1, 8, -1, score)
	if e.Name() != "toy" {
		t.Fatalf("name %q", e.Name())
	}
	if m := e.BestMove(row{3, 9, -4, 2}, Limits{}); m != 1 {
		t.Fatalf("best of 3 9 -4 2: %d, want 1", m)
	}
	if m := e.BestMove(row{}, Limits{}); m != -1 {
		t.Fatalf("no moves: %d, want the none move", m)
	}
	// Ties: every tied move is played, about equally often; the others never.
	count := map[int]int{}
	for range 3000 {
		count[e.BestMove(row{5, 1, 5, 5, 0}, Limits{})]++
	}
	if count[1] != 0 || count[4] != 0 {
		t.Fatalf("a worse move was played: %v", count)
	}
	for _, m := range []int{0, 2, 3} {
		if count[m] < 850 || count[m] > 1150 {
			t.Fatalf("tie-break not uniform: %v", count)
		}
	}
	r := row{1, 2, 2}
	if a := testing.AllocsPerRun(10, func() { e.BestMove(r, Limits{}) }); a != 0 {
		t.Fatalf("%v allocations per move", a)
	}
}
