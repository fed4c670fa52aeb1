package mctsengine

import (
	"math/rand/v2"
	"testing"
	"time"

	"colony/engine"
	"colony/game/ataxx"
)

// randomMover plays uniformly random legal moves.
type randomMover struct{ rng *rand.Rand }

func (r randomMover) Name() string { return "random" }
func (r randomMover) NewGame()     {}
func (r randomMover) BestMove(p pos, _ engine.Limits) move {
	ms := p.LegalMoves(nil)
	return ms[r.rng.IntN(len(ms))]
}

// play plays one game, first moving as O, and returns the final position. Every move is
// checked for legality.
func play(t *testing.T, o, x engine.Engine[pos, move], lim engine.Limits) pos {
	t.Helper()
	o.NewGame()
	x.NewGame()
	p := ataxx.Start()
	for !p.Terminal() {
		e := o
		if p.ToMove() == ataxx.X {
			e = x
		}
		m := e.BestMove(p, lim)
		if !p.IsLegal(m) {
			t.Fatalf("%s played the illegal move %v in\n%s", e.Name(), m, p.Diagram())
		}
		p = p.Apply(m)
	}
	return p
}

func TestBeatsRandom(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 4
	}
	eng := newEngine(newRollout(1, 0), opts(Options[pos, move]{Playouts: 200, Seed: 1}))
	rnd := randomMover{rand.New(rand.NewPCG(1, 2))}
	wins, draws := 0, 0
	for g := range games {
		mctsSide := g % 2
		var end pos
		if mctsSide == ataxx.O {
			end = play(t, eng, rnd, engine.Limits{})
		} else {
			end = play(t, rnd, eng, engine.Limits{})
		}
		switch end.Winner() {
		case mctsSide:
			wins++
		case -1:
			draws++
		}
		t.Logf("game %d: mcts plays %c, final O %d X %d after %d turns", g, "OX"[mctsSide], end.Count(ataxx.O), end.Count(ataxx.X), end.Turns())
	}
	t.Logf("mcts (200 rollout playouts) vs random: %d wins, %d draws, %d losses of %d", wins, draws, games-wins-draws, games)
	if wins < games*9/10 {
		t.Fatalf("mcts won only %d of %d games against a random mover", wins, games)
	}
	if eng.Err() != nil {
		t.Fatal(eng.Err())
	}
}

func TestLimits(t *testing.T) {
	eng := newEngine(newRollout(2, 0), opts(Options[pos, move]{Seed: 2}))
	p := ataxx.Start()

	eng.BestMove(p, engine.Limits{Nodes: 77})
	if r := eng.LastResult(); r.Playouts != 77 {
		t.Errorf("Nodes 77: %d playouts", r.Playouts)
	}
	eng.NewGame()
	eng.BestMove(p, engine.Limits{})
	if r := eng.LastResult(); r.Playouts != DefaultPlayouts {
		t.Errorf("no limits: %d playouts, want %d", r.Playouts, DefaultPlayouts)
	}

	capped := newEngine(newRollout(2, 0), opts(Options[pos, move]{MaxPlayouts: 30}))
	capped.BestMove(p, engine.Limits{MoveTime: time.Second})
	if r := capped.LastResult(); r.Playouts != 30 {
		t.Errorf("MaxPlayouts 30 with a second to think: %d playouts", r.Playouts)
	}

	// Time limits win over the playout default: with Playouts 10 the searches below would
	// end in well under a millisecond if they were playout-limited. The upper bounds are
	// loose because the test machine may be loaded.
	timed := newEngine(newRollout(2, 0), opts(Options[pos, move]{Playouts: 10}))
	start := time.Now()
	timed.BestMove(p, engine.Limits{MoveTime: 200 * time.Millisecond})
	if d, r := time.Since(start), timed.LastResult(); r.Elapsed < 150*time.Millisecond || d > 3*time.Second {
		t.Errorf("MoveTime 200ms: searched %v (%d playouts), answered after %v", r.Elapsed, r.Playouts, d)
	}
	// A whole-game clock of 2 s: the turn-cap reserve is 200 moves x 2 ms = 400 ms, so the first
	// move gets (1.6s - 0.5s)/24 - 15ms = 31ms.
	timed.NewGame()
	start = time.Now()
	timed.BestMove(p, engine.Limits{MyTime: 2 * time.Second, OppTime: 2 * time.Second})
	if d, r := time.Since(start), timed.LastResult(); r.Elapsed < 25*time.Millisecond || d > 3*time.Second {
		t.Errorf("first move of a 2s game: searched %v (%d playouts), answered after %v", r.Elapsed, r.Playouts, d)
	}
}

// TestForcedMove: with one legal move (a pass) the engine answers at once, whatever the clock.
func TestForcedMove(t *testing.T) {
	p, err := ataxx.ParseDiagram(`
		. . O O O O O
		. . O O O O O
		O O O O O O O
		O O O O O O O
		X X X X X X X
		X X X X X X X
		X X X X X X X`, ataxx.X)
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(newRollout(3, 0), opts(Options[pos, move]{}))
	if m := eng.BestMove(p, engine.Limits{MoveTime: time.Hour}); m != ataxx.Pass {
		t.Fatalf("forced pass: played %v", m)
	}
}

// TestTreeReuse: after our move and the opponent's reply the next search starts from the
// subtree the previous one grew.
func TestTreeReuse(t *testing.T) {
	eng := newEngine(newRollout(4, 0), opts(Options[pos, move]{Playouts: 2000, Seed: 4}))
	p := ataxx.Start()
	m := eng.BestMove(p, engine.Limits{})
	p = p.Apply(m)
	p = p.Apply(p.LegalMoves(nil)[0])
	eng.BestMove(p, engine.Limits{})
	if r := eng.LastResult(); r.Reused == 0 || r.RootVisits != r.Reused+2000 {
		t.Fatalf("reused %d visits, root visits %d", r.Reused, r.RootVisits)
	}
}

// TestClock plays a game against itself on a short whole-game clock charged with the real
// time each move took: neither side may run out, and a game that fills the board should use
// most of the clock.
func TestClock(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 2 x 1.5 s game")
	}
	const clock = 1500 * time.Millisecond
	engs := [2]*Engine[pos, move]{newEngine(newRollout(5, 0), opts(Options[pos, move]{Seed: 5})), newEngine(newRollout(6, 0), opts(Options[pos, move]{Seed: 6}))}
	left := [2]time.Duration{clock, clock}
	p := ataxx.Start()
	for !p.Terminal() {
		me := p.ToMove()
		start := time.Now()
		m := engs[me].BestMove(p, engine.Limits{MyTime: left[me], OppTime: left[1-me]})
		left[me] -= time.Since(start)
		if left[me] <= 0 {
			t.Fatalf("%c ran out of time at turn %d", "OX"[me], p.Turns())
		}
		if !p.IsLegal(m) {
			t.Fatalf("illegal move %v", m)
		}
		p = p.Apply(m)
	}
	used := [2]time.Duration{clock - left[0], clock - left[1]}
	t.Logf("game over at turn %d (O %d X %d); clock used O %v X %v of %v", p.Turns(), p.Count(ataxx.O), p.Count(ataxx.X), used[0], used[1], clock)
	if p.Empty() == 0 {
		// Half of what is above the turn-cap reserve of the first move.
		want := (clock - engine.CapReserve(ataxx.MaxTurns/2)) / 2
		for pl, u := range used {
			if u < want {
				t.Errorf("%c used only %v of %v in a game that filled the board (want >= %v)", "OX"[pl], u, clock, want)
			}
		}
	}
}

// tagged records whether it was asked for a move.
type tagged struct {
	randomMover
	asked int
}

func (t *tagged) BestMove(p pos, lim engine.Limits) move {
	t.asked++
	return t.randomMover.BestMove(p, lim)
}

// TestWithEndgame: the search plays while more than the threshold of cells are empty, the
// finishing engine from the first position at or under it to the end of the game, and a new
// game starts with the search again.
func TestWithEndgame(t *testing.T) {
	early := &tagged{randomMover: randomMover{rand.New(rand.NewPCG(1, 2))}}
	finish := &tagged{randomMover: randomMover{rand.New(rand.NewPCG(3, 4))}}
	const threshold = 20
	h := WithEndgame[pos, move](early, finish, func(p pos) bool { return p.EmptyCount() <= threshold })
	for game := 0; game < 3; game++ {
		h.NewGame()
		early.asked, finish.asked = 0, 0
		p := ataxx.Start()
		handed := false
		for !p.Terminal() {
			before := finish.asked
			m := h.BestMove(p, engine.Limits{})
			if !p.IsLegal(m) {
				t.Fatalf("illegal move %v", m)
			}
			empty := 49 - p.Count(ataxx.O) - p.Count(ataxx.X)
			switch usedFinish := finish.asked > before; {
			case empty <= threshold && !usedFinish:
				t.Fatalf("game %d: %d empty cells (threshold %d) but the early engine moved", game, empty, threshold)
			case empty > threshold && usedFinish && !handed:
				t.Fatalf("game %d: %d empty cells but the finishing engine moved first", game, empty)
			}
			handed = handed || finish.asked > 0
			p = p.Apply(m)
		}
		if early.asked == 0 || finish.asked == 0 || !h.Finishing() {
			t.Fatalf("game %d: early %d moves, finish %d, finishing %v", game, early.asked, finish.asked, h.Finishing())
		}
	}
}
