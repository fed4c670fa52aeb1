package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"colony/arena"
	"colony/store"
)

// TestGateCountsAndRefuses: the coordinator counts each valid pair object once into the
// pentanomial, refuses pairs of another best net, format version or game, a malformed
// object and a score that is no game result, stops at its cap, and a coordinator started
// again after the stop (a restarted trainer) reaches the same gate without counting twice.
func TestGateCountsAndRefuses(t *testing.T) {
	ctx := context.Background()
	st := mustStore(t, "file://"+t.TempDir())
	task := testGateTask(3)
	put := func(worker, seq int, edit func(p *GatePair)) { putGatePair(t, st, &task, worker, seq, edit) }
	keep := func(*GatePair) {}
	put(0, 0, keep)                                                   // 1.5 points
	put(0, 1, func(p *GatePair) { p.Scores = [2]float64{0, 0} })      // 0
	put(1, 0, func(p *GatePair) { p.Scores = [2]float64{1, 1} })      // 2
	put(1, 1, func(p *GatePair) { p.Best = strings.Repeat("d", 64) }) // another best net
	put(1, 2, func(p *GatePair) { p.Version = 2 })
	put(1, 3, func(p *GatePair) { p.Game = "slime" })
	put(1, 4, func(p *GatePair) { p.Scores = [2]float64{0.7, 0} })
	if err := st.Put(ctx, pairKey(&task, 2, 0), []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	sprt, _ := arena.ParseSPRT("0,1,0.001,0.001") // cannot decide in 3 pairs
	run := func() *NNUEGate {
		g := &Gate{Store: st, Task: task, SPRT: sprt, MaxPairs: 3, Grace: time.Second, Poll: 10 * time.Millisecond, Log: testLog{t}}
		out, err := g.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	g := run()
	if g.Pairs != 3 || g.Decided != 3 || g.Pentanomial != [5]int{1, 0, 0, 1, 1} || g.Refused != 5 || g.SPRT.Verdict != "" || len(g.PairKeys) != 3 || g.SPRT.DecidedAt != 0 {
		t.Fatalf("gate %+v", g)
	}
	if s := arena.PairEstimate(g.Pentanomial).Score; s != (0+0.75+1)/3 || g.SPRTScore != s || g.SPRTGames != 6 {
		t.Fatalf("score %v (%v), %d games", g.SPRTScore, s, g.SPRTGames)
	}
	if _, err := st.Get(ctx, task.Prefix()+"/stop"); err != nil {
		t.Fatalf("no stop object: %v", err)
	}
	var cur GateTask
	if b, err := st.Get(ctx, "gate/current.json"); err != nil || json.Unmarshal(b, &cur) != nil || cur != task {
		t.Fatalf("gate/current.json: %+v, %v", cur, err)
	}
	again := run()
	if fmt.Sprint(again.PairKeys) != fmt.Sprint(g.PairKeys) || again.Pentanomial != g.Pentanomial {
		t.Fatalf("the restarted coordinator: %+v, first %+v", again, g)
	}
}

// TestGateRecordsDecision: a gate that decides keeps the LLR and the pairs counted at that
// moment beside its final LLR.
func TestGateRecordsDecision(t *testing.T) {
	ctx := context.Background()
	st := mustStore(t, "file://"+t.TempDir())
	task := testGateTask(4)
	for seq := 0; seq < 3; seq++ {
		putGatePair(t, st, &task, 0, seq, func(p *GatePair) { p.Scores = [2]float64{1, 1} })
	}
	sprt, _ := arena.ParseSPRT("-1000,-200,0.45,0.45") // decides H1 at once on won pairs
	g := &Gate{Store: st, Task: task, SPRT: sprt, MaxPairs: 100, Grace: time.Second, Poll: 10 * time.Millisecond, Log: testLog{t}}
	out, err := g.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := out.SPRT
	if s.Verdict != "H1" || s.DecidedAt != out.Decided || s.DecidedAt < 1 || s.DecidedAt > 3 || s.DecidedLLR < s.Upper || s.DecidedLLR > s.LLR {
		t.Fatalf("gate %+v, SPRT %+v", out, s)
	}
}

// testGateTask is a gate task of generation gen between two made-up nets.
func testGateTask(gen int) GateTask {
	return GateTask{Format: GateTaskFormat, Version: GateVersion, Game: "bacteria-war", Generation: gen,
		Candidate: strings.Repeat("c", 64), Best: strings.Repeat("b", 64), Engine: "nnab", Nodes: 100, Seed: 1}
}

// putGatePair stores a valid pair object of task (the candidate scoring 1 and ½), changed by
// edit first.
func putGatePair(t *testing.T, st store.Store, task *GateTask, worker, seq int, edit func(p *GatePair)) {
	t.Helper()
	p := GatePair{Format: GatePairFormat, Version: GateVersion, Game: task.Game, Generation: task.Generation,
		Candidate: task.Candidate, Best: task.Best, Worker: worker, Seq: seq, Scores: [2]float64{1, 0.5}}
	edit(&p)
	b, _ := json.Marshal(p)
	if err := st.Put(context.Background(), pairKey(task, worker, seq), b); err != nil {
		t.Fatal(err)
	}
}
