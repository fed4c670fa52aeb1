package nnab

import (
	"math"
	"math/rand/v2"
	"testing"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/nn/nnue"
)

// windowNets are random window-input nets of a few shapes, quantized.
func windowNets(t testing.TB) []*nnue.Net {
	var nets []*nnue.Net
	for _, c := range []struct {
		hidden, l1 int
		act        nnue.Activation
		stm        bool // an output of the side to move's accumulator only
	}{{64, 0, nnue.CReLU, false}, {128, 0, nnue.SCReLU, false}, {256, 0, nnue.CReLU, false}, {32, 16, nnue.SCReLU, false},
		{256, 0, nnue.SCReLU, true}} {
		a := WindowArch(c.hidden, c.l1)
		a.Activation, a.STMOnly = c.act, c.stm
		m := scaledOut(nnue.NewRandom(a, 5))
		if err := CheckModel(m); err != nil {
			t.Fatal(err)
		}
		n, err := nnue.Quantize(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, n)
	}
	return nets
}

// TestHooksIncrementalEqualsRefresh: along random games (every move: divisions, jumps, captures
// and passes), the search's own accumulator update (hooks.Play, then ensure from the parent's)
// carried from move to move equals an accumulator computed from scratch, for window-input nets
// and a cell-input one.
func TestHooksIncrementalEqualsRefresh(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	for _, net := range append(windowNets(t), testNet(t, 64, 0)) {
		h := newHooks(net)
		fresh := net.NewAcc()
		rng := rand.New(rand.NewPCG(11, 12))
		var moves, jumps, captures int
		for range games {
			start := ataxx.Start()
			h.Root(start)
			randomGame(rng, func(p *ataxx.Position, m ataxx.Move) {
				c := h.Play(*p, m, 0)
				h.ensure(1)
				net.Refresh(fresh, Pieces(&c))
				if !equal(h.acc[1], fresh) {
					t.Fatalf("%s: after %v in\n%s\nthe search's accumulator differs from a fresh one", net.Arch(), m, p.Diagram())
				}
				copy(h.acc[0], h.acc[1]) // carry the incremental one to the next move
				moves++
				if m != ataxx.Pass && m.IsJump() {
					jumps++
				}
				if m != ataxx.Pass && ataxx.Neighbours(m.To())&p.Pieces(p.ToMove()^1) != 0 {
					captures++
				}
			})
		}
		if jumps == 0 || captures == 0 {
			t.Fatalf("%s: %d jumps, %d captures", net.Arch(), jumps, captures)
		}
		t.Logf("%s: %d games, %d moves (%d jumps, %d captures)", net.Arch(), games, moves, jumps, captures)
	}
}

// TestWindowQuantizedEqualsFloatOnGames: a window-input net's integer logits equal the float
// reference (read through the encoder) within quantTolerance on positions of random games.
func TestWindowQuantizedEqualsFloatOnGames(t *testing.T) {
	for _, c := range []struct {
		act nnue.Activation
		stm bool
	}{{nnue.CReLU, false}, {nnue.SCReLU, false}, {nnue.CReLU, true}, {nnue.SCReLU, true}} {
		a := WindowArch(128, 0)
		a.Activation, a.STMOnly = c.act, c.stm
		m := scaledOut(nnue.NewRandom(a, 3))
		net, err := nnue.Quantize(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(2, 2))
		in := make([]float32, ataxx.InputSize)
		acc := net.NewAcc()
		var worst, mag float64
		n := 0
		for n < 3000 {
			randomGame(rng, func(p *ataxx.Position, _ ataxx.Move) {
				p.Encode(in)
				f, _, err := m.ForwardInput(in)
				if err != nil {
					t.Fatal(err)
				}
				net.Refresh(acc, Pieces(p))
				worst = max(worst, math.Abs(net.Logit(net.Output(acc, p.ToMove(), net.Arch().Bucket(Pieces(p))))-float64(f)))
				mag += math.Abs(float64(f))
				n++
			})
		}
		t.Logf("%s: %d positions, worst |quantized - float| logit %.4f, mean |logit| %.2f", net.Arch(), n, worst, mag/float64(n))
		if worst > quantTolerance || mag/float64(n) < 0.3 {
			t.Errorf("%s: worst error %.4f (tolerance %v), mean |logit| %.3f", net.Arch(), worst, quantTolerance, mag/float64(n))
		}
	}
}

// TestWindowSearch: the engine takes window-input nets, searches without allocating and plays
// legal moves; CheckArch refuses a window net of another geometry.
func TestWindowSearch(t *testing.T) {
	p, err := ataxx.ParseDiagram(midgame, ataxx.O)
	if err != nil {
		t.Fatal(err)
	}
	for _, net := range windowNets(t) {
		e := newEngine(t, Options{Options: ab.Options{HashMB: 4}, Net: net})
		if m := e.BestMove(p, engine.Limits{Depth: 4}); !p.IsLegal(m) {
			t.Fatalf("%s: illegal move %v", net.Arch(), m)
		}
		if a := testing.AllocsPerRun(3, func() { e.BestMove(p, engine.Limits{Depth: 4}) }); a != 0 {
			t.Errorf("%s: %v allocations per search", net.Arch(), a)
		}
	}
	a := WindowArch(64, 0)
	a.Width, a.Cells = 1, 49
	if err := CheckArch(a); err == nil {
		t.Fatal("CheckArch took a window net of width 1")
	}
}
