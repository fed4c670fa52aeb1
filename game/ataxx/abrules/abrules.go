// Package abrules is what every Bacteria War (Ataxx 7x7) search on engine/alphabeta shares:
// the scoring of finished games and of a stuck side, the static move order, the hooks that
// carry them (Rules), the search configuration with its late-move reductions, the clock's
// share of moves, and the turn keys of the transposition table. The classical engine
// (game/ataxx/ataxxab) and the nnue engine (game/ataxx/nnab) embed Rules and add their table
// key and evaluation; their trees agree wherever the evaluation does not enter.
package abrules

import (
	"math/bits"

	ab "colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/internal/splitmix"
)

// Scores are hundredths of a piece from the side to move's point of view. A finished game
// scores WinScore - PlyStep*ply + margin for the winner (faster wins first, then larger
// margins), its negation for the loser, and 0 for a draw. Scores at or beyond ±WinBound are
// proven wins and losses; an evaluation stays inside them.
const (
	WinScore int32 = 30000
	PlyStep  int32 = 50 // > the largest margin (49)
	WinBound int32 = 12000
)

// MaxPly is how far from the root a Bacteria War search reaches (its config's MaxPly): an engine's
// per-ply stacks have MaxPly+1 entries.
const MaxPly = 128

// SearchConfig returns Bacteria War's search configuration (engine/alphabeta), the base of
// every Ataxx engine on that search (nnab adds its pruning to it).
func SearchConfig() ab.Config[ataxx.Move] { return config }

// config is Bacteria War's search configuration (engine/alphabeta; the depth bound and the
// history size are its defaults). Killers and root moves keep their history score.
var config = ab.Config[ataxx.Move]{
	MaxPly: MaxPly, MaxMoves: ataxx.MaxMoves, NoMove: ataxx.NoMove, Pass: ataxx.Pass,
	WinScore: WinScore, PlyStep: PlyStep, WinBound: WinBound, Aspiration: 40,
	KillerBonus: [2]int32{3000, 2500}, KillerHistory: true, RootHistory: true,
	Reductions: Reductions, ReducePVLess: true,
}

// Reductions is Bacteria War's late-move reduction table, by depth and move index: Ataxx has
// a large branching factor and the ordering by gain is good, so late moves are reduced early
// and deeply (measured in self-play against a milder table: 60% of 60 games at equal nodes).
var Reductions = func() *ab.LMR {
	var t ab.LMR
	for d := range 64 {
		for i := range 64 {
			r := 0
			if d >= 3 && i >= 2 {
				r = 1
				if i >= 6 && d >= 4 {
					r = 2
				}
				if i >= 16 && d >= 6 {
					r = 3
				}
			}
			t[d][i] = int8(r)
		}
	}
	return &t
}()

// ExpectedMoves is how many own moves the clock is shared among: half the empty cells (every
// division fills one), scaled by 25/(50-empty) within [2/3, 2] and rounded, at least 3, at
// most the moves the turn cap leaves. The scale moves time from the opening (45 empty cells:
// half the even share) into the middle game (20 empty: 1.2 times it; 12 or fewer: 1.5
// times): decided at the judge's clock (docs/search.md, "The clock's share").
func ExpectedMoves(pos *ataxx.Position) int {
	e := bits.OnesCount64(pos.Empty())
	k := min(max(2*(50-e), 25), 75) // 50 times the scale, clamped to [0.5, 1.5]
	n := max(((e+2)/2*100+k)/(2*k), 3)
	if r := pos.OwnTurnsLeft(); r < n {
		n = max(r, 1)
	}
	return n
}

// TurnKeys are keys mixed into a position's hash by its turn count (turns 0 to
// ataxx.MaxTurns+1): the 400-turn cap makes a position's value depend on it near the cap, so
// table entries from different turns must not be confused there. Far from it they may: a
// search from turn t < MixTurnsFrom reaches at most turn t+MaxPly, which leaves more than two
// turns for each of the at most ataxx.NumSquares empty cells before the cap, so neither the
// cap nor a stuck side's known end (stuckScore: two turns an empty cell) enters its value,
// and those turns' keys are 0. A client that sends every position with the same move number
// (UAI's FEN, as simple match scripts do) then keeps the table between moves. Each engine
// draws its own keys from its own seed (NewTurnKeys): they are part of its trees' definition
// (which positions share a table slot), and of the C++ port's.
type TurnKeys [ataxx.MaxTurns + 2]uint64

// MixTurnsFrom is the first turn whose key is not 0.
const MixTurnsFrom = ataxx.MaxTurns - MaxPly - 2*ataxx.NumSquares

// NewTurnKeys draws the keys from splitmix64 seeded with seed (those of the turns before
// MixTurnsFrom are drawn and set to 0).
func NewTurnKeys(seed uint64) *TurnKeys {
	var k TurnKeys
	s := seed
	for i := range k {
		k[i] = splitmix.Next(&s)
		if i < MixTurnsFrom {
			k[i] = 0
		}
	}
	return &k
}

// Key is p's table key: its hash with its turn count's key.
func (k *TurnKeys) Key(p *ataxx.Position) uint64 { return p.Hash() ^ k[p.Turns()] }

// Rules are the hooks of engine/alphabeta that every Bacteria War search shares: the finished
// game's score, the static move order, the stuck side's known result. An engine's hooks embed
// them and add the table key and the evaluation.
type Rules struct {
	ab.Plain[ataxx.Position, ataxx.Move]
	// QuietLeap is taken off the ordering value of a leap that captures nothing, so that
	// those moves sort after every other (0: none).
	QuietLeap int32
}

// Enter scores a finished game; Bacteria War has no extensions.
func (Rules) Enter(p ataxx.Position, ply, depth int, alpha, beta int32) (int32, bool, int, int32, int32) {
	if p.Terminal() {
		return TerminalScore(&p, ply), true, depth, alpha, beta
	}
	return 0, false, depth, alpha, beta
}

// Moves generates the moves in the static order's values: the swing in piece difference
// (captures count twice, a division adds one), a leap penalised for the hole it leaves next
// to own pieces.
func (r Rules) Moves(p ataxx.Position, moves []ataxx.Move, o *ab.Order[ataxx.Move]) ([]ataxx.Move, int) {
	moves = p.LegalMoves(moves)
	side := p.ToMove()
	if len(moves) == 0 || moves[0] == ataxx.Pass {
		return moves, side
	}
	us := p.Pieces(side)
	o.Side(side)
	keys := o.Keys[:len(moves)]
	for i, m := range moves {
		keys[i] = o.Key(m, orderKey(&p, m, us, r.QuietLeap))
	}
	return moves, side
}

// Stuck scores the side to move's forced pass when the rest of the game is known.
func (Rules) Stuck(p ataxx.Position, ply int) (int32, bool) { return StuckScore(&p, ply) }

// BlockedScore is the known result of a side to move that reaches no empty cell within two
// steps (so cannot move), when StuckScore knows it: the leaf rule of every Ataxx search.
func BlockedScore(p *ataxx.Position, ply int) (int32, bool) {
	if p.HasMove() {
		return 0, false
	}
	return StuckScore(p, ply)
}

// TerminalScore scores a finished game at distance ply from the root, for the side to move.
func TerminalScore(p *ataxx.Position, ply int) int32 {
	side := p.ToMove()
	diff := int32(p.Count(side) - p.Count(side^1))
	switch {
	case diff > 0:
		return WinScore - PlyStep*int32(ply) + diff
	case diff < 0:
		return -WinScore + PlyStep*int32(ply) + diff
	}
	return 0
}

// StuckScore scores a position whose side to move has no division or leap, when the stuck side
// is known to lose. The opponent can divide into every empty cell (none touches the stuck side,
// so nothing can free it) while the stuck side passes: when every empty cell is reachable by a
// chain of divisions and the turn cap leaves time for them all, that fill is a result the
// opponent can force, so the stuck side's value is at most the fill's. When the fill loses for
// the stuck side, that is its proven result: ok is true, and the score is the fill's (the
// opponent may win by more). When the fill would not lose, nothing is proven: the opponent may
// instead leap, open a hole next to the stuck side and win by the captures that follow (a game
// against Zataxx was lost from such a "proven win"), so ok is false and the search goes on.
func StuckScore(p *ataxx.Position, ply int) (int32, bool) {
	side := p.ToMove()
	empty := p.Empty()
	ne := bits.OnesCount64(empty)
	diff := int32(p.Count(side) - p.Count(side^1) - ne)
	if diff >= 0 || (ataxx.MaxTurns-p.Turns())/2 < ne {
		return 0, false
	}
	reach := ataxx.Dilate(p.Pieces(side^1)) & empty
	for {
		n := ataxx.Dilate(reach) & empty
		if n == reach {
			break
		}
		reach = n
	}
	if reach != empty {
		return 0, false
	}
	return -WinScore + PlyStep*int32(ply+2*ne) + diff, true
}

// orderKey is the static ordering value of m (see Moves), quietLeap taken off a leap that
// captures nothing.
func orderKey(p *ataxx.Position, m ataxx.Move, us uint64, quietLeap int32) int32 {
	to := m.To()
	capt := int32(p.Captures(m))
	k := 2000 * capt
	if m.IsClone() {
		k += 1000
	} else {
		k -= 700 + 250*int32(bits.OnesCount64(ataxx.Neighbours(m.From())&us&^(1<<to)))
		if capt == 0 {
			k -= quietLeap
		}
	}
	return k
}
