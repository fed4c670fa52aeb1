package mouse

import "colony/contract"

// Perft counts the move paths of length depth from p. A forced pass counts as one move and a
// finished game has no moves. The last ply is bulk-counted (contract.BulkPerft).
func Perft(p Position, depth int) uint64 {
	return contract.BulkPerft(p, depth, MaxMoves, Position.CountMoves)
}

// Divide returns the perft count under each root move, sorted by the moves' spelling, for
// finding where two move generators disagree (contract.Divide with this package's Perft).
func Divide(p Position, depth int) []contract.DivideEntry[Move] {
	return contract.Divide(p, depth, Perft)
}
