package registry_test

import (
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/registry"
)

// boardSyms are the 8 symmetries of a 7x7 board in the POSITION notation ("rows/.../rows side
// turns"): the rows turned and mirrored, the rest as it is.
func boardSyms(pos string) []string {
	f := strings.Fields(pos)
	rows := strings.Split(f[0], "/")
	at := func(r, c int) byte { return rows[r][c] }
	var out []string
	for k := range 8 {
		var b strings.Builder
		for r := range 7 {
			if r > 0 {
				b.WriteByte('/')
			}
			for c := range 7 {
				rr, cc := r, c
				if k&1 != 0 {
					cc = 6 - cc
				}
				if k&2 != 0 {
					rr = 6 - rr
				}
				if k&4 != 0 {
					rr, cc = cc, rr
				}
				b.WriteByte(at(rr, cc))
			}
		}
		out = append(out, b.String()+" "+strings.Join(f[1:], " "))
	}
	return out
}

// TestOpeningFilter: Bacteria War's opening filter (arena -opening-max-score) refuses an
// opening that loses by force within a few moves (nnab playing both sides from it ended the
// game in 7 plies, O taking every X) and takes a quiet one; a game without an opening search
// has no filter. Without -short, over all 256 two-ply openings: what it refuses is closed
// under the board's symmetries (the same position turned is as lost), and is neither nothing
// nor most of them.
func TestOpeningFilter(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	accept, err := g.OpeningFilter(113)
	if err != nil {
		t.Fatal(err)
	}
	rules := g.Rules()
	judge := func(pos string) bool {
		t.Helper()
		st, err := rules.Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		return accept(st)
	}
	lost := "O....../.O...../....X../......./......./......./X.....O O 2"
	start := boardSyms(ataxx.Start().String())
	for k, s := range boardSyms(lost) {
		if start[k] == ataxx.Start().String() && judge(s) {
			t.Errorf("the lost opening %s is taken", s)
		}
	}
	if quiet := "O.....X/.O...X./......./......./......./......./X.....O O 2"; !judge(quiet) {
		t.Errorf("the quiet opening %s is refused", quiet)
	}
	mouse, err := registry.Lookup("catch-the-mouse")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mouse.OpeningFilter(113); err == nil {
		t.Error("catch-the-mouse has an opening filter")
	}
	if testing.Short() {
		return
	}
	refused := map[string]bool{}
	n := 0
	st := ataxx.Start()
	start = boardSyms(st.String())
	for _, m := range st.LegalMoves(nil) {
		s1 := st.Apply(m)
		for _, m2 := range s1.LegalMoves(nil) {
			n++
			if pos := s1.Apply(m2).String(); !judge(pos) {
				refused[pos] = true
			}
		}
	}
	if len(refused) == 0 || len(refused) > n/4 {
		t.Fatalf("%d of %d two-ply openings refused", len(refused), n)
	}
	// The symmetries that keep the start position (O in two opposite corners, X in the other
	// two) keep what an opening is worth.
	for pos := range refused {
		for k, s := range boardSyms(pos) {
			if start[k] == st.String() && !refused[s] {
				t.Errorf("%s is refused, its symmetric twin %s taken", pos, s)
			}
		}
	}
	t.Logf("%d of %d two-ply openings refused", len(refused), n)
}
