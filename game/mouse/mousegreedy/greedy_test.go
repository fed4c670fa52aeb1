package mousegreedy

import (
	"testing"

	"colony/engine"
	"colony/game/mouse"
	"colony/game/mouse/mousetest"
)

func TestLegalInRandomGames(t *testing.T) {
	mousetest.LegalInRandomGames(t, New(1), 20, func(int) engine.Limits { return engine.Limits{} })
}

// TestWinsAtOnce: greedy takes every win in one move of the hand-made cases.
func TestWinsAtOnce(t *testing.T) {
	for _, c := range mousetest.WinCases {
		if c.Plies != 1 {
			continue
		}
		p := mousetest.MustDiagram(t, c.Diagram, c.Side)
		for seed := range uint64(5) {
			if m := New(seed).BestMove(p, engine.Limits{}); !p.Apply(m).Terminal() {
				t.Errorf("%s: %v does not win", c.Name, m)
			}
		}
	}
}

func TestRoles(t *testing.T) {
	// The team takes a mouse when it can.
	p := mousetest.MustDiagram(t, `
		R R R . R R R R R R R
		. . . . . . . . . . .
		. . . R . . . . . . .
		. . . . N . . . . . .
		. . . C C . C C . . .
		. . . . . . . . . . .
		. . . . . . . . . . .`, mouse.Team)
	if m := New(1).BestMove(p, engine.Limits{}); !p.IsCapture(m) {
		t.Errorf("team: %v is no capture", m)
	}
	// The team blocks the free mouse on row 5 (below it, or on its path).
	p = mousetest.MustDiagram(t, `
		R R R R R R R R . R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . R . .
		C . . . . N . . . . C
		. . . . . . . . . . .`, mouse.Team)
	if m := New(2).BestMove(p, engine.Limits{}); m.To() != 5*mouse.Cols+8 {
		t.Errorf("team: %v does not block the runner", m)
	}
	// The mice push the free mouse furthest down...
	p = mousetest.MustDiagram(t, `
		R R R R R R R . . R R
		. . . . . . . R . . .
		. . . . . . . . R . .
		. . . . . . . . . . .
		. . . N . . . . . . .
		. . . . C C . . . . .
		. . . . . . . . . . .`, mouse.Mice)
	for seed := range uint64(5) {
		if m := New(seed).BestMove(p, engine.Limits{}); m != mouse.MouseStep(2*mouse.Cols+8) {
			t.Errorf("mice: %v, want i3i4", m)
		}
	}
	// ... but not next to Nadori.
	p = mousetest.MustDiagram(t, `
		R R R R R R R . . R R
		. . . . . . . R . . .
		. . . . . . . . R . .
		. . . . . . . . . . .
		. . . . . . . . . N .
		. . . . C C . . . . .
		. . . . . . . . . . .`, mouse.Mice)
	for seed := range uint64(5) {
		if m := New(seed).BestMove(p, engine.Limits{}); m != mouse.MouseStep(1*mouse.Cols+7) {
			t.Errorf("mice: %v, want h2h3", m)
		}
	}
}
