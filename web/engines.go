package web

import (
	"bytes"
	"fmt"

	"colony/contract"
	"colony/engine"
	"colony/engine/alphabeta"
	"colony/engine/mctsengine"
	"colony/game/ataxx"
	"colony/game/ataxx/nnab"
	"colony/game/mouse"
	"colony/game/mouse/solve"
	"colony/nn"
	"colony/nn/nnue"
)

// The page's engines are the agent's defaults (registry: bacteria_war.go, catch_the_mouse.go,
// game.go, nnue.go) built from the net's bytes instead of the embedded files, with the
// agent's default options (-seed 1, tables of the agent's size). The parity test
// (TestWasmParity) holds them to the registry's engines, node for node.

// Seed is the engines' seed: the agent's default -seed.
const Seed = 1

func init() {
	add(&page[ataxx.Position, ataxx.Move]{
		def: ataxx.Def(),
		info: GameInfo{Name: ataxx.Info.Name, Title: "Bacteria War", Players: ataxx.Info.PlayerNames,
			Roles: []string{"red, moves first", "blue"}, Engine: "nnab", Rows: ataxx.Size, Cols: ataxx.Size},
		build: func(net []byte) (engine.Engine[ataxx.Position, ataxx.Move], error) { return NewNNAB(net) },
		setInfo: func(e engine.Engine[ataxx.Position, ataxx.Move], f func(engine.Iteration[ataxx.Move])) {
			e.(*nnab.Engine).SetInfo(f)
		},
	})
	add(&page[mouse.Position, mouse.Move]{
		def: MouseDef(),
		info: GameInfo{Name: mouse.Info.Name, Title: "Catch The Mouse", Players: mouse.Info.PlayerNames,
			Roles: []string{"the mice, move first", "Nadori's team: cats and Nadori"}, Engine: "mcts", Rows: mouse.Rows, Cols: mouse.Cols},
		build: func(net []byte) (engine.Engine[mouse.Position, mouse.Move], error) { return NewMouseMCTS(net) },
		pv: func(e engine.Engine[mouse.Position, mouse.Move], n int) []mouse.Move {
			return e.(*mctsengine.Engine[mouse.Position, mouse.Move]).PV(n)
		},
	})
}

// NewNNAB is Bacteria War's default engine, nnab, on the nnue net of the file's bytes data
// (nnab.LoadNet's checks and quantization) with the agent's default options.
func NewNNAB(data []byte) (*nnab.Engine, error) {
	m, err := nnue.Read(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if err := m.CheckFor(ataxx.Info.Name, ataxx.EncoderVersion); err != nil {
		return nil, err
	}
	if err := nnab.CheckModel(m); err != nil {
		return nil, err
	}
	net, err := nnue.Quantize(m, 0)
	if err != nil {
		return nil, err
	}
	return nnab.New(nnab.Options{Options: alphabeta.Options{Seed: Seed}, Net: net})
}

// mctsBatch and proverMB are the registry's (registry/game.go, catch_the_mouse.go).
const (
	mctsBatch   = 8
	proverMB    = 16
	proverShare = 0.3
)

// MouseDef is Catch The Mouse's contract with the registry's addition: no turn cap, but every
// move the mover may still make keeps a minimum of the clock (CapLeft).
func MouseDef() *contract.Def[mouse.Position, mouse.Move] {
	def := mouse.Def()
	def.CapLeft = func(p mouse.Position) int { return p.MouseStepsLeft() + 1 }
	return def
}

// NewMouseMCTS is Catch The Mouse's default engine, mcts on the convnet of the file's bytes
// data with the prover in front, as the agent builds it by default.
func NewMouseMCTS(data []byte) (*mctsengine.Engine[mouse.Position, mouse.Move], error) {
	m, err := nn.Read(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if err := m.CheckFor(mouse.Info); err != nil {
		return nil, err
	}
	net, err := nn.NewNet(m, mctsBatch)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	def := MouseDef()
	return mctsengine.New(nn.NewEvaluator[mouse.Position, mouse.Move](net), mctsengine.Options[mouse.Position, mouse.Move]{
		BatchSize: mctsBatch, Seed: Seed, MovesLeft: def.MovesLeftAt, CapLeft: def.CapLeftAt,
		Prover: solve.NewProver(proverMB, false), ProverShare: proverShare,
	}), nil
}
