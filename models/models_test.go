package models

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/contract"
	"colony/game/ataxx"
	"colony/game/slime"
	"colony/nn"
)

func TestEmbeddedBest(t *testing.T) {
	for _, info := range []contract.Info{ataxx.Info, slime.Info} {
		names := List(info.Name)
		m, name, err := Load(info, "")
		if len(names) == 0 {
			if !errors.Is(err, ErrNoModel) {
				t.Fatalf("%s: no model embedded, but Load says %v", info.Name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: embedded %v: %v", info.Name, names, err)
		}
		if !strings.HasSuffix(name, names[len(names)-1]) {
			t.Errorf("%s: Load picked %s, want the newest of %v", info.Name, name, names)
		}
		if _, err := nn.NewNet(m, 1); err != nil {
			t.Fatalf("%s: embedded model does not build a net: %v", info.Name, err)
		}
	}
}

func TestLoadChecksFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.model")
	if err := nn.NewRandom(nn.ArchFor(ataxx.Info, 1, 4), 1).Save(good); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(ataxx.Info, good); err != nil {
		t.Fatalf("good model refused: %v", err)
	}
	other := ataxx.Info
	other.EncoderVersion++
	if _, _, err := Load(other, good); err == nil || !strings.Contains(err.Error(), "good.model") {
		t.Errorf("a model for another encoder version: %v (want an error naming the file)", err)
	}
	other = ataxx.Info
	other.Name = "catch-the-mouse"
	if _, _, err := Load(other, good); err == nil || !strings.Contains(err.Error(), "bacteria-war") {
		t.Errorf("a model for another game: %v (want an error naming both games)", err)
	}
	if _, _, err := Load(ataxx.Info, filepath.Join(dir, "missing.model")); err == nil || !strings.Contains(err.Error(), "missing.model") {
		t.Errorf("missing model: %v (want an error naming the file)", err)
	}
	data, _ := os.ReadFile(good)
	data[len(data)-3] ^= 0x40
	bad := filepath.Join(dir, "bad.model")
	os.WriteFile(bad, data, 0o644)
	if _, _, err := Load(ataxx.Info, bad); err == nil || !strings.Contains(err.Error(), "bad.model") {
		t.Errorf("corrupted model: %v (want an error naming the file)", err)
	}
}
