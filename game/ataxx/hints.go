package ataxx

import "math/bits"

// MovesLeft estimates how many moves the side to move still plays (the shares a whole-game
// clock is split into): every division fills a cell and most moves of good play are
// divisions, so about half the empty cells, plus a margin for leaps, bounded by the turn cap.
func (p Position) MovesLeft() int {
	n := bits.OnesCount64(p.Empty())/2 + 2
	return max(1, min(n, p.OwnTurnsLeft()))
}

// Material scores an unfinished position by its piece difference: (own - other) / 49 for each
// player.
func (p Position) Material() [4]float32 {
	d := float32(p.Count(O)-p.Count(X)) / NumSquares
	return [4]float32{d, -d}
}

// EmptyCount is the number of empty cells (the game's phase: the endgame handoff counts it).
func (p Position) EmptyCount() int { return bits.OnesCount64(p.Empty()) }
