package solve

import (
	"slices"
	"testing"
	"time"

	"colony/game/mouse"
)

// TestProverPlaysWins: given a node or a time budget, the prover returns a move that keeps a
// forced win (the team to move wins in 5 plies with 2 of its 61 moves; from an arena game
// against random mice), and declines positions out of reach and budgets of nothing.
func TestProverPlaysWins(t *testing.T) {
	p, err := mouse.ParseBoard(".........../.........../.N........R/RC........./....R....../....C.CC.../........... N")
	if err != nil {
		t.Fatal(err)
	}
	r := New(4).Solve(p, Limits{})
	if r.Winner != mouse.Team || r.Depth != 5 {
		t.Fatalf("the solver says %+v, want a team win in 5 plies", r)
	}
	for _, b := range []struct {
		nodes int64
		t     time.Duration
	}{{4_000_000, 0}, {0, 5 * time.Second}} {
		pr := NewProver(4, false)
		m, ok, veto, n := pr.Prove(p, b.nodes, b.t, nil)
		if !ok || len(veto) != 0 || n <= 0 {
			t.Fatalf("budget %v: ok %v, veto %v, %d nodes; want a win", b, ok, veto, n)
		}
		if w, _ := New(4).Wins(p.Apply(m), mouse.Team, r.Depth-1); !w {
			t.Errorf("budget %v: %v does not keep the win in %d", b, m, r.Depth)
		}
	}
	pr := NewProver(4, false)
	if _, ok, veto, n := pr.Prove(p, 0, 0, nil); ok || len(veto) != 0 || n != 0 {
		t.Errorf("no budget: ok %v, veto %v, %d nodes; want nothing done", ok, veto, n)
	}
	start := mouse.Start()
	if _, ok, veto, n := pr.Prove(start, 100000, 0, nil); ok || len(veto) != 0 || n != 0 {
		t.Errorf("the start (66 steps left): ok %v, veto %v, %d nodes; want it declined", ok, veto, n)
	}
}

// TestProverVetoes: in team positions of random games, every move the prover lists as lost
// is one (checked by a separate solver to the end of the game), the list never holds every
// move, and it holds the moves a depth-7 proof finds lost when some others are not.
func TestProverVetoes(t *testing.T) {
	const depth = 7
	want := 12
	if testing.Short() {
		want = 4
	}
	positions, withLosses := 0, 0
	var buf [mouse.MaxMoves]mouse.Move
	for seed := uint64(1); seed <= 40 && positions < want; seed++ {
		mice, team := RandomMover(seed), RandomMover(seed+1000)
		p := mouse.Start()
		for !p.Terminal() && positions < want {
			if p.ToMove() == mouse.Team && Reaches(&p) {
				moves := p.LegalMoves(buf[:0])
				check := New(8)
				var lost []mouse.Move
				for _, m := range moves {
					if w, _ := check.Wins(p.Apply(m), mouse.Mice, depth-1); w {
						lost = append(lost, m)
					}
				}
				if len(lost) > 0 && len(lost) < len(moves) && len(moves) > 1 {
					positions++
					pr := NewProver(8, false)
					_, ok, veto, _ := pr.Prove(p, 400_000, 0, nil)
					if ok {
						t.Fatalf("the team has a proven win here, yet %d moves lose\n%s", len(lost), p.Diagram())
					}
					if len(veto) >= len(moves) {
						t.Errorf("vetoed all %d moves\n%s", len(moves), p.Diagram())
					}
					for _, m := range lost {
						if !slices.Contains(veto, m) {
							t.Errorf("%v loses within %d plies but was not vetoed\n%s", m, depth, p.Diagram())
						}
					}
					for _, m := range veto {
						c := p.Apply(m)
						r := New(8).Solve(c, Limits{MeOnly: true, Nodes: 4_000_000})
						if !c.Terminal() && (!r.Complete || r.Winner != mouse.Mice) {
							t.Errorf("%v vetoed, but the solver says %+v\n%s", m, r, p.Diagram())
						}
					}
					if len(veto) > len(lost) {
						withLosses++
					}
				}
			}
			if p.ToMove() == mouse.Mice {
				p = p.Apply(mice(p))
			} else {
				p = p.Apply(team(p))
			}
		}
	}
	if positions < want {
		t.Fatalf("only %d positions with losing and saving moves", positions)
	}
	t.Logf("%d positions checked; in %d the prover vetoed more moves than a depth-%d proof finds", positions, withLosses, depth)
}
