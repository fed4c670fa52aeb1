package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"colony/nn"
	"colony/registry"
)

// TestArgvGate gates a King-of-the-Hill game (Slime, four players, a process per move):
// every seat order, the candidate against the best in the three other seats, scored by
// average cells. The agent is wrapped so that both models play GreedySlime: the four seats
// play the same deterministic program, every entry averages the same cells, and the
// candidate's score is exactly one half.
func TestArgvGate(t *testing.T) {
	if testing.Short() {
		t.Skip("24 games of a process per move")
	}
	g, err := registry.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := g.(ArgvGame); !ok || a.ArgvProtocol() == "" {
		t.Fatal("slime is not an argv game through the registry")
	}
	dir := t.TempDir()
	agent := buildAgent(t)
	wrapper := filepath.Join(dir, "greedy-agent")
	script := fmt.Sprintf("#!/bin/sh\nfor a; do last=$a; done\nexec %s -game slime -engine greedy \"$last\"\n", agent)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cand := filepath.Join(dir, "cand.model")
	if err := nn.NewRandom(nn.ArchFor(g.Info(), 1, 2), 9).Save(cand); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Init, cfg.Models, cfg.Agent = "random:1x2", filepath.Join(dir, "models"), wrapper
	cfg.GateGames, cfg.GateParallel, cfg.Promote = 24, 2, 0.5
	cy, err := Open(filepath.Join(dir, "run"), g, cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cy.GateOnly(context.Background(), cand)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 24 || res.Score != 0.5 || res.Verdicts != 0 || !res.Promoted || res.EloDiff != 0 {
		t.Fatalf("gate result %+v", res)
	}
	if res.Model != filepath.Join(cfg.Models, "000001.model") {
		t.Errorf("promoted to %q", res.Model)
	}
	for _, f := range []string{"gate.json", "gate.log", "arena/summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, "run", "gen-0001", f)); err != nil {
			t.Error(err)
		}
	}
}
