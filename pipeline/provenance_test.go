package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedProvenance reads the shipped nets' provenance file: the seeded rows, one row for
// every shipped net file and none for a net that is not there, and each row's positions behind
// it adding up (its parent's total plus its own new positions).
func TestShippedProvenance(t *testing.T) {
	dir := filepath.Join("..", "models", "bacteria-war", "nnue")
	rows, err := ReadProvenance(filepath.Join(dir, "provenance.tsv"), "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 4 {
		t.Fatalf("%d rows, want at least the 4 seeded nets", len(rows))
	}
	r, ok := provenanceFor(rows, "000004")
	if !ok || r.PositionsTotal != 395960 {
		t.Fatalf("000004: %+v, %v; want 395960 positions behind it", r, ok)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.nnue"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped nets in %s (%v)", dir, err)
	}
	shipped := map[string]bool{}
	for _, f := range files {
		net := strings.TrimSuffix(filepath.Base(f), ".nnue")
		shipped[net] = true
		if _, ok := provenanceFor(rows, net); !ok {
			t.Errorf("%s has no provenance row", f)
		}
	}
	for _, r := range rows {
		if !shipped[r.Net] {
			t.Errorf("row %s: no %s.nnue beside it", r.Net, r.Net)
		}
		if r.Parent == "-" {
			if r.PositionsTotal < r.PositionsNew {
				t.Errorf("row %s: %d positions behind it, fewer than its own %d", r.Net, r.PositionsTotal, r.PositionsNew)
			}
			continue
		}
		p, ok := provenanceFor(rows, r.Parent)
		if !ok {
			t.Errorf("row %s: parent %s has no row", r.Net, r.Parent)
			continue
		}
		if r.PositionsTotal != p.PositionsTotal+r.PositionsNew {
			t.Errorf("row %s: %d positions behind it, want %s's %d + %d new", r.Net, r.PositionsTotal, r.Parent, p.PositionsTotal, r.PositionsNew)
		}
	}
}

func TestAppendProvenance(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "models", "bacteria-war", "nnue", "provenance.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "provenance.tsv")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := ReadProvenance(path, "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	row := ProvRow{Net: "999999", Parent: "000004", Arch: "a\tb", PositionsNew: 7, PositionsTotal: 395967, PerMove: "nnab nodes 300", Steps: 5, Gate: "SPRT H1"}
	for range 2 { // the second append (a redone promotion) adds nothing
		if err := AppendProvenance(path, "bacteria-war", row); err != nil {
			t.Fatal(err)
		}
	}
	after, err := ReadProvenance(path, "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before)+1 {
		t.Fatalf("%d rows after the appends, want %d", len(after), len(before)+1)
	}
	got := after[len(after)-1]
	if got.Net != "999999" || got.PositionsTotal != 395967 || got.Arch != "a b" || got.TrainWall != "-" {
		t.Fatalf("appended row read back as %+v", got)
	}
	if _, err := ReadProvenance(path, "slime"); err == nil || !strings.Contains(err.Error(), "not slime") {
		t.Fatalf("another game's file: %v, want a clear error", err)
	}
	if err := os.WriteFile(path, []byte("net\tparent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadProvenance(path, "bacteria-war"); err == nil {
		t.Fatal("a file without the magic was read")
	}
}
