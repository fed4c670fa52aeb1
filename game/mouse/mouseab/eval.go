package mouseab

import (
	"math/bits"

	"colony/game/mouse"
)

// Evaluation, in hundredths of a mouse from the point of view of the mice (negated for
// Nadori's team to move).
//
// The race. A mouse whose column below it is empty down to row 6 (a free path) needs
// need = 6 - r steps (0-based row r) to reach row 7. Nadori's team stops it only by putting a
// piece on one of its path cells before the mouse passes it, or by Nadori stepping onto it;
// cats never capture. With the team getting the first move (off = 0) or the mice (off = -1),
// the path cell j rows below the mouse can still be taken by a piece that needs at most
// j + off moves to get there, and Nadori catches the mouse at its row r+t-1-off with its t-th
// move when its king distance to that cell is at most t. A cat reaches a cell in 1 move when
// it sees it now (queen rays, current occupancy); otherwise the mice's profile credits it with
// 2 (a queen reaches almost any cell in two), the team's profile with 2 when it reaches a cell
// that sees the target, else 3. Every credit is at most the true distance, so when no piece
// can stop the mouse so, it is unstoppable: the mice only have to push it, and the position is
// scored close to a win (winish - 100 * need). Mice that the team can only just stop (no
// slack) are threats; two of them at once score high, and the search sorts out the rest.
//
// Besides the race: material (100 a mouse), advancement (more for free paths), the mice's
// mobility (with no move the mice lose: few moves means zugzwang is near) and Nadori's reach.
// The team's profile adds Nadori's distance to the advanced mice, free runners against the
// pieces left to block them (a piece right below a mouse is taken), and the cats' watch over
// the last two rows.
const (
	winish     int32 = 8000 // an unstoppable mouse (well below winBound: not a proven result)
	mouseValue int32 = 100
)

// advFree and advBlocked are the advancement values of a mouse on 0-based row r with a free
// or a blocked path.
var (
	advFree    = [mouse.Rows]int32{0, 6, 16, 32, 60, 120, 0}
	advBlocked = [mouse.Rows]int32{0, 3, 8, 14, 22, 30, 0}
	// threatBonus[r] is the value of a free mouse on row r that the team can only just stop.
	threatBonus = [mouse.Rows]int32{0, 0, 10, 25, 60, 120, 0}
)

// innerRowMask[r] has the inner cells of 0-based row r (1..5).
var innerRowMask [mouse.Rows]uint64

func init() {
	for r := 1; r <= 5; r++ {
		innerRowMask[r] = uint64(mouse.RowFull) << ((r - 1) * mouse.Cols)
	}
}

// kingDistTab[a][b] is the king distance between inner cells a and b.
var kingDistTab [mouse.InnerCells][mouse.InnerCells]int8

func init() {
	for a := range mouse.InnerCells {
		for b := range mouse.InnerCells {
			dr := a/mouse.Cols - b/mouse.Cols
			dc := a%mouse.Cols - b%mouse.Cols
			kingDistTab[a][b] = int8(max(dr, -dr, dc, -dc))
		}
	}
}

func kingDist(a, b int) int { return int(kingDistTab[a][b]) }

// evalInfo is what the evaluation learns of a position besides its score (for tests and
// diagnostics).
type evalInfo struct {
	catSee  uint64 // inner cells some cat reaches in one move
	nadSq   int    // Nadori's inner cell, -1 without Nadori
	urgent  int    // free mice the team must deal with at once
	bestWin int    // steps of the fastest unstoppable mouse, 0 if none
}

// evaluate scores p (not terminal) for the side to move, with the profile of the engine's
// role: the mice's (miceRole) or the team's. Each profile was measured as the stronger one for
// its role (fixed-node self-play): the team needs the finer model of its defence, the mice do
// better with the plainer one.
func evaluate(p *mouse.Position, miceRole bool) int32 {
	var info evalInfo
	var v int32
	if miceRole {
		v = evalForMice(p, &info)
	} else {
		v = evalForTeam(p, &info)
	}
	if p.ToMove() == mouse.Team {
		return -v
	}
	return v
}

// evalForTeam scores p from the mice's side with the profile the engine uses when it plays
// Nadori's team: the race with the cats' real distances (1, 2 through a cell that sees the
// path, else 3) and a cat that holds a mouse up charged one move more, graded threats,
// Nadori's distance to the advanced mice, runners against the pieces left to block them, and
// the cats' watch over the last two rows.
func evalForTeam(p *mouse.Position, info *evalInfo) int32 {
	occ := p.Occupied()
	cats, nad := p.Cats(), p.Nadori()
	top, inner := p.TopMice(), p.InnerMice()
	// The pieces right below a mouse hold it up: a cat that leaves sets it free.
	committed := (inner<<mouse.Cols | uint64(top)) & mouse.InnerFull & (cats | nad)
	var seeAll, seeFree uint64
	for b := cats; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		a := mouse.QueenAttacks(i, occ)
		seeAll |= a
		if committed>>i&1 == 0 {
			seeFree |= a
		}
	}
	info.catSee = seeAll
	landAll, landFree := seeAll&^occ, seeFree&^occ
	haveCats, haveFree := cats != 0, cats&^committed != 0
	nadSq := nadoriSquare(nad)
	info.nadSq = nadSq
	teamToMove := p.ToMove() == mouse.Team
	rc := race{fine: true, occ: occ, seeAll: seeAll, seeFree: seeFree, landAll: landAll, landFree: landFree,
		haveCats: haveCats, haveFree: haveFree, nadSq: nadSq, off: raceOff(teamToMove)}

	var score int32
	n, free, urgent, bestWin := 0, 0, 0, 0
	for c, r8 := range p.MouseRows() {
		r := int(r8)
		if r < 0 {
			continue
		}
		n++
		// Nadori's threat: a mouse near Nadori is in danger, more so one that cannot step
		// away (mice only walk down); an advanced mouse far from Nadori is hard to catch.
		if nadSq >= 0 && r >= 1 {
			d := min(kingDist(nadSq, (r-1)*mouse.Cols+c), 7)
			score += nadFar[r]*int32(d) - nadNear[d]
			if r < 5 && occ>>(r*mouse.Cols+c)&1 != 0 {
				score -= nadNearStuck[d]
			}
			if d == 1 && teamToMove {
				score -= 60
			}
		}
		// Path: inner cells (r+1..5, c).
		if occ&mouse.PathBelow(r, c) != 0 {
			score += advBlocked[r]
			continue
		}
		free++
		score += advFree[r]
		need := 6 - r
		sound, practical := rc.slack(r, c)
		switch {
		case sound == none:
			bestWin = fastest(bestWin, need)
		case practical <= 0:
			urgent++
			score += threatBonus[r]
		case practical == 1:
			score += threatBonus[r] / 2
		case practical == 2:
			score += threatBonus[r] / 4
		}
	}
	info.urgent, info.bestWin = urgent, bestWin
	if n == 0 {
		return -winish
	}
	score += mouseValue * int32(n-6)
	if bestWin > 0 {
		return winish - 100*int32(bestWin) + score/16
	}
	score += manyUrgent(urgent, teamToMove)
	// Runners against blockers: every free mouse needs a piece of the team some day; the
	// pieces that already hold a mouse up are taken.
	spare := bits.OnesCount64((cats | nad) &^ committed)
	if free > spare {
		score += excessValue * int32(free-spare)
	}
	// The cats' watch over the last two rows: a cat that sees a cell there can step in front
	// of a mouse in one move.
	score -= coverValue * int32(bits.OnesCount64(seeFree&(innerRowMask[4]|innerRowMask[5])))
	// Mobility: the mice must move; with no move they lose.
	mob := bits.OnesCount64(uint64(top)&^occ) + bits.OnesCount64(inner&^(occ>>mouse.Cols))
	score -= lowMobility[min(mob, 4)]
	return score
}

// nadoriSquare is the square of Nadori (the bitboard nad), or -1 when Nadori is off the board.
func nadoriSquare(nad uint64) int {
	if nad == 0 {
		return -1
	}
	return bits.TrailingZeros64(nad)
}

// fastest is the steps of the fastest unstoppable mouse, best (0: none yet) or one that needs
// need steps.
func fastest(best, need int) int {
	if best == 0 || need < best {
		return need
	}
	return best
}

// manyUrgent is the mice's bonus for two or more urgent mice (the team stops one per move),
// 100 more with the team to move, as both profiles score it.
func manyUrgent(urgent int, teamToMove bool) int32 {
	if urgent < 2 {
		return 0
	}
	bonus := 150 * int32(urgent-1)
	if teamToMove {
		bonus += 100
	}
	return bonus
}

// evalForMice scores p from the mice's side with the profile the engine uses when it plays
// the mice: the race with every cat credited two moves to any cell it does not see, threats,
// mobility and the mice within Nadori's reach.
func evalForMice(p *mouse.Position, info *evalInfo) int32 {
	occ := p.Occupied()
	cats, nad := p.Cats(), p.Nadori()
	var catSee uint64
	for b := cats; b != 0; b &= b - 1 {
		catSee |= mouse.QueenAttacks(bits.TrailingZeros64(b), occ)
	}
	info.catSee = catSee
	nadSq := nadoriSquare(nad)
	info.nadSq = nadSq
	teamToMove := p.ToMove() == mouse.Team
	rc := race{occ: occ, seeAll: catSee, haveCats: cats != 0, nadSq: nadSq, off: raceOff(teamToMove)}

	var score int32
	n := 0
	urgent := 0
	bestWin := 0
	var nadReach uint64
	if nadSq >= 0 {
		nadReach = mouse.KingAttacks(nadSq)
	}
	rows := p.MouseRows()
	for c, r8 := range rows {
		r := int(r8)
		if r < 0 {
			continue
		}
		n++
		score += mouseValue
		// Path: inner cells (r+1..5, c).
		if occ&mouse.PathBelow(r, c) != 0 {
			score += advBlocked[r]
			continue
		}
		score += advFree[r]
		need := 6 - r
		slack, _ := rc.slack(r, c)
		switch {
		case slack == none:
			bestWin = fastest(bestWin, need)
		case slack == 0:
			urgent++
			score += threatBonus[r]
		case slack == 1:
			score += threatBonus[r] / 3
		}
	}
	info.urgent, info.bestWin = urgent, bestWin
	if n == 0 {
		return -winish
	}
	if bestWin > 0 {
		return winish - 100*int32(bestWin) + score/10
	}
	score += manyUrgent(urgent, teamToMove)
	// Mobility: the mice must move; with no move they lose.
	top, inner := p.TopMice(), p.InnerMice()
	mob := bits.OnesCount64(uint64(top)&^occ) + bits.OnesCount64(inner&^(occ>>mouse.Cols))
	score -= lowMobility[min(mob, 4)]
	// Mice within Nadori's reach.
	if inReach := bits.OnesCount64(nadReach & inner); inReach > 0 {
		if teamToMove {
			score -= 70 + 15*int32(inReach-1)
		} else {
			score -= 15 * int32(inReach)
		}
	}
	return score
}

var (
	// nadNear[d] and nadNearStuck[d]: the danger of a mouse at king distance d of Nadori,
	// and the extra danger when it cannot step.
	nadNear      = [8]int32{0, 20, 10, 5, 2, 0, 0, 0}
	nadFar       = [mouse.Rows]int32{0, 0, 1, 2, 4, 6, 0}
	nadNearStuck = [8]int32{0, 30, 20, 10, 4, 0, 0, 0}
	lowMobility  = [5]int32{300, 120, 50, 15, 0}
)

const (
	excessValue = 35
	coverValue  = 2
)

// none is a race's slack when no piece can stop the mouse.
const none = 99

// race is what the race (see the top of the file) needs to know of a position: the cells the
// cats see, Nadori, and who moves first.
type race struct {
	// fine is the team's profile: a cat needs 1 move to a cell it sees, 2 through a cell
	// that sees it, else 3 (sound), and a cat that holds a mouse up one move more
	// (practical). Without it (the mice's profile) every cat reaches an unseen cell in 2.
	fine                               bool
	occ                                uint64
	seeAll, seeFree, landAll, landFree uint64 // cells the cats (free: not holding a mouse up) see; unoccupied
	haveCats, haveFree                 bool
	nadSq                              int // Nadori's inner cell, -1 without Nadori
	off                                int // 0 when the team moves first, -1 when the mice do
}

// raceOff is the race's offset: the team moving first has one move more to stop a mouse.
func raceOff(teamToMove bool) int {
	if teamToMove {
		return 0
	}
	return -1
}

// slack returns the team's spare moves to stop the free mouse on 0-based row r of column c:
// sound counts every piece at a distance no greater than its true one, so none means the
// mouse is unstoppable; practical (the fine profile only, else what Nadori alone gives)
// charges a cat that holds another mouse up one move more.
func (x *race) slack(r, c int) (sound, practical int) {
	sound, practical = none, none
	for j := 5 - r; j >= 1; j-- {
		budget := j + x.off
		if budget < 1 || x.fine && practical <= budget-3 && sound < none {
			break // a shallower cell leaves less time: nothing to gain
		}
		cell := (r+j-1)*mouse.Cols + c
		switch {
		case x.fine && x.haveCats:
			dAll, dFree := 3, 4
			if x.seeAll>>cell&1 != 0 {
				dAll = 1
			}
			if x.seeFree>>cell&1 != 0 {
				dFree = 1
			}
			if (dAll > 1 || dFree > 1) && budget >= 2 {
				lines := mouse.QueenAttacks(cell, x.occ)
				if dAll > 1 && lines&x.landAll != 0 {
					dAll = 2
				}
				if dFree > 1 && x.haveFree && lines&x.landFree != 0 {
					dFree = 2
				}
			}
			if !x.haveFree && dFree > 1 {
				dFree = none
			}
			if dFree > 3 {
				dFree = 3 // a free cat still gets there in three, most of the time
				if !x.haveFree {
					dFree = none
				}
			}
			if dAll <= budget {
				sound = min(sound, budget-dAll)
			}
			practical = min(practical, budget-dFree, budget-dAll-1)
		case x.fine:
		case x.seeAll>>cell&1 != 0:
			sound = min(sound, budget-1)
		case x.haveCats && budget >= 2:
			sound = min(sound, budget-2)
		}
		if x.nadSq >= 0 {
			if kd := kingDist(x.nadSq, cell); kd <= budget {
				sound = min(sound, budget-kd)
				practical = min(practical, budget-kd)
			}
		}
	}
	if x.nadSq >= 0 {
		for t := 1; t <= 6-r+x.off; t++ {
			row := r + t - 1 - x.off
			if row < 1 || row > 5 {
				continue
			}
			if kd := kingDist(x.nadSq, (row-1)*mouse.Cols+c); kd <= t {
				sound = min(sound, t-kd)
				practical = min(practical, t-kd)
			}
		}
	}
	return sound, practical
}
