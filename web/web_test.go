package web_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"colony/arena"
	"colony/contract"
	"colony/game/ataxx"
	"colony/judge"
	"colony/replay"
	"colony/web"
)

// passBoard is a Bacteria War position where O, to move, is walled in: its only move is a pass.
const passBoard = "OXX..../XXX..../XXX..../......./......./......./......X O"

func lookup(t *testing.T, name string) web.Game {
	t.Helper()
	g, err := web.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestViewLegal: the click pairs of a position are exactly the legal moves in judge
// coordinates, an Ataxx copy offered from every neighbour that makes it, and each plays.
func TestViewLegal(t *testing.T) {
	g := lookup(t, ataxx.Info.Name)
	v, err := g.View("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Pass || v.Terminal || v.ToMove != 0 || len(v.Moves) != 0 {
		t.Fatalf("start: %+v", v)
	}
	// Two corners, each 3 copies and 5 jumps.
	if len(v.Legal) != 16 {
		t.Fatalf("%d click pairs at the start, want 16: %+v", len(v.Legal), v.Legal)
	}
	// After O's copy to b6 (row 2, col 2): every pair of X plays.
	v, err = g.View("", []contract.Coords{{1, 1, 2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if v.ToMove != 1 || len(v.Moves) != 1 || v.Moves[0].From != 0 || v.Moves[0].To != 8 {
		t.Fatalf("after one move: %+v", v)
	}
	for _, pr := range v.Legal {
		if pr.From != (pr.Coords[0]-1)*7+pr.Coords[1]-1 || pr.To != (pr.Coords[2]-1)*7+pr.Coords[3]-1 {
			t.Fatalf("pair %+v: cells and coordinates disagree", pr)
		}
		if _, err := g.View("", []contract.Coords{{1, 1, 2, 2}, pr.Coords}); err != nil {
			t.Fatalf("pair %+v does not play: %v", pr, err)
		}
	}
	// O's copy to row 1, column 2 from either O piece next to it: both pairs are offered.
	v, err = g.View("", []contract.Coords{{1, 1, 2, 2}, {1, 7, 2, 6}})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, pr := range v.Legal {
		if pr.To == 1 && (pr.From == 0 || pr.From == 8) {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("the copy to (1, 2) is offered from %d of its 2 neighbours: %+v", found, v.Legal)
	}
	if _, err := g.View("", []contract.Coords{{1, 1, 4, 4}}); err == nil {
		t.Fatal("an illegal move was played")
	}
}

// TestViewPass: a walled-in side has no click pair, only the pass.
func TestViewPass(t *testing.T) {
	g := lookup(t, ataxx.Info.Name)
	v, err := g.View(passBoard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Pass || len(v.Legal) != 0 || v.Terminal {
		t.Fatalf("walled in: pass %v, %d pairs, terminal %v", v.Pass, len(v.Legal), v.Terminal)
	}
	v, err = g.View(passBoard, []contract.Coords{contract.PassCoords})
	if err != nil {
		t.Fatal(err)
	}
	if v.ToMove != 1 || v.Pass || len(v.Legal) == 0 || v.Moves[0].From != -1 {
		t.Fatalf("after the pass: %+v", v)
	}
}

// TestRecord: a game saved by the page is an arena record that the viewer replays and the
// page reads back; records of another format, a newer version or a wrong final position are
// refused.
func TestRecord(t *testing.T) {
	g := lookup(t, ataxx.Info.Name)
	moves := []contract.Coords{{1, 1, 2, 2}, {1, 7, 2, 6}, {7, 7, 5, 5}}
	score := int32(-35)
	b, err := g.Record(web.RecordRequest{Game: ataxx.Info.Name, Moves: moves, Human: 1, Engine: "nnab",
		Ms: []float64{10, 2000, 12}, Infos: []*judge.Info{{Score: &score, Depth: 5, Nodes: 300}, nil, {Depth: 4, Nodes: 200}},
		StartedAt: time.Now().Add(-time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	var rec arena.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Format != arena.RecordFormat || rec.Version != arena.RecordVersion || rec.AFirst || len(rec.Moves) != 3 ||
		rec.Moves[0].Player != "b" || rec.Moves[1].Player != "a" || rec.Moves[0].Info == nil || rec.Moves[0].Info.Move != 1 ||
		rec.Moves[2].Info == nil || rec.Moves[2].Info.Move != 2 || rec.Moves[1].Ms != 2000 || rec.Winner != "" {
		t.Fatalf("record: %s", b)
	}
	rg, err := replay.Parse(b, "")
	if err != nil || len(rg.Moves) != 3 {
		t.Fatalf("the viewer: %v", err)
	}
	l, err := web.ReadRecord(b)
	if err != nil || len(l.Moves) != 3 || l.Moves[2] != moves[2] || l.Infos[0] == nil || l.Infos[1] != nil {
		t.Fatalf("read back: %+v, %v", l, err)
	}
	for name, edit := range map[string]func(string) string{
		"format":  func(s string) string { return strings.Replace(s, arena.RecordFormat, "colony-arena-koth-game", 1) },
		"version": func(s string) string { return strings.Replace(s, `"version": 2`, `"version": 3`, 1) },
		"final":   func(s string) string { return strings.Replace(s, rec.Final, passBoard, 1) },
		"move": func(s string) string {
			return strings.Replace(s, "7,\n        7,\n        5,\n        5", "7,\n        7,\n        4,\n        4", 1)
		},
	} {
		bad := edit(string(b))
		if bad == string(b) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if _, err := web.ReadRecord([]byte(bad)); err == nil {
			t.Errorf("a record with a bad %s was read", name)
		}
	}
}
