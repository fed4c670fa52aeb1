// Package nnab is Bacteria War's alpha-beta engine on a learned, incrementally updated
// evaluation (colony/nn/nnue): a set of hooks on Colony's one alpha-beta search
// (colony/engine/alphabeta: iterative-deepening principal-variation search with aspiration
// windows, a transposition table, killer and history move ordering, late-move reductions)
// with the table move and first killer searched before the moves are generated, and reverse
// futility, quiet-move and futility pruning near the leaves.
// Positions are copy-made (an ataxx.Position is 24 bytes); the accumulators live on a per-ply
// stack and are brought up to date lazily, from the parent's, only when a node is evaluated
// (a node cut by the table or finished by the rules costs no update).
//
// The game's cells and players map onto the nnue scheme directly: cell = square, player 0 = O,
// and the encoder's planes 0/1 hold O's and X's pieces, plane 3 is all ones when O is to move
// (Arch). Nets of either input kind play (cells, or the 36 2x2 windows: WindowArch); the search
// updates both through nnue.Net.Apply with the parent's pieces.
package nnab

import (
	"fmt"

	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
	"colony/models"
	"colony/nn/nnue"
)

// WindowArch is Arch with window input (nnue.WindowInput): the 36 2x2 windows of the 7x7 board.
func WindowArch(hidden, l1 int) nnue.Arch {
	a := Arch(hidden, l1)
	a.Input, a.Width = nnue.WindowInput, ataxx.Size
	return a
}

// Arch is the nnue architecture of a Bacteria War net with the given sizes, on encoder
// version 1's planes (cell input).
func Arch(hidden, l1 int) nnue.Arch {
	return nnue.Arch{
		Game:           ataxx.Info.Name,
		EncoderVersion: ataxx.EncoderVersion,
		Cells:          ataxx.NumSquares,
		Planes:         ataxx.NumPlanes,
		PiecePlanes:    [2]int{0, 1},
		ToMovePlane:    3,
		Hidden:         hidden,
		L1:             l1,
	}
}

// CheckModel reports whether m is a Bacteria War net reading this build's encoding.
func CheckModel(m *nnue.Model) error {
	if err := m.CheckFor(ataxx.Info.Name, ataxx.EncoderVersion); err != nil {
		return err
	}
	return CheckArch(m.Arch)
}

// LoadNet loads the net nnab plays with: the Bacteria War nnue model file at path, or the
// newest embedded one (colony/models) when path is "", checked (CheckModel) and quantized;
// name is the file's.
func LoadNet(path string) (net *nnue.Net, name string, err error) {
	m, name, err := models.LoadNNUE(ataxx.Info.Name, ataxx.EncoderVersion, path)
	if err != nil {
		return nil, "", err
	}
	if err := CheckModel(m); err != nil {
		return nil, "", fmt.Errorf("%w (%s)", err, name)
	}
	net, err = nnue.Quantize(m, 0)
	return net, name, err
}

// Pieces returns p's pieces in the nnue order (O's, X's).
func Pieces(p *ataxx.Position) [2]uint64 { return [2]uint64{p.Pieces(ataxx.O), p.Pieces(ataxx.X)} }

// Options configure an Engine: the search's (engine/alphabeta; HashMB 0 means 16 MB) and
// the net. Zero fields take their defaults.
type Options struct {
	ab.Options
	Net *nnue.Net // the evaluation (required)
}

// defaultHashMB is the table's size: 16 MB (a million entries) holds the longest move of a
// 10 s game (a second, about 1.5 M nodes, most of them leaves that store nothing), and a
// smaller table misses the processor's address caches less often on every probe: over the
// same games at 200,000 nodes a move the agent searched 19% more nodes a second with 16 MB
// than with 64 MB, and 8% more than with 32 MB (docs/search.md, "The table's size").
const defaultHashMB = 16

// Engine is the engine. It plays one game at a time and is not safe for concurrent use.
type Engine struct {
	ab *ab.Engine[ataxx.Position, ataxx.Move, *hooks]
}

var _ engine.Engine[ataxx.Position, ataxx.Move] = (*Engine)(nil)

// New returns an engine with options o; o.Net must be set.
func New(o Options) (*Engine, error) { return newWithConfig(o, config) }

// newWithConfig is New with the search configuration c.
func newWithConfig(o Options, c ab.Config[ataxx.Move]) (*Engine, error) {
	if o.Net == nil {
		return nil, fmt.Errorf("nnab: no net")
	}
	if err := CheckArch(o.Net.Arch()); err != nil {
		return nil, err
	}
	if o.HashMB == 0 {
		o.HashMB = defaultHashMB
	}
	return &Engine{ab: ab.New(c, o.Options, newHooks(o.Net))}, nil
}

// CheckArch reports whether a reads Bacteria War's planes the way this package feeds it.
func CheckArch(a nnue.Arch) error {
	want := Arch(a.Hidden, a.L1)
	if a.Input == nnue.WindowInput {
		want = WindowArch(a.Hidden, a.L1)
	}
	want.Activation = a.Activation // any activation reads the same planes
	want.STMOnly = a.STMOnly       // and so does an output of one perspective or two
	want.Buckets = a.Buckets       // or of output buckets (Validate checks their count)
	if a != want {
		return fmt.Errorf("nnab: net arch %+v is not a Bacteria War net (%+v)", a, want)
	}
	return nil
}

// Name returns "nnab".
func (e *Engine) Name() string { return "nnab" }

// SetInfo has f called after each finished iteration of a move's search (UAI's info lines).
func (e *Engine) SetInfo(f func(engine.Iteration[ataxx.Move])) { e.ab.Info = f }

// NewGame clears the table and the move-ordering statistics.
func (e *Engine) NewGame() { e.ab.NewGame() }

// Stats returns the depth, score (hundredths of a piece for the side to move) and nodes of
// the last search.
func (e *Engine) Stats() (depth int, score int32, nodes int64) { return e.ab.Stats() }

// Report is the last search's account for the agent's log (engine.Report).
func (e *Engine) Report() (engine.Report, bool) { return e.ab.Report() }

// BestMove searches pos within lim: a clock (a wall clock or a node clock) planned by the
// engine's time manager over the turn cap's reserve and abrules.ExpectedMoves, and no new
// iteration once lim.SoftNodes are spent. Pass when the side to move is stuck.
func (e *Engine) BestMove(pos ataxx.Position, lim engine.Limits) ataxx.Move {
	b := e.ab.Budget(lim, pos.OwnTurnsLeft(), abrules.ExpectedMoves(&pos))
	if m := e.ab.Search(pos, b, nil); m != ataxx.NoMove {
		return m
	}
	return ataxx.Pass
}

// Score returns a fixed-depth search score of pos for the side to move (depth 0: the net's
// evaluation, or the proven result of a stuck side). No clock; the table is shared with
// BestMove.
func (e *Engine) Score(pos *ataxx.Position, depth int) int32 { return e.ab.Score(*pos, depth) }
