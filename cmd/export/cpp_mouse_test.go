package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLangCPPMouse: -lang cpp writes Catch The Mouse's C++ file, which plays alphabeta (the
// port; the registered default, mcts, has none) and carries no net.
func TestLangCPPMouse(t *testing.T) {
	out := filepath.Join(t.TempDir(), "Main.cpp")
	var stderr bytes.Buffer
	if code := run([]string{"-game", "catch-the-mouse", "-lang", "cpp", "-o", out}, &stderr, &stderr); code != 0 {
		t.Fatalf("export -game catch-the-mouse -lang cpp: exit %d\n%s", code, stderr.String())
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	head := src[:min(len(src), 1000)]
	if !bytes.Contains(head, []byte("// Game:   catch-the-mouse\n// Engine: alphabeta\n")) || bytes.Contains(head, []byte("// Net:")) {
		t.Errorf("the header does not say catch-the-mouse, alphabeta, no net:\n%s", head)
	}
	if code := run([]string{"-game", "catch-the-mouse", "-lang", "cpp", "-engine", "mcts", "-o", "-"}, &stderr, &stderr); code == 0 {
		t.Error("-engine mcts, which has no C++ port, exited 0")
	}
}
