package models

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
	"colony/nn/nnue"
)

// TestEmbeddedNNUE: the newest embedded nnue net loads, is a Bacteria War net and quantizes;
// a convnet file given as an nnue model is refused naming its architecture.
func TestEmbeddedNNUE(t *testing.T) {
	names := ListNNUE(ataxx.Info.Name)
	m, name, err := LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, "")
	if len(names) == 0 {
		if !errors.Is(err, ErrNoModel) {
			t.Fatalf("no nnue embedded, but LoadNNUE says %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("embedded %v: %v", names, err)
	}
	if !strings.HasSuffix(name, names[len(names)-1]) {
		t.Errorf("LoadNNUE picked %s, want the newest of %v", name, names)
	}
	if _, err := nnue.Quantize(m, 0); err != nil {
		t.Fatalf("embedded nnue does not quantize: %v", err)
	}
	if _, _, err := LoadNNUE("slime", 1, ""); !errors.Is(err, ErrNoModel) {
		t.Errorf("LoadNNUE of a game without nets: %v", err)
	}
	conv := filepath.Join(t.TempDir(), "c.model")
	if err := nn.NewRandom(nn.ArchFor(ataxx.Info, 1, 4), 1).Save(conv); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, conv); err == nil || !strings.Contains(err.Error(), nn.ArchConvNet) {
		t.Errorf("a convnet file as an nnue model: %v", err)
	}
}
