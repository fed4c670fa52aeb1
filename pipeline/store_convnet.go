package pipeline

import (
	"context"

	"colony/agentdef"
	"colony/arena"
	"colony/models"
	"colony/train"
)

// convnetExt ends the convnet's net files and keys.
const convnetExt = ".model"

// storeConvnet is the PUCT cycle's kind on a store: a convnet trained by train.Run and gated
// in process at StoreConfig.GatePlayouts.
type storeConvnet struct{ c *StoreCycle }

func (storeConvnet) ext() string { return convnetExt }

// initial is StoreConfig.Init: a model file, or random:BLOCKSxCHANNELS.
func (k storeConvnet) initial(_ context.Context, path string) error {
	c := k.c
	m, err := randomConvnet(c.game.Info(), c.cfg.Init, c.cfg.Seed)
	if err == nil && m == nil {
		m, _, err = models.Load(c.game.Info(), c.cfg.Init)
	}
	if err != nil {
		return err
	}
	return m.Save(path)
}

func (k storeConvnet) sha(path string) (string, error) {
	m, _, err := models.Load(k.c.game.Info(), path)
	if err != nil {
		return "", err
	}
	return m.SHA256(), nil
}

func (storeConvnet) created(context.Context, string) error { return nil }

// train runs train.Run from the best net, keeping its checkpoint in the store every 100 steps.
func (k storeConvnet) train(ctx context.Context, best, out string) error {
	c := k.c
	ckpt, upload, err := c.checkpoint(ctx, c.gen("checkpoints", ".ckpt"))
	if err != nil {
		return err
	}
	const every = 100
	g := c.game
	_, err = train.Run(ctx, train.RunConfig{
		Game: g.Info(), Symmetries: g.Symmetries(), Model: best, Shards: c.cache(), Window: c.cfg.Window,
		Steps: int64(c.cfg.TrainSteps), Train: train.Config{Batch: c.cfg.Batch, LR: c.cfg.LR}, Seed: c.cfg.Seed*1000 + uint64(c.s.Generation),
		Checkpoint: ckpt, Every: every, Out: out, LogEvery: 50,
		AfterStep: func(step int64) {
			if step%every == 0 { // the checkpoint was just written: keep it in the store
				upload()
			}
		},
	}, c.logw)
	return err
}

// gate plays StoreConfig.GateGames in process, seats alternating, at GatePlayouts a move.
func (k storeConvnet) gate(ctx context.Context, cand, _ string, best string) (GenResult, error) {
	c := k.c
	seed := c.cfg.Seed*1000 + uint64(c.s.Generation)
	a, err := c.game.NewPlayer(c.cfg.Engine, agentdef.EngineOptions{Model: cand, Playouts: c.cfg.GatePlayouts, Seed: seed})
	if err != nil {
		return GenResult{}, err
	}
	b, err := c.game.NewPlayer(c.cfg.Engine, agentdef.EngineOptions{Model: best, Playouts: c.cfg.GatePlayouts, Seed: seed + 1})
	if err != nil {
		return GenResult{}, err
	}
	sum, _, err := arena.RunLocal(c.game.Rules(), []arena.Player{a, b}, c.cfg.GateGames, 0)
	if err != nil {
		return GenResult{}, err
	}
	score := (sum.Score[0] + 1) / 2 // values in [-1, 1] -> a score in [0, 1]
	res := GenResult{Games: sum.Games, Score: score, Verdicts: sum.Faults}
	res.Promoted = score >= c.cfg.Promote && sum.Faults == 0
	if score > 0 && score < 1 {
		res.EloDiff = arena.EloFromScore(score)
	}
	c.lg.Printf("generation %d: gate %d games, candidate scores %.3f (promote at %.3f)", c.s.Generation, res.Games, score, c.cfg.Promote)
	return res, ctx.Err()
}

func (storeConvnet) promoted(context.Context, *GenResult) error { return nil }
