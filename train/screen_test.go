package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"colony/game/ataxx"
	"colony/nn/nnue"
)

// ScreenNNUE: each net's MSE is the plain mean over every position; the paired difference is
// the difference of the two MSEs, its standard error that of the per-game differences (two
// passes here), zero for a net against itself; no positions is an error.
func TestScreenNNUE(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pos := randomPositions(90, 11)
	var games [][]GamePosition
	for len(pos) > 0 {
		k := min(len(pos), 1+rng.IntN(12))
		var g []GamePosition
		res := float32(rng.IntN(3) - 1)
		for _, p := range pos[:k] {
			stm := p.ToMove()
			r := res
			if stm == ataxx.X {
				r = -res
			}
			g = append(g, GamePosition{Pieces: [2]uint64{p.Pieces(ataxx.O), p.Pieces(ataxx.X)}, STM: stm, Result: r})
		}
		games = append(games, g)
		pos = pos[k:]
	}
	a, b := nnue.NewRandom(nnueArch(32, 0), 1), nnue.NewRandom(nnueArch(32, 0), 2)
	sc, err := ScreenNNUE([]*nnue.Model{a, b, a}, games)
	if err != nil {
		t.Fatal(err)
	}
	per := func(m *nnue.Model) (mse float64, byGame []float64) {
		n := 0
		for _, g := range games {
			s := 0.0
			for _, p := range g {
				e := math.Tanh(float64(m.Forward(p.Pieces, p.STM))) - float64(p.Result)
				s += e * e
				n++
			}
			byGame = append(byGame, s)
			mse += s
		}
		for i := range byGame {
			byGame[i] *= float64(len(games)) / float64(n)
		}
		return mse / float64(n), byGame
	}
	mA, gA := per(a)
	mB, gB := per(b)
	if math.Abs(sc[0].MSE-mA) > 1e-12 || math.Abs(sc[1].MSE-mB) > 1e-12 || math.Abs(sc[1].Diff-(mB-mA)) > 1e-12 {
		t.Errorf("MSEs %v / %v and difference %v, want %v / %v and %v", sc[0].MSE, sc[1].MSE, sc[1].Diff, mA, mB, mB-mA)
	}
	mean := 0.0
	for i := range gA {
		mean += gB[i] - gA[i]
	}
	mean /= float64(len(gA))
	v := 0.0
	for i := range gA {
		d := gB[i] - gA[i] - mean
		v += d * d
	}
	se := math.Sqrt(v / float64(len(gA)-1) / float64(len(gA)))
	if math.Abs(sc[1].DiffSE-se) > 1e-9 || se == 0 {
		t.Errorf("standard error %v, want %v", sc[1].DiffSE, se)
	}
	if sc[2].Diff != 0 || sc[2].DiffSE != 0 || sc[0].Diff != 0 {
		t.Errorf("a net against itself: %+v, the first: %+v", sc[2], sc[0])
	}
	if _, err := ScreenNNUE([]*nnue.Model{a}, [][]GamePosition{{}}); err == nil {
		t.Error("no positions scored")
	}
}
