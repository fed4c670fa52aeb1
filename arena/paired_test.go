package arena

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRun writes one record a score into a new directory: game i starts from start(i), A
// first in even games.
func writeRun(t *testing.T, scores []float64, seed uint64, start func(int) string) string {
	t.Helper()
	dir := t.TempDir()
	for i, s := range scores {
		r := Record{Format: RecordFormat, Version: RecordVersion, Game: "bacteria-war", Index: i, Seed: seed,
			Start: start(i), AFirst: i%2 == 0, AScore: s}
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("game-%05d.json", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func startOf(i int) string { return fmt.Sprintf("opening %d", i/2) }

func TestPairedCountsTheGamesThatDiffer(t *testing.T) {
	x := writeRun(t, []float64{1, 0, 1, 1, 0, 0.5, 1}, 7, startOf)
	y := writeRun(t, []float64{1, 1, 0, 0, 0, 0, 0}, 7, startOf) // one game fewer below
	os.Remove(filepath.Join(y, "game-00006.json"))
	rx, err := ReadRecords(x)
	if err != nil {
		t.Fatal(err)
	}
	ry, err := ReadRecords(y)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rx {
		if r.Index != i {
			t.Fatalf("record %d has index %d: not in index order", i, r.Index)
		}
	}
	var p Paired
	if err := p.Add(rx, ry); err != nil {
		t.Fatal(err)
	}
	// Games 0-5: X better in 2, 3 and 5 (a draw against a loss), Y better in 1.
	if p.Games != 6 || p.ScoreX != 3.5 || p.ScoreY != 2 || p.XBetter != 3 || p.YBetter != 1 {
		t.Fatalf("got %+v", p)
	}
	if want := 2 / math.Sqrt(4); math.Abs(p.Z-want) > 1e-12 {
		t.Fatalf("Z %v, want %v", p.Z, want)
	}
	if math.Abs(p.EloX()-EloFromScore(3.5/6)) > 1e-9 || math.Abs(p.EloY()-EloFromScore(2.0/6)) > 1e-9 {
		t.Fatalf("Elo %v %v", p.EloX(), p.EloY())
	}
	// A second pair of runs adds to the same totals.
	if err := p.Add(ry, rx); err != nil {
		t.Fatal(err)
	}
	if p.Games != 12 || p.XBetter != 4 || p.YBetter != 4 || p.Z != 0 {
		t.Fatalf("after a second pair: %+v", p)
	}
}

func TestPairedRefusesOtherGames(t *testing.T) {
	x := writeRun(t, []float64{1, 0}, 7, startOf)
	for name, y := range map[string]string{
		"seed":    writeRun(t, []float64{1, 0}, 8, startOf),
		"opening": writeRun(t, []float64{1, 0}, 7, func(i int) string { return fmt.Sprintf("other %d", i) }),
	} {
		rx, _ := ReadRecords(x)
		ry, err := ReadRecords(y)
		if err != nil {
			t.Fatal(err)
		}
		var p Paired
		if err := p.Add(rx, ry); err == nil || !strings.Contains(err.Error(), "not the same game") {
			t.Errorf("another %s: err %v", name, err)
		}
	}
	empty := t.TempDir()
	if _, err := ReadRecords(empty); err == nil {
		t.Error("a directory without records read without an error")
	}
	bad := writeRun(t, []float64{1}, 7, startOf)
	if err := os.WriteFile(filepath.Join(bad, "game-00001.json"), []byte(`{"format":"other","version":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecords(bad); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("a record of another format: err %v", err)
	}
	mixed := writeRun(t, []float64{1}, 7, startOf)
	if err := os.WriteFile(filepath.Join(mixed, "game-00001.json"), []byte(`{"format":"colony-arena-game","version":2,"game":"slime","index":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecords(mixed); err == nil || !strings.Contains(err.Error(), "first record") {
		t.Errorf("records of two games in one directory: err %v", err)
	}
	var p Paired
	rx, _ := ReadRecords(x)
	if err := p.Add(rx, nil); err == nil {
		t.Error("runs with no game in common compared without an error")
	}
}

// Replay visits every position of a recorded game in order and ends where the game did; a
// record of another game, or with an illegal move, is an error.
func TestRecordReplay(t *testing.T) {
	rules := bacteria(t)
	rng := rand.New(rand.NewPCG(5, 6))
	s := rules.Start()
	r := Record{Game: "bacteria-war", Index: 3, Start: s.String()}
	var seen []string
	for ply := 0; ply < 60 && !s.Terminal(); ply++ {
		seen = append(seen, s.String())
		c := s.RandomMove(rng)
		r.Moves = append(r.Moves, MoveRecord{Move: c})
		var err error
		if s, err = s.Play(c); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	end, err := r.Replay(rules, func(ply int, st State) error {
		if ply != len(got) {
			t.Fatalf("visited ply %d after %d positions", ply, len(got))
		}
		got = append(got, st.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if end.String() != s.String() || strings.Join(got, "|") != strings.Join(seen, "|") {
		t.Errorf("replay ended at %q after %d positions, want %q after %d", end, len(got), s, len(seen))
	}
	bad := r
	bad.Moves = append([]MoveRecord(nil), r.Moves...)
	bad.Moves[7].Move = Coords{1, 1, 7, 7}
	if _, err := bad.Replay(rules, nil); err == nil || !strings.Contains(err.Error(), "move 7") {
		t.Errorf("an illegal move replayed: %v", err)
	}
	other := r
	other.Game = "catch-the-mouse"
	if _, err := other.Replay(rules, nil); err == nil {
		t.Error("a record of another game replayed")
	}
}
