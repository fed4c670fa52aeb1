// Package bots holds Slime's engines (engine.Engine[slime.Position, slime.Move]): the
// contest page's baselines, GreedySlime ("greedy") and Jumper ("jumper"), the controller's
// sample bot simplebot.rb ("simplebot"), and Colony's own search ("paranoid").
package bots

import (
	"math"
	"math/rand/v2"

	"colony/engine"
	"colony/game/slime"
)

// Greedy is the contest page's GreedySlime: "just makes the move that gives the largest net
// gain of slime". Its value of a move is 1 for a spread, 0 for a jump, -1 for a merge, plus,
// for a spread or jump, one per enemy slime around the target, for a merge one per empty cell
// around the target. Moves are tried source by source in reading order, each source's targets
// by row offset -2..2 then column offset -2..2; the first move of the highest value is played
// (Python's max). With no move at all it passes (GreedySlime itself crashes there, which the
// controller reads as a pass). It is deterministic and ignores the limits.
type Greedy struct{}

var _ engine.Engine[slime.Position, slime.Move] = Greedy{}

func (Greedy) Name() string { return "greedy" }
func (Greedy) NewGame()     {}

func (Greedy) BestMove(p slime.Position, _ engine.Limits) slime.Move {
	return GreedyMove(p)
}

// GreedyMove is GreedySlime's move in p.
func GreedyMove(p slime.Position) slime.Move {
	n, me := p.Size(), p.ToMove()
	best, bestNet := slime.Pass, math.MinInt
	for x0 := range n {
		for y0 := range n {
			if p.At(x0, y0) != me {
				continue
			}
			for i := -2; i <= 2; i++ {
				for j := -2; j <= 2; j++ {
					x1, y1 := x0+i, y0+j
					if (i == 0 && j == 0) || x1 < 0 || x1 >= n || y1 < 0 || y1 >= n {
						continue
					}
					c := p.At(x1, y1)
					var net int
					merge := false
					switch {
					case i >= -1 && i <= 1 && j >= -1 && j <= 1 && c == -1:
						net = 1
					case i >= -1 && i <= 1 && j >= -1 && j <= 1 && c == me:
						net, merge = -1, true
					case (i < -1 || i > 1 || j < -1 || j > 1) && c == -1:
						net = 0
					default:
						continue
					}
					for di := -1; di <= 1; di++ {
						for dj := -1; dj <= 1; dj++ {
							x2, y2 := x1+di, y1+dj
							if (di == 0 && dj == 0) || x2 < 0 || x2 >= n || y2 < 0 || y2 >= n {
								continue
							}
							c2 := p.At(x2, y2)
							if (merge && c2 == -1) || (!merge && c2 != me && c2 != -1) {
								net++
							}
						}
					}
					if net > bestNet {
						bestNet = net
						best, _ = p.MoveOf(x0, y0, x1, y1)
					}
				}
			}
		}
	}
	return best
}

// Jumper is the contest page's Jumper ("likes to jump, especially towards the middle; passes
// if its slime cannot jump"), as its code does it: every target at distance 1 or 2 of an own
// slime (so spreads too) that is empty and not in row 0 or column 0 (its bounds check reads
// "> 0"), scored by the rounded distance of the target from the point (n/2, n/2); the
// smallest wins, the first found in reading order of the sources, then of the offsets, on a
// tie. It passes when there is none. Deterministic; it ignores the limits.
type Jumper struct{}

var _ engine.Engine[slime.Position, slime.Move] = Jumper{}

func (Jumper) Name() string { return "jumper" }
func (Jumper) NewGame()     {}

func (Jumper) BestMove(p slime.Position, _ engine.Limits) slime.Move {
	return JumperMove(p)
}

// JumperMove is Jumper's move in p.
func JumperMove(p slime.Position) slime.Move {
	n, me := p.Size(), p.ToMove()
	mid := float64(n) / 2
	best, minRad := slime.Pass, 1000
	for r := range n {
		for c := range n {
			if p.At(r, c) != me {
				continue
			}
			cellBest, cellRad := slime.Pass, 10000
			for dr := -2; dr < 3; dr++ {
				for dc := -2; dc < 3; dc++ {
					r2, c2 := r+dr, c+dc
					if r2 <= 0 || r2 >= n || c2 <= 0 || c2 >= n || max(abs(dr), abs(dc)) == 0 || p.At(r2, c2) != -1 {
						continue
					}
					fr, fc := float64(r2)-mid, float64(c2)-mid
					rad := int(math.Sqrt(fr*fr+fc*fc) + 0.5)
					if rad < cellRad {
						cellRad = rad
						cellBest, _ = p.MoveOf(r, c, r2, c2)
					}
				}
			}
			if cellBest != slime.Pass && cellRad < minRad {
				best, minRad = cellBest, cellRad
			}
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Simplebot is the controller's sample bot simplebot.rb: a uniformly random (source, target)
// pair among the spreads of every own slime; if there is none, among the jumps; else a pass.
// (A spread to a target next to k own slimes is k pairs, so k times as likely.)
type Simplebot struct {
	rng *rand.Rand
}

var _ engine.Engine[slime.Position, slime.Move] = (*Simplebot)(nil)

// NewSimplebot returns a simplebot whose choices are determined by seed.
func NewSimplebot(seed uint64) *Simplebot {
	return &Simplebot{rng: rand.New(rand.NewPCG(seed, 0x73696d706c65))} // "simple"
}

func (*Simplebot) Name() string { return "simplebot" }
func (*Simplebot) NewGame()     {}

func (s *Simplebot) BestMove(p slime.Position, _ engine.Limits) slime.Move {
	n, me := p.Size(), p.ToMove()
	for _, dist := range [2]int{1, 2} {
		pick, seen := slime.Pass, 0
		for r := range n {
			for c := range n {
				if p.At(r, c) != me {
					continue
				}
				for dr := -dist; dr <= dist; dr++ {
					for dc := -dist; dc <= dist; dc++ {
						r2, c2 := r+dr, c+dc
						if max(abs(dr), abs(dc)) != dist || r2 < 0 || r2 >= n || c2 < 0 || c2 >= n || p.At(r2, c2) != -1 {
							continue
						}
						// Reservoir sampling: uniform over the pairs seen.
						seen++
						if s.rng.IntN(seen) == 0 {
							pick, _ = p.MoveOf(r, c, r2, c2)
						}
					}
				}
			}
		}
		if seen > 0 {
			return pick
		}
	}
	return slime.Pass
}
