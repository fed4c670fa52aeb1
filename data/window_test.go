package data

import (
	"bytes"
	"colony/game/ataxx"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeAged writes shard name holding examples whose GameID is id*1000+i and sets its mtime
// to base+age seconds, so the shard order does not depend on the file system clock.
func writeAged(t *testing.T, dir, name string, id, n int, base time.Time, age int) []Example {
	t.Helper()
	exs := genAtaxx(uint64(id), n)
	for i := range exs {
		exs[i].GameID = uint64(id*1000 + i)
	}
	path := filepath.Join(dir, name)
	if err := WriteShard(path, testMeta(), exs); err != nil {
		t.Fatal(err)
	}
	mt := base.Add(time.Duration(age) * time.Second)
	if err := os.Chtimes(path, mt, mt); err != nil {
		t.Fatal(err)
	}
	return exs
}

func windowIDs(w *Window) []uint64 {
	var ex Example
	ids := make([]uint64, w.Len())
	for i := range ids {
		w.Example(i, &ex)
		ids[i] = ex.GameID
	}
	return ids
}

func idRange(shard, from, to int) []uint64 {
	var out []uint64
	for i := from; i < to; i++ {
		out = append(out, uint64(shard*1000+i))
	}
	return out
}

func TestWindowKeepsNewestK(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	// Names sort opposite to age, so ordering must come from mtimes.
	writeAged(t, dir, "z.shard", 1, 40, base, 1)
	writeAged(t, dir, "y.shard", 2, 30, base, 2)
	writeAged(t, dir, "x.shard", 3, 50, base, 3)
	var warn bytes.Buffer
	w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: 100, Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	// Newest 100: all of x (50) and y (30), the last 20 of z.
	want := append(append(idRange(1, 20, 40), idRange(2, 0, 30)...), idRange(3, 0, 50)...)
	if got := windowIDs(w); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("window ids\n got %v\nwant %v", got, want)
	}
	if rep.Loaded != 3 || rep.Examples != 100 || w.Len() != 100 {
		t.Errorf("report %+v, len %d", rep, w.Len())
	}

	// A new shard evicts the oldest; a corrupt one is skipped with one warning; temp ignored.
	writeAged(t, dir, "a.shard", 4, 45, base, 4)
	buf, err := EncodeShard(testMeta(), genAtaxx(5, 10))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "bad.shard"), buf[:len(buf)-1])
	writeFile(t, filepath.Join(dir, ".a.shard.99.tmp"), buf[:10])
	rep, err = w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	want = append(append(idRange(2, 25, 30), idRange(3, 0, 50)...), idRange(4, 0, 45)...)
	if got := windowIDs(w); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after refresh\n got %v\nwant %v", got, want)
	}
	if rep.Loaded != 1 || rep.Corrupt != 1 || rep.TempFiles != 1 || strings.Count(warn.String(), "bad.shard") != 1 {
		t.Errorf("report %+v, warnings %q", rep, warn.String())
	}
	if fmt.Sprint(w.Shards()) != "[y.shard x.shard a.shard]" {
		t.Errorf("shards %v", w.Shards())
	}
	// The corrupt shard is not reported again; a deleted shard leaves the window.
	if err := os.Remove(filepath.Join(dir, "x.shard")); err != nil {
		t.Fatal(err)
	}
	rep, err = w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	want = append(append(idRange(1, 0, 40), idRange(2, 0, 30)...), idRange(4, 0, 45)...)[15:]
	if got := windowIDs(w); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after delete\n got %v\nwant %v", got, want)
	}
	if rep.Corrupt != 0 || rep.Loaded != 1 || strings.Count(warn.String(), "bad.shard") != 1 {
		t.Errorf("report %+v, warnings %q", rep, warn.String())
	}

	// Another game in the directory is refused and leaves the window unchanged.
	other := testMeta()
	other.Game = "mouse"
	if err := WriteShard(filepath.Join(dir, "m.shard"), other, genAtaxx(6, 3)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); !errors.Is(err, ErrMismatch) {
		t.Errorf("foreign shard: err = %v", err)
	}
	if w.Len() != 100 {
		t.Errorf("window changed after refused refresh: %d", w.Len())
	}
}

// TestWindowFilter: a window holds only the shards its filter accepts, newest first up to its
// capacity, and the complementary filter holds the others.
func TestWindowFilter(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	writeAged(t, dir, "a.shard", 1, 20, base, 1)
	writeAged(t, dir, "b.shard", 2, 20, base, 2)
	writeAged(t, dir, "c.shard", 3, 20, base, 3)
	writeAged(t, dir, "d.shard", 4, 20, base, 4)
	held := func(name string) bool { return name == "b.shard" || name == "d.shard" }
	for _, c := range []struct {
		filter   func(string) bool
		capacity int
		want     []uint64
	}{
		{held, 30, append(idRange(2, 10, 20), idRange(4, 0, 20)...)},
		{func(n string) bool { return !held(n) }, 100, append(idRange(1, 0, 20), idRange(3, 0, 20)...)},
	} {
		w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: c.capacity, Filter: c.filter})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		if got := windowIDs(w); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("filtered window (%v)\n got %v\nwant %v", w.Shards(), got, c.want)
		}
	}
}

func TestSampleUniformNoAugment(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	writeAged(t, dir, "a.shard", 1, 30, base, 1)
	writeAged(t, dir, "b.shard", 2, 10, base, 2)
	w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: 20})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sample(rand.New(rand.NewPCG(1, 1)), 1, nil); err == nil {
		t.Error("sampling an empty window succeeded")
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	ref := map[uint64]Example{}
	var ex Example
	for i := range w.Len() {
		w.Example(i, &ex)
		ref[ex.GameID] = Example{Input: append([]float32(nil), ex.Input...), Policy: append([]PolicyEntry(nil), ex.Policy...), Values: ex.Values, GameID: ex.GameID, Ply: ex.Ply}
	}
	rng := rand.New(rand.NewPCG(2, 2))
	counts := map[uint64]int{}
	var batch []Example
	const draws = 20000
	for range draws / 100 {
		batch, err = w.Sample(rng, 100, batch)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range batch {
			r, ok := ref[e.GameID]
			if !ok {
				t.Fatalf("sampled id %d outside the window", e.GameID)
			}
			if !sameExample(t, "sample", r, e) {
				t.FailNow()
			}
			counts[e.GameID]++
		}
	}
	if len(counts) != 20 {
		t.Errorf("%d distinct examples drawn, want 20", len(counts))
	}
	for id, c := range counts {
		// Expected 1000, sd ~31: 6 sd is a bug, not noise.
		if c < 800 || c > 1200 {
			t.Errorf("id %d drawn %d times of %d, expected about %d", id, c, draws, draws/20)
		}
	}
}

func TestSampleNoAllocs(t *testing.T) {
	dir := t.TempDir()
	writeAged(t, dir, "a.shard", 1, 200, time.Now(), 0)
	for _, valuesOnly := range []bool{false, true} {
		w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: 1000, Augmenter: ataxx.Symmetries{}, ValuesOnly: valuesOnly})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		batch := make([]Example, 64)
		for i := range batch {
			batch[i].Policy = make([]PolicyEntry, 0, 834)
		}
		if _, err := w.Sample(rng, 64, batch); err != nil {
			t.Fatal(err)
		}
		inputs, pol, vals := make([]float32, 64*294), make([]float32, 64*834), make([]float32, 64*2)
		allocs := testing.AllocsPerRun(20, func() {
			batch, _ = w.Sample(rng, 64, batch)
			if err := FillBatch(batch, inputs, pol, vals); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("values only %v: Sample+FillBatch allocate %v times per batch", valuesOnly, allocs)
		}
	}
}

func TestFillBatch(t *testing.T) {
	exs := []Example{
		{Input: []float32{1, 2, 3}, Policy: []PolicyEntry{{Index: 3, Prob: 0.5}, {Index: 0, Prob: 0.5}}, Values: [4]float32{1, -1, 7, 7}},
		{Input: []float32{4, 5, 6}, Policy: []PolicyEntry{{Index: 1, Prob: 1}}, Values: [4]float32{-1, 1, 7, 7}},
	}
	in, pol, val := make([]float32, 6), make([]float32, 8), make([]float32, 4)
	for i := range pol {
		pol[i] = 9 // stale data must be cleared
	}
	if err := FillBatch(exs, in, pol, val); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(in, pol, val) != "[1 2 3 4 5 6] [0.5 0 0 0.5 0 1 0 0] [1 -1 -1 1]" {
		t.Errorf("got %v %v %v", in, pol, val)
	}
	if err := FillBatch(exs, in[:5], pol, val); err == nil {
		t.Error("ragged input buffer accepted")
	}
	if err := FillBatch(exs, in, pol[:6], val); err == nil {
		t.Error("policy index 3 accepted in a 3-wide policy row")
	}
	if err := FillBatch(exs, in, pol, make([]float32, 10)); err == nil {
		t.Error("5 values per example accepted")
	}
}

// A values-only window gives every example of the plain window (inputs, values, scores, game,
// ply) with an empty policy, and holds no policies, no games' moves and no spare capacity in
// its packed inputs.
func TestWindowValuesOnly(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for k := range 3 {
		exs := genAtaxx(uint64(10+k), 60+20*k)
		for i := range exs {
			exs[i].GameID = uint64(k*1000 + i/7)
			exs[i].Scores = [4]float32{float32(i) / 90, -float32(i) / 90}
		}
		if k == 2 {
			// A negative zero in a third seat is not zero to the bit: that shard keeps 3 seats.
			exs[5].Scores[2] = float32(math.Copysign(0, -1))
		}
		meta := testMeta()
		meta.Scored = true
		meta.Moves = gameMoves(exs)
		path := filepath.Join(dir, fmt.Sprintf("s%d.shard", k))
		if err := WriteShard(path, meta, exs); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(k) * time.Second)
		if err := os.Chtimes(path, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	open := func(valuesOnly bool) *Window {
		w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: ataxx.EncoderVersion, Capacity: 150, ValuesOnly: valuesOnly})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	plain, vo := open(false), open(true)
	if plain.Len() != 150 || vo.Len() != 150 {
		t.Fatalf("windows hold %d and %d examples, want 150", plain.Len(), vo.Len())
	}
	var a, b Example
	for i := range plain.Len() {
		plain.Example(i, &a)
		b.Policy = append(b.Policy[:0], PolicyEntry{Index: 1, Prob: 1}) // a stale entry must go
		vo.Example(i, &b)
		if len(a.Policy) == 0 || len(b.Policy) != 0 {
			t.Fatalf("example %d: policies of %d and %d entries, want some and none", i, len(a.Policy), len(b.Policy))
		}
		if a.Scores != b.Scores || bits(a.Scores[2]) != bits(b.Scores[2]) || a.Scored != b.Scored || !a.Scored {
			t.Fatalf("example %d: scores %v/%v (%v/%v)", i, a.Scores, b.Scores, a.Scored, b.Scored)
		}
		a.Policy = nil
		if !sameExample(t, fmt.Sprintf("example %d", i), a, b) {
			return
		}
	}
	for _, s := range vo.shards {
		if s.c.policy != nil || s.c.polOff != nil || s.c.meta.Moves != nil {
			t.Errorf("%s keeps %d policy entries and the moves of %d games", s.name, len(s.c.policy), len(s.c.meta.Moves))
		}
		want := 2
		if s.name == "s2.shard" {
			want = 3
		}
		if s.c.values != nil || s.c.scores != nil || s.c.seats != want || len(s.c.vals) != s.c.len()*2*want {
			t.Errorf("%s: values and scores held for %d seats in %d floats, want %d seats", s.name, s.c.seats, len(s.c.vals), want)
		}
		if n := len(s.c.packed); cap(s.c.packed) > n+n/8+16 {
			t.Errorf("%s: packed inputs of %d bytes held in %d", s.name, n, cap(s.c.packed))
		}
	}
	for _, s := range plain.shards {
		if s.c.meta.Moves == nil {
			t.Errorf("the plain window dropped %s's moves", s.name)
		}
	}
}
