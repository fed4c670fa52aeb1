package engine

import "time"

// Prover is a game's exact solver run on a share of a move's budget before a search: it
// finds forced wins for the search to play and proven losses for it to leave out. A prover
// is not safe for concurrent use.
type Prover[P, M any] interface {
	// Prove looks at pos (not terminal) for at most nodes of its own search (0: no node
	// bound) and time t (0: no time bound; both zero: it declines). When it proves a move
	// that forces a win of the side to move it returns it with ok. Otherwise it appends to
	// veto the moves of pos it proved to lose, never all of them (when every move loses,
	// those that lose latest stay out of veto), and returns the slice. spent is the nodes it
	// searched. A position where proofs are out of reach is declined at once.
	Prove(pos P, nodes int64, t time.Duration, veto []M) (win M, ok bool, out []M, spent int64)
	// NewGame forgets the previous game.
	NewGame()
}
