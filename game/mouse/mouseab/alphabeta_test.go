package mouseab

import (
	"testing"
	"time"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/engine/enginetest"
	"colony/game/mouse"
	"colony/game/mouse/mousegreedy"
	"colony/game/mouse/mousetest"
	"colony/game/mouse/solve"
)

func TestLegalInRandomGames(t *testing.T) {
	e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
	games := 6
	if testing.Short() {
		games = 2
	}
	mousetest.LegalInRandomGames(t, e, games, func(i int) engine.Limits {
		if i%3 == 0 {
			return engine.Limits{MoveTime: 3 * time.Millisecond}
		}
		return engine.Limits{Depth: 1 + i%4}
	})
}

func TestFindsWins(t *testing.T) {
	for _, c := range mousetest.WinCases {
		t.Run(c.Name, func(t *testing.T) {
			p := mousetest.MustDiagram(t, c.Diagram, c.Side)
			me := p.ToMove()
			if !mousetest.WinsWithin(p, c.Plies, me) {
				t.Fatalf("bad test: no forced win within %d plies", c.Plies)
			}
			if c.Plies > 1 && mousetest.WinsWithin(p, c.Plies-2, me) {
				t.Fatalf("bad test: a faster win exists")
			}
			e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
			m := e.BestMove(p, engine.Limits{Depth: c.Plies + 1})
			if !p.IsLegal(m) {
				t.Fatalf("illegal move %v", m)
			}
			if !mousetest.WinsWithin(p.Apply(m), c.Plies-1, me) {
				t.Fatalf("move %v does not force the win within %d plies", m, c.Plies)
			}
			if _, s, _ := e.Stats(); s < winBound {
				t.Fatalf("score %d, want a proven win", s)
			}
			// On a clock too.
			e.NewGame()
			if m := e.BestMove(p, engine.Limits{MyTime: time.Second}); !mousetest.WinsWithin(p.Apply(m), c.Plies-1, me) {
				t.Fatalf("on a clock: move %v does not force the win within %d plies", m, c.Plies)
			}
		})
	}
}

// TestSeesTheLoss: the side that loses the race knows it.
func TestSeesTheLoss(t *testing.T) {
	for _, c := range mousetest.WinCases {
		if c.Plies < 3 {
			continue
		}
		p := mousetest.MustDiagram(t, c.Diagram, c.Side)
		var m mouse.Move
		for _, mm := range p.LegalMoves(nil) {
			if mousetest.WinsWithin(p.Apply(mm), c.Plies-1, c.Side) {
				m = mm
				break
			}
		}
		q := p.Apply(m)
		if q.CountMoves() < 2 {
			continue // a forced move is answered without a search
		}
		e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
		e.BestMove(q, engine.Limits{Depth: c.Plies})
		if _, s, _ := e.Stats(); s > -winBound {
			t.Errorf("%s: the loser scores %d after %v", c.Name, s, m)
		}
	}
}

// TestUnstoppableMouse: the evaluation sees a mouse no defender reaches in time, for either
// side to move, and no such mouse where Nadori catches it.
func TestUnstoppableMouse(t *testing.T) {
	for _, miceRole := range []bool{true, false} {
		testUnstoppable(t, miceRole)
	}
}

func testUnstoppable(t *testing.T, miceRole bool) {
	free := mousetest.MustDiagram(t, `
		R R R . R R R R R R R
		. . . . . . . . . . .
		. . . R . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .`, mouse.Mice)
	if v := evaluate(&free, miceRole); v < winish-1000 {
		t.Errorf("mice profile %v: a lone mouse against nobody: %d", miceRole, v)
	}
	runner := mousetest.MustDiagram(t, `
		R R R R R R R R . R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . R . .
		C C . C C N . . . . .
		. . . . . . . . . . .`, mouse.Team)
	// Team to move: the mouse on row 5 needs two steps; no cat sees (6,9) and Nadori is
	// three columns away: unstoppable.
	if v := evaluate(&runner, miceRole); v > -(winish - 1000) {
		t.Errorf("mice profile %v: runner, team to move: %d, want about -%d", miceRole, v, winish)
	}
	caught := mousetest.MustDiagram(t, `
		R R R R R R R R . R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . R . .
		C C . C C . . N . . .
		. . . . . . . . . . .`, mouse.Team)
	if v := evaluate(&caught, miceRole); v < -(winish - 1000) {
		t.Errorf("mice profile %v: Nadori next to the runner's path: %d, want no win", miceRole, v)
	}
	guarded := mousetest.MustDiagram(t, `
		R R R R R R R R . R R
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . R . .
		C C . C . N . . . . C
		. . . . . . . . . . .`, mouse.Team)
	if v := evaluate(&guarded, miceRole); v < -(winish - 1000) {
		t.Errorf("mice profile %v: a cat sees the runner's path: %d, want no win", miceRole, v)
	}
}

func TestTableKeepsScoreAndDeterministic(t *testing.T) {
	ps := []mouse.Position{mouse.Start()}
	for _, s := range []string{
		".RRR....R.R/R...R.RRCR./.....R...../.........../....N.C..../C.........C/........... N",
		"R..RRR...RR/.RR.C.RRR../.........../.....C...../.........C./.....NC..../........... R",
	} {
		p, err := mouse.ParseBoard(s)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	for _, p := range ps {
		enginetest.CheckDeterministic(t, func() enginetest.Engine[mouse.Position, mouse.Move] {
			return NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
		}, p, engine.Limits{Depth: 4})
	}
}

func TestLimits(t *testing.T) {
	p := mouse.Start().Apply(mouse.MouseStep(5))
	e := New()
	start := time.Now()
	if m := e.BestMove(p, engine.Limits{MoveTime: 30 * time.Millisecond}); !p.IsLegal(m) {
		t.Fatalf("illegal move %v", m)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("movetime 30ms took %v", el)
	}
	e.BestMove(p, engine.Limits{Nodes: 5000})
	if _, _, n := e.Stats(); n > 5000+maxPly {
		t.Fatalf("node limit 5000: searched %d", n)
	}
	for _, my := range []time.Duration{100 * time.Millisecond, 10 * time.Millisecond, time.Millisecond} {
		start := time.Now()
		if m := e.BestMove(p, engine.Limits{MyTime: my}); !p.IsLegal(m) {
			t.Fatalf("illegal move %v", m)
		}
		if el := time.Since(start); el > time.Second+my {
			t.Fatalf("my_time %v: took %v", my, el)
		}
	}
	soft, hard := ClockBudget(&p, 10*time.Second, 0)
	if soft <= 0 || hard < soft || hard > 10*time.Second/3 {
		t.Fatalf("10s: soft %v hard %v", soft, hard)
	}
}

func TestNoAllocs(t *testing.T) {
	p := mouse.Start().Apply(mouse.MouseStep(5))
	e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
	e.BestMove(p, engine.Limits{Depth: 3})
	if allocs := testing.AllocsPerRun(3, func() { e.BestMove(p, engine.Limits{Depth: 3}) }); allocs != 0 {
		t.Fatalf("%v allocations per search", allocs)
	}
}

// TestWholeGameOnAShortClock: whole games at a 1 s clock never run out, for either role (the
// opponent is greedy, so that the game runs long), charging 0.5 ms a move for the pipes.
func TestWholeGameOnAShortClock(t *testing.T) {
	for role := range 2 {
		ab := NewWithOptions(Options{Options: ab.Options{HashMB: 8, Seed: uint64(role + 1)}})
		g := mousegreedy.New(uint64(role))
		a, b := mousetest.Engine(ab), mousetest.Engine(g)
		if role == mouse.Team {
			a, b = b, a
		}
		end, left := mousetest.ClockedGame(t, a, b, mouse.Start(), time.Second, 500*time.Microsecond)
		t.Logf("alphabeta as %s: %s; time left %v", mouse.Info.PlayerNames[role], end.Outcome(), left[role])
	}
}

func BenchmarkSearch(b *testing.B) {
	p, err := mouse.ParseBoard(".RRR....R.R/R...R.RRCR./.....R...../.........../....N.C..../C.........C/........... N")
	if err != nil {
		b.Fatal(err)
	}
	e := New()
	var nodes int64
	for b.Loop() {
		e.NewGame()
		e.BestMove(p, engine.Limits{Depth: 7})
		_, _, n := e.Stats()
		nodes += n
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestPlaysProvenWin: once the prover finds a forced win, the engine plays a move that keeps
// it (the mice to move, a win in 7 plies that the prover finds at once).
func TestPlaysProvenWin(t *testing.T) {
	p, err := mouse.ParseBoard("...R.R..R../.RR.R.RR.../R......C..R/.CC......../.....N..CR./.........../........... N")
	if err != nil {
		t.Fatal(err)
	}
	pr := solve.New(4)
	want := pr.Solve(p, solve.Limits{Depth: 9})
	if want.Winner != mouse.Mice || want.Depth != 8 {
		t.Fatalf("the prover says %+v, want a mice win in 8", want)
	}
	var buf [mouse.MaxMoves]mouse.Move
	p = p.Apply(p.LegalMoves(buf[:0])[0]) // any team move: the mice still win
	r := pr.Solve(p, solve.Limits{Depth: 7})
	if r.Winner != mouse.Mice {
		t.Fatalf("after a team move: %+v", r)
	}
	for _, lim := range []engine.Limits{{Nodes: 20000}, {MyTime: 5 * time.Second}} {
		e := NewWithOptions(Options{Options: ab.Options{HashMB: 4}})
		m := e.BestMove(p, lim)
		_, score, _ := e.Stats()
		if score < WinBound {
			t.Errorf("%+v: score %d, want a proven win", lim, score)
		}
		if w, _ := solve.New(4).Wins(p.Apply(m), mouse.Mice, r.Depth-1); !w {
			t.Errorf("%+v: move %v does not keep the win in %d", lim, m, r.Depth)
		}
	}
}

// TestAvoidsProvenLosses: when the prover shows that some moves of the team lose and others
// do not, the engine plays one of the others (team positions from quick self-play games).
func TestAvoidsProvenLosses(t *testing.T) {
	const depth = 7
	checked, games := 0, 0
	for seed := uint64(1); seed <= 12 && checked < 6; seed++ {
		games++
		a := NewWithOptions(Options{Options: ab.Options{HashMB: 2, Seed: seed}, SolveMB: -1})
		p := mouse.Start()
		for !p.Terminal() && checked < 6 {
			if p.ToMove() == mouse.Team && p.MouseStepsLeft() <= 45 {
				var buf [mouse.MaxMoves]mouse.Move
				moves := p.LegalMoves(buf[:0])
				lost, safe := 0, 0
				pr := solve.New(8)
				for _, m := range moves {
					if w, _ := pr.Wins(p.Apply(m), mouse.Mice, depth-1); w {
						lost++
					} else {
						safe++
					}
				}
				if lost > 0 && safe > 0 {
					checked++
					e := NewWithOptions(Options{Options: ab.Options{HashMB: 4, Seed: seed}})
					m := e.BestMove(p, engine.Limits{Nodes: 100000})
					if w, _ := pr.Wins(p.Apply(m), mouse.Mice, depth-1); w {
						t.Errorf("move %v loses within %d plies; %d of %d moves do not\n%s", m, depth, safe, len(moves), p.Diagram())
					}
				}
			}
			p = p.Apply(a.BestMove(p, engine.Limits{Nodes: 3000}))
		}
	}
	if checked == 0 {
		t.Fatalf("no position with losing and saving moves in %d games", games)
	}
	t.Logf("%d positions with losing and saving moves in %d games", checked, games)
}

// TestEvalCacheKeepsResults: the evaluation cache changes no search result, for either
// profile, when one engine searches positions of both sides in turn (their leaves overlap).
func TestEvalCacheKeepsResults(t *testing.T) {
	cached := NewWithOptions(Options{Options: ab.Options{HashMB: 4}, SolveMB: -1})
	p := mouse.Start()
	for ply := range 12 {
		plain := NewWithOptions(Options{Options: ab.Options{HashMB: 4}, SolveMB: -1, noEvalCache: true})
		cached.NewGame()
		mc := cached.BestMove(p, engine.Limits{Depth: 4})
		mp := plain.BestMove(p, engine.Limits{Depth: 4})
		dc, sc, nc := cached.Stats()
		dp, sp, np := plain.Stats()
		if mc != mp || dc != dp || sc != sp || nc != np {
			t.Fatalf("ply %d: cached %v %d %d %d, plain %v %d %d %d", ply, mc, dc, sc, nc, mp, dp, sp, np)
		}
		if got, want := cached.Score(&p, 2), plain.Score(&p, 2); got != want {
			t.Fatalf("ply %d: Score cached %d, plain %d", ply, got, want)
		}
		p = p.Apply(mp)
	}
}
