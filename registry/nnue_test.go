package registry

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestNNABLoadsItsNetOnce: the agent's check at start and the engines built after it (as a
// bootstrap's workers build them) load and quantize the net once, the embedded one or a
// file's; a file written anew at the same path is read anew.
func TestNNABLoadsItsNetOnce(t *testing.T) {
	g, err := Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "net.nnue")
	write := func(src string, mtime time.Time) {
		data, err := os.ReadFile(filepath.Join("../models/bacteria-war/nnue", src))
		if err == nil {
			err = os.WriteFile(file, data, 0o644)
		}
		if err == nil {
			err = os.Chtimes(file, mtime, mtime)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	write("000004.nnue", time.Now())
	o := g.Defaults()
	for _, path := range []string{"", file} {
		nnabNets = netCache{}
		o.Model = path
		if err := g.CheckEngine("nnab", []string{"model"}, o); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := g.NewPlayer("nnab", o); err != nil {
				t.Fatal(err)
			}
		}
		if nnabNets.loads != 1 {
			t.Errorf("-model %q: the net was loaded %d times, want 1", path, nnabNets.loads)
		}
	}
	write("000005.nnue", time.Now().Add(time.Minute))
	if _, err := g.NewPlayer("nnab", o); err != nil {
		t.Fatal(err)
	}
	if nnabNets.loads != 2 {
		t.Errorf("a net written anew: %d loads in all, want 2", nnabNets.loads)
	}
}
