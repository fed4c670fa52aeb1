package nnab

import (
	"colony/engine/tt"
	"colony/game/ataxx"
)

// corrections are what nnab's evaluation learns from its own searches within a game (a
// correction history, engine/alphabeta's Corrector): for each side to move, two tables of
// corrSize entries, one indexed by a hash of the empty cells and one by a hash of the side's
// own pieces. A position's correction is the mean of its two entries; after a node's search,
// each entry moves towards the search's score less the net's raw one, by a share that grows
// with the depth (1/32 a ply, at most 1/2), unless the score's bound leaves the error's sign
// open. Entries are kept in 1/corrGrain of a score unit and within ±corrMax units. Kept by a
// fixed-node SPRT and against Zataxx (docs/search.md, "Correction history").
type corrections struct {
	t [2][2][corrSize]int32 // [empty cells, own pieces][side to move][hash]
}

const (
	corrBits  = 14
	corrSize  = 1 << corrBits
	corrGrain = 256
	corrMax   = 48 // score units
)

// corrIndex is the table index of a set of cells.
func corrIndex(b uint64) int { return int(b * 0x9e3779b97f4a7c15 >> (64 - corrBits)) }

// entries are p's two entries: its empty cells' and its side to move's own pieces'.
func (c *corrections) entries(p *ataxx.Position) (*int32, *int32) {
	s := p.ToMove()
	return &c.t[0][s][corrIndex(p.Empty())], &c.t[1][s][corrIndex(p.Pieces(s))]
}

// of is p's correction in score units.
func (c *corrections) of(p *ataxx.Position) int32 {
	a, b := c.entries(p)
	return (*a + *b) / (2 * corrGrain)
}

// learn moves p's entries towards best - raw, where best is the score (with its bound) of a
// search of p at depth and raw the net's score of p.
func (c *corrections) learn(p *ataxx.Position, depth int, raw, best int32, bound uint8) {
	a, b := c.entries(p)
	if st := raw + (*a+*b)/(2*corrGrain); bound == tt.Lower && best <= st || bound == tt.Upper && best >= st {
		return
	}
	target := min(max(best-raw, -corrMax), corrMax) * corrGrain
	w := int32(min(8*(depth+1), 128))
	*a += (target - *a) * w / 256
	*b += (target - *b) * w / 256
}
