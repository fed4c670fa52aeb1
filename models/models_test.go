package models

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"colony/game/ataxx"
	"colony/nn"
)

func TestEmbeddedBest(t *testing.T) {
	names := List(nn.AtaxxGame)
	m, name, err := Load(nn.AtaxxGame, ataxx.EncoderVersion, "")
	if len(names) == 0 {
		if !errors.Is(err, ErrNoModel) {
			t.Fatalf("no model embedded, but Load says %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("embedded %v: %v", names, err)
	}
	if !strings.HasSuffix(name, names[len(names)-1]) {
		t.Errorf("Load picked %s, want the newest of %v", name, names)
	}
	if _, err := nn.NewNet(m, 1); err != nil {
		t.Fatalf("embedded model does not build a net: %v", err)
	}
}

func TestLoadChecksFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.model")
	if err := nn.NewRandom(nn.AtaxxArch(1, 4), 1).Save(good); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(nn.AtaxxGame, ataxx.EncoderVersion, good); err != nil {
		t.Fatalf("good model refused: %v", err)
	}
	if _, _, err := Load(nn.AtaxxGame, ataxx.EncoderVersion+1, good); err == nil {
		t.Error("a model for another encoder version was accepted")
	}
	data, _ := os.ReadFile(good)
	data[len(data)-3] ^= 0x40
	bad := filepath.Join(dir, "bad.model")
	os.WriteFile(bad, data, 0o644)
	if _, _, err := Load(nn.AtaxxGame, ataxx.EncoderVersion, bad); err == nil || !strings.Contains(err.Error(), "bad.model") {
		t.Errorf("corrupted model: %v (want an error naming the file)", err)
	}
}
