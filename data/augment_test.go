package data

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"colony/game/ataxx"
)

// An asymmetric position, so every symmetry gives a different encoding.
const asymmetric = `
O . . . . . X
. O O . . . .
. . . X . . .
. . . . . . .
. X . . . . .
. . . . . . .
X . . . . . O
`

func testPositions(t *testing.T) []ataxx.Position {
	t.Helper()
	p, err := ataxx.ParseDiagram(asymmetric, ataxx.X)
	if err != nil {
		t.Fatal(err)
	}
	out := []ataxx.Position{ataxx.Start(), p}
	rng := rand.New(rand.NewPCG(11, 12))
	var moves []ataxx.Move
	for range 20 {
		q := ataxx.Start()
		for ply := rng.IntN(60); ply > 0 && !q.Terminal(); ply-- {
			moves = q.LegalMoves(moves)
			q = q.Apply(moves[rng.IntN(len(moves))])
		}
		out = append(out, q)
	}
	return out
}

func TestAtaxxAugmenterMatchesTransformedPosition(t *testing.T) {
	var aug Augmenter = ataxx.Symmetries{}
	if aug.NumSymmetries() != 8 {
		t.Fatalf("%d symmetries", aug.NumSymmetries())
	}
	src, got, want := make([]float32, ataxx.InputSize), make([]float32, ataxx.InputSize), make([]float32, ataxx.InputSize)
	var moves, tmoves []ataxx.Move
	for pi, p := range testPositions(t) {
		p.Encode(src)
		for k := range aug.NumSymmetries() {
			q := p.Transform(k)
			aug.TransformInput(k, src, got)
			q.Encode(want)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("position %d sym %d: input[%d] = %v, encoding of the transformed position has %v\n%s", pi, k, i, got[i], want[i], p.Diagram())
				}
			}
			moves = p.LegalMoves(moves)
			tmoves = q.LegalMoves(tmoves)
			if len(moves) != len(tmoves) {
				t.Fatalf("position %d sym %d: %d vs %d legal moves", pi, k, len(moves), len(tmoves))
			}
			seen := map[int]bool{}
			for _, m := range moves {
				tm := m.Transform(k)
				if !q.IsLegal(tm) {
					t.Fatalf("position %d sym %d: %v maps to illegal %v", pi, k, m, tm)
				}
				idx := aug.TransformPolicyIndex(k, m.PolicyIndex())
				if idx != tm.PolicyIndex() {
					t.Fatalf("position %d sym %d: move %v index %d maps to %d, transformed move %v has %d", pi, k, m, m.PolicyIndex(), idx, tm, tm.PolicyIndex())
				}
				seen[idx] = true
			}
			if len(seen) != len(moves) {
				t.Fatalf("position %d sym %d: policy map not injective on legal moves", pi, k)
			}
		}
	}
	// Symmetry 0 is the identity, the others move the asymmetric position.
	p := testPositions(t)[1]
	p.Encode(src)
	for k := 1; k < 8; k++ {
		aug.TransformInput(k, src, got)
		same := true
		for i := range src {
			same = same && src[i] == got[i]
		}
		if same {
			t.Errorf("symmetry %d leaves the asymmetric position unchanged", k)
		}
	}
}

// TestSampleAugmentsConsistently checks that each augmented sample is some symmetry k of a
// window example, with its policy mapped by the same k.
func TestSampleAugmentsConsistently(t *testing.T) {
	dir := t.TempDir()
	exs := genAtaxx(21, 60)
	for i := range exs {
		exs[i].GameID = uint64(i)
	}
	if err := WriteShard(filepath.Join(dir, "a.shard"), testMeta(), exs); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".b.shard.1.tmp"), []byte("junk"))
	if err := os.WriteFile(filepath.Join(dir, "readme"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	aug := ataxx.Symmetries{}
	w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: ataxx.EncoderVersion, Capacity: 1000, Augmenter: aug})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	batch, err := w.Sample(rng, 800, nil)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]float32, ataxx.InputSize)
	symsUsed := map[int]bool{}
	for _, s := range batch {
		orig := exs[s.GameID]
		found := false
		for k := range 8 {
			aug.TransformInput(k, orig.Input, buf)
			if !equalF(buf, s.Input) {
				continue
			}
			ok := len(orig.Policy) == len(s.Policy)
			for j := range orig.Policy {
				ok = ok && s.Policy[j].Index == int32(aug.TransformPolicyIndex(k, int(orig.Policy[j].Index))) && s.Policy[j].Prob == orig.Policy[j].Prob
			}
			if ok {
				found = true
				symsUsed[k] = true
				break
			}
		}
		if !found || s.Values != orig.Values || s.Ply != orig.Ply {
			t.Fatalf("sample of example %d is no symmetry of it", s.GameID)
		}
	}
	if len(symsUsed) != 8 {
		t.Errorf("only symmetries %v drawn in 800 samples", symsUsed)
	}
}

func equalF(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
