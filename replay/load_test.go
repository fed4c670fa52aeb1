package replay_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/replay"
)

const runDir = "testdata/bacteria-war-run"

// TestBuildRun: a run folder becomes one page: its game replayed to the record's final
// position, standings by entry with the run's command lines.
func TestBuildRun(t *testing.T) {
	p, err := replay.Build([]string{runDir}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Games) != 1 || p.Summary == nil || len(p.Standings) != 2 {
		t.Fatalf("%d games, summary %v, %d standings", len(p.Games), p.Summary != nil, len(p.Standings))
	}
	g := p.Games[0]
	if len(g.Frames) != len(g.Moves)+1 || len(g.Moves) != 11 {
		t.Fatalf("%d frames for %d moves", len(g.Frames), len(g.Moves))
	}
	if last := g.Frames[len(g.Frames)-1]; last.Counts[0] != 9 || last.Counts[1] != 0 || g.Winner != 0 {
		t.Fatalf("final counts %v, winner %d (the record: O 9 X 0, O wins)", last.Counts, g.Winner)
	}
	if g.Moves[0].Info == nil || g.Moves[0].Clocks == nil {
		t.Fatal("the first move lost its engine info or clocks")
	}
	// The seed as the summary's text: as a float64 (a JavaScript number) it would read ...3973 as ...4000.
	if p.SeedText != "1795587920109273973" {
		t.Fatalf("seed text %q, want the summary's 1795587920109273973", p.SeedText)
	}
	if st := p.Standings[0]; st.Entry != "A" || !strings.Contains(st.Command, "{seed}") || st.Wins != 1 {
		t.Fatalf("first standing %+v", st)
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, link := range []string{`src="http`, `href="http`, `url(http`, `src="//`, `<link`} {
		if strings.Contains(page, link) {
			t.Errorf("the page loads from outside (%s)", link)
		}
	}
	if !strings.Contains(page, `"format":"colony-replay","version":1`) {
		t.Error("the page's data has no format and version")
	}
	if got := replay.DefaultOutput([]string{runDir}); got != filepath.Join(runDir, "index.html") {
		t.Errorf("DefaultOutput of a run folder: %s", got)
	}
}

// TestParseRefuses: records of another format, a newer version or none are refused loudly.
func TestParseRefuses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(runDir, "game-00000.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	with := func(k string, v any) []byte {
		m := map[string]any{}
		for k, v := range rec {
			m[k] = v
		}
		m[k] = v
		out, _ := json.Marshal(m)
		return out
	}
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"not JSON", "not a game record", []byte("MOVE 1 1 2 2")},
		{"no format", "not a game record", []byte(`{"moves":[]}`)},
		{"other format", `unknown record format "colony-other"`, with("format", "colony-other")},
		{"newer version", "version 99", with("version", 99)},
		{"bad move", "move 1", with("moves", []any{map[string]any{"player": "a", "move": []int{1, 1, 7, 7}}})},
		{"old KotH without game", "does not name its game", []byte(`{"order":[0,1,2,3],"moves":[]}`)},
		{"old stdin record", "holds no actions", []byte(`{"species":["1 1 1","1 1 1"]}`)},
	} {
		if _, err := replay.Parse(c.data, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
