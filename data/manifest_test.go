package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowManifest: a window's manifest lists the shards it holds, oldest first, with the
// examples it keeps of each (a trimmed oldest shard counts only its kept part) and each file's
// hash, which a copy under another name shares; it reads back as written.
func TestWindowManifest(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	writeAged(t, dir, "c.shard", 1, 40, base, 1)
	writeAged(t, dir, "b.shard", 2, 30, base, 2)
	writeAged(t, dir, "a.shard", 3, 50, base, 3)
	w, err := NewWindow(dir, WindowOptions{Game: "bacteria-war", EncoderVersion: 1, Capacity: 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	m, err := WindowManifest(w)
	if err != nil {
		t.Fatal(err)
	}
	if m.Game != "bacteria-war" || len(m.Entries) != 3 || m.Examples() != int64(w.Len()) {
		t.Fatalf("manifest %+v of a window of %d", m, w.Len())
	}
	wantN := map[string]int{"c.shard": 20, "b.shard": 30, "a.shard": 50}
	for i, e := range m.Entries {
		if e.Name != w.Shards()[i] || e.Examples != wantN[e.Name] {
			t.Errorf("entry %d: %+v, want %s with %d examples", i, e, w.Shards()[i], wantN[e.Name])
		}
		sum, err := HashFile(filepath.Join(dir, e.Name))
		if err != nil || sum != e.SHA256 {
			t.Errorf("%s: hash %s, file's %s (%v)", e.Name, e.SHA256, sum, err)
		}
	}
	// A shard linked under another name is the same shard.
	b, err := os.ReadFile(filepath.Join(dir, "a.shard"))
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), "g12-a.shard")
	writeFile(t, renamed, b)
	if sum, err := HashFile(renamed); err != nil || !m.Set()[sum] {
		t.Errorf("a copy under another name: hash %s not in the manifest (%v)", sum, err)
	}
	if m.Entries[0].SHA256 == m.Entries[1].SHA256 {
		t.Error("two different shards share a hash")
	}

	path := filepath.Join(t.TempDir(), "window.tsv")
	if err := WriteManifest(path, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadManifest(path, "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Entries) != len(m.Entries) || back.Examples() != m.Examples() {
		t.Fatalf("read back %+v, wrote %+v", back, m)
	}
	for i := range m.Entries {
		if back.Entries[i] != m.Entries[i] {
			t.Errorf("entry %d read back %+v, wrote %+v", i, back.Entries[i], m.Entries[i])
		}
	}
}

// TestManifestRefusesBadInput: another game's manifest, another format, a malformed line and
// a truncated file are loud errors, and so is writing an entry that would not read back.
func TestManifestRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	good := Manifest{Game: "bacteria-war", Entries: []ManifestEntry{{SHA256: strings.Repeat("ab", 32), Examples: 7, Name: "x.shard"}}}
	path := filepath.Join(dir, "m.tsv")
	if err := WriteManifest(path, good); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(path, "mouse"); err == nil || !strings.Contains(err.Error(), "bacteria-war") {
		t.Errorf("another game's manifest: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for name, bad := range map[string]string{
		"magic":     strings.Replace(text, "manifest v1", "manifest v2", 1),
		"columns":   strings.Replace(text, "examples\tname", "n\tname", 1),
		"count":     strings.Replace(text, "\t7\t", "\t-7\t", 1),
		"hash":      strings.Replace(text, "abab", "zzzz", 1),
		"fields":    strings.Replace(text, "\tx.shard", "", 1),
		"truncated": text[:strings.Index(text, "\n")+1],
	} {
		p := filepath.Join(dir, name+".tsv")
		writeFile(t, p, []byte(bad))
		if _, err := ReadManifest(p, "bacteria-war"); err == nil {
			t.Errorf("%s: a broken manifest read without an error", name)
		}
	}
	bad := good
	bad.Entries = []ManifestEntry{{SHA256: "abc", Examples: 1, Name: "x.shard"}}
	if err := WriteManifest(filepath.Join(dir, "w.tsv"), bad); err == nil {
		t.Error("wrote an entry with a short hash")
	}
	if err := WriteManifest(filepath.Join(dir, "w.tsv"), Manifest{}); err == nil {
		t.Error("wrote a manifest without a game")
	}
}
