package data

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// The moves section of a version 3 shard follows the records in the uncompressed payload:
//
//	uvarint  number of games G
//	G times: u64 GameID, uvarint number of moves N, N x uvarint policy index
//
// Games appear in increasing GameID order, each once, and every GameID of an example has its
// game here (a shard holds whole games: Writer.AddGame never splits one).

// appendMoves appends the moves section for games; ids are the GameIDs of the examples.
func appendMoves(dst []byte, games []GameMoves, ids map[uint64]struct{}, policySize int) ([]byte, error) {
	sorted := slices.Clone(games)
	slices.SortFunc(sorted, func(a, b GameMoves) int {
		switch {
		case a.GameID < b.GameID:
			return -1
		case a.GameID > b.GameID:
			return 1
		}
		return 0
	})
	seen := 0
	for i, g := range sorted {
		if i > 0 && sorted[i-1].GameID == g.GameID {
			return nil, fmt.Errorf("game %#x listed twice", g.GameID)
		}
		if _, ok := ids[g.GameID]; ok {
			seen++
		}
		for j, m := range g.Moves {
			if m < 0 || int(m) >= policySize {
				return nil, fmt.Errorf("game %#x move %d: policy index %d outside [0,%d)", g.GameID, j, m, policySize)
			}
		}
	}
	if seen != len(ids) {
		return nil, fmt.Errorf("moves given for %d of the %d games of the examples", seen, len(ids))
	}
	dst = binary.AppendUvarint(dst, uint64(len(sorted)))
	for _, g := range sorted {
		dst = binary.LittleEndian.AppendUint64(dst, g.GameID)
		dst = binary.AppendUvarint(dst, uint64(len(g.Moves)))
		for _, m := range g.Moves {
			dst = binary.AppendUvarint(dst, uint64(m))
		}
	}
	return dst, nil
}

// parseMoves reads the moves section (all of b) of the shard s.
func parseMoves(b []byte, s *shardContent) ([]GameMoves, error) {
	r := reader{b: b}
	n := r.uvarint()
	if r.err == nil && n > uint64(len(b)) {
		return nil, corrupt("moves: %d games cannot fit in %d bytes", n, len(b))
	}
	out := make([]GameMoves, 0, n)
	have := make(map[uint64]bool, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		g := GameMoves{GameID: r.u64()}
		k := r.uvarint()
		if r.err == nil && k > uint64(len(r.b)) {
			return nil, corrupt("moves: game %#x has %d moves in %d bytes", g.GameID, k, len(r.b))
		}
		for j := uint64(0); j < k && r.err == nil; j++ {
			m := r.uvarint()
			if r.err == nil && (m >= uint64(s.meta.PolicySize) || m > math.MaxInt32) {
				return nil, corrupt("moves: game %#x move %d: policy index %d outside [0,%d)", g.GameID, j, m, s.meta.PolicySize)
			}
			g.Moves = append(g.Moves, int32(m))
		}
		if i > 0 && r.err == nil && g.GameID <= out[i-1].GameID {
			return nil, corrupt("moves: games out of order at %#x", g.GameID)
		}
		have[g.GameID] = true
		out = append(out, g)
	}
	if r.err != nil {
		return nil, corrupt("moves: %v", r.err)
	}
	if len(r.b) != 0 {
		return nil, corrupt("%d bytes left after the moves section", len(r.b))
	}
	for i, id := range s.gameIDs {
		if !have[id] {
			return nil, corrupt("example %d: game %#x has no moves", i, id)
		}
	}
	return out, nil
}
