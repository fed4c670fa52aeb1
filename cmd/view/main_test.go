package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestView: a run folder becomes one HTML file where asked; usage errors exit 2, a bad
// record exits 1 and names the problem.
func TestView(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.html")
	var stdout, stderr strings.Builder
	if code := run([]string{"-o", out, "../../replay/testdata/bacteria-war-run"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.Contains(stdout.String(), "1 games") {
		t.Fatalf("stdout %q, page starts %.40q", stdout.String(), b)
	}
	if code := run(nil, &stdout, &stderr); code != 2 {
		t.Errorf("no arguments: exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "game-1.json")
	if err := os.WriteFile(bad, []byte(`{"format":"colony-arena-game","version":99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{bad}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "version 99") {
		t.Errorf("a record of version 99: exit %d, %q", code, stderr.String())
	}
}
