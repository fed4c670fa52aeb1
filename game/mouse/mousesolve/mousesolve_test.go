package mousesolve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProgram(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "boards.txt")
	// A mouse on row 6 with a free path, the mice to move: they win in one ply.
	late := ".........../.........../.........../.........../...CC.CC.../.....R..N../........... R"
	if err := os.WriteFile(file, []byte("# boards\n"+late+" ;1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args      []string
		code      int
		out, serr string
	}{
		{[]string{"-h"}, 0, "", "-survey"},
		{[]string{"-nonesuch"}, 2, "", "not defined"},
		{[]string{"-hash", "1", "-board", "nonsense"}, 2, "", "mousesolve:"},
		{[]string{"-hash", "1", "-survey", "1", "-players", "nobody"}, 2, "", "random or alphabeta"},
		{[]string{"-hash", "1", "-file", filepath.Join(dir, "missing.txt")}, 2, "", "missing.txt"},
		{[]string{"-hash", "1", "-board", late}, 0, "mice win in 1 plies", ""},
		{[]string{"-hash", "1", "-file", file}, 0, "mice win in 1 plies", ""},
	} {
		var out, serr bytes.Buffer
		code := Main(c.args, &out, &serr)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(serr.String(), c.serr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out.String(), serr.String(), c.code, c.out, c.serr)
		}
	}
}
