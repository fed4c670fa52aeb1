package contract

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
)

// Def is one game's contract: its types, its facts and what it adds to the generic pieces
// (notation, clock hints, the judge's notation). Only Info, Start and the position and move
// types are required. It holds nothing about engines: colony/agentdef wraps a Def with the
// engines and protocols the agent offers for the game.
type Def[P Position[P, M], M Move] struct {
	Info Info
	// Start returns the standard start position.
	Start func() P
	// Parse reads the game's one-line board notation (the inverse of P.String); nil when the
	// game has none.
	Parse func(s string) (P, error)
	// Symmetries of the encoding (nil: the identity only).
	Symmetries Symmetries

	// MovesLeft estimates how many moves the side to move still plays: a whole-game clock is
	// split into that many shares (nil: DefaultMovesLeft).
	MovesLeft func(p P) int
	// CapLeft is the number of moves the side to move may still have to make before a turn
	// cap, whatever the board says: each keeps engine.MinMoveCost of the clock in reserve
	// (nil: no cap).
	CapLeft func(p P) int
	// Heuristic values an unfinished position per player (random-rollout cut-offs and
	// adjudication); nil: all zero.
	Heuristic func(p P) Values
	// Outcome describes a terminal position for humans (nil: the values).
	Outcome func(p P) string
	// Picture draws a position for people (the replay viewer); nil: the game is not drawn.
	Picture func(p P) Picture
	// Perft is a fast move-path counter (nil: the generic Perft).
	Perft func(p P, depth int) uint64

	// Judge is the game's notation on the ALPHANO judge protocol; nil for other games.
	Judge *Judge[P, M]
	// Phase measures how far a game is from its end (Ataxx: empty cells); nil: unmeasured.
	Phase func(p P) int
}

// Judge is a game's notation on the judge protocol (docs/rules.md, "Judge protocol").
type Judge[P Position[P, M], M Move] struct {
	// Move reads judge coordinates as a legal move of p (an error for an illegal one).
	Move func(p P, c Coords) (M, error)
	// Coords spells m, a legal move of p, in judge coordinates.
	Coords func(p P, m M) Coords
	// WithToMove returns p with player to move, pieces kept (the agent's repair when the
	// judge and the tracked position disagree on whose turn it is). Nil: p unchanged.
	WithToMove func(p P, player int) P
	// Force applies the coordinates to p whatever the rules say, when they make geometric
	// sense (an illegal OPP move is still what the judge did). Nil or false: the turn passes.
	Force func(p P, c Coords) (P, bool)
	// Pass returns p with the turn passed to the next player, pieces kept (nil: p).
	Pass func(p P) P
	// Playable returns the position to answer in when the agent is asked to move in p though
	// p is over by its own count (e.g. a turn cap the tracked count reached early). Nil: p.
	Playable func(p P) P
}

// DefaultMovesLeft is the clock split of a game that gives no MovesLeft.
const DefaultMovesLeft = 30

// Check validates d: Info, Start, and a start position that agrees with Info.
func (d *Def[P, M]) Check() error {
	if err := d.Info.Validate(); err != nil {
		return err
	}
	if d.Start == nil {
		return fmt.Errorf("contract: %s: no start position", d.Info.Name)
	}
	p := d.Start()
	if p.NumPlayers() != d.Info.Players() {
		return fmt.Errorf("contract: %s: the start position has %d players, Info names %d", d.Info.Name, p.NumPlayers(), d.Info.Players())
	}
	return nil
}

// Syms returns d's symmetries (NoSymmetry when none are given).
func (d *Def[P, M]) Syms() Symmetries {
	if d.Symmetries == nil {
		return NoSymmetry{}
	}
	return d.Symmetries
}

// MovesLeftAt is d.MovesLeft(p), or DefaultMovesLeft, at least 1 and at most CapLeftAt(p)
// when the game has a turn cap.
func (d *Def[P, M]) MovesLeftAt(p P) int {
	n := DefaultMovesLeft
	if d.MovesLeft != nil {
		n = d.MovesLeft(p)
	}
	if d.CapLeft != nil {
		n = min(n, d.CapLeft(p))
	}
	return max(n, 1)
}

// CapLeftAt is d.CapLeft(p), or 0 without a turn cap.
func (d *Def[P, M]) CapLeftAt(p P) int {
	if d.CapLeft == nil {
		return 0
	}
	return d.CapLeft(p)
}

// HeuristicAt is d.Heuristic(p), or zeros.
func (d *Def[P, M]) HeuristicAt(p P) Values {
	if d.Heuristic == nil {
		return Values{}
	}
	return d.Heuristic(p)
}

// CountPaths is d.Perft(p, depth), or the generic Perft.
func (d *Def[P, M]) CountPaths(p P, depth int) uint64 {
	if d.Perft != nil {
		return d.Perft(p, depth)
	}
	return Perft[P, M](p, depth)
}

// ParseBoard reads a board in d's notation (an error when the game has none).
func (d *Def[P, M]) ParseBoard(s string) (P, error) {
	if d.Parse == nil {
		var zero P
		return zero, fmt.Errorf("contract: %s has no board notation", d.Info.Name)
	}
	return d.Parse(s)
}

// Perft counts the move paths of length depth from p (a forced pass is a move, a finished
// game has none). It is the plain recursive definition; games give a faster one in Def.Perft.
func Perft[P Position[P, M], M comparable](p P, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	moves := p.LegalMoves(nil)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += Perft[P, M](p.Apply(m), depth-1)
	}
	return n
}

// BulkPerft counts the move paths of length depth from p like Perft, with the last ply
// counted by count (a game's cheaper count of its legal moves) and one move buffer of maxMoves
// per ply, allocated once per call.
func BulkPerft[P Position[P, M], M comparable](p P, depth, maxMoves int, count func(P) int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]M, depth)
	for i := range bufs {
		bufs[i] = make([]M, 0, maxMoves)
	}
	return bulkPerft(p, depth, bufs, count)
}

func bulkPerft[P Position[P, M], M comparable](p P, depth int, bufs [][]M, count func(P) int) uint64 {
	if depth == 1 {
		return uint64(count(p))
	}
	var n uint64
	bufs[0] = p.LegalMoves(bufs[0])
	for _, m := range bufs[0] {
		n += bulkPerft(p.Apply(m), depth-1, bufs[1:], count)
	}
	return n
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry[M any] struct {
	Move  M
	Nodes uint64
}

// Divide returns the perft count under each root move, sorted by the moves' spelling, for
// finding where two move generators disagree.
func Divide[P Position[P, M], M Move](p P, depth int, perft func(P, int) uint64) []DivideEntry[M] {
	var out []DivideEntry[M]
	if depth <= 0 {
		return out
	}
	if perft == nil {
		perft = Perft[P, M]
	}
	for _, m := range p.LegalMoves(nil) {
		out = append(out, DivideEntry[M]{m, perft(p.Apply(m), depth-1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move.String() < out[j].Move.String() })
	return out
}

// state adapts a Def's position to State for the referee.
type state[P Position[P, M], M Move] struct {
	d *Def[P, M]
	p P
}

// NewRules returns the referee's view of d. Play needs d.Judge.
func NewRules[P Position[P, M], M Move](d *Def[P, M]) Rules { return rules[P, M]{d} }

type rules[P Position[P, M], M Move] struct{ d *Def[P, M] }

func (r rules[P, M]) Info() Info   { return r.d.Info }
func (r rules[P, M]) Start() State { return state[P, M]{r.d, r.d.Start()} }
func (r rules[P, M]) Parse(board string) (State, error) {
	p, err := r.d.ParseBoard(board)
	if err != nil {
		return nil, err
	}
	return state[P, M]{r.d, p}, nil
}

// PositionOf returns the position inside a State made by NewRules.
func PositionOf[P Position[P, M], M Move](s State) (P, bool) {
	st, ok := s.(state[P, M])
	return st.p, ok
}

func (s state[P, M]) ToMove() int    { return s.p.ToMove() }
func (s state[P, M]) Terminal() bool { return s.p.Terminal() }
func (s state[P, M]) Values() Values { return s.p.Values() }
func (s state[P, M]) String() string { return s.p.String() }

// Winner is the single player with the highest value, or -1 when the best is shared.
func (s state[P, M]) Winner() int { return WinnerOf(s.p.Values(), s.p.NumPlayers()) }

// WinnerOf is the single player with the highest of the first n values, or -1 when the best
// is shared.
func WinnerOf(v Values, n int) int {
	best, who := float32(-2), -1
	for i := range n {
		switch {
		case v[i] > best:
			best, who = v[i], i
		case v[i] == best:
			who = -1
		}
	}
	return who
}

var errNoJudge = errors.New("the game has no judge notation")

func (s state[P, M]) Play(c Coords) (State, error) {
	if s.p.Terminal() {
		return nil, errors.New("the game is over")
	}
	if s.d.Judge == nil {
		return nil, errNoJudge
	}
	m, err := s.d.Judge.Move(s.p, c)
	if err != nil {
		return nil, err
	}
	return state[P, M]{s.d, s.p.Apply(m)}, nil
}

func (s state[P, M]) RandomMove(r *rand.Rand) Coords {
	moves := s.p.LegalMoves(nil)
	if len(moves) == 0 || s.d.Judge == nil {
		return PassCoords
	}
	return s.d.Judge.Coords(s.p, moves[r.IntN(len(moves))])
}

// Picture draws the state with the game's Picture (false when the game has none).
func (s state[P, M]) Picture() (Picture, bool) {
	if s.d.Picture == nil {
		return Picture{}, false
	}
	return s.d.Picture(s.p), true
}

func (s state[P, M]) Outcome() string {
	if s.d.Outcome != nil {
		return s.d.Outcome(s.p)
	}
	v := s.p.Values()
	return fmt.Sprintf("values %v", v[:s.p.NumPlayers()])
}
