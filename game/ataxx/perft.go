package ataxx

import (
	"colony/contract"
	"math/bits"
)

func trailingZeros(b uint64) int { return bits.TrailingZeros64(b) }

// Perft counts the move paths of length depth from p. A forced pass counts as one move and a
// finished game has no moves. It is contract.Perft's count on the pieces alone: no hash, turn
// kept as a count, no move list (each move is played as it is generated), and the last ply
// bulk-counted (countMoves; the golden counts in testdata and TestNaivePerftAgrees check it
// against a count through LegalMoves and Apply).
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(p.bb[p.side], p.bb[p.side^1], int(p.turn), depth)
}

// perft is Perft for the side to move's pieces own, the other's opp, turn turns played and
// depth >= 1.
func perft(own, opp uint64, turn, depth int) uint64 {
	if own == 0 || opp == 0 || own|opp == Full || turn >= MaxTurns {
		return 0
	}
	empty := Full &^ (own | opp)
	if depth == 1 {
		return uint64(countMoves(own, empty))
	}
	var n uint64
	clones := Dilate(own) & empty
	moved := clones != 0
	for c := clones; c != 0; c &= c - 1 {
		to := bits.TrailingZeros64(c)
		flips := adj1[to] & opp
		n += perft(opp&^flips, own|1<<to|flips, turn+1, depth-1)
	}
	for o := own; o != 0; o &= o - 1 {
		from := bits.TrailingZeros64(o)
		for j := adj2[from] & empty; j != 0; j &= j - 1 {
			to := bits.TrailingZeros64(j)
			flips := adj1[to] & opp
			n += perft(opp&^flips, own&^(1<<from)|1<<to|flips, turn+1, depth-1)
			moved = true
		}
	}
	if !moved {
		return perft(opp, own, turn+1, depth-1) // the pass
	}
	return n
}

// countMoves is the number of moves of pieces own onto the cells empty: one division per
// empty cell next to them, one leap per (piece, empty cell at distance 2), or 1 (the pass)
// when there are none.
func countMoves(own, empty uint64) int {
	n := bits.OnesCount64(Dilate(own) & empty)
	for o := own; o != 0; o &= o - 1 {
		n += bits.OnesCount64(adj2[bits.TrailingZeros64(o)] & empty)
	}
	if n == 0 {
		return 1
	}
	return n
}

// Divide returns the perft count under each root move, sorted by the moves' spelling, for
// finding where two move generators disagree (contract.Divide with this package's Perft).
func Divide(p Position, depth int) []contract.DivideEntry[Move] {
	return contract.Divide(p, depth, Perft)
}
