package data

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"colony/internal/atomicfile"
)

// manifestMagic starts the first line of a window manifest, followed by the game's name.
const manifestMagic = "# Colony shard manifest v1 "

// manifestColumns is a manifest's second line.
const manifestColumns = "sha256\texamples\tname"

// ManifestEntry is one shard of a manifest: the SHA-256 of the shard file's bytes (which
// names it whatever the file is called or wherever it is linked), the examples of it that were
// used, and the file's name when it was listed.
type ManifestEntry struct {
	SHA256   string
	Examples int
	Name     string
}

// Manifest lists the shards a net was trained on (its training window), so that a later
// generation can tell the positions its parent never saw from those it did.
type Manifest struct {
	Game    string
	Entries []ManifestEntry
}

// Examples is the sum of the entries' examples.
func (m *Manifest) Examples() int64 {
	var n int64
	for _, e := range m.Entries {
		n += int64(e.Examples)
	}
	return n
}

// Set returns the entries' shard hashes.
func (m *Manifest) Set() map[string]bool {
	s := make(map[string]bool, len(m.Entries))
	for _, e := range m.Entries {
		s[e.SHA256] = true
	}
	return s
}

// HashFile returns the hex SHA-256 of the file at path (a shard's identity in a manifest).
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("data: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// WindowManifest is the manifest of the shards w holds (dir is the window's directory), with
// the examples of each that the window keeps.
func WindowManifest(w *Window) (Manifest, error) {
	m := Manifest{Game: w.want.Game}
	for i, s := range w.shards {
		sum, err := HashFile(filepath.Join(w.dir, s.name))
		if err != nil {
			return Manifest{}, err
		}
		n := w.cum[i]
		if i > 0 {
			n -= w.cum[i-1]
		}
		m.Entries = append(m.Entries, ManifestEntry{SHA256: sum, Examples: n, Name: s.name})
	}
	return m, nil
}

// WriteManifest writes m at path (through a temporary file and a rename).
func WriteManifest(path string, m Manifest) error {
	if m.Game == "" {
		return fmt.Errorf("data: manifest without a game")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%s: %d shards, %d examples\n%s\n", manifestMagic, m.Game, len(m.Entries), m.Examples(), manifestColumns)
	for _, e := range m.Entries {
		if len(e.SHA256) != 64 || e.Examples < 0 || strings.ContainsAny(e.Name, "\t\n\r") {
			return fmt.Errorf("data: manifest entry %+v is malformed", e)
		}
		fmt.Fprintf(&b, "%s\t%d\t%s\n", e.SHA256, e.Examples, e.Name)
	}
	if err := atomicfile.WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	return nil
}

// ReadManifest reads the manifest at path; it fails loudly on another game's manifest, another
// version or a malformed line.
func ReadManifest(path, game string) (Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Manifest{}, fmt.Errorf("data: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	m := Manifest{Game: game}
	line := 0
	for ; sc.Scan(); line++ {
		text := sc.Text()
		switch line {
		case 0:
			rest, ok := strings.CutPrefix(text, manifestMagic)
			if !ok {
				return Manifest{}, fmt.Errorf("data: %s: not a Colony shard manifest (v1): first line %.60q", path, text)
			}
			if g, _, _ := strings.Cut(rest, ":"); strings.TrimSpace(g) != game {
				return Manifest{}, fmt.Errorf("data: %s: a manifest of %q, not %s", path, strings.TrimSpace(g), game)
			}
			continue
		case 1:
			if text != manifestColumns {
				return Manifest{}, fmt.Errorf("data: %s: columns %q, want %q", path, text, manifestColumns)
			}
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 3 || len(f[0]) != 64 {
			return Manifest{}, fmt.Errorf("data: %s:%d: malformed entry %.80q", path, line+1, text)
		}
		if _, err := hex.DecodeString(f[0]); err != nil {
			return Manifest{}, fmt.Errorf("data: %s:%d: %q is not a SHA-256", path, line+1, f[0])
		}
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 {
			return Manifest{}, fmt.Errorf("data: %s:%d: %q is not a count", path, line+1, f[1])
		}
		m.Entries = append(m.Entries, ManifestEntry{SHA256: f[0], Examples: n, Name: f[2]})
	}
	if err := sc.Err(); err != nil {
		return Manifest{}, fmt.Errorf("data: %s: %w", path, err)
	}
	if line < 2 {
		return Manifest{}, fmt.Errorf("data: %s: truncated manifest (%d lines)", path, line)
	}
	return m, nil
}
