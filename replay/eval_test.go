package replay

import (
	"math"
	"testing"

	"colony/judge"
)

// scoreInfo is an info line with a search score.
func scoreInfo(s int32) *judge.Info { return &judge.Info{Score: &s} }

// TestEvaluationsOneSide: two engines that each think they stand a little better give
// alternating scores of opposite sign from O's side; each engine's line is flat, so there is
// no big swing (one line through both, the old graph, was a sawtooth with a swing at every
// move). One engine changing its mind by more than SwingMin is one swing, at its move, from
// O's side.
func TestEvaluationsOneSide(t *testing.T) {
	g := &Game{Seats: []Seat{{Name: "O"}, {Name: "X"}}}
	for k := range 12 {
		g.Moves = append(g.Moves, Move{Seat: k % 2, Info: scoreInfo(200)})
	}
	g.Moves[10].Info = scoreInfo(-300) // O's engine: from +200 to -300 of its own
	g.Moves[5].Info = nil              // a move without an info line is no point
	g.evaluations()
	if len(g.Eval) != 11 {
		t.Fatalf("%d points, want 11", len(g.Eval))
	}
	up := math.Tanh(0.5)
	for _, p := range g.Eval {
		want := up
		if p.Seat == 1 {
			want = -up // X's engine's +200 is O's -200
		}
		if p.Ply == 11 {
			want = math.Tanh(-0.75)
		}
		if math.Abs(p.V-want) > 1e-12 || p.Seat != (p.Ply-1)%2 {
			t.Errorf("point %+v, want %.4f", p, want)
		}
	}
	if len(g.Swings) != 1 {
		t.Fatalf("swings %+v: want one, O's engine at move 11", g.Swings)
	}
	if w := g.Swings[0]; w.Ply != 11 || w.Seat != 0 || math.Abs(w.From-up) > 1e-12 || math.Abs(w.To-math.Tanh(-0.75)) > 1e-12 {
		t.Errorf("swing %+v", w)
	}

	// Proofs and values; more than two players keep the mover's own view and no swings.
	v := -2.0
	g = &Game{Seats: []Seat{{Name: "1"}, {Name: "2"}, {Name: "3"}}, Moves: []Move{
		{Seat: 0, Info: &judge.Info{Proven: 1}}, {Seat: 1, Info: &judge.Info{Value: &v}}, {Seat: 2, Info: scoreInfo(0)},
		{Seat: 0, Info: &judge.Info{Proven: -1}}}}
	g.evaluations()
	if len(g.Eval) != 4 || g.Eval[0].V != 1 || g.Eval[1].V != -1 || g.Eval[2].V != 0 || g.Eval[3].V != -1 || g.Swings != nil {
		t.Errorf("three players: %+v, swings %+v", g.Eval, g.Swings)
	}
}
