package nnab

import (
	"testing"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/engine/tt"
	"colony/game/ataxx"
)

// TestCorrectionsLearn: an exact score moves a position's correction towards the score less
// the net's, at most 48 units either way and never past it; a lower bound at or below the
// corrected value and an upper bound at or above it teach nothing; the entries belong to the
// side to move, and a position that shares only its own pieces with the learnt one gets half
// of it.
func TestCorrectionsLearn(t *testing.T) {
	p, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	var c corrections
	if v := c.of(&p); v != 0 {
		t.Fatalf("fresh correction %d", v)
	}
	prev := int32(0)
	for i := range 40 {
		c.learn(&p, 2, 100, 130, tt.Exact)
		v := c.of(&p)
		if v < prev || v > 30 {
			t.Fatalf("update %d: correction %d after %d (towards 30)", i, v, prev)
		}
		prev = v
	}
	if prev < 29 {
		t.Errorf("40 exact updates towards +30 reached %d", prev)
	}
	before := c
	c.learn(&p, 5, 100, 100+prev, tt.Lower) // a lower bound at the corrected value
	c.learn(&p, 5, 100, 50, tt.Lower)
	c.learn(&p, 5, 100, 100+prev, tt.Upper) // an upper bound at it
	c.learn(&p, 5, 100, 400, tt.Upper)
	if c != before {
		t.Error("a bound that leaves the error's sign open changed the tables")
	}
	c.learn(&p, 5, 100, 50, tt.Upper) // an upper bound below: the net was too high
	if v := c.of(&p); v >= prev {
		t.Errorf("an upper bound below the corrected value left it at %d (was %d)", v, prev)
	}
	for range 60 {
		c.learn(&p, 20, -300, 900, tt.Exact)
	}
	if v := c.of(&p); v != corrMax && v != corrMax-1 {
		t.Errorf("a 1200-unit error gave %d, want about the cap %d", v, corrMax)
	}

	capped := c.of(&p)

	// The other side to move on the same cells learnt nothing.
	side, turns := p.ToMove(), p.Turns()
	own, opp := p.Pieces(side), p.Pieces(side^1)
	mk := func(own, opp uint64, side int) *ataxx.Position {
		var o, x uint64 = own, opp
		if side == 1 {
			o, x = opp, own
		}
		q := ataxx.NewPosition(o, x, side, turns)
		return &q
	}
	if v := c.of(mk(opp, own, side^1)); v != 0 {
		t.Errorf("the other side's correction %d", v)
	}
	// One of the opponent's pieces gone: the own pieces shared, the empty cells not: half.
	if v := c.of(mk(own, opp&(opp-1), side)); v < capped/2-1 || v > capped/2+1 {
		t.Errorf("own pieces alone shared: %d, want about half of %d", v, capped)
	}
	// One own piece handed to the opponent: the empty cells shared, the own pieces not: half.
	if v := c.of(mk(own&(own-1), opp|own&-own, side)); v < capped/2-1 || v > capped/2+1 {
		t.Errorf("empty cells alone shared: %d, want about half of %d", v, capped)
	}
	if v := c.of(mk(own&(own-1), opp&(opp-1), side)); v != 0 {
		t.Errorf("nothing shared: %d", v)
	}
}

// TestSearchLearnsCorrections: a search fills the correction tables and NewGame clears them;
// with Options.NoCorrection (agent -exp nocorr) a search learns nothing, and the corrections
// change the tree (the midgame at depth 8) without allocating.
func TestSearchLearnsCorrections(t *testing.T) {
	mid, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	net := benchNet(t)
	learnt := func(e *Engine) int {
		n := 0
		for _, tab := range e.ab.Game.corr.t {
			for _, side := range tab {
				for _, v := range side {
					if v != 0 {
						n++
					}
				}
			}
		}
		return n
	}
	var nodes [2]int64
	for i, off := range []bool{false, true} {
		e := newEngine(t, Options{Options: ab.Options{HashMB: 4, NoCorrection: off}, Net: net})
		m := e.BestMove(mid, engine.Limits{Depth: 8})
		if !mid.IsLegal(m) {
			t.Fatalf("illegal %v", m)
		}
		_, _, nodes[i] = e.Stats()
		n := learnt(e)
		switch {
		case off && n != 0:
			t.Errorf("NoCorrection: %d entries learnt", n)
		case !off && n < 100:
			t.Errorf("a depth-8 search learnt %d entries", n)
		}
		e.NewGame()
		if n := learnt(e); n != 0 {
			t.Errorf("NewGame left %d entries", n)
		}
		if !off {
			e.BestMove(mid, engine.Limits{Depth: 5})
			if a := testing.AllocsPerRun(3, func() { e.BestMove(mid, engine.Limits{Depth: 5}) }); a != 0 {
				t.Errorf("%v allocations per search", a)
			}
		}
	}
	if nodes[0] == nodes[1] {
		t.Errorf("the corrections left the tree as it was (%d nodes)", nodes[0])
	}
}
