package registry

import (
	"testing"
	"time"

	"colony/engine"
	"colony/engine/mctsengine"
	"colony/game/mouse"
	"colony/game/mouse/solve"
)

// TestMouseMCTSProves: the default Catch The Mouse engine (mcts on the embedded network) has
// the game's prover in front: in a position the team wins by force in 5 plies with 2 of its
// 61 moves (from an arena game against random mice) it plays a move that keeps the win,
// found by the prover; with -prove 0 the prover is off and the move is searched.
func TestMouseMCTSProves(t *testing.T) {
	gi, err := Lookup("catch-the-mouse")
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*game[mouse.Position, mouse.Move])
	p, err := mouse.ParseBoard(".........../.........../.N........R/RC........./....R....../....C.CC.../........... N")
	if err != nil {
		t.Fatal(err)
	}
	for _, share := range []float64{g.Defaults().ProverShare, 0} {
		o := g.Defaults()
		o.Seed, o.ProverShare, o.Endgame = 3, share, 0 // mcts itself, not the handoff
		e, err := g.build(g.DefaultEngine(), o)
		if err != nil {
			t.Fatal(err)
		}
		m := e.BestMove(p, engine.Limits{MoveTime: 3 * time.Second})
		r := e.(*mctsengine.Engine[mouse.Position, mouse.Move]).LastResult()
		proven := r.Proven
		if proven != (share > 0) {
			t.Errorf("-prove %v: proven %v", share, proven)
		}
		if share == 0 {
			continue
		}
		if w, _ := solve.New(4).Wins(p.Apply(m), mouse.Team, 4); !w {
			t.Errorf("-prove %v: %v does not keep the team's win in 5", share, m)
		}
	}
	if g.Defaults().ProverShare <= 0 {
		t.Error("the prover is off by default")
	}
}

// TestMouseHandoff: with -endgame 45 the engine plays mcts until 45 mouse steps are left,
// then alphabeta; by default there is no handoff.
func TestMouseHandoff(t *testing.T) {
	gi, err := Lookup("catch-the-mouse")
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*game[mouse.Position, mouse.Move])
	o := g.Defaults()
	if o.Endgame != 0 {
		t.Fatalf("default -endgame %d, want 0 (off)", o.Endgame)
	}
	if e, err := g.build(g.DefaultEngine(), o); err != nil || e.Name() != "mcts" {
		t.Fatalf("default engine: %v, %v", e, err)
	} else if _, ok := e.(*engine.Handoff[mouse.Position, mouse.Move]); ok {
		t.Fatal("the default engine hands off")
	}
	o.Endgame = 45
	e, err := g.build(g.DefaultEngine(), o)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := e.(*engine.Handoff[mouse.Position, mouse.Move])
	if !ok {
		t.Fatalf("-endgame 45: engine %T, want an engine.Handoff", e)
	}
	if h.Finish.Name() != "alphabeta" || h.Early.Name() != "mcts" {
		t.Fatalf("handoff %s -> %s, want mcts -> alphabeta", h.Early.Name(), h.Finish.Name())
	}
	p := mouse.Start()
	var buf [mouse.MaxMoves]mouse.Move
	for !p.Terminal() && p.MouseStepsLeft() > 40 {
		if got, want := h.Late(p), p.MouseStepsLeft() <= 45; got != want {
			t.Fatalf("%d steps left: late %v, want %v", p.MouseStepsLeft(), got, want)
		}
		p = p.Apply(p.LegalMoves(buf[:0])[0])
	}
}
