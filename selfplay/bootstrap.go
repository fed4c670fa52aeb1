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
	// RandomPliesMax > RandomPlies draws each game's number of random plies uniformly from
	// RandomPlies..RandomPliesMax.
	RandomPliesMax int
	Epsilon        float64       // later, the chance of a random (unrecorded) move (0: none)
	Limits         engine.Limits // the engine's limit per move (default depth 3)
	// OpeningMaxScore > 0 discards a game whose first searched position, after the random
	// opening, scores beyond ±OpeningMaxScore (already decided): a new opening is drawn. It
	// needs a Scorer.
	OpeningMaxScore int32
	// AdjudicateScore > 0 ends a game once AdjudicatePlies (default 4) searches in a row score
	// at or beyond ±AdjudicateScore for the same player, who is then the winner. It needs a
	// two-player game and a Scorer.
	AdjudicateScore int32
	AdjudicatePlies int
	// RecordScores keeps the outcome in Values and the squashed search score in Scores
	// (shards with Meta.Scored), so the trainer chooses the blend; ScoreWeight must be 0.
	RecordScores bool
	// ScoreWeight mixes the engine's own search score into the value targets:
	// value = (1-w)·outcome + w·tanh(score/ScoreScale), per recorded position (0: outcome only).
	// It needs a two-player game and an engine that is a Scorer.
	ScoreWeight float64
	ScoreScale  float64 // score units per tanh unit (default 300: three pieces for alphabeta)
	Seed        uint64
	PerShard    int
	Meta        data.Meta
	Placement   Config // only WorkerBase, FirstGame and ShardName are read (see Config)
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
		Meta: bc.Meta, Progress: bc.Progress.Progress, ProgressTick: bc.Progress.ProgressTick,
		WorkerBase: bc.Placement.WorkerBase, FirstGame: bc.Placement.FirstGame, ShardName: bc.Placement.ShardName}
	cfg.defaults()
	if bc.RandomPlies == 0 {
		bc.RandomPlies = 4
	}
	if bc.AdjudicatePlies <= 0 {
		bc.AdjudicatePlies = 4
	}
	scored := bc.ScoreWeight > 0 || bc.RecordScores || bc.OpeningMaxScore > 0 || bc.AdjudicateScore > 0
	if bc.RecordScores && bc.ScoreWeight > 0 {
		return Stats{}, fmt.Errorf("selfplay: record scores or mix them into the values (score weight %v), not both", bc.ScoreWeight)
	}
	if l := bc.Limits; l.SoftNodes > 0 && (l.Nodes == 0 || l.SoftNodes > l.Nodes) {
		return Stats{}, fmt.Errorf("selfplay: a soft node budget (%d) needs a hard one at least as large (%d)", l.SoftNodes, l.Nodes)
	}
	cfg.Meta.Scored = bc.RecordScores
	if bc.Limits.Infinite() {
		bc.Limits.Depth = 3
	}
	if bc.ScoreScale == 0 {
		bc.ScoreScale = 300
	}
	if bc.ScoreWeight < 0 || bc.ScoreWeight > 1 || bc.ScoreScale < 0 {
		return Stats{}, fmt.Errorf("selfplay: score weight %v (want 0..1), scale %v", bc.ScoreWeight, bc.ScoreScale)
	}
	if scored && game.Info.Players() != 2 {
		return Stats{}, fmt.Errorf("selfplay: score targets need a two-player game, %s has %d players", game.Info.Name, game.Info.Players())
	}
	r, ctx := newRun(ctx, &cfg)
	for w := cfg.WorkerBase; w < cfg.WorkerBase+cfg.Workers; w++ {
		sk, err := newSink(game, &cfg, dir, w)
		if err != nil {
			r.fail(err)
			break
		}
		r.sinks = append(r.sinks, sk)
		eng := newEngine(GameSeed(cfg.Seed, w, 1<<39))
		if _, ok := eng.(Scorer); scored && !ok {
			r.fail(fmt.Errorf("selfplay: engine %s reports no search scores (needed for score targets, the opening filter and adjudication)", eng.Name()))
			break
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for idx := cfg.FirstGame; r.claim(ctx); idx++ {
				gm, exs, values, discarded := playEngine(game, &bc, eng, w, idx)
				r.discarded.Add(int64(discarded))
				if !r.record(sk, gm, exs, values, game.Info) {
					return
				}
			}
		}()
	}
	return r.wait(ctx)
}

func playEngine[P Pos[P, M], M Mv](game Game[P], bc *BootstrapConfig, eng engine.Engine[P, M], worker int,
	idx uint64) (gm data.GameMoves, exs []data.Example, values mcts.Values, discarded int) {
	rng := mcts.NewRand(GameSeed(bc.Seed, worker, idx))
	for {
		var ok bool
		gm, exs, values, ok = playEngineOnce(game, bc, eng, worker, idx, &rng)
		if ok || discarded >= maxDiscards {
			return gm, exs, values, discarded
		}
		discarded++
	}
}

// maxDiscards bounds the openings a game may throw away as decided (after that, the next
// one is played whatever its score).
const maxDiscards = 16

// playEngineOnce plays one game; ok is false when the opening was decided and the game was
// dropped.
func playEngineOnce[P Pos[P, M], M Mv](game Game[P], bc *BootstrapConfig, eng engine.Engine[P, M], worker int,
	idx uint64, rng *mcts.Rand) (gm data.GameMoves, exs []data.Example, values mcts.Values, ok bool) {
	eng.NewGame()
	pos := game.Start()
	gm.GameID = GameID(worker, idx)
	randomPlies := bc.RandomPlies
	if bc.RandomPliesMax > randomPlies {
		randomPlies += rng.IntN(bc.RandomPliesMax - randomPlies + 1)
	}
	// With ScoreWeight, Values holds tanh(score/scale) per player until the end; with
	// RecordScores, Scores holds it.
	var buf []M
	streak, streakWinner := 0, -1
	for !pos.Terminal() {
		moves := len(gm.Moves)
		if game.Adjudicate != nil {
			if v, done := game.Adjudicate(pos); done {
				setValues(exs, v, bc.ScoreWeight)
				return gm, exs, v, true
			}
		}
		buf = pos.LegalMoves(buf[:0])
		var m M
		if moves < randomPlies || rng.Float64() < bc.Epsilon || len(buf) == 1 {
			m = buf[rng.IntN(len(buf))]
		} else {
			m = eng.BestMove(pos, bc.Limits)
			var score int32
			if sc, isScorer := eng.(Scorer); isScorer {
				_, score, _ = sc.Stats()
			}
			if len(exs) == 0 && engine.OpeningDecided(score, bc.OpeningMaxScore) {
				return gm, nil, values, false
			}
			ex := data.Example{Input: make([]float32, game.Info.InputSize()), GameID: GameID(worker, idx), Ply: moves,
				Policy: []data.PolicyEntry{{Index: int32(m.PolicyIndex()), Prob: 1}}}
			pos.Encode(ex.Input)
			stm := pos.ToMove()
			if bc.ScoreWeight > 0 || bc.RecordScores {
				t := float32(math.Tanh(float64(score) / bc.ScoreScale))
				dst := &ex.Values
				if bc.RecordScores {
					dst = &ex.Scores
				}
				dst[stm], dst[1-stm] = t, -t
			}
			exs = append(exs, ex)
			if bc.AdjudicateScore > 0 {
				winner := -1
				if score >= bc.AdjudicateScore {
					winner = stm
				} else if score <= -bc.AdjudicateScore {
					winner = 1 - stm
				}
				if winner >= 0 && winner == streakWinner {
					streak++
				} else {
					streak, streakWinner = 1, winner
				}
				if winner >= 0 && streak >= bc.AdjudicatePlies {
					var v mcts.Values
					v[winner], v[1-winner] = 1, -1
					setValues(exs, v, bc.ScoreWeight)
					gm.Moves = append(gm.Moves, int32(m.PolicyIndex()))
					return gm, exs, v, true
				}
			}
		}
		pos = pos.Apply(m)
		gm.Moves = append(gm.Moves, int32(m.PolicyIndex()))
	}
	values = pos.Values()
	setValues(exs, values, bc.ScoreWeight)
	return gm, exs, values, true
}

// setValues writes the value targets: the outcome, mixed at weight w > 0 with the squashed
// search scores the examples' Values hold.
func setValues(exs []data.Example, outcome mcts.Values, w float64) {
	if w == 0 {
		for i := range exs {
			exs[i].Values = outcome
		}
		return
	}
	for i := range exs {
		v := &exs[i].Values
		for p := range outcome {
			v[p] = float32((1-w)*float64(outcome[p]) + w*float64(v[p]))
		}
	}
}
