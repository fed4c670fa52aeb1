package mouse

import "sort"

// Perft counts the move paths of length depth from p. A forced pass counts as one move and a
// finished game has no moves. The last ply is bulk-counted.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.CountMoves())
	}
	var buf [MaxMoves]Move
	var n uint64
	for _, m := range p.LegalMoves(buf[:0]) {
		n += Perft(p.Apply(m), depth-1)
	}
	return n
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count under each root move, sorted by the moves' spelling, for
// finding where two move generators disagree.
func Divide(p Position, depth int) []DivideEntry {
	var out []DivideEntry
	if depth <= 0 {
		return out
	}
	for _, m := range p.LegalMoves(nil) {
		out = append(out, DivideEntry{m, Perft(p.Apply(m), depth-1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move.String() < out[j].Move.String() })
	return out
}
