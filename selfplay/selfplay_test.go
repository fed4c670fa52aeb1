package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	"colony/data"
	"colony/engine"
	"colony/game/ataxx"
	"colony/game/ataxx/greedy"
	"colony/games"
	"colony/mcts"
)

type uniformEval = mcts.Uniform[ataxx.Position, ataxx.Move]

func uniformFactory(int) (mcts.Evaluator[ataxx.Position, ataxx.Move], error) {
	return uniformEval{}, nil
}

func readAll(t *testing.T, dir string) []data.Example {
	t.Helper()
	exs, rep, err := data.LoadDir(dir, "bacteria-war", ataxx.EncoderVersion, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Corrupt != 0 {
		t.Fatalf("%d corrupt shards", rep.Corrupt)
	}
	return exs
}

// checkExamples verifies every example against the rules: a legal position, a policy over
// legal moves summing to 1, and the value of the game it came from.
func checkExamples(t *testing.T, exs []data.Example) {
	t.Helper()
	byGame := map[uint64][4]float32{}
	for _, ex := range exs {
		o, x := uint64(0), uint64(0)
		for sq := range ataxx.NumSquares {
			if ex.Input[sq] == 1 {
				o |= 1 << sq
			}
			if ex.Input[ataxx.NumSquares+sq] == 1 {
				x |= 1 << sq
			}
		}
		side := ataxx.O
		if ex.Input[4*ataxx.NumSquares] == 1 {
			side = ataxx.X
		}
		p := ataxx.NewPosition(o, x, side, ex.Ply)
		legal := map[int]bool{}
		for _, m := range p.LegalMoves(nil) {
			legal[m.PolicyIndex()] = true
		}
		sum := float32(0)
		for _, e := range ex.Policy {
			if !legal[int(e.Index)] {
				t.Fatalf("policy entry %d is not a legal move of\n%s", e.Index, p.Diagram())
			}
			sum += e.Prob
		}
		if math.Abs(float64(sum-1)) > 1e-4 {
			t.Fatalf("policy sums to %v", sum)
		}
		if v, seen := byGame[ex.GameID]; seen && v != ex.Values {
			t.Fatalf("game %d has two outcomes", ex.GameID)
		}
		byGame[ex.GameID] = ex.Values
		if ex.Values[0] != -ex.Values[1] || (ex.Values[0] != 0 && math.Abs(float64(ex.Values[0])) != 1) {
			t.Fatalf("outcome %v is not a win, loss or draw", ex.Values)
		}
	}
}

func TestRunWritesWholeGames(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Workers: 2, GamesPerWorker: 3, Games: 8, Playouts: 16, FastPlayouts: 4, FullProb: 0.5, Seed: 11, PerShard: 50}
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.BatchSize = 4
	st, err := Run(context.Background(), Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, cfg, dir, uniformFactory)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 8 {
		t.Fatalf("played %d games, want 8", st.Games)
	}
	exs := readAll(t, dir)
	if len(exs) != st.Positions || len(exs) == 0 {
		t.Fatalf("read %d examples, stats say %d", len(exs), st.Positions)
	}
	if st.Positions >= st.Moves {
		t.Fatalf("playout-cap randomisation should leave moves unrecorded: %d positions of %d moves", st.Positions, st.Moves)
	}
	checkExamples(t, exs)
	games := map[uint64]bool{}
	for _, ex := range exs {
		games[ex.GameID] = true
	}
	if len(games) > 8 || len(games) < 6 {
		t.Fatalf("examples come from %d games", len(games))
	}
	if st.Wins[0]+st.Wins[1]+st.Draws != 8 {
		t.Fatalf("results %v + %d draws do not add up to 8", st.Wins, st.Draws)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	play := func() []data.Example {
		dir := t.TempDir()
		cfg := Config{Workers: 1, GamesPerWorker: 1, Games: 2, Playouts: 24, Seed: 5}
		if _, err := Run(context.Background(), Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, cfg, dir, uniformFactory); err != nil {
			t.Fatal(err)
		}
		return readAll(t, dir)
	}
	a, b := play(), play()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with the same seed wrote different examples")
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := Run(ctx, Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, Config{Workers: 1, Playouts: 8}, t.TempDir(), uniformFactory)
	if err != nil || st.Games != 0 {
		t.Fatalf("cancelled run: %d games, %v", st.Games, err)
	}
}

// countingEval checks that merged batches reach it whole and answers from the position, so
// that callers can check they get their own answers back.
type countingEval struct {
	calls, leaves atomic.Int64
	maxBatch      atomic.Int64
}

func (c *countingEval) Evaluate(batch []mcts.Request[ataxx.Position, ataxx.Move]) error {
	c.calls.Add(1)
	c.leaves.Add(int64(len(batch)))
	if int64(len(batch)) > c.maxBatch.Load() {
		c.maxBatch.Store(int64(len(batch)))
	}
	for i := range batch {
		r := &batch[i]
		for j := range r.Priors {
			r.Priors[j] = 1 / float32(len(r.Priors))
		}
		r.Value = mcts.Values{float32(r.Pos.Count(ataxx.O)), float32(r.Pos.Count(ataxx.X))}
	}
	return nil
}

func TestSharedMergesAndAnswersEachCaller(t *testing.T) {
	inner := &countingEval{}
	sh := NewShared[ataxx.Position, ataxx.Move](inner)
	defer sh.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	var sent atomic.Int64
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := sh.Client()
			p := ataxx.Start()
			var moves [ataxx.MaxMoves]ataxx.Move
			for i := range 200 {
				ms := p.LegalMoves(moves[:0])
				if len(ms) == 0 {
					p = ataxx.Start()
					continue
				}
				req := []mcts.Request[ataxx.Position, ataxx.Move]{{Pos: p, Moves: ms, Priors: make([]float32, len(ms))}}
				sent.Add(1)
				if err := cl.Evaluate(req); err != nil {
					errs <- err
					return
				}
				want := mcts.Values{float32(p.Count(ataxx.O)), float32(p.Count(ataxx.X))}
				if req[0].Value != want || req[0].Priors[0] != 1/float32(len(ms)) {
					errs <- fmt.Errorf("goroutine %d call %d got another caller's answer", g, i)
					return
				}
				p = p.Apply(ms[(g+i)%len(ms)])
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if inner.leaves.Load() != sent.Load() {
		t.Fatalf("%d leaves reached the evaluator, want %d", inner.leaves.Load(), sent.Load())
	}
	t.Logf("%d calls, largest merged batch %d", inner.calls.Load(), inner.maxBatch.Load())
	sh.Close()
	if err := sh.Client().Evaluate(nil); err != ErrClosed {
		t.Fatalf("after Close: %v", err)
	}
}

func TestBootstrap(t *testing.T) {
	dir := t.TempDir()
	bc := BootstrapConfig{Workers: 2, Games: 4, Seed: 3, RandomPlies: 2, Epsilon: 0.1}
	st, err := RunBootstrap(context.Background(), Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, bc, dir,
		func(seed uint64) engine.Engine[ataxx.Position, ataxx.Move] { return greedy.New(seed) })
	if err != nil {
		t.Fatal(err)
	}
	exs := readAll(t, dir)
	if st.Games != 4 || len(exs) != st.Positions || len(exs) == 0 {
		t.Fatalf("games %d, examples %d, stats %d", st.Games, len(exs), st.Positions)
	}
	checkExamples(t, exs)
	for _, ex := range exs {
		if len(ex.Policy) != 1 || ex.Policy[0].Prob != 1 {
			t.Fatalf("bootstrap policy should be one-hot, got %v", ex.Policy)
		}
	}
}

// scoring is greedy reporting a fixed score for the side to move after every move.
type scoring struct {
	engine.Engine[ataxx.Position, ataxx.Move]
	score int32
}

func (s scoring) Stats() (int, int32, int64) { return 1, s.score, 0 }

func TestBootstrapScoreTargets(t *testing.T) {
	const score, scale = 300, 300
	tv := math.Tanh(score / scale)
	for _, w := range []float64{1, 0.5} {
		dir := t.TempDir()
		bc := BootstrapConfig{Workers: 2, Games: 4, Seed: 3, RandomPlies: 2, Epsilon: 0.1, ScoreWeight: w, ScoreScale: scale}
		if _, err := RunBootstrap(context.Background(), Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, bc, dir,
			func(seed uint64) engine.Engine[ataxx.Position, ataxx.Move] { return scoring{greedy.New(seed), score} }); err != nil {
			t.Fatal(err)
		}
		exs := readAll(t, dir)
		if len(exs) == 0 {
			t.Fatal("no examples")
		}
		outcome := map[uint64]float64{} // player 0's outcome per game, recovered from the targets
		for _, ex := range exs {
			me := 0
			if ex.Input[4*ataxx.NumSquares] == 1 {
				me = 1
			}
			v := ex.Values
			if math.Abs(float64(v[0]+v[1])) > 1e-6 || v[2] != 0 || v[3] != 0 {
				t.Fatalf("w %v: values %v are not zero-sum over two players", w, v)
			}
			if w == 1 {
				if math.Abs(float64(v[me])-tv) > 1e-6 {
					t.Fatalf("w 1: side to move %d has value %v, want tanh(1) = %v", me, v[me], tv)
				}
				continue
			}
			// v[me] = (1-w)·z[me] + w·tanh(score/scale), z[me] an outcome in {-1, 0, 1}
			zMe := (float64(v[me]) - w*tv) / (1 - w)
			if math.Abs(zMe-math.Round(zMe)) > 1e-5 || math.Abs(zMe) > 1+1e-5 {
				t.Fatalf("w %v: value %v of the side to move %d is no mix of an outcome and %v (z %v)", w, v[me], me, tv, zMe)
			}
			z0 := zMe
			if me == 1 {
				z0 = -zMe
			}
			if prev, ok := outcome[ex.GameID]; ok && math.Abs(prev-z0) > 1e-5 {
				t.Fatalf("w %v: game %d mixes outcomes %v and %v", w, ex.GameID, prev, z0)
			}
			outcome[ex.GameID] = z0
		}
	}
	// Targets from scores need an engine that reports them and two players.
	_, err := RunBootstrap(context.Background(), Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, BootstrapConfig{Workers: 1, Games: 1, ScoreWeight: 0.5},
		t.TempDir(), func(seed uint64) engine.Engine[ataxx.Position, ataxx.Move] { return greedy.New(seed) })
	if err == nil {
		t.Fatal("greedy reports no scores: want an error")
	}
	four := Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}
	four.Info.PlayerNames = []string{"a", "b", "c", "d"}
	if _, err := RunBootstrap(context.Background(), four, BootstrapConfig{Workers: 1, Games: 1, ScoreWeight: 0.5},
		t.TempDir(), func(seed uint64) engine.Engine[ataxx.Position, ataxx.Move] { return scoring{greedy.New(seed), 1} }); err == nil {
		t.Fatal("four players: want an error")
	}
}

func TestGameSeedsDiffer(t *testing.T) {
	seen := map[uint64]bool{}
	for w := range 4 {
		for g := range uint64(100) {
			s := GameSeed(1, w, g)
			if seen[s] {
				t.Fatalf("seed collision at worker %d game %d", w, g)
			}
			seen[s] = true
		}
	}
	if GameSeed(1, 0, 0) == GameSeed(2, 0, 0) {
		t.Fatal("run seed ignored")
	}
}

func TestRunReportsEvaluatorFailure(t *testing.T) {
	dir := t.TempDir()
	boom := fmt.Errorf("no network")
	st, err := Run(context.Background(), Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}, Config{Workers: 3, Games: 50, Playouts: 8}, dir,
		func(w int) (mcts.Evaluator[ataxx.Position, ataxx.Move], error) {
			if w == 2 {
				return nil, boom
			}
			return uniformEval{}, nil
		})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the evaluator's error", err)
	}
	if st.Games >= 50 {
		t.Fatalf("the run went on after a worker failed: %d games", st.Games)
	}
}

// TestFinishedScored: in a game scored by a share the single largest share wins even below
// half the board; in a game won or lost a top value that is not positive is a draw.
func TestFinishedScored(t *testing.T) {
	info := games.Info{Name: "four", PlayerNames: []string{"1", "2", "3", "4"}}
	values := mcts.Values{-0.5, -0.25, -0.75, -0.5}
	for _, scored := range []bool{false, true} {
		info.Scored = scored
		r := &run{}
		r.finished(values, info, 10, 3)
		r.finished(mcts.Values{-0.5, -0.5, -0.5, -0.5}, info, 10, 3)
		s := r.stats
		wantWins := [mcts.MaxPlayers]int{}
		wantDraws := 2
		if scored {
			wantWins[1], wantDraws = 1, 1
		}
		if s.Wins != wantWins || s.Draws != wantDraws {
			t.Errorf("scored %v: wins %v draws %d, want %v and %d", scored, s.Wins, s.Draws, wantWins, wantDraws)
		}
		if s.ValueSum != [mcts.MaxPlayers]float64{-1, -0.75, -1.25, -1} || s.Games != 2 || s.Moves != 20 || s.Positions != 6 {
			t.Errorf("scored %v: value sums %v, games %d moves %d positions %d", scored, s.ValueSum, s.Games, s.Moves, s.Positions)
		}
	}
}

// byPieces reports, after greedy's move, a score of 100 per piece of lead for the side to
// move (a stand-in for a real search's score).
type byPieces struct {
	engine.Engine[ataxx.Position, ataxx.Move]
	last int32
}

func (b *byPieces) BestMove(p ataxx.Position, lim engine.Limits) ataxx.Move {
	side := p.ToMove()
	b.last = 100 * int32(bits.OnesCount64(p.Pieces(side))-bits.OnesCount64(p.Pieces(side^1)))
	return b.Engine.BestMove(p, lim)
}
func (b *byPieces) Stats() (int, int32, int64) { return 1, b.last, 0 }

// The data generator's switches: scores stored apart from outcomes, random openings of a
// drawn length, decided openings dropped, games adjudicated on a decisive score.
func TestBootstrapScoresAdjudication(t *testing.T) {
	game := Game[ataxx.Position]{Info: ataxx.Info, Start: ataxx.Start}
	newEng := func(seed uint64) engine.Engine[ataxx.Position, ataxx.Move] {
		return &byPieces{Engine: greedy.New(seed)}
	}
	const scale, adj, plies, openMax = 300, 400, 3, 200
	dir := t.TempDir()
	bc := BootstrapConfig{Workers: 2, Games: 12, Seed: 7, RandomPlies: 6, RandomPliesMax: 9, ScoreScale: scale,
		RecordScores: true, AdjudicateScore: adj, AdjudicatePlies: plies, OpeningMaxScore: openMax}
	st, err := RunBootstrap(context.Background(), game, bc, dir, newEng)
	if err != nil {
		t.Fatal(err)
	}
	if st.Discarded == 0 {
		t.Error("no opening was dropped at ±200 after 6-9 random plies")
	}
	exs := readAll(t, dir)
	if len(exs) != st.Positions || st.Games != 12 {
		t.Fatalf("%d examples, %d positions, %d games", len(exs), st.Positions, st.Games)
	}
	byGame := map[uint64][]data.Example{}
	for _, ex := range exs {
		byGame[ex.GameID] = append(byGame[ex.GameID], ex)
	}
	adjudicated := 0
	for id, g := range byGame {
		sort.Slice(g, func(i, j int) bool { return g[i].Ply < g[j].Ply })
		if g[0].Ply < 6 || g[0].Ply > 9 {
			t.Errorf("game %d: first recorded ply %d, want 6..9 random plies before it", id, g[0].Ply)
		}
		for i, ex := range g {
			me := 0
			if ex.Input[4*ataxx.NumSquares] == 1 {
				me = 1
			}
			lead := 0 // recovered from the planes (0: O's pieces, 1: X's)
			for c := range ataxx.NumSquares {
				lead += int(ex.Input[me*ataxx.NumSquares+c]) - int(ex.Input[(1-me)*ataxx.NumSquares+c])
			}
			want := float32(math.Tanh(float64(100*lead) / scale))
			if math.Abs(float64(ex.Scores[me]-want)) > 1e-6 || ex.Scores[me] != -ex.Scores[1-me] {
				t.Fatalf("game %d ply %d: scores %v, want %v for the side to move %d", id, ex.Ply, ex.Scores, want, me)
			}
			if v := ex.Values; v != g[0].Values || (v[0] != 1 && v[0] != -1 && v[0] != 0) || v[0] != -v[1] {
				t.Fatalf("game %d: values %v are not one outcome (first %v)", id, v, g[0].Values)
			}
			if i == 0 && (100*lead > openMax || 100*lead < -openMax) {
				t.Fatalf("game %d kept an opening scored %d", id, 100*lead)
			}
		}
		// An adjudicated game ends on `plies` searches in a row at or beyond ±adj for its winner.
		n := len(g)
		if n >= plies {
			tail := g[n-plies:]
			w := g[0].Values
			ok := true
			for _, ex := range tail {
				if ex.Scores[0]*w[0] < float32(math.Tanh(adj/scale))-1e-6 {
					ok = false
				}
			}
			if ok {
				adjudicated++
			}
		}
	}
	if adjudicated == 0 {
		t.Error("no game ended on a decisive score streak")
	}
	// The shards say they carry scores; the outcome-only mode does not.
	for _, p := range st.Shards {
		m, _, err := data.ReadShard(p)
		if err != nil || !m.Scored {
			t.Fatalf("%s: scored %v, err %v", p, m.Scored, err)
		}
	}
	bc.RecordScores, bc.ScoreWeight = true, 0.5
	if _, err := RunBootstrap(context.Background(), game, bc, t.TempDir(), newEng); err == nil {
		t.Error("scores apart and mixed at once: want an error")
	}
	bc.ScoreWeight, bc.Limits = 0, engine.Limits{Nodes: 100, SoftNodes: 200}
	if _, err := RunBootstrap(context.Background(), game, bc, t.TempDir(), newEng); err == nil {
		t.Error("a soft node budget over the hard one: want an error")
	}
}
