package slime

import (
	"colony/contract"
	"math/bits"
)

func trailingZeros(b uint64) int { return bits.TrailingZeros64(b) }

// Perft counts the move paths of length depth from p, with the moves of LegalMoves: one
// spread per target, a pass only where it is offered (no spread and no jump), none once the
// game is over. The last ply is bulk-counted.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, MaxMovesOf(p.Size()))
	}
	return perft(p, depth, bufs)
}

func perft(p Position, depth int, bufs [][]Move) uint64 {
	if depth == 1 {
		return uint64(p.CountMoves())
	}
	var n uint64
	bufs[0] = p.LegalMoves(bufs[0])
	for _, m := range bufs[0] {
		n += perft(p.Apply(m), depth-1, bufs[1:])
	}
	return n
}

// MaxMovesOf bounds the number of legal moves of a position on an n x n board (MaxMoves for
// the largest board).
func MaxMovesOf(n int) int { return n*n*25 + 1 }

// Divide returns the perft count under each root move, sorted by the moves' spelling, for
// finding where two move generators disagree (contract.Divide with this package's Perft).
func Divide(p Position, depth int) []contract.DivideEntry[Move] {
	return contract.Divide(p, depth, Perft)
}
