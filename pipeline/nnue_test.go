package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"colony/arena"
	"colony/data"
	"colony/nn/nnue"
	"colony/registry"
)

// TestNNUECycle runs tiny NNUE generations of Bacteria War from a copy of the shipped nets:
// stopped once its data is written and once trained, resumed each time, the candidate gated
// (SPRT then confirm games of agent processes) and promoted as 000005.nnue with a provenance
// row whose cumulative positions are 000004's plus the generation's. A second run, in a new
// run directory without any shards (a fresh machine), goes on from 000005 and its row alone.
//
// The SPRT is -1000,-200 with alpha = beta = 0.45 (bounds ±0.2): any one or two games with
// a decisive result, even two losses (a sweep is estimated with half a game moved: LLR 0.33),
// end it with H1, so that the tiny gate promotes unless all its games are draws; the confirm
// bar is 0.
func TestNNUECycle(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	models := nnueModels(t)
	cfg := tinyNNUEConfig(t, models)
	n := cfg.NNUE
	n.TeacherWeight = 0.5 // the parent teaches: its value is half of every target

	run := filepath.Join(t.TempDir(), "run")
	// Stopped after each of the first two stages, opened again each time.
	for _, stop := range []string{StageTrain, StageGate} {
		cy, err := Open(run, g, cfg, testLog{t})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		afterSave = func(st State) {
			if st.Stage == stop {
				cancel()
			}
		}
		_, err = cy.Generation(ctx)
		afterSave = nil
		cancel()
		st, lerr := LoadState(run)
		if err == nil || lerr != nil || st.Generation != 1 || st.Stage != stop {
			t.Fatalf("stopped at %s: %v; state %+v, %v", stop, err, st, lerr)
		}
	}
	cy, err := Open(run, g, DefaultConfig(), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if cy.Config().NNUE == nil || cy.Config().NNUE.SPRT != n.SPRT {
		t.Fatalf("resumed configuration: %+v", cy.Config())
	}
	res, err := cy.Generation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(models, "000005.nnue")
	if !res.Promoted || res.Model != want || res.NNUE == nil || res.NNUE.SPRT.Verdict != "H1" || res.NNUE.ConfirmGames != 2 {
		t.Fatalf("gate result: %+v %+v", res, res.NNUE)
	}
	if s := res.NNUE.SPRT; s.DecidedAt < 1 || s.DecidedAt > res.NNUE.SPRTGames || s.DecidedLLR < s.Upper {
		t.Errorf("the gate's decision is not recorded: %+v", s)
	}
	sameFile(t, want, filepath.Join(run, "gen-0001", "candidate.nnue"))
	// The training held out a validation split: its rows and its curves are in the generation.
	for _, f := range []string{"epochs.csv", "loss.svg"} {
		if _, err := os.Stat(filepath.Join(run, "gen-0001", f)); err != nil {
			t.Errorf("the generation's training: %v", err)
		}
	}
	// The fast gate ran at a node budget for both sides, the confirm games on the clock alone.
	for dir, nodes := range map[string]bool{"arena-sprt": true, "arena-confirm": false} {
		var sum arena.Summary
		if err := readJSON(filepath.Join(run, "gen-0001", dir, "summary.json"), &sum); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{sum.ACmd, sum.BCmd} {
			if strings.Contains(cmd, " -nodes 300") != nodes {
				t.Errorf("%s: command %q (a node budget: %v)", dir, cmd, nodes)
			}
		}
	}
	m, err := nnue.Load(want)
	parent := mustLoad(t, filepath.Join(models, "000004.nnue"))
	if err != nil || m.Step != parent.Step+4 {
		t.Fatalf("promoted net: %v, %v", m, err)
	}
	if m.Meta["train.teacher_sha256"] != parent.SHA256() || m.Meta["train.teacher_weight"] != "0.5" {
		t.Errorf("the candidate's teacher: %q at %q, want the parent %.12s at 0.5",
			m.Meta["train.teacher_sha256"], m.Meta["train.teacher_weight"], parent.SHA256())
	}
	var gen nnueGen
	if err := readJSON(filepath.Join(run, "gen-0001", "selfplay.json"), &gen); err != nil || gen.Positions == 0 {
		t.Fatalf("the generation's data: %+v, %v", gen, err)
	}
	row := lastRow(t, models)
	if row.Net != "000005" || row.Parent != "000004" || row.PositionsNew != gen.Positions ||
		row.PositionsTotal != 395960+gen.Positions || row.Steps != 4 || !strings.HasSuffix(row.PerMove, ", parent teacher 0.5") {
		t.Fatalf("provenance row %+v (generation %+v)", row, gen)
	}
	if !strings.Contains(row.Gate, "SPRT(-1000,-200,0.45,0.45) H1 after ") || !strings.Contains(row.Gate, " games at 300 nodes, ") {
		t.Errorf("provenance gate %q: the SPRT's verdict and node budget", row.Gate)
	}
	for _, f := range []string{"gen-0001/loss.csv", "gen-0001/gate.json", "elo.png", ReportFile} {
		if _, err := os.Stat(filepath.Join(run, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := readTrainLog(filepath.Join(models, "000005-train.log")); err != nil {
		t.Errorf("the promoted net's training log: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(run, ReportFile)); err != nil || !strings.Contains(string(b), "000005") ||
		!strings.Contains(string(b), `id="provenance"`) || !strings.Contains(string(b), "<polyline") {
		t.Errorf("the run's report lacks the new net's provenance or its loss curve (%v)", err)
	}

	// 000004 has no window manifest, so 000005's row counted the positions 000004 played;
	// 000005's manifest lies beside it, listing the first run's shards it trained on.
	first, err := data.ReadManifest(filepath.Join(models, "000005-window.tsv"), "bacteria-war")
	if err != nil || first.Examples() == 0 {
		t.Fatalf("000005's window manifest: %+v, %v", first, err)
	}

	// A fresh machine: a new run directory; it starts from 000005 and its row. Its extra
	// shards are the first run's (in 000005's window, so not new), one shard that 000005
	// played and one that 000004 played but no net trained on (both new: the row counts them
	// with the data stage's, whichever the validation split leaves in the window).
	fresh := filepath.Join(t.TempDir(), "fresh")
	cfg.Seed = 2
	cfg.ExtraShards = t.TempDir()
	olds, err := filepath.Glob(filepath.Join(run, "shards", "*.shard"))
	if err != nil || len(olds) == 0 {
		t.Fatalf("the first run's shards: %v, %v", olds, err)
	}
	for _, f := range olds {
		if err := copyFile(f, filepath.Join(cfg.ExtraShards, "old-"+filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	meta, exs, err := data.ReadShard(olds[0])
	if err != nil {
		t.Fatal(err)
	}
	meta.ModelSHA256 = mustLoad(t, want).SHA256()
	if err := data.WriteShard(filepath.Join(cfg.ExtraShards, "by-000005.shard"), meta, exs); err != nil {
		t.Fatal(err)
	}
	meta.ModelSHA256, meta.Seed = mustLoad(t, filepath.Join(models, "000004.nnue")).SHA256(), meta.Seed+1
	if err := data.WriteShard(filepath.Join(cfg.ExtraShards, "by-000004-unseen.shard"), meta, exs[:len(exs)/2]); err != nil {
		t.Fatal(err)
	}
	cy, err = Open(fresh, g, cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if cy.State().Best != want {
		t.Fatalf("fresh run's best net %s, want %s", cy.State().Best, want)
	}
	if _, err := cy.Generation(context.Background()); err != nil {
		t.Fatal(err)
	}
	var gen2 nnueGen
	if err := readJSON(filepath.Join(fresh, "gen-0001", "selfplay.json"), &gen2); err != nil {
		t.Fatal(err)
	}
	win, err := data.ReadManifest(filepath.Join(fresh, "gen-0001", "window.tsv"), "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	seen := first.Set()
	var newPos, extra int64
	for _, e := range win.Entries {
		old := strings.HasPrefix(e.Name, "old-")
		if old != seen[e.SHA256] {
			t.Errorf("window shard %s: in 000005's manifest %v", e.Name, seen[e.SHA256])
		}
		if !old {
			newPos += int64(e.Examples)
		}
		if strings.HasPrefix(e.Name, "by-") {
			extra += int64(e.Examples)
		}
	}
	// The split holds out one shard: at least one of the two new extra shards is trained on.
	if extra == 0 || newPos-extra > gen2.Positions || len(win.Entries) < 3 {
		t.Fatalf("fresh window: %d new positions, %d of them in the extra shards, the data stage made %d", newPos, extra, gen2.Positions)
	}
	if r := lastRow(t, models); r.Net != "000006" || r.Parent != "000005" || r.PositionsNew != newPos || r.PositionsTotal != row.PositionsTotal+newPos {
		t.Fatalf("fresh run's provenance row %+v, want 000006 on %d + %d (data stage) + %d (extra) positions", r, row.PositionsTotal, gen2.Positions, extra)
	}
	if _, err := data.ReadManifest(filepath.Join(models, "000006-window.tsv"), "bacteria-war"); err != nil {
		t.Errorf("000006's window manifest: %v", err)
	}
}

// tinyNNUEConfig is the configuration of a tiny NNUE generation on the nets in models: two
// games of data, four training steps, and a gate that promotes unless all its games are drawn
// (see TestNNUECycle).
func tinyNNUEConfig(t *testing.T, models string) Config {
	cfg := DefaultConfig()
	cfg.Models, cfg.Agent, cfg.Workers = models, buildAgent(t), 1
	cfg.TrainSteps, cfg.Batch, cfg.Window = 4, 16, 10_000
	cfg.GateClock, cfg.GateParallel, cfg.GateOpenings, cfg.Promote = 3*time.Second, 1, 2, 0
	n := DefaultNNUE()
	n.Games, n.Duration, n.Nodes, n.SoftNodes = 2, 0, 300, 200
	n.SPRT, n.SPRTGames, n.SPRTClock, n.ConfirmGames = "-1000,-200,0.45,0.45", 4, 10*time.Second, 2
	n.SPRTNodes = 300
	cfg.NNUE = n
	return cfg
}

// TestNNUECycleWindowLineage: when the best net reads the 2x2 window input, a generation plays
// its data with it, warm-starts the candidate from it (the window input and the step carry
// over; with Widen and Buckets, from the best net widened by 16 lanes and copied into 4 output
// buckets, the same function), gates it and promotes it with a provenance row that names the
// window arch, its lanes and its buckets. A best net with another bucket count or more lanes
// is refused, and so are bucket counts outside 2..16 and widths not a multiple of 16.
func TestNNUECycleWindowLineage(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	models := nnueModels(t)
	best := filepath.Join(models, "000004.nnue")
	w, err := nnue.ToWindows(mustLoad(t, best), 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Save(best); err != nil {
		t.Fatal(err)
	}
	cfg := tinyNNUEConfig(t, models)
	cfg.NNUE.Buckets = 4
	cfg.NNUE.Widen = w.Arch.Hidden + 16
	run := filepath.Join(t.TempDir(), "run")
	cy, err := Open(run, g, cfg, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cy.Generation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(models, "000005.nnue")
	if !res.Promoted || res.Model != want {
		t.Fatalf("gate result: %+v %+v", res, res.NNUE)
	}
	m := mustLoad(t, want)
	wantArch := w.Arch
	wantArch.Buckets, wantArch.Hidden = 4, w.Arch.Hidden+16
	if m.Arch != wantArch || m.Step != w.Step+4 {
		t.Fatalf("promoted net %s at step %d, want %s at step %d", m.Arch, m.Step, wantArch, w.Step+4)
	}
	if row := lastRow(t, models); row.Net != "000005" || row.Parent != "000004" || row.Arch != wantArch.String() ||
		!strings.Contains(row.Arch, "windows") || !strings.Contains(row.Arch, "buckets 4") {
		t.Fatalf("provenance row %+v, want the window arch %s", row, wantArch)
	}
	starts, _ := filepath.Glob(filepath.Join(run, "*", "*.start"))
	if len(starts) != 1 {
		t.Fatalf("converted start nets: %v", starts)
	}
	start := mustLoad(t, starts[0])
	for _, pieces := range [][2]uint64{{0b11, 0b1100}, {1<<49 - 1 - 0xFF, 0x0F}, {0x1F0F0F0F, 0xF0F0F0F0F0}} {
		if x, y := w.Forward(pieces, 1), start.Forward(pieces, 1); x != y || start.Arch != wantArch {
			t.Fatalf("start net %s: logit %v, the best net's %v", start.Arch, y, x)
		}
	}
	// The promoted net has 4 buckets: a generation asking for 8 is refused before training.
	err = trainNNUE(context.Background(), io.Discard, nnueTraining{Game: g, Best: want, Out: filepath.Join(t.TempDir(), "c.nnue"), NNUERecipe: NNUERecipe{Buckets: 8}})
	if err == nil || !strings.Contains(err.Error(), "has 4 output buckets") {
		t.Fatalf("best net with 4 buckets, generation with 8: %v", err)
	}
	err = trainNNUE(context.Background(), io.Discard, nnueTraining{Game: g, Best: want, Out: filepath.Join(t.TempDir(), "c.nnue"), NNUERecipe: NNUERecipe{Widen: w.Arch.Hidden}})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has %d lanes", w.Arch.Hidden+16)) {
		t.Fatalf("best net of %d lanes, generation with %d: %v", w.Arch.Hidden+16, w.Arch.Hidden, err)
	}
	for _, h := range []int{-16, 24} {
		n := DefaultNNUE()
		n.Widen = h
		if err := n.check(); err == nil || !strings.Contains(err.Error(), "widen") {
			t.Errorf("widen %d: %v", h, err)
		}
	}
	for _, b := range []int{-1, 1, 17} {
		n := DefaultNNUE()
		n.Buckets = b
		if err := n.check(); err == nil || !strings.Contains(err.Error(), "output buckets") {
			t.Errorf("buckets %d: %v", b, err)
		}
	}
}

// nnueModels returns a nets' directory holding a copy of the shipped 000004.nnue and the
// provenance rows up to it.
func nnueModels(t *testing.T) string {
	t.Helper()
	models := filepath.Join(t.TempDir(), "nnue")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	shipped := filepath.Join("..", "models", "bacteria-war", "nnue")
	for _, f := range []string{"000004.nnue", "provenance.tsv"} {
		if err := copyFile(filepath.Join(shipped, f), filepath.Join(models, f)); err != nil {
			t.Fatal(err)
		}
	}
	// The test starts from 000004 whatever has shipped since: the rows of later nets go.
	prov := filepath.Join(models, "provenance.tsv")
	b, err := os.ReadFile(prov)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if net, _, _ := strings.Cut(l, "\t"); len(net) == 6 && net > "000004" && !strings.HasPrefix(l, "#") {
			continue
		}
		kept = append(kept, l)
	}
	if err := os.WriteFile(prov, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return models
}

func mustLoad(t *testing.T, path string) *nnue.Model {
	t.Helper()
	m, err := nnue.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func lastRow(t *testing.T, models string) ProvRow {
	t.Helper()
	rows, err := ReadProvenance(filepath.Join(models, "provenance.tsv"), "bacteria-war")
	if err != nil || len(rows) == 0 {
		t.Fatalf("provenance: %d rows, %v", len(rows), err)
	}
	return rows[len(rows)-1]
}

// The fast gate passes on H1, or at the game cap undecided when the candidate's 95% Elo
// interval lies wholly above elo0 (generation 1 of the first long run: 61.7% over 300 games
// at 2 s, +83 ± 41, LLR 2.00 of 2.94, was rejected before this rule); H0 and an interval
// reaching elo0 reject.
func TestSPRTPasses(t *testing.T) {
	r := arena.SPRTResult{Elo0: 0, Elo1: 10}
	for _, c := range []struct {
		verdict  string
		elo, err float64
		want     bool
	}{
		{"H1", 5, 40, true},
		{"H0", 90, 40, false},
		{"", 83, 41, true},
		{"", 30, 41, false},
		{"", 41, 41, false},
		{"", -20, 30, false},
	} {
		r.Verdict = c.verdict
		if got := sprtPasses(r, c.elo, c.err); got != c.want {
			t.Errorf("verdict %q, Elo %+.0f ± %.0f: passes %v, want %v", c.verdict, c.elo, c.err, got, c.want)
		}
	}
	r.Elo0, r.Verdict = 50, ""
	if sprtPasses(r, 83, 41) {
		t.Error("elo0 50, +83 ± 41: the interval reaches elo0, want a rejection")
	}
}

// TestNNUEReferenceGate gates a candidate that is the best net itself (its file differs only
// in the training step it records) through the reference gate: the two nets play the
// reference engine (Colony's classical alpha-beta at a fixed node budget) on the same
// openings and, both deterministic, score the same in every game, so the paired sign test is
// exactly 0. At the default bound (z <= -1.645 rejects) the candidate is
// promoted with the reference games in its gate and provenance; at a bound of 0 it is rejected
// before the confirm games, and no net is written.
func TestNNUEReferenceGate(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		minZ    float64
		promote bool
	}{{DefaultNNUE().RefMinZ, true}, {0, false}} {
		models := nnueModels(t)
		cfg := tinyNNUEConfig(t, models)
		n := cfg.NNUE
		n.Ref, n.RefGames, n.RefMinZ = []string{cfg.Agent, "-game", "bacteria-war", "-engine", "alphabeta", "-nodes", "200"}, 2, c.minZ
		cy, err := Open(filepath.Join(t.TempDir(), "run"), g, cfg, testLog{t})
		if err != nil {
			t.Fatal(err)
		}
		// The generation's candidate is the best net, its gate the next stage.
		gen := cy.genDir()
		if err := os.MkdirAll(gen, 0o755); err != nil {
			t.Fatal(err)
		}
		m := mustLoad(t, cy.State().Best)
		m.Step++
		if err := m.Save(filepath.Join(gen, "candidate.nnue")); err != nil {
			t.Fatal(err)
		}
		if err := cy.save(StageGate); err != nil {
			t.Fatal(err)
		}
		res, err := cy.Generation(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.NNUE == nil || res.NNUE.Ref == nil {
			t.Fatalf("min z %v: no reference gate in %+v", c.minZ, res)
		}
		r := res.NNUE.Ref
		if r.Games != 2 || r.Z != 0 || r.CandidateBetter != 0 || r.BestBetter != 0 || r.Candidate != r.Best || r.MinZ != c.minZ {
			t.Errorf("min z %v: reference gate %+v, want 2 games scored alike (z 0)", c.minZ, r)
		}
		if res.Promoted != c.promote {
			t.Fatalf("min z %v: promoted %v, want %v (%+v)", c.minZ, res.Promoted, c.promote, r)
		}
		confirmed := res.NNUE.ConfirmGames > 0
		if confirmed != c.promote {
			t.Errorf("min z %v: %d confirm games (a rejection by the reference plays none)", c.minZ, res.NNUE.ConfirmGames)
		}
		for _, side := range []string{"candidate", "best"} {
			var sum arena.Summary
			if err := readJSON(filepath.Join(gen, "arena-ref-"+side, "summary.json"), &sum); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(sum.ACmd, " -nodes 300") || !strings.Contains(sum.BCmd, "-engine alphabeta -nodes 200") {
				t.Errorf("reference run of the %s: A %q, B %q", side, sum.ACmd, sum.BCmd)
			}
		}
		_, err = os.Stat(filepath.Join(models, "000005.nnue"))
		if c.promote {
			row := lastRow(t, models)
			if err != nil || row.Net != "000005" || !strings.Contains(row.Gate, "; reference ") || !strings.Contains(row.Gate, " over 2 games, ") {
				t.Errorf("promoted net: %v; provenance gate %q", err, row.Gate)
			}
		} else if err == nil {
			t.Error("a candidate rejected by the reference gate was written as 000005.nnue")
		}
	}
}

// TestNNUEGateOnly: a net trained elsewhere (here 000004 widened by 16 lanes and a step further)
// is gated as the generation's candidate with no data or training of the cycle's, and promoted
// with its training log and window manifest: its provenance row counts the manifest's shards
// that are in no window of its parent's line, and the steps past its parent. A net of another
// game or input, or one that does not load, is refused before anything is gated.
func TestNNUEGateOnly(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	models := nnueModels(t)
	parent := mustLoad(t, filepath.Join(models, "000004.nnue"))
	hash := func(c byte) string { return strings.Repeat(string(c), 64) }
	if err := data.WriteManifest(filepath.Join(models, "000004-"+windowManifest), data.Manifest{Game: "bacteria-war",
		Entries: []data.ManifestEntry{{SHA256: hash('a'), Examples: 10, Name: "a.shard"}}}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cand := filepath.Join(dir, "wide.nnue")
	wide, err := nnue.Widen(parent, parent.Arch.Hidden+16, 7)
	if err != nil {
		t.Fatal(err)
	}
	wide.Step += 3
	if err := wide.Save(cand); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wide-train.log"), []byte("trained elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := data.WriteManifest(filepath.Join(dir, "wide-"+windowManifest), data.Manifest{Game: "bacteria-war",
		Entries: []data.ManifestEntry{{SHA256: hash('a'), Examples: 10, Name: "a.shard"}, {SHA256: hash('b'), Examples: 7, Name: "b.shard"}}}); err != nil {
		t.Fatal(err)
	}
	cy, err := Open(filepath.Join(t.TempDir(), "run"), g, tinyNNUEConfig(t, models), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	// Refused: a file that is no net, and a net for another board.
	junk := filepath.Join(dir, "junk.nnue")
	if err := os.WriteFile(junk, []byte("not a net"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := parent.Arch
	other.Cells = 36
	otherFile := filepath.Join(dir, "other.nnue")
	if err := nnue.NewModel(other).Save(otherFile); err != nil {
		t.Fatal(err)
	}
	for bad, why := range map[string]string{junk: "nnue", otherFile: "not for this run's game and input"} {
		if _, err := cy.GateOnly(context.Background(), bad); err == nil || !strings.Contains(err.Error(), why) {
			t.Fatalf("gate-only %s: %v, want %q", bad, err, why)
		}
	}
	res, err := cy.GateOnly(context.Background(), cand)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(models, "000005.nnue")
	if !res.Promoted || res.Model != want {
		t.Fatalf("gate result: %+v %+v", res, res.NNUE)
	}
	if m := mustLoad(t, want); m.SHA256() != wide.SHA256() {
		t.Fatalf("promoted %s, want the gated net %s", m.Arch, wide.Arch)
	}
	row := lastRow(t, models)
	if row.Net != "000005" || row.Parent != "000004" || row.Arch != wide.Arch.String() || row.PositionsNew != 7 || row.Steps != 3 {
		t.Fatalf("provenance row %+v: want 7 new positions, 3 steps, arch %s", row, wide.Arch)
	}
	if b, err := os.ReadFile(filepath.Join(models, "000005-train.log")); err != nil || string(b) != "trained elsewhere\n" {
		t.Fatalf("training log: %q %v", b, err)
	}
	if !fileExists(filepath.Join(models, "000005-"+windowManifest)) {
		t.Fatal("the window manifest was not kept with the net")
	}

	// A fresh net (trained from a random start, fewer steps than its parent's line) is gated
	// the same way; its row has no parent, counts all of its own steps, and all of its window
	// (shards its parent's line saw too) as new and as all that stands behind it.
	freshArch := wide.Arch
	freshArch.Hidden += 16
	fresh := nnue.NewRandom(freshArch, 11)
	fresh.Step = 5
	freshFile := filepath.Join(dir, "fresh.nnue")
	if err := fresh.Save(freshFile); err != nil {
		t.Fatal(err)
	}
	if err := data.WriteManifest(filepath.Join(dir, "fresh-"+windowManifest), data.Manifest{Game: "bacteria-war",
		Entries: []data.ManifestEntry{{SHA256: hash('a'), Examples: 10, Name: "a.shard"}, {SHA256: hash('c'), Examples: 4, Name: "c.shard"}}}); err != nil {
		t.Fatal(err)
	}
	cy, err = Open(filepath.Join(t.TempDir(), "run2"), g, tinyNNUEConfig(t, models), testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if res, err = cy.GateOnly(context.Background(), freshFile); err != nil || !res.Promoted {
		t.Fatalf("gate-only of a fresh net: %+v, %v", res, err)
	}
	if row := lastRow(t, models); row.Net != "000006" || row.Parent != "-" || row.Steps != 5 || row.Arch != freshArch.String() ||
		row.PositionsNew != 14 || row.PositionsTotal != 14 {
		t.Fatalf("fresh net's provenance row %+v: want 000006 with no parent, 5 steps, 14 positions new and behind it, arch %s", row, freshArch)
	}
}
