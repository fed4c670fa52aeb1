package cpp

import (
	"path/filepath"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/nn/nnue"
)

// TestCPPRefusesUnportedNets: the C++ export refuses, naming why, a Bacteria War net the
// template cannot evaluate (a hidden layer), and takes cell- and window-input ones without.
func TestCPPRefusesUnportedNets(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		arch nnue.Arch
		want string // "" accepted
	}{
		{nnab.WindowArch(32, 0), ""},
		{nnab.WindowArch(32, 16), "hidden layer"},
		{nnab.Arch(32, 16), "hidden layer"},
		{nnab.Arch(32, 0), ""},
	} {
		file := filepath.Join(dir, strings.NewReplacer(">", "", " ", "-").Replace(c.arch.String())+".nnue")
		if err := nnue.NewRandom(c.arch, 1).Save(file); err != nil {
			t.Fatal(err)
		}
		_, _, err := Generate(Options{Game: ataxx.Info.Name, Model: file})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.arch, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: err %v, want one mentioning %q", c.arch, err, c.want)
		}
	}
}
