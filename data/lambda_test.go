package data

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"colony/game/ataxx"
)

// TestWindowScoreLambda: a window with ScoreLambda holds, for each example, the λ-return of
// its game's later scores and outcome, computed here the other way round (the forward sum
// over the game's examples in ply order); the examples of one game are written out of ply
// order to check the sort; values are untouched, unscored shards too, and λ outside [0, 1)
// is refused.
func TestWindowScoreLambda(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	exs := genAtaxx(21, 40)
	for i := range exs {
		exs[i].GameID = uint64(100 + i/9) // games of 9, 9, 9, 9 and 4 examples
		exs[i].Ply = 20 + i%9
		z := float32(rng.IntN(3) - 1)
		if i%9 != 0 {
			z = exs[i-1].Values[0] // one outcome a game
		}
		exs[i].Values = [4]float32{z, -z}
		s := float32(rng.Float64()*2 - 1)
		exs[i].Scores = [4]float32{s, -s}
	}
	exs[10], exs[11] = exs[11], exs[10] // out of ply order within the second game
	meta := testMeta()
	meta.Scored = true
	meta.Moves = gameMoves(exs)
	if err := WriteShard(filepath.Join(dir, "a.shard"), meta, exs); err != nil {
		t.Fatal(err)
	}
	const lambda = 0.75
	want := make(map[[2]uint64][4]float32) // (game, ply) -> λ-return
	for i := range exs {
		var later []Example // this game's examples from this one on, in ply order
		for _, e := range exs {
			if e.GameID == exs[i].GameID && e.Ply >= exs[i].Ply {
				later = append(later, e)
			}
		}
		for a := range later {
			for b := a + 1; b < len(later); b++ {
				if later[b].Ply < later[a].Ply {
					later[a], later[b] = later[b], later[a]
				}
			}
		}
		var g [4]float32
		for j := range 2 {
			sum := 0.0
			for k, e := range later {
				sum += (1 - lambda) * math.Pow(lambda, float64(k)) * float64(e.Scores[j])
			}
			sum += math.Pow(lambda, float64(len(later))) * float64(exs[i].Values[j])
			g[j] = float32(sum)
		}
		want[[2]uint64{exs[i].GameID, uint64(exs[i].Ply)}] = g
	}
	for _, valuesOnly := range []bool{false, true} {
		w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: ataxx.EncoderVersion, Capacity: 100,
			ValuesOnly: valuesOnly, ScoreLambda: lambda})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		plain, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: ataxx.EncoderVersion, Capacity: 100})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plain.Refresh(); err != nil {
			t.Fatal(err)
		}
		var a, b Example
		changed := 0
		for i := range w.Len() {
			w.Example(i, &a)
			plain.Example(i, &b)
			g := want[[2]uint64{a.GameID, uint64(a.Ply)}]
			for j := range 4 {
				if math.Abs(float64(a.Scores[j]-g[j])) > 1e-5 {
					t.Fatalf("values only %v, example %d (game %d, ply %d): scores %v, want %v", valuesOnly, i, a.GameID, a.Ply, a.Scores, g)
				}
			}
			if a.Values != b.Values || a.GameID != b.GameID || a.Ply != b.Ply {
				t.Fatalf("example %d: values %v / %v, game %d / %d", i, a.Values, b.Values, a.GameID, b.GameID)
			}
			if a.Scores != b.Scores {
				changed++
			}
		}
		if changed < w.Len()/2 {
			t.Fatalf("only %d of %d scores changed", changed, w.Len())
		}
	}
	for _, bad := range []float64{-0.1, 1, 1.5} {
		if _, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", Capacity: 10, ScoreLambda: bad}); err == nil {
			t.Errorf("lambda %v accepted", bad)
		}
	}
}
