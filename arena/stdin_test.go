package arena

import (
	"strings"
	"testing"
	"time"

	"colony/game/petri"
)

func shortPetri(turns int) func([2]string) StdinGame {
	return func(begin [2]string) StdinGame {
		m := petri.NewMatch(10, 4, petri.DriverRules, begin)
		m.G.MaxTurns = turns
		return m
	}
}

func TestStdinReferee(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a few hundred processes")
	}
	rest := []string{"sh", "-c", `read l; if [ "$l" = BEGIN ]; then echo 4 8 0; else echo rest; fi`}
	junk := []string{"sh", "-c", `read l; if [ "$l" = BEGIN ]; then echo 4 8 0; else echo JUMP N; fi`}
	badSpecies := []string{"sh", "-c", `echo 4 8 1`}
	// The view reaches the program: it divides south-east at once, then rests.
	divider := []string{"sh", "-c", `read l; if [ "$l" = BEGIN ]; then echo 4 8 0; else read a; read b; if [ "$b" = ".o........" ]; then echo divide se; else echo REST; fi; fi`}
	cases := []struct {
		a, b       []string
		w, d, l    int
		invA, invB int
	}{
		{rest, rest, 0, 2, 0, 0, 0},
		{rest, junk, 0, 2, 0, 0, 6},
		{rest, badSpecies, 2, 0, 0, 0, 0},
		{divider, rest, 1, 1, 0, 3, 0}, // then: SE occupied, the child short of energy, SE occupied,
	}
	for i, c := range cases {
		cfg := StdinConfig{Name: "petri", New: shortPetri(3), A: c.a, B: c.b, Games: 2, MoveLimit: 5 * time.Second}
		s, err := RunStdin(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, b := s.Entries[0], s.Entries[1]
		if a.Wins != c.w || a.Draws != c.d || a.Losses != c.l || a.Invalid != c.invA || b.Invalid != c.invB {
			t.Errorf("case %d: A %d-%d-%d invalid %d/%d, want %d-%d-%d %d/%d", i, a.Wins, a.Draws, a.Losses, a.Invalid, b.Invalid, c.w, c.d, c.l, c.invA, c.invB)
		}
		if a.MaxMs <= 0 || a.P99Ms > a.MaxMs {
			t.Errorf("case %d: times %+v", i, a)
		}
	}
}

func TestStdinNoLine(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a timeout")
	}
	res := runStdin([]string{"sh", "-c", "sleep 5"}, "BEGIN", 200*time.Millisecond)
	if !strings.Contains(res.why, "no line") || res.took > 2*time.Second {
		t.Fatalf("%+v", res)
	}
}
