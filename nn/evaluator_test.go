package nn

import (
	"math"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/mcts"
)

func TestEvaluatorAtaxx(t *testing.T) {
	a := ArchFor(ataxx.Info, 2, 8)
	m := testModel(a, 60)
	net, err := NewNet(m, 4) // 11 requests: chunks of 4, 4 and 3
	if err != nil {
		t.Fatal(err)
	}
	ev := NewEvaluator[ataxx.Position, ataxx.Move](net)
	var _ mcts.Evaluator[ataxx.Position, ataxx.Move] = ev
	ps := randomPositions(11, 9)
	reqs := make([]mcts.Request[ataxx.Position, ataxx.Move], len(ps))
	for i, p := range ps {
		reqs[i].Pos = p
		reqs[i].Moves = p.LegalMoves(make([]ataxx.Move, 0, ataxx.MaxMoves))
		reqs[i].Priors = make([]float32, 0, ataxx.MaxMoves)
	}
	if err := ev.Evaluate(reqs); err != nil {
		t.Fatal(err)
	}
	in := make([]float32, ataxx.InputSize)
	for i, r := range reqs {
		r.Pos.Encode(in)
		wp, wv := refForward(m, in, 1)
		// Reference priors: softmax of the reference logits over the legal moves.
		want := make([]float32, len(r.Moves))
		best := math.Inf(-1)
		for _, mv := range r.Moves {
			best = max(best, float64(wp[mv.PolicyIndex()]))
		}
		sum := 0.0
		for j, mv := range r.Moves {
			e := math.Exp(float64(wp[mv.PolicyIndex()]) - best)
			want[j] = float32(e)
			sum += e
		}
		total := 0.0
		for j := range want {
			want[j] = float32(float64(want[j]) / sum)
			total += float64(r.Priors[j])
		}
		if len(r.Priors) != len(r.Moves) {
			t.Fatalf("request %d: %d priors for %d moves", i, len(r.Priors), len(r.Moves))
		}
		if math.Abs(total-1) > 1e-4 {
			t.Errorf("request %d: priors sum to %g", i, total)
		}
		assertClose(t, "priors", r.Priors, want, 1e-4)
		assertClose(t, "value", r.Value[:2], wv, 1e-4)
		if r.Value[2] != 0 || r.Value[3] != 0 {
			t.Errorf("request %d: values past the player count are %v", i, r.Value)
		}
	}
	allocs := testing.AllocsPerRun(10, func() {
		if err := ev.Evaluate(reqs); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Evaluate allocates %v times per call", allocs)
	}
	// Requests without room for their priors are refused.
	reqs[5].Priors = nil
	if err := ev.Evaluate(reqs); err == nil || !strings.Contains(err.Error(), "request 5") {
		t.Errorf("missing priors buffer: error %v", err)
	}
}
