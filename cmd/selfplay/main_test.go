package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runArgs(args ...string) (int, string) {
	var out strings.Builder
	code := run(args, &out)
	return code, out.String()
}

// TestFlagsAndExitCodes: help exits 0; a bad flag or a missing one exits 2 and says what is
// wrong; an unknown game exits 2 and an unknown engine non-zero, each named.
func TestFlagsAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-h"}, 0, "-bootstrap"},
		{[]string{"-nonesuch"}, 2, "flag provided but not defined: -nonesuch"},
		{[]string{"-games", "x"}, 2, "invalid value"},
		{[]string{"-games", "1"}, 2, "-out DIR is required"},
		{[]string{"-out", dir, "-games", "1", "extra"}, 2, "-out DIR is required"},
		{[]string{"-out", dir}, 2, "give -games or -duration"},
		{[]string{"-game", "chess", "-out", dir, "-games", "1"}, 2, `unknown game "chess"`},
		{[]string{"-out", dir, "-games", "1", "-bootstrap", "-depth", "0"}, 2, "-bootstrap needs -depth or -nodes"},
		{[]string{"-out", dir, "-games", "1", "-bootstrap", "-engine", "random", "-model", "x.nnue"}, 2, "reads no nnue net"},
		{[]string{"-out", dir, "-games", "1", "-bootstrap", "-engine", "nonesuch"}, 1, `unknown engine "nonesuch"`},
		{[]string{"-out", dir, "-games", "1", "-random-net", "big"}, 1, "want BLOCKSxCHANNELS"},
	} {
		code, out := runArgs(c.args...)
		if code != c.code || !strings.Contains(out, c.msg) {
			t.Errorf("selfplay %q: exit %d, want %d with %q in:\n%s", c.args, code, c.code, c.msg, out)
		}
	}
}

// TestTinyRuns: a bootstrap run and a self-play run with a tiny random net each write a shard
// and exit 0.
func TestTinyRuns(t *testing.T) {
	for _, args := range [][]string{
		{"-bootstrap", "-engine", "random", "-depth", "1"},
		{"-random-net", "1x4", "-playouts", "4", "-games-per-worker", "1"},
	} {
		dir := t.TempDir()
		args = append(args, "-game", "bacteria-war", "-out", dir, "-games", "2", "-workers", "1")
		code, out := runArgs(args...)
		shards, _ := filepath.Glob(filepath.Join(dir, "*.shard"))
		if code != 0 || len(shards) == 0 || !strings.Contains(out, "selfplay: 2 games") {
			t.Fatalf("selfplay %q: exit %d, %d shards\n%s", args, code, len(shards), out)
		}
		if fi, err := os.Stat(shards[0]); err != nil || fi.Size() == 0 {
			t.Fatalf("shard %s: %v", shards[0], err)
		}
	}
}
