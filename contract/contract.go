// Package contract is Colony's game contract: what a game gives the pipeline (self-play, shards,
// training, the network, the search engines, the referee and the agent's protocols), stated
// once, and nothing about any particular game.
//
// A game is a leaf package (game/<name>, bitboards, stdlib only) whose position and move
// types satisfy Position and Move and whose Def names it and fills in its facts; one
// registration in package registry adds its engines (colony/agentdef). The contract imports
// no other Colony package: it is the floor the games and the generic packages stand on. The
// generic packages (nn, data, selfplay, train, arena, mcts, engine/mctsengine) take everything
// game-specific from a Def or its Info and import no game package.
package contract

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// MaxPlayers bounds the number of players of any game (mcts.MaxPlayers: the contract stays
// a leaf that game packages can import, so it restates the bound; a test keeps them equal).
const MaxPlayers = 4

// Values holds one value per player in [-1, 1] (1 = win, -1 = loss; a share of the board for
// games scored by cells); entries past the game's player count are zero. There is no sign
// flipping: asymmetric and 4-player games fit. It is the same type as mcts.Values.
type Values = [MaxPlayers]float32

// SideOf reads the side-to-move field of a board notation: one of the players' names
// (Info.PlayerNames) in either case. It returns the player, or -1 for anything else.
func SideOf(field string, names []string) int {
	for i, n := range names {
		if strings.EqualFold(field, n) {
			return i
		}
	}
	return -1
}

// DiagramRows joins the non-blank lines of a board drawn as text lines (spaces ignored) with
// '/': the rows field of a board notation, for tests that write boards as diagrams.
func DiagramRows(diagram string) string {
	var rows []string
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if line != "" {
			rows = append(rows, line)
		}
	}
	return strings.Join(rows, "/")
}

// WinLoss is the Values of a two-player game won by player winner (0 or 1): 1 for the winner,
// -1 for the loser; all zeros for any other winner (a draw, or no result yet).
func WinLoss(winner int) Values {
	var v Values
	if winner == 0 || winner == 1 {
		v[winner], v[1-winner] = 1, -1
	}
	return v
}

// Position is what every game's position gives the pipeline: the search's interface
// (mcts.Position, restated here method for method) plus the network input and a notation.
type Position[P any, M comparable] interface {
	LegalMoves(dst []M) []M // appends to dst[:0]; none when terminal; a forced pass is a move
	Apply(m M) P            // copy-make
	ToMove() int            // 0-based
	NumPlayers() int        // 2..MaxPlayers
	Terminal() bool
	Values() Values // the result of a terminal position, per player
	Hash() uint64
	// Encode writes the network input (Info.InputSize() values) into dst.
	Encode(dst []float32)
	// String is the position in the game's one-line board notation (Def.Parse reads it).
	String() string
}

// Move is what every game's move gives the pipeline: its index among the policy logits and
// a readable spelling.
type Move interface {
	comparable
	PolicyIndex() int
	String() string
}

// Info is the static description of a game that files and networks are checked against.
type Info struct {
	// Name is the -game name, also stored in model and shard files ("bacteria-war").
	Name string
	// PlayerNames are the players' short names in seat order ("O", "X"); their number is the
	// number of players.
	PlayerNames []string
	// Height, Width and Planes give the encoder grid: Encode writes Planes planes of
	// Height x Width cells. A game on boards of varying size encodes onto its largest grid
	// with an on-board plane.
	Height, Width, Planes int
	// EncoderVersion changes whenever Encode or PolicyIndex change meaning.
	EncoderVersion int
	// PolicySize is the number of policy logits (every PolicyIndex is below it).
	PolicySize int
	// MaxMoves bounds the number of legal moves of any position (move buffer capacity).
	MaxMoves int
	// Scored says that the game is scored by a share (cells held) rather than won or lost:
	// the referee then reports average scores instead of an Elo.
	Scored bool
}

// Players is the number of players.
func (i Info) Players() int { return len(i.PlayerNames) }

// PlaneSize is the number of cells of one input plane.
func (i Info) PlaneSize() int { return i.Height * i.Width }

// InputSize is the length of one encoded position.
func (i Info) InputSize() int { return i.Planes * i.Height * i.Width }

// Validate reports whether i is a usable description.
func (i Info) Validate() error {
	switch {
	case i.Name == "" || strings.ContainsAny(i.Name, " \t\n/"):
		return fmt.Errorf("contract: bad game name %q", i.Name)
	case i.Players() < 1 || i.Players() > MaxPlayers:
		return fmt.Errorf("contract: %s: %d players, want 1..%d", i.Name, i.Players(), MaxPlayers)
	case i.Height < 1 || i.Width < 1 || i.Planes < 1:
		return fmt.Errorf("contract: %s: encoder grid %dx%dx%d", i.Name, i.Planes, i.Height, i.Width)
	case i.PolicySize < 1 || i.MaxMoves < 1:
		return fmt.Errorf("contract: %s: policy size %d, max moves %d", i.Name, i.PolicySize, i.MaxMoves)
	}
	return nil
}

// Symmetries maps training examples through a game's symmetries. Symmetry 0 is the identity.
type Symmetries interface {
	// NumSymmetries is the number of symmetries, identity included (at least 1).
	NumSymmetries() int
	// TransformInput writes the image under symmetry k of the encoded position src into dst
	// (no aliasing).
	TransformInput(k int, src, dst []float32)
	// TransformPolicyIndex maps a policy index so that the entry of a move becomes the entry
	// of its image under symmetry k.
	TransformPolicyIndex(k, idx int) int
	// Seat is the seat that player p's value moves to under symmetry k, for every p below
	// MaxPlayers (p itself unless the
	// symmetry swaps the players' roles, e.g. a rotation of a board with a corner per player
	// in an encoding relative to the corners).
	Seat(k, p int) int
}

// NoSymmetry is the Symmetries with only the identity.
type NoSymmetry struct{}

func (NoSymmetry) NumSymmetries() int                       { return 1 }
func (NoSymmetry) TransformInput(_ int, src, dst []float32) { copy(dst, src) }
func (NoSymmetry) TransformPolicyIndex(_, idx int) int      { return idx }
func (NoSymmetry) Seat(_, p int) int                        { return p }

// Coords is a move in judge coordinates, "x1 y1 x2 y2": 1-based (row, column) of the piece
// and of its destination; all -1 for a pass.
type Coords [4]int

// PassCoords is the judge's spelling of a pass.
var PassCoords = Coords{-1, -1, -1, -1}

// String formats c as the four numbers of a MOVE or OPP line.
func (c Coords) String() string { return fmt.Sprintf("%d %d %d %d", c[0], c[1], c[2], c[3]) }

// State is a position as a referee sees it, with no types of the game's own: the same for
// every game, at the cost of an allocation per move (the referee's pace is the agents').
type State interface {
	// ToMove is the player to move.
	ToMove() int
	// Terminal reports whether the game is over.
	Terminal() bool
	// Values is the result of a terminal state, one entry per player.
	Values() Values
	// Winner is the single best player of a terminal state, or -1 for a shared first place.
	Winner() int
	// Play checks that c is legal for the player to move and returns the next state; an
	// error is an illegal move.
	Play(c Coords) (State, error)
	// RandomMove returns a uniformly random legal move of a non-terminal state (openings).
	RandomMove(r *rand.Rand) Coords
	// String is the position in the game's board notation (the POSITION extension line).
	String() string
	// Outcome describes a terminal state for humans, e.g. "board full, O 30 X 19".
	Outcome() string
}

// Rules is a game as the referee sees it.
type Rules interface {
	Info() Info
	Start() State
	// Parse reads a position in the game's board notation.
	Parse(board string) (State, error)
}
