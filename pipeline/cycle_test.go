package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"colony/arena"
	"colony/nn"
	"colony/registry"
	"colony/train"
)

// testLog sends log lines to the test log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// buildAgent builds the agent binary the gate runs.
func buildAgent(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agent")
	if out, err := exec.Command("go", "build", "-o", bin, "colony/cmd/agent").CombinedOutput(); err != nil {
		t.Fatalf("building the agent: %v\n%s", err, out)
	}
	return bin
}

// snapshot maps each file of dir to its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err1 := os.ReadFile(a)
	y, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
		t.Fatalf("%s and %s differ (%v, %v)", a, b, err1, err2)
	}
}

func shardList(t *testing.T, run string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(run, "shards", "*.shard"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestCycle runs one tiny generation of Bacteria War (a random 1x4 net, 2 self-play games, 3
// training steps, a 2-game gate of agent processes at a 2 s clock), stopped after self-play
// and resumed in its train stage; the candidate is rejected and the models directory is left
// byte for byte as it was. It then gates the same candidate with -gate-only at a lower bar:
// the promotion writes the next model and the Elo plot into the models directory.
func TestCycle(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	agent := buildAgent(t)
	models := filepath.Join(t.TempDir(), "models")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := nn.NewRandom(nn.ArchFor(g.Info(), 1, 4), 5).Save(filepath.Join(models, "000001.model")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(models, "elo.png"), []byte("the committed plot"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, models)

	run := filepath.Join(t.TempDir(), "runs", "bw")
	cfg := DefaultConfig()
	cfg.Init, cfg.Models, cfg.Agent = "random:1x4", models, agent
	cfg.SelfPlayGames, cfg.Playouts, cfg.FastPlayouts, cfg.Workers = 2, 8, 0, 1
	cfg.TrainSteps, cfg.Batch, cfg.Window = 3, 8, 10_000
	cfg.GateGames, cfg.GateClock, cfg.GateParallel = 2, 2*time.Second, 2
	cfg.Promote = 1.1 // never

	// 1. Stopped once self-play is done: the run stays in its train stage.
	cy, err := Open(run, g, cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	afterSave = func(st State) {
		if st.Stage == StageTrain {
			cancel()
		}
	}
	_, err = cy.Generation(ctx)
	afterSave = nil
	if !errors.Is(err, train.ErrInterrupted) {
		t.Fatalf("stopped generation: %v", err)
	}
	st, err := LoadState(run)
	if err != nil || st.Generation != 1 || st.Stage != StageTrain {
		t.Fatalf("state after the stop: %+v, %v", st, err)
	}
	shards := shardList(t, run)
	if len(shards) == 0 {
		t.Fatal("self-play wrote no shards")
	}
	if info, err := train.ReadCheckpointInfo(filepath.Join(run, "gen-0001", "train.ckpt")); err != nil || info.Step != 0 {
		t.Fatalf("training checkpoint: %+v, %v", info, err)
	}

	// 2. Opened again (its recorded configuration wins): training resumes, the gate plays,
	// the candidate is rejected.
	cy, err = Open(run, g, DefaultConfig(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if cy.Config().Promote != 1.1 || cy.Config().GateClock != 2*time.Second || cy.Config().Agent != agent {
		t.Fatalf("resumed configuration: %+v", cy.Config())
	}
	res, err := cy.Generation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Generation != 1 || res.Games != 2 || res.Promoted || res.Model != "" {
		t.Fatalf("gate result: %+v", res)
	}
	if got := shardList(t, run); !slices.Equal(got, shards) {
		t.Fatalf("the resumed generation played self-play again: %d shards, then %d", len(shards), len(got))
	}
	cand := filepath.Join(run, "gen-0001", "candidate.model")
	m, err := nn.Load(cand)
	if err != nil || m.Step != 3 || m.Arch.Blocks != 1 || m.Arch.Channels != 4 {
		t.Fatalf("candidate: %v, %v", m, err)
	}
	for _, f := range []string{"config.json", "init.model", "elo.png", "gen-0001/selfplay.log", "gen-0001/train.log",
		"gen-0001/loss.csv", "gen-0001/loss.png", "gen-0001/gate.log", "gen-0001/gate.json", "gen-0001/arena/summary.json",
		ReportFile} {
		if _, err := os.Stat(filepath.Join(run, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	var sum arena.Summary
	if err := readJSON(filepath.Join(run, "gen-0001", "arena", "summary.json"), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Games != 2 || !strings.HasPrefix(sum.ACmd, agent+" -game bacteria-war -engine mcts") || !strings.HasSuffix(sum.ACmd, cand) ||
		!strings.HasSuffix(sum.BCmd, filepath.Join(run, "init.model")) || sum.ClockMs != 2000 {
		t.Fatalf("arena summary: %+v", sum)
	}
	if after := snapshot(t, models); !mapsEqual(before, after) {
		t.Fatalf("a rejected candidate changed the models directory: %v -> %v", keys(before), keys(after))
	}
	st, _ = LoadState(run)
	if st.Generation != 2 || st.Stage != StageSelfPlay || st.Best != filepath.Join(run, "init.model") || len(st.History) != 1 {
		t.Fatalf("state after generation 1: %+v", st)
	}

	// 3. The same candidate gated with gate-only, with the bar lowered in config.json: it is
	// promoted to the next model, with the Elo plot.
	var rec Config
	if err := readJSON(filepath.Join(run, "config.json"), &rec); err != nil {
		t.Fatal(err)
	}
	rec.Promote = 0
	if err := arena.WriteJSON(filepath.Join(run, "config.json"), rec); err != nil {
		t.Fatal(err)
	}
	cy, err = Open(run, g, DefaultConfig(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	res, err = cy.GateOnly(context.Background(), cand)
	if err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(models, "000002.model")
	if res.Generation != 2 || (!res.Promoted && res.Verdicts == 0) || (res.Promoted && res.Model != next) {
		t.Fatalf("gate-only result: %+v", res)
	}
	if !res.Promoted {
		t.Skipf("the candidate got %d verdicts on this busy machine: not promoted", res.Verdicts)
	}
	sameFile(t, next, filepath.Join(run, "gen-0002", "candidate.model"))
	sameFile(t, next, cand)
	sameFile(t, filepath.Join(models, "elo.png"), filepath.Join(run, "elo.png"))
	after := snapshot(t, models)
	if len(after) != 3 || after["000001.model"] != before["000001.model"] {
		t.Fatalf("models directory after the promotion: %v", keys(after))
	}
	st, _ = LoadState(run)
	if st.Generation != 3 || st.Stage != StageSelfPlay || st.Best != next || len(st.History) != 2 || st.History[1].Elo != res.EloDiff {
		t.Fatalf("state after the promotion: %+v", st)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
