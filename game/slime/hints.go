package slime

// MovesLeft estimates how many moves the side to move still plays (the shares a clock is
// split into): a round of four turns fills about four cells in play between fair players
// (spreads fill one, merges several, jumps none), so about a quarter of the empty cells,
// plus a margin, bounded by the turn cap.
func (p Position) MovesLeft() int {
	return max(1, min(p.EmptyCount()/4+2, p.OwnTurnsLeft()))
}

// Shares is Values: each player's share of the board so far, mapped to [-1, 1] (the
// heuristic of random-rollout cut-offs and adjudication).
func (p Position) Shares() [4]float32 { return p.Values() }
