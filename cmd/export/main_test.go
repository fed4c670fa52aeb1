package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/registry"
)

// Without -engine the export plays the game's registered default engine and carries only the
// net that engine reads (Bacteria War: nnab with the newest nnue net, no mcts model); -h names
// each game's default.
func TestDefaultEngine(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	want := g.DefaultEngine()
	var help bytes.Buffer
	if code := run([]string{"-h"}, &help, &help); code != 2 {
		t.Errorf("-h: exit %d, want 2", code)
	}
	if !strings.Contains(help.String(), "bacteria-war: "+want) {
		t.Errorf("-h does not name the default engine %q:\n%s", want, help.String())
	}

	out := filepath.Join(t.TempDir(), "Main.go")
	var stderr bytes.Buffer
	if code := run([]string{"-game", "bacteria-war", "-C", "../..", "-o", out}, &stderr, &stderr); code != 0 {
		t.Fatalf("export: exit %d\n%s", code, stderr.String())
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	head := string(src[:min(len(src), 4000)])
	if !strings.Contains(head, "// Engine:   "+want+"\n") {
		t.Errorf("the file does not play %s:\n%s", want, head)
	}
	nets, _ := filepath.Glob("../../models/bacteria-war/nnue/*.nnue")
	if len(nets) == 0 {
		t.Fatal("no embedded nnue nets")
	}
	newest := filepath.Base(nets[len(nets)-1])
	carried := ""
	for _, line := range strings.Split(head, "\n") {
		if strings.HasPrefix(line, "// Carried:") {
			carried = line
		}
	}
	if !strings.Contains(carried, "nnue/"+newest) || strings.Contains(carried, ".model") || strings.Count(carried, ".nnue") != 1 {
		t.Errorf("want only the newest nnue net %s carried, got %q", newest, carried)
	}
}

// -lang cpp writes the C++ program (Main.cpp by default) with the newest net; an engine without
// a C++ port and an unknown language are refused.
func TestLangCPP(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	if code := run([]string{"-game", "bacteria-war", "-lang", "cpp", "-o", filepath.Join(dir, "Main.cpp")}, &stderr, &stderr); code != 0 {
		t.Fatalf("export -lang cpp: exit %d\n%s", code, stderr.String())
	}
	src, err := os.ReadFile(filepath.Join(dir, "Main.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	nets, _ := filepath.Glob("../../models/bacteria-war/nnue/*.nnue")
	if len(nets) == 0 || !bytes.Contains(src[:min(len(src), 2000)], []byte("nnue/"+filepath.Base(nets[len(nets)-1]))) {
		t.Errorf("the C++ file does not carry the newest net:\n%s", src[:min(len(src), 2000)])
	}
	for _, args := range [][]string{
		{"-game", "bacteria-war", "-lang", "cpp", "-engine", "mcts", "-o", "-"},
		{"-game", "bacteria-war", "-lang", "rust", "-o", "-"},
	} {
		if code := run(args, &stderr, &stderr); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}
