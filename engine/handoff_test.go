package engine

import "testing"

// fake answers every move with its tag and counts its calls.
type fake struct {
	tag          string
	moves, games int
}

func (f *fake) Name() string                { return f.tag }
func (f *fake) NewGame()                    { f.games++ }
func (f *fake) BestMove(int, Limits) string { f.moves++; return f.tag }

func TestHandoffSwitchesOnceAndResets(t *testing.T) {
	early, finish := &fake{tag: "early"}, &fake{tag: "finish"}
	// Positions are ints; the late phase is pos >= 10.
	h := &Handoff[int, string]{Early: early, Finish: finish, Late: func(p int) bool { return p >= 10 }}
	if h.Name() != "early" {
		t.Fatalf("Name = %q, want Early's name", h.Name())
	}
	h.Label = "hybrid"
	if h.Name() != "hybrid" {
		t.Fatalf("Name = %q, want the label", h.Name())
	}
	h.NewGame()
	var got []string
	for _, p := range []int{1, 5, 9, 10, 3, 12, 0} {
		got = append(got, h.BestMove(p, Limits{}))
	}
	want := []string{"early", "early", "early", "finish", "finish", "finish", "finish"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("moves = %v, want %v (the switch is one-way)", got, want)
		}
	}
	if !h.Finishing() || early.moves != 3 || finish.moves != 4 {
		t.Fatalf("Finishing %v, early %d moves, finish %d moves; want true, 3, 4", h.Finishing(), early.moves, finish.moves)
	}
	h.NewGame()
	if h.Finishing() || early.games != 2 || finish.games != 2 {
		t.Fatalf("after NewGame: Finishing %v, games %d/%d; want false, 2/2", h.Finishing(), early.games, finish.games)
	}
	if m := h.BestMove(2, Limits{}); m != "early" {
		t.Fatalf("first move of a new game went to %q, want early", m)
	}
}
