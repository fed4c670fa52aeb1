package pipeline

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"colony/registry"
)

// TestUnknownStage: a run whose recorded stage is none of its cycle's stops with an error that
// names the generation, the stage and where it is recorded, on both cycles, and runs nothing.
func TestUnknownStage(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.Init = "random:1x4"
	c, err := Open(filepath.Join(t.TempDir(), "run"), g, cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c.st.Stage = "bogus"
	if _, err := c.Generation(ctx); err == nil || !strings.Contains(err.Error(), `generation 1, stage bogus: unknown stage "bogus" in `+filepath.Join(c.dir, "state.json")) {
		t.Errorf("local cycle: %v", err)
	}
	sc := DefaultStoreConfig()
	sc.Init = "random:1x4"
	s, err := OpenStore(ctx, "file://"+t.TempDir(), g, sc, t.TempDir(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s.s.Stage = StageSelfPlay // a local cycle's stage is not a store cycle's
	if _, err := s.Generation(ctx); err == nil || !strings.Contains(err.Error(), `generation 1, stage selfplay: unknown stage "selfplay" in state.json`) {
		t.Errorf("store cycle: %v", err)
	}
}
