// Package mcts is a game-agnostic PUCT (AlphaZero-style) search.
package mcts

// MaxPlayers bounds the number of players of any game; values are vectors of this length.
const MaxPlayers = 4

// Values holds one value per player in [-1, 1] (1 = win, -1 = loss); entries past the game's
// player count are zero. There is no sign flipping: asymmetric and 4-player games fit.
type Values = [MaxPlayers]float32

// Position is what the search needs from a game. P is the concrete position type (a small
// value; Apply is copy-make) and M its move type.
type Position[P any, M comparable] interface {
	// LegalMoves appends the legal moves to dst[:0]; a terminal position has none. A forced
	// pass is a move.
	LegalMoves(dst []M) []M
	// Apply returns the position after the legal move m.
	Apply(m M) P
	// ToMove is the player to move, 0-based.
	ToMove() int
	// NumPlayers is the number of players (at most MaxPlayers).
	NumPlayers() int
	// Terminal reports whether the game is over.
	Terminal() bool
	// Values is the result of a terminal position, one entry per player.
	Values() [MaxPlayers]float32
	// Hash identifies the position (for tree reuse and transposition checks).
	Hash() uint64
}

// Request is one leaf handed to an Evaluator: the position and its legal moves in; the prior
// of each move (same order, summing to 1) and the value per player out.
type Request[P any, M comparable] struct {
	Pos    P
	Moves  []M
	Priors []float32 // len(Moves), filled by the evaluator
	Value  Values    // filled by the evaluator
}

// Evaluator evaluates a batch of non-terminal leaves. It must not retain the slices.
type Evaluator[P any, M comparable] interface {
	Evaluate(batch []Request[P, M]) error
}
