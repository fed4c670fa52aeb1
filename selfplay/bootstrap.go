package selfplay

import (
	"context"
	"fmt"
	"math"
	"time"

	"colony/data"
	"colony/engine"
	"colony/mcts"
)

// BootstrapConfig tunes a bootstrap run: a classical engine plays itself, with random moves
// for variety, and its choices become one-hot policy targets. The first generation of
// networks then starts from an engine's play instead of from random play.
type BootstrapConfig struct {
	Workers     int           // default runtime.NumCPU()
	Games       int           // stop after this many games (0: run for Duration)
	Duration    time.Duration // stop starting games after this long
	RandomPlies int           // plies at the start of each game played uniformly at random (default 4)
	Epsilon     float64       // later, the chance of a random (unrecorded) move (default 0.05)
	Limits      engine.Limits // the engine's limit per move (default depth 3)
	// ScoreWeight mixes the engine's own search score into the value targets:
	// value = (1-w)·outcome + w·tanh(score/ScoreScale), per recorded position (0: outcome only).
	// It needs a two-player game and an engine that is a Scorer.
	ScoreWeight float64
	ScoreScale  float64 // score units per tanh unit (default 300: three pieces for alphabeta)
	Seed        uint64
	PerShard    int
	Meta        data.Meta
	Progress    Config // only Progress and ProgressTick are read
}

// Scorer is an engine that reports the score of its last search for the side to move (the
// alphabeta engine's Stats).
type Scorer interface {
	Stats() (depth int, score int32, nodes int64)
}

// RunBootstrap plays engine-vs-itself games and writes shards into dir. newEngine builds one
// engine per worker from a seed.
func RunBootstrap[P Pos[P, M], M Mv](ctx context.Context, game Game[P], bc BootstrapConfig, dir string,
	newEngine func(seed uint64) engine.Engine[P, M]) (Stats, error) {
	cfg := Config{Workers: bc.Workers, Games: bc.Games, Duration: bc.Duration, Seed: bc.Seed, PerShard: bc.PerShard,
		Meta: bc.Meta, Progress: bc.Progress.Progress, ProgressTick: bc.Progress.ProgressTick}
	cfg.defaults()
	if bc.RandomPlies == 0 {
		bc.RandomPlies = 4
	}
	if bc.Epsilon == 0 {
		bc.Epsilon = 0.05
	}
	if bc.Limits.Infinite() {
		bc.Limits.Depth = 3
	}
	if bc.ScoreScale == 0 {
		bc.ScoreScale = 300
	}
	if bc.ScoreWeight < 0 || bc.ScoreWeight > 1 || bc.ScoreScale < 0 {
		return Stats{}, fmt.Errorf("selfplay: score weight %v (want 0..1), scale %v", bc.ScoreWeight, bc.ScoreScale)
	}
	if bc.ScoreWeight > 0 && game.Info.Players() != 2 {
		return Stats{}, fmt.Errorf("selfplay: score targets need a two-player game, %s has %d players", game.Info.Name, game.Info.Players())
	}
	r, ctx := newRun(ctx, &cfg)
	for w := range cfg.Workers {
		sk, err := newSink(game, &cfg, dir, w)
		if err != nil {
			r.fail(err)
			break
		}
		r.sinks = append(r.sinks, sk)
		eng := newEngine(GameSeed(cfg.Seed, w, 1<<39))
		if _, ok := eng.(Scorer); bc.ScoreWeight > 0 && !ok {
			r.fail(fmt.Errorf("selfplay: engine %s reports no scores for -score-weight", eng.Name()))
			break
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for idx := uint64(0); r.claim(ctx); idx++ {
				exs, values, moves := playEngine(game, &bc, eng, w, idx)
				if !r.record(sk, exs, values, game.Info, moves) {
					return
				}
			}
		}()
	}
	return r.wait(ctx)
}

func playEngine[P Pos[P, M], M Mv](game Game[P], bc *BootstrapConfig, eng engine.Engine[P, M], worker int,
	idx uint64) ([]data.Example, mcts.Values, int) {
	rng := mcts.NewRand(GameSeed(bc.Seed, worker, idx))
	eng.NewGame()
	pos := game.Start()
	var exs []data.Example // with ScoreWeight, Values holds tanh(score/scale) per player until the end
	var buf []M
	moves := 0
	for !pos.Terminal() {
		if game.Adjudicate != nil {
			if v, ok := game.Adjudicate(pos); ok {
				setValues(exs, v, bc.ScoreWeight)
				return exs, v, moves
			}
		}
		buf = pos.LegalMoves(buf[:0])
		var m M
		if moves < bc.RandomPlies || rng.Float64() < bc.Epsilon || len(buf) == 1 {
			m = buf[rng.IntN(len(buf))]
		} else {
			m = eng.BestMove(pos, bc.Limits)
			ex := data.Example{Input: make([]float32, game.Info.InputSize()), GameID: GameID(worker, idx), Ply: moves,
				Policy: []data.PolicyEntry{{Index: int32(m.PolicyIndex()), Prob: 1}}}
			pos.Encode(ex.Input)
			if bc.ScoreWeight > 0 {
				_, score, _ := eng.(Scorer).Stats()
				t := float32(math.Tanh(float64(score) / bc.ScoreScale))
				ex.Values[pos.ToMove()], ex.Values[1-pos.ToMove()] = t, -t
			}
			exs = append(exs, ex)
		}
		pos = pos.Apply(m)
		moves++
	}
	values := pos.Values()
	setValues(exs, values, bc.ScoreWeight)
	return exs, values, moves
}

// setValues writes the value targets: the outcome, mixed at weight w > 0 with the squashed
// search scores the examples' Values hold.
func setValues(exs []data.Example, outcome mcts.Values, w float64) {
	for i := range exs {
		v := &exs[i].Values
		for p := range outcome {
			v[p] = float32((1-w)*float64(outcome[p]) + w*float64(v[p]))
		}
	}
}
