package models

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/game/mouse"
)

// TestLoadBook: the embedded Bacteria War book loads and its moves are legal; a game with no
// book, a book file of another game and a corrupt file are refused with the file's name.
func TestLoadBook(t *testing.T) {
	info := ataxx.Def().Info
	b, err := LoadBook(info, "embedded")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Moves) == 0 {
		t.Fatal("empty embedded book")
	}
	def := ataxx.Def()
	for pos, c := range b.Moves {
		p, err := def.Parse(pos)
		if err != nil {
			t.Fatalf("%q: %v", pos, err)
		}
		if _, err := def.Judge.Move(p, c); err != nil {
			t.Fatalf("%q: book move %v: %v", pos, c, err)
		}
	}
	if _, err := LoadBook(mouse.Def().Info, "embedded"); err == nil {
		t.Fatal("catch-the-mouse has no book, yet one loaded")
	}
	data, _ := bookFiles.ReadFile("bacteria-war/book.txt")
	dir := t.TempDir()
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, data, 0o644)
	if _, err := LoadBook(mouse.Def().Info, other); err == nil || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "for bacteria-war") {
		t.Fatalf("book of another game: %v", err)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte(strings.Replace(string(data), "X", "O", 1)), 0o644)
	if _, err := LoadBook(info, bad); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("corrupt book: %v", err)
	}
}
