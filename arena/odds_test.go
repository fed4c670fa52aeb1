package arena

import (
	"context"
	"testing"
	"time"
)

// TestTimeOdds: with B given five times A's clock, an agent that thinks 150 ms a move runs
// out of time as A and not as B; the records say both clocks and replay.
func TestTimeOdds(t *testing.T) {
	rules := bacteria(t)
	slow := agent("-mode", "slow", "-think", "150ms", "-seed", "{seed}")
	cfg := Config{Rules: rules, A: slow, B: slow, Games: 2, Parallel: 2, Clock: 600 * time.Millisecond,
		ClockB: 60 * time.Second, Seed: 3, OutDir: t.TempDir()}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ATLE != 2 || sum.BTLE != 0 || sum.BWins != 2 || sum.ClockMs != 600 || sum.BClockMs != 60000 {
		t.Fatalf("summary %+v", sum)
	}
	for _, name := range []string{"game-00000.json", "game-00001.json"} {
		r := readRecord(t, cfg.OutDir+"/"+name)
		if r.ClockMs != 600 || r.BClockMs != 60000 {
			t.Fatalf("%s: clocks %d/%d", name, r.ClockMs, r.BClockMs)
		}
		checkRecord(t, rules, r)
	}
}

// TestSPRTStopsMatch: against an agent that always plays an illegal move the test accepts
// H1 long before the games run out, and no new game starts after the verdict.
func TestSPRTStopsMatch(t *testing.T) {
	rules := bacteria(t)
	cfg := Config{Rules: rules, A: agent("-mode", "random", "-seed", "{seed}"), B: agent("-mode", "illegal"),
		Games: 200, Parallel: 2, Seed: 5, SPRT: &SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.SPRT == nil || sum.SPRT.Verdict != "H1" || sum.Games > 20 || sum.AWins != sum.Games {
		t.Fatalf("summary %+v, sprt %+v", sum, sum.SPRT)
	}
	// At most one more game per worker was started before the verdict was known.
	first := 0
	for n := 1; n <= sum.Games; n++ {
		if cfg.SPRT.Verdict(n, 0, 0) == "H1" {
			first = n
			break
		}
	}
	if first == 0 || sum.Games > first+cfg.Parallel {
		t.Fatalf("%d games played, the test decided at %d", sum.Games, first)
	}
}

func TestLadder(t *testing.T) {
	rules := bacteria(t)
	slow := agent("-mode", "slow", "-think", "150ms", "-seed", "{seed}")
	cfg := Config{Rules: rules, A: slow, B: slow, Games: 2, Parallel: 2, Clock: 600 * time.Millisecond, Seed: 3, OutDir: t.TempDir()}
	sums, err := Ladder(context.Background(), cfg, []time.Duration{600 * time.Millisecond, time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 2 || sums[0].BClockMs != 0 || sums[1].BClockMs != 60000 || sums[1].BTLE != 0 || sums[1].ATLE != 2 {
		t.Fatalf("ladder %+v %+v", sums[0], sums[1])
	}
	if _, err := ParseClocks("10s,20s,x"); err == nil {
		t.Fatal("ParseClocks accepted x")
	}
	if c, err := ParseClocks("10s, 80s"); err != nil || len(c) != 2 || c[1] != 80*time.Second {
		t.Fatalf("ParseClocks: %v %v", c, err)
	}
}
