package nnab

import (
	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
	"colony/nn/nnue"
)

// config is the search's configuration: Bacteria War's (game/ataxx/abrules), with the
// table move and the first killer searched before any move is generated, root ties in move
// order, and a small tree, each setting kept by a fixed-node SPRT (docs/search.md):
// pruning (Options.NoPrune turns it off) of the quiet leaps after two moves at every node
// below the root, reverse futility to depth 6 at 10 a ply, futility to depth 6 (60 + 30 a
// ply, from the third move); table cuts at PV nodes; IIR from depth 3; late-move reductions
// round(1 + 0.5 ln(depth) ln(index+1)) from the third move, killers and root moves too, a ply
// less on the PV, less by history/12288; history bonus min(300 depth, 1500); aspiration from
// depth 7 at ±6, widening 1.5 times, a fail high re-searched a ply shallower; singular
// extensions off the PV from depth 6 against the table's score less 1 a ply, with their
// multi-cut (no negative extension: with it they lost to Zataxx on paired games). Scores are
// tanh(s/300) in expectation, so Zataxx's margins (sigmoid(s/400)) shrink by 0.375 here.
var config = func() ab.Config[ataxx.Move] {
	c := abrules.SearchConfig()
	c.Staged, c.RootTieMove = true, true
	c.RFPDepth, c.RFPMargin = 6, 10
	c.QuietBelow = quietBelow
	c.FPDepth, c.FPMoves, c.FPBase, c.FPMult = 6, 3, 60, 30
	c.TTCutPV = true
	c.IIRDepth = 3
	c.Reductions = ab.LogReductions(1.0, 0.5, 2)
	c.ReduceKillers, c.ReduceRoot, c.LMRHistDiv = true, true, 12288
	c.HistMult, c.HistMax = 300, 1500
	c.Aspiration, c.AspDepth, c.AspGrow, c.AspFailHighShallower, c.AspFailLowMid = 6, 7, 24, true, true
	c.SEDepth, c.SEMargin = 6, 1
	c.Time = timeRules
	return c
}()

// timeRules are nnab's time rules: the default split (engine.DefaultTime) with the optimum
// scaled by best-move stability from iteration 6: 1.5 times after a new best move, 0.15 less
// for each iteration that kept it, down to 0.55 (each step kept by a node-clock SPRT: first
// 1.3 down to 0.7 by 0.1, then this wider range; docs/search.md, "One time manager").
var timeRules = func() engine.TimeParams {
	p := engine.DefaultTime
	p.StableDepth, p.StableMax, p.StableStep, p.StableMin = 6, 1500, 150, 550
	return p
}()

// quietLeap sorts the leaps that capture nothing after every other move (abrules.Rules), and
// quietBelow marks them for the search's quiet-move pruning: their ordering value is at most
// -700-quietLeap, plus a history of at most 16384/8, where every other move's is at least -700
// less that history (a killer's bonus can lift a quiet killer above the mark).
const (
	quietLeap  = 8000
	quietBelow = -6000
)

// turnKeys are nnab's turn keys (abrules.TurnKeys), drawn from "nnab-tur".
var turnKeys = abrules.NewTurnKeys(0x6e6e61622d747572)

// delta is how the accumulator of a ply follows from its parent's.
type delta struct {
	pass   bool
	mover  int
	to     int
	from   int // -1 for a division
	flips  uint64
	before [2]uint64 // the parent's pieces (read by window-input nets: nnue.Net.Apply)
}

// hooks are nnab's part of engine/alphabeta: Bacteria War's rules, the table key with the
// turn count, and the net's evaluation on a per-ply stack of accumulators, each brought up to
// date from its parent's only when its node is evaluated (a node cut by the table or finished
// by the rules costs no update).
type hooks struct {
	abrules.Rules
	net   *nnue.Net
	acc   [abrules.MaxPly + 1]nnue.Acc
	accOK [abrules.MaxPly + 1]bool
	delta [abrules.MaxPly + 1]delta
	arch  nnue.Arch // the net's: its output bucket of a position (Arch.Bucket)
	corr  corrections
}

func newHooks(net *nnue.Net) *hooks {
	h := &hooks{net: net, arch: net.Arch()}
	h.QuietLeap = quietLeap
	for i := range h.acc {
		h.acc[i] = net.NewAcc()
	}
	return h
}

// Key mixes the turn count into the hash: the turn cap makes a position's value depend on it.
func (h *hooks) Key(p ataxx.Position) uint64 { return turnKeys.Key(&p) }

// Root computes the root accumulator from scratch.
func (h *hooks) Root(p ataxx.Position) {
	h.net.Refresh(h.acc[0], Pieces(&p))
	h.accOK[0] = true
}

// Play returns the child of p by m (p at ply) and records its accumulator delta.
func (h *hooks) Play(p ataxx.Position, m ataxx.Move, ply int) ataxx.Position {
	d := &h.delta[ply+1]
	h.accOK[ply+1] = false
	if m == ataxx.Pass {
		d.pass = true
	} else {
		side := p.ToMove()
		to := m.To()
		*d = delta{mover: side, to: to, from: -1, flips: ataxx.Neighbours(to) & p.Pieces(side^1), before: Pieces(&p)}
		if m.IsJump() {
			d.from = m.From()
		}
	}
	return p.Apply(m)
}

// ensure brings the accumulator of ply up to date from its parent's.
func (h *hooks) ensure(ply int) {
	if h.accOK[ply] {
		return
	}
	h.ensure(ply - 1)
	d := &h.delta[ply]
	if d.pass {
		copy(h.acc[ply], h.acc[ply-1])
	} else {
		h.net.Apply(h.acc[ply], h.acc[ply-1], d.before, d.mover, d.to, d.from, d.flips)
	}
	h.accOK[ply] = true
}

// Static is the net's score of p (at ply) for its side to move, corrected by what the
// searches of this game learnt (corrections): hundredths of a piece (the net's logit x its
// ScoreScale), clamped inside ±(abrules.WinBound-1). Finished games and forced passes with a
// known end score as in every Ataxx search (abrules.TerminalScore, abrules.StuckScore).
func (h *hooks) Static(p ataxx.Position, ply int) int32 {
	return clampEval(h.raw(p, ply) + h.corr.of(&p))
}

// raw is the net's own score of p (at ply), clamped as Static's.
func (h *hooks) raw(p ataxx.Position, ply int) int32 {
	h.ensure(ply)
	return clampEval(h.net.Evaluate(h.acc[ply], p.ToMove(), h.arch.Bucket(Pieces(&p))))
}

func clampEval(v int32) int32 { return min(max(v, -abrules.WinBound+1), abrules.WinBound-1) }

// Leaf is a blocked side's known result, else Static.
func (h *hooks) Leaf(p ataxx.Position, ply int) int32 {
	if v, ok := abrules.BlockedScore(&p, ply); ok {
		return v
	}
	return h.Static(p, ply)
}

// After learns from the search of p (at ply) to depth, which scored best with bound
// (engine/alphabeta's Corrector).
func (h *hooks) After(p ataxx.Position, ply, depth int, best int32, bound uint8) {
	h.corr.learn(&p, depth, h.raw(p, ply), best, bound)
}

// Forget clears what the game's searches learnt.
func (h *hooks) Forget() { h.corr = corrections{} }

// Legal reports whether the table move or killer m is legal in p.
func (h *hooks) Legal(p ataxx.Position, m ataxx.Move) bool { return m < ataxx.NoMove && p.IsLegal(m) }
