package slime

import (
	"math/rand/v2"
	"slices"
	"testing"

	"colony/contract"
)

var _ contract.Position[Position, Move] = Position{}
var _ contract.Symmetries = Symmetries{}

// TestSymmetries checks, on random positions of every size, that each symmetry maps the
// position, its moves, its children, its encoding, its policy indices and its values
// consistently: the image of a position under symmetry k, encoded, is TransformInput of the
// encoding; the image of each legal move is a legal move of the image whose policy index is
// TransformPolicyIndex of the move's; children map to children; and the game played on from
// both with mapped moves ends with every player's value at Seat(k, player).
func TestSymmetries(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	syms := Symmetries{}
	src := make([]float32, InputSize)
	dst := make([]float32, InputSize)
	want := make([]float32, InputSize)
	positions, every := 0, 6
	if testing.Short() {
		every = 12
	}
	for n := MinSize; n <= MaxSize; n++ {
		randomGame(r, n, 60, func(p Position, _ Move) {
			if r.IntN(every) != 0 {
				return
			}
			positions++
			p.Encode(src)
			moves := p.LegalMoves(nil)
			for k := range NumSymmetries {
				q := p.Transform(k)
				if back := q.Transform(InverseSymmetry(k)); back != p {
					t.Fatalf("%s: symmetry %d then its inverse gives %s", p, k, back)
				}
				q.Encode(want)
				syms.TransformInput(k, src, dst)
				if !slices.Equal(dst, want) {
					t.Fatalf("%s: symmetry %d: TransformInput differs from the image's encoding", p, k)
				}
				qm := q.LegalMoves(nil)
				if len(qm) != len(moves) {
					t.Fatalf("%s: symmetry %d: %d moves, the image has %d", p, k, len(moves), len(qm))
				}
				for _, m := range moves {
					tm := p.TransformMove(k, m)
					if !slices.Contains(qm, tm) {
						t.Fatalf("%s: symmetry %d: image %v of %v is not a legal move of %s", p, k, tm, m, q)
					}
					if got := syms.TransformPolicyIndex(k, m.PolicyIndex()); got != tm.PolicyIndex() {
						t.Fatalf("%s: symmetry %d: policy index of %v maps to %d, the image %v has %d", p, k, m, got, tm, tm.PolicyIndex())
					}
					if a, b := p.Apply(m).Transform(k), q.Apply(tm); a != b {
						t.Fatalf("%s: symmetry %d: child of %v maps to %s, the image's child is %s", p, k, m, a, b)
					}
				}
				// Values follow Seat: play on from both with mapped random moves.
				a, b := p, q
				for ply := 0; ply < 400 && !a.Terminal(); ply++ {
					am := a.LegalMoves(nil)
					m := am[r.IntN(len(am))]
					a, b = a.Apply(m), b.Apply(a.TransformMove(k, m))
				}
				if !b.Terminal() && a.Terminal() {
					t.Fatalf("%s: symmetry %d: the game ends on one side only", p, k)
				}
				va, vb := a.Values(), b.Values()
				for pl := range NumPlayers {
					if vb[syms.Seat(k, pl)] != va[pl] {
						t.Fatalf("%s: symmetry %d: player %d's value %v lands at seat %d as %v", p, k, pl, va[pl], syms.Seat(k, pl), vb[syms.Seat(k, pl)])
					}
				}
			}
		})
	}
	if positions < 40 {
		t.Fatalf("only %d positions checked", positions)
	}
}

// TestPolicyIndices: the policy indices of a position's moves are distinct and in range, and
// every symmetry maps the policy indices one to one.
func TestPolicyIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := MinSize; n <= MaxSize; n++ {
		randomGame(r, n, 200, func(p Position, _ Move) {
			seen := map[int]Move{}
			for _, m := range p.LegalMoves(nil) {
				idx := m.PolicyIndex()
				if idx < 0 || idx >= PolicySize {
					t.Fatalf("%s: %v has policy index %d", p, m, idx)
				}
				if o, dup := seen[idx]; dup {
					t.Fatalf("%s: %v and %v share policy index %d", p, m, o, idx)
				}
				seen[idx] = m
			}
		})
	}
	if Pass.PolicyIndex() != PassIndex || PassIndex != PolicySize-1 {
		t.Errorf("pass index %d, policy size %d", Pass.PolicyIndex(), PolicySize)
	}
	for k := range NumSymmetries {
		hit := make([]bool, PolicySize)
		for idx := range PolicySize {
			j := SymPolicyIndex(k, idx)
			if j < 0 || j >= PolicySize || hit[j] {
				t.Fatalf("symmetry %d maps %d to %d twice or out of range", k, idx, j)
			}
			hit[j] = true
			if back := SymPolicyIndex(InverseSymmetry(k), j); back != idx {
				t.Fatalf("symmetry %d maps %d to %d, its inverse back to %d", k, idx, j, back)
			}
		}
	}
}

// TestEncode spells out the planes of a small position.
func TestEncode(t *testing.T) {
	p, err := Parse("2,1.2..,.....,..3..,.....,....4 7")
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, InputSize)
	p.Encode(x)
	o := gridOffset(5) // 5
	at := func(plane, r, c int) float32 { return x[plane*GridCells+(r+o)*Grid+c+o] }
	sum := func(plane int) (s float32) {
		for _, v := range x[plane*GridCells : (plane+1)*GridCells] {
			s += v
		}
		return s
	}
	switch {
	case o != 5:
		t.Errorf("a 5x5 board starts at grid row %d, want 5", o)
	case at(0, 0, 0) != 1 || at(1, 0, 2) != 1 || at(2, 2, 2) != 1 || at(3, 4, 4) != 1:
		t.Error("player planes")
	case sum(0) != 1 || sum(1) != 1 || sum(2) != 1 || sum(3) != 1:
		t.Error("player plane counts")
	case sum(planeEmpty) != 21 || at(planeEmpty, 0, 1) != 1 || at(planeEmpty, 0, 0) != 0:
		t.Error("empty plane")
	case sum(planeBoard) != 25 || x[planeBoard*GridCells] != 0:
		t.Error("board plane")
	case sum(planeToMove) != 0 || sum(planeToMove+1) != 25 || sum(planeToMove+2) != 0:
		t.Error("to-move planes")
	case at(planeTurn, 3, 3) != float32(7)/MaxTurns || x[planeTurn*GridCells] != 0:
		t.Error("turn plane")
	}
	for _, n := range []int{4, 8, 16} {
		o := gridOffset(n)
		if o != (16-n)/2 || 2*o+n != 16 {
			t.Errorf("%dx%d is not centred: offset %d", n, n, o)
		}
	}
}
