package mctsengine

import (
	"math"
	"testing"

	"colony/game/ataxx"
	"colony/mcts"
)

// constEval gives every leaf uniform priors and the fixed value v (absolute seats).
type constEval struct{ v mcts.Values }

func (c constEval) Evaluate(batch []mcts.Request[pos, move]) error {
	for i := range batch {
		for j := range batch[i].Priors {
			batch[i].Priors[j] = 1 / float32(len(batch[i].Priors))
		}
		batch[i].Value = c.v
	}
	return nil
}

func TestValueBlend(t *testing.T) {
	start := ataxx.Start()
	second := start.Apply(start.LegalMoves(nil)[0])
	b := &ValueBlend[pos, move]{Inner: constEval{mcts.Values{0.2, -0.2}}, Weight: 0.25,
		Score: func(p *pos) mcts.Values { return TwoPlayer(p.ToMove(), 0.6) }} // the side to move is better
	for _, c := range []struct {
		p    pos
		want [2]float32
	}{
		{start, [2]float32{0.75*0.2 + 0.25*0.6, 0.75*-0.2 - 0.25*0.6}},
		{second, [2]float32{0.75*0.2 - 0.25*0.6, 0.75*-0.2 + 0.25*0.6}},
	} {
		req := []mcts.Request[pos, move]{{Pos: c.p, Moves: c.p.LegalMoves(nil)}}
		req[0].Priors = make([]float32, len(req[0].Moves))
		if err := b.Evaluate(req); err != nil {
			t.Fatal(err)
		}
		for pl := range 2 {
			if math.Abs(float64(req[0].Value[pl]-c.want[pl])) > 1e-6 {
				t.Errorf("to move %d: value %v, want %v", c.p.ToMove(), req[0].Value[:2], c.want)
			}
		}
		if req[0].Priors[0] != 1/float32(len(req[0].Moves)) {
			t.Errorf("priors changed: %v", req[0].Priors[:3])
		}
	}
	b.Score = func(p *pos) mcts.Values { return TwoPlayer(p.ToMove(), 1.5) }
	req := []mcts.Request[pos, move]{{Pos: start, Moves: start.LegalMoves(nil)}}
	req[0].Priors = make([]float32, len(req[0].Moves))
	if err := b.Evaluate(req); err == nil {
		t.Error("a score outside [-1, 1] was accepted")
	}
}

func TestSquash(t *testing.T) {
	for _, c := range []struct {
		s    int32
		want float32
	}{{0, 0}, {300, float32(math.Tanh(1))}, {-600, float32(math.Tanh(-2))}, {12000, 1}, {-29000, -1}} {
		if got := Squash(c.s, 300, 12000); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("Squash(%d) = %v, want %v", c.s, got, c.want)
		}
	}
}
