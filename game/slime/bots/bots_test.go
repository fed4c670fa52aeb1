package bots

import (
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"colony/engine"
	"colony/game/slime"
)

// The contest page's example: GreedySlime, player 3, answers "4 0 2 2" (a jump converting 8).
func TestGreedyPageExample(t *testing.T) {
	p, err := slime.Parse("3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,333....4")
	if err != nil {
		t.Fatal(err)
	}
	if m := GreedyMove(p); m.String() != "4 0 2 2" {
		t.Errorf("greedy plays %v, the page says 4 0 2 2", m)
	}
}

func TestGreedyValues(t *testing.T) {
	// A merge filling 7 cells (value -1 + 7 = 6) beats a spread (value 1).
	p, _ := slime.Parse("1,1....,.1...,.....,.....,....2")
	if m := GreedyMove(p); !m.IsMerge() || m.String() != "0 0 1 1" {
		t.Errorf("greedy plays %v, want the merge 0 0 1 1", m)
	}
	// Equal values: the first source in reading order, then the first offset.
	q, _ := slime.Parse("1,1...,....,....,...2")
	if m := GreedyMove(q); m.String() != "0 0 0 1" {
		t.Errorf("greedy plays %v, want the first spread 0 0 0 1", m)
	}
	// No move: a pass.
	r, _ := slime.Parse("2,1...,....,....,...4")
	if m := GreedyMove(r); m != slime.Pass {
		t.Errorf("greedy without slime plays %v", m)
	}
}

func TestJumper(t *testing.T) {
	// 8x8: the target nearest (4, 4), never in row or column 0.
	p := slime.Start()
	if m := JumperMove(p); m.String() != "0 0 2 2" {
		t.Errorf("jumper plays %v at the start, want 0 0 2 2", m)
	}
	q, _ := slime.Parse("4,1......2,........,........,........,........,........,........,3......4")
	if m := JumperMove(q); m.String() != "7 7 5 5" {
		t.Errorf("jumper (4) plays %v, want 7 7 5 5", m)
	}
	// Only row-0 targets: a pass.
	r, _ := slime.Parse("1,1.22,2222,2222,2222")
	if m := JumperMove(r); m != slime.Pass {
		t.Errorf("jumper plays %v with only row 0 free nearby, want a pass", m)
	}
}

func TestSimplebot(t *testing.T) {
	s := NewSimplebot(1)
	p, _ := slime.Parse("1,11..,....,....,...2")
	counts := map[string]int{}
	for range 3000 {
		m := s.BestMove(p, engine.Limits{})
		if !m.IsSpread() {
			t.Fatalf("simplebot plays %v with spreads available", m)
		}
		counts[m.String()]++
	}
	// Spread targets (1,0) and (1,1) touch both slimes (2 pairs each), (0,2) and (1,2) one.
	if len(counts) != 4 || counts["0 0 1 0"] < 2*counts["0 1 0 2"]*7/10 {
		t.Errorf("spread counts %v: want pairs uniform", counts)
	}
	// No spread: a jump.
	q, _ := slime.Parse("1,12..,22..,....,....")
	for range 50 {
		if m := s.BestMove(q, engine.Limits{}); !m.IsJump() {
			t.Fatalf("simplebot plays %v with only jumps", m)
		}
	}
}

// TestEnginesLegal: every engine plays only legal moves (or a pass where offered) on random
// positions of several sizes, and the searches keep to their time.
func TestEnginesLegal(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	engines := []engine.Engine[slime.Position, slime.Move]{Greedy{}, Jumper{}, NewSimplebot(4), NewParanoid(), NewBestReply()}
	for _, n := range []int{4, 8, 11} {
		p := slime.StartSize(n)
		for ply := 0; ply < 80 && !p.Terminal(); ply++ {
			for _, e := range engines {
				start := cpuTime()
				m := e.BestMove(p, engine.Limits{MoveTime: 10 * time.Millisecond})
				// CPU time, not wall time: on the shared machine a 10 ms move was seen to
				// take 1 s of wall time for 8 ms of CPU.
				if took := cpuTime() - start; took > 60*time.Millisecond {
					t.Errorf("%s used %v of CPU for a 10 ms move", e.Name(), took)
				}
				if m == slime.Pass {
					if e.Name() != "jumper" && e.Name() != "simplebot" && !p.IsLegal(slime.Pass) {
						t.Fatalf("%s passes in %s", e.Name(), p)
					}
					continue
				}
				if !p.IsLegal(m) {
					t.Fatalf("%s plays %v in %s", e.Name(), m, p)
				}
				if e.Name() == "paranoid" && !slices.Contains(p.LegalMoves(nil), m) {
					t.Fatalf("%s plays a non-canonical %v", e.Name(), m)
				}
			}
			moves := p.LegalMoves(nil)
			p = p.Apply(moves[r.IntN(len(moves))])
		}
	}
}

// TestParanoidTakesTheBigCapture: with a capture of eight at hand, the search takes it.
func TestParanoidTakesTheBigCapture(t *testing.T) {
	p, _ := slime.Parse("3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,333....4")
	e := NewParanoid()
	m := e.BestMove(p, engine.Limits{Depth: 2})
	if p.Gain(m) < 7 {
		t.Errorf("paranoid plays %v (gain %d)", m, p.Gain(m))
	}
}

// cpuTime is the CPU time the test process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
