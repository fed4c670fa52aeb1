package registry

import (
	"fmt"

	"colony/contract"
)

// ReplayMoves plays moves (policy indices, as shards of format version 3 record them) from
// the game's start position. Before the move of each ply for which want is true it calls
// visit with the position's network encoding. It fails at the first index that names no
// legal move, or when the game ended before the moves did.
func (g *game[P, M]) ReplayMoves(moves []int32, want func(ply int) bool, visit func(ply int, input []float32) error) error {
	pos := g.def.Start()
	var buf []M
	input := make([]float32, g.def.Info.InputSize())
	for ply, idx := range moves {
		if want != nil && want(ply) {
			pos.Encode(input)
			if err := visit(ply, input); err != nil {
				return err
			}
		}
		if pos.Terminal() {
			return fmt.Errorf("move %d (policy index %d) after the game ended", ply, idx)
		}
		buf = pos.LegalMoves(buf[:0])
		found := false
		for _, m := range buf {
			if m.PolicyIndex() == int(idx) {
				pos, found = pos.Apply(m), true
				break
			}
		}
		if !found {
			return fmt.Errorf("illegal move at ply %d: policy index %d is none of the %d legal moves", ply, idx, len(buf))
		}
	}
	return nil
}

// EncodeState writes the network encoding of a referee's state of this game (its Rules')
// into dst (Info.InputSize values).
func (g *game[P, M]) EncodeState(st contract.State, dst []float32) error {
	if len(dst) != g.def.Info.InputSize() {
		return fmt.Errorf("registry: %s: an encoding has %d values, not %d", g.def.Info.Name, g.def.Info.InputSize(), len(dst))
	}
	p, ok := contract.PositionOf[P, M](st)
	if !ok {
		return fmt.Errorf("registry: %s: a state of another game (%T)", g.def.Info.Name, st)
	}
	p.Encode(dst)
	return nil
}
