package mctsengine

import (
	"slices"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// fakeProver answers from a script and records the budgets it was given.
type fakeProver struct {
	win    move
	hasWin bool
	veto   []move
	nodes  []int64
	times  []time.Duration
	games  int
}

func (f *fakeProver) Prove(p pos, nodes int64, t time.Duration, veto []move) (move, bool, []move, int64) {
	f.nodes = append(f.nodes, nodes)
	f.times = append(f.times, t)
	if f.hasWin {
		return f.win, true, veto, 1
	}
	return 0, false, append(veto, f.veto...), 1
}

func (f *fakeProver) NewGame() { f.games++ }

// TestProverInFront: a proven win is played without a search; proven losses are never played
// even when they are the moves the search likes best; the prover's budget is its share of
// the move's time (or nodes per playout), and NewGame reaches it.
func TestProverInFront(t *testing.T) {
	p := ataxx.Start()
	plain := newEngine(newRollout(9, 0), opts(Options[pos, move]{Seed: 9}))
	lim := engine.Limits{Nodes: 400}
	liked := plain.BestMove(p, lim)
	res := plain.LastResult()
	order := slices.Clone(res.Moves)
	visits := func(m move) int32 { return res.Visits[slices.Index(res.Moves, m)] }
	slices.SortFunc(order, func(a, b move) int { return int(visits(b) - visits(a)) })
	if order[0] != liked {
		t.Fatalf("best %v is not the most visited %v", liked, order[0])
	}

	// Veto: the five moves the plain search liked best are out.
	fp := &fakeProver{veto: order[:5]}
	e := newEngine(newRollout(9, 0), opts(Options[pos, move]{Seed: 9, Prover: fp}))
	m := e.BestMove(p, lim)
	if slices.Contains(order[:5], m) {
		t.Errorf("played %v, which the prover showed to lose", m)
	}
	if r := e.LastResult(); r.Proven || r.Playouts == 0 {
		t.Errorf("vetoes only: the engine should search (%d playouts, proven %v)", r.Playouts, r.Proven)
	}
	if len(fp.nodes) != 1 || fp.nodes[0] != 400*100 || fp.times[0] != 0 {
		t.Errorf("node budget: the prover got %v nodes, %v time; want [40000] nodes", fp.nodes, fp.times)
	}

	// A proven win is played at once, even one the search would not choose.
	fp = &fakeProver{win: order[len(order)-1], hasWin: true}
	e = newEngine(newRollout(9, 0), opts(Options[pos, move]{Seed: 9, Prover: fp, ProverShare: 0.5}))
	if m := e.BestMove(p, engine.Limits{MoveTime: 200 * time.Millisecond}); m != fp.win {
		t.Errorf("played %v, want the proven win %v", m, fp.win)
	}
	if r := e.LastResult(); !r.Proven || r.Playouts != 0 {
		t.Errorf("a proven win: result %+v, want Proven and no search", r)
	}
	if got := fp.times[0]; got <= 0 || got > 100*time.Millisecond {
		t.Errorf("move time 200 ms, share 0.5: the prover got %v", got)
	}
	e.NewGame()
	if fp.games != 1 {
		t.Errorf("NewGame reached the prover %d times, want 1", fp.games)
	}
}
