package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"colony/agentdef"
	"colony/data"
	"colony/registry"
	"colony/selfplay"
)

// recGame is the registry's game whose Bootstrap records each configuration it is given and
// writes a shard after every game; with killAfter > 0 it calls kill once it has written that
// many shards (so a test stops a data stage right after a shard).
type recGame struct {
	registry.Game
	calls     []selfplay.BootstrapConfig
	killAfter int
	kill      func()
}

func (g *recGame) Bootstrap(ctx context.Context, bc selfplay.BootstrapConfig, engineName string, o agentdef.EngineOptions, dir string) (selfplay.Stats, error) {
	g.calls = append(g.calls, bc)
	bc.PerShard = 1
	var mu sync.Mutex
	written := 0
	bc.Placement.ShardName = func(worker int) func(*data.Meta) string {
		return func(m *data.Meta) string {
			mu.Lock()
			defer mu.Unlock()
			if written++; g.killAfter > 0 && written >= g.killAfter {
				g.kill()
			}
			return fmt.Sprintf("%s-g%04d-w%03d-%d-%06d%s", m.Game, m.Generation, worker, time.Now().UnixNano(), written, data.ShardExt)
		}
	}
	return g.Game.Bootstrap(ctx, bc, engineName, o, dir)
}

// dataRun returns a new run of tiny NNUE data stages (one worker, 100 nodes a move) on a copy
// of 000004, its game and configuration.
func dataRun(t *testing.T) (string, *recGame, Config) {
	t.Helper()
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Models, cfg.Workers = nnueModels(t), 1
	n := DefaultNNUE()
	n.Nodes, n.SoftNodes, n.RandomPlies, n.RandomPliesMax = 100, 50, 4, 6
	cfg.NNUE = n
	old := progressEvery
	progressEvery = 20 * time.Millisecond
	t.Cleanup(func() { progressEvery = old })
	return filepath.Join(t.TempDir(), "run"), &recGame{Game: g}, cfg
}

// dataPart opens the run (as a process started again does) and plays its generation's data
// stage to its end, or until stop (polled every few milliseconds) or g.killAfter says to stop
// (a kill). It returns whether the stage ran to its end.
func dataPart(t *testing.T, run string, g *recGame, cfg Config, stop func() bool) bool {
	t.Helper()
	cy, err := Open(run, g, cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cy.genDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g.kill = cancel
	quit := make(chan struct{})
	defer close(quit)
	if stop != nil {
		go every(5*time.Millisecond, quit, func() bool {
			if stop() {
				cancel()
				return false
			}
			return true
		})
	}
	err = cy.selfPlay(ctx)
	if err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
	return err == nil
}

// onDisk is what the finished shards of a run hold.
type onDisk struct {
	shards, games int
	positions     int64
	ids           map[uint64]int // game id -> shards holding it
}

func shardsOf(t *testing.T, run string) onDisk {
	t.Helper()
	list, err := data.ListShards(filepath.Join(run, "shards"), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := onDisk{ids: map[uint64]int{}}
	for _, sh := range list {
		meta, exs, err := data.ReadShard(sh.Path)
		if err != nil {
			t.Fatal(err)
		}
		d.shards++
		d.games += meta.Games
		d.positions += int64(meta.Examples)
		seen := map[uint64]bool{}
		for _, ex := range exs {
			if !seen[ex.GameID] {
				seen[ex.GameID] = true
				d.ids[ex.GameID]++
			}
		}
	}
	return d
}

// stopAfterShard says to stop once the run holds more finished shards than now (none
// before the run is made).
func stopAfterShard(t *testing.T, run string) func() bool {
	dir := filepath.Join(run, "shards")
	count := func() int {
		list, _ := data.ListShards(dir, nil)
		return len(list)
	}
	before := count()
	return func() bool { return count() > before }
}

// checkCounted checks that selfplay.json counts exactly the positions and games of all the
// run's shards and that no game (game id, hence seed) is in two of them.
func checkCounted(t *testing.T, run string) (nnueGen, onDisk) {
	t.Helper()
	var gen nnueGen
	if err := readJSON(filepath.Join(run, "gen-0001", "selfplay.json"), &gen); err != nil {
		t.Fatal(err)
	}
	d := shardsOf(t, run)
	if gen.Positions != d.positions || gen.Games != d.games || d.positions == 0 {
		t.Errorf("selfplay.json counts %d positions in %d games; the %d shards on disk hold %d in %d",
			gen.Positions, gen.Games, d.shards, d.positions, d.games)
	}
	for id, n := range d.ids {
		if n > 1 {
			t.Errorf("game %#x (worker %d, index %d) is in %d shards: its seed was played again", id, id>>40, id&(1<<40-1), n)
		}
	}
	return gen, d
}

// A games-based data stage stopped twice part-way, after its first shard (one game), then
// after two more, and resumed: the resumed parts play only the games left, from fresh game
// indices, and selfplay.json counts every position and game of the generation's shards, a
// partial shard write (a temporary file) not among them.
func TestNNUEDataStageResumesGames(t *testing.T) {
	run, g, cfg := dataRun(t)
	cfg.NNUE.Games, cfg.NNUE.Duration = 6, 0
	var before []onDisk
	for part, kill := range []int{1, 2} {
		g.killAfter = kill
		if dataPart(t, run, g, cfg, nil) {
			t.Fatalf("part %d was not stopped", part+1)
		}
		before = append(before, shardsOf(t, run))
	}
	g.killAfter = 0
	// What a kill mid-write leaves: a temporary file, not a shard.
	tmp := filepath.Join(run, "shards", ".bacteria-war-g0001-w000-1-000099.shard.tmp")
	if err := os.WriteFile(tmp, []byte("COLSHARD half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !dataPart(t, run, g, cfg, nil) {
		t.Fatal("the last part did not finish")
	}
	_, d := checkCounted(t, run)
	if before[0].shards != 1 || before[1].shards != 3 || d.shards <= 3 {
		t.Errorf("shards after each part: %d, %d, %d; want 1, 3, more", before[0].shards, before[1].shards, d.shards)
	}
	if len(g.calls) != 3 {
		t.Fatalf("%d data parts played, want 3", len(g.calls))
	}
	for i, bc := range g.calls {
		wantGames := cfg.NNUE.Games
		if i > 0 {
			wantGames -= before[i-1].games
		}
		if bc.Games != wantGames || bc.Placement.FirstGame != uint64(i)*partStride {
			t.Errorf("part %d: %d games from index %d, want %d from %d", i+1, bc.Games, bc.Placement.FirstGame, wantGames, uint64(i)*partStride)
		}
	}
	for id := range d.ids {
		if idx := id & (1<<40 - 1); idx >= 3*partStride {
			t.Errorf("game index %d outside the parts' ranges", idx)
		}
	}
}

// A duration-based data stage stopped part-way resumes with the time left, not a fresh
// duration: its time played is on disk while it plays (progressEvery), and selfplay.json
// counts both parts' positions and time.
func TestNNUEDataStageResumesDuration(t *testing.T) {
	run, g, cfg := dataRun(t)
	cfg.NNUE.Games, cfg.NNUE.Duration = 0, 4*time.Second
	progPath := filepath.Join(run, "gen-0001", "selfplay-progress.json")
	played := func() float64 {
		var p nnueProgress
		_ = readJSON(progPath, &p)
		return p.Seconds
	}
	shard := stopAfterShard(t, run)
	deadline := time.Now().Add(time.Minute)
	stop := func() bool { return (shard() && played() >= 0.3) || time.Now().After(deadline) }
	if dataPart(t, run, g, cfg, stop) {
		t.Fatal("the first part was not stopped")
	}
	first := played()
	if first < 0.3 || time.Now().After(deadline) {
		t.Fatalf("%.2f s played recorded while the first part played, want >= 0.3", first)
	}
	t0 := time.Now()
	if !dataPart(t, run, g, cfg, nil) {
		t.Fatal("the resumed part did not finish")
	}
	wall := time.Since(t0)
	if len(g.calls) != 2 {
		t.Fatalf("%d data parts played, want 2", len(g.calls))
	}
	left := cfg.NNUE.Duration - time.Duration(first*float64(time.Second))
	if bc := g.calls[1]; bc.Duration != left || bc.Duration >= cfg.NNUE.Duration || bc.Placement.FirstGame != partStride {
		t.Errorf("resumed part: duration %v from game index %d, want the %v left from %d", bc.Duration, bc.Placement.FirstGame, left, partStride)
	}
	gen, _ := checkCounted(t, run)
	if gen.Seconds < first || gen.Seconds > first+wall.Seconds() {
		t.Errorf("selfplay.json: %.2f s, want the first part's %.2f s plus at most the resumed part's %.2f s", gen.Seconds, first, wall.Seconds())
	}
}
