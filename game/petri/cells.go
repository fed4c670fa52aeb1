package petri

import (
	"hash/fnv"
	"math/rand/v2"
)

// Cell is a stateless cell program: a species and a decision that is a function of what
// the acting cell sees. Decide gets a game built from the cell's view (View.Game: the actor
// is at the head of the queue, its player is 0, what the view hides is guessed) and returns
// the action; seed varies a random cell between games.
type Cell struct {
	Name    string
	Doc     string
	Species Species
	Decide  func(g *Game, seed uint64) Action
}

// Cells are the cell programs, the strongest first.
var Cells = []Cell{
	{Name: "colony", Doc: "team plan: focus fire on adjacent enemies, eat, divide away from the front, idle full cells advance",
		Species: Species{5, 7, 0}, Decide: Colony},
	{Name: "sample", Doc: "the page's sample cells: divide when possible, eat corpses, attack adjacent enemies, else move toward the enemy (directions shuffled by the board and -seed)",
		Species: Species{5, 6, 1}, Decide: Sample},
	{Name: "random", Doc: "a uniformly random legal action (seeded by the board and -seed)",
		Species: Species{4, 6, 2}, Decide: RandomCell},
}

// CellByName returns the named cell program.
func CellByName(name string) (Cell, bool) {
	for _, c := range Cells {
		if c.Name == name {
			return c, true
		}
	}
	return Cell{}, false
}

// Answer is a cell program's whole answer to one stdin: its species for "BEGIN", otherwise
// the action line (a view that cannot be read gets REST and the error).
func (c Cell) Answer(input string, rules Rules, seed uint64) (string, error) {
	if isBegin(input) {
		return c.Species.String(), nil
	}
	v, err := ParseView(input)
	if err != nil {
		return "REST", err
	}
	g := v.Game(rules, c.Species, c.Species)
	a := c.Decide(g, seed)
	if !g.Legal(v.X, v.Y, a) {
		a = Action{Kind: Rest}
	}
	return a.String(), nil
}

func isBegin(s string) bool {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\n' || s[j-1] == '\r' || s[j-1] == '\t') {
		j--
	}
	return s[i:j] == "BEGIN"
}

// boardHash is a hash of what the acting cell sees (to seed random choices statelessly).
func boardHash(g *Game, seed uint64) uint64 {
	h := fnv.New64a()
	x, y, _ := g.Actor()
	h.Write([]byte(g.String()))
	c := g.At(x, y)
	h.Write([]byte{byte(x), byte(y), byte(c.HP), byte(c.Energy)})
	return h.Sum64() ^ seed*0x9E3779B97F4A7C15
}

// RandomCell plays a uniformly random legal action.
func RandomCell(g *Game, seed uint64) Action {
	ms := Position{g}.LegalMoves(nil)
	r := rand.New(rand.NewPCG(boardHash(g, seed), 7))
	return ms[r.IntN(len(ms))]
}

// neighbours calls f for each direction whose square is on the grid.
func neighbours(g *Game, x, y int, f func(d Dir, nx, ny int)) {
	for d := range Dir(8) {
		dx, dy := d.Delta()
		if g.In(x+dx, y+dy) {
			f(d, x+dx, y+dy)
		}
	}
}

// enemiesAround counts the enemy cells next to (x, y).
func enemiesAround(g *Game, x, y, me int) int {
	n := 0
	neighbours(g, x, y, func(_ Dir, ax, ay int) {
		if isEnemy(g, ax, ay, me) {
			n++
		}
	})
	return n
}

func isEnemy(g *Game, x, y, me int) bool {
	s := g.At(x, y)
	return s.Kind == Live && int(s.Owner) != me
}

func isOwn(g *Game, x, y, me int) bool {
	s := g.At(x, y)
	return s.Kind == Live && int(s.Owner) == me
}

// enemyDist is the king-move distance from each square to the nearest enemy (a large
// number when there is none): a two-pass distance transform, exact for king moves.
func enemyDist(g *Game, me int) []int {
	const far = 1 << 20
	w, h := g.W, g.H
	dist := make([]int, len(g.Sq))
	for i := range dist {
		dist[i] = far
		if isEnemy(g, i%w, i/w, me) {
			dist[i] = 0
		}
	}
	relax := func(x, y, nx, ny int) {
		if nx >= 0 && ny >= 0 && nx < w && ny < h {
			dist[y*w+x] = min(dist[y*w+x], dist[ny*w+nx]+1)
		}
	}
	for y := range h {
		for x := range w {
			relax(x, y, x-1, y)
			relax(x, y, x-1, y-1)
			relax(x, y, x, y-1)
			relax(x, y, x+1, y-1)
		}
	}
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			relax(x, y, x+1, y)
			relax(x, y, x+1, y+1)
			relax(x, y, x, y+1)
			relax(x, y, x-1, y+1)
		}
	}
	return dist
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// Sample is the idea of the page's sample cells: divide when possible, eat corpses, attack
// adjacent enemies, otherwise move toward the nearest enemy (else rest). Among the
// directions that fit, it takes the first of an order shuffled by the board and seed, so
// that games differ with -seed.
func Sample(g *Game, seed uint64) Action {
	x, y, _ := g.Actor()
	me := g.Player
	c := g.At(x, y)
	r := rand.New(rand.NewPCG(boardHash(g, seed), 11))
	var dirs [8]Dir
	for i, k := range r.Perm(8) {
		dirs[i] = Dir(k)
	}
	for _, d := range dirs {
		if a := (Action{Kind: Divide, Dir: d}); g.Legal(x, y, a) {
			return a
		}
	}
	for _, d := range dirs {
		if a := (Action{Kind: Eat, Dir: d}); g.Legal(x, y, a) {
			return a
		}
	}
	for _, d := range dirs {
		dx, dy := d.Delta()
		if g.In(x+dx, y+dy) && isEnemy(g, x+dx, y+dy, me) && c.Energy >= 1 {
			return Action{Kind: Attack, Dir: d, N: int8(min(3, int(c.Energy)))}
		}
	}
	dist := enemyDist(g, me)
	here := dist[y*g.W+x]
	for _, d := range dirs {
		dx, dy := d.Delta()
		if a := (Action{Kind: Move, Dir: d}); g.In(x+dx, y+dy) && dist[(y+dy)*g.W+x+dx] < here && g.Legal(x, y, a) {
			return a
		}
	}
	return Action{Kind: Rest}
}

// Colony is the strong cell. Every cell applies the same plan to the board it sees:
//  1. an adjacent enemy is attacked with all the energy an attack can carry (up to 3); the
//     target is the enemy most of our cells touch (focus fire), so that the team's attacks
//     this turn land on the same cells;
//  2. an adjacent corpse is eaten when the energy is not full (food, and denied to the enemy);
//  3. with 5 energy the cell divides onto the safest square (fewest enemies around it, a
//     corpse preferred, then nearest the enemy to claim ground);
//  4. a cell at full energy that can do none of this advances toward the nearest enemy,
//     preferring squares that fewer enemies touch; otherwise it rests.
func Colony(g *Game, _ uint64) Action {
	x, y, _ := g.Actor()
	me := g.Player
	c := g.At(x, y)
	maxE := g.Species[me].Energy
	e := int(c.Energy)
	// 1. Focus fire.
	best, bestScore := Dir(0), -1
	neighbours(g, x, y, func(d Dir, nx, ny int) {
		if !isEnemy(g, nx, ny, me) {
			return
		}
		score := 0
		neighbours(g, nx, ny, func(_ Dir, ax, ay int) {
			if isOwn(g, ax, ay, me) {
				score += 10
			}
		})
		// Fewer enemy friends around it: it is less protected.
		neighbours(g, nx, ny, func(_ Dir, ax, ay int) {
			if isEnemy(g, ax, ay, me) {
				score--
			}
		})
		score += 100
		if score > bestScore {
			best, bestScore = d, score
		}
	})
	if bestScore >= 0 {
		if e >= 1 {
			return Action{Kind: Attack, Dir: best, N: int8(min(3, e))}
		}
		return Action{Kind: Rest}
	}
	// 2. Eat.
	if e < maxE {
		for d := range Dir(8) {
			if a := (Action{Kind: Eat, Dir: d}); g.Legal(x, y, a) {
				return a
			}
		}
	}
	dist := enemyDist(g, me)
	// 3. Divide.
	if e >= 5 {
		best, bestScore := Dir(0), -1<<30
		neighbours(g, x, y, func(d Dir, nx, ny int) {
			if g.At(nx, ny).Kind == Live {
				return
			}
			threat := enemiesAround(g, nx, ny, me)
			score := -1000*threat - dist[ny*g.W+nx]
			if g.At(nx, ny).Kind == Corpse {
				score += 5
			}
			if score > bestScore {
				best, bestScore = d, score
			}
		})
		if bestScore > -1<<30 {
			return Action{Kind: Divide, Dir: best}
		}
	}
	// 4. Advance at full energy.
	if e >= maxE {
		here := dist[y*g.W+x]
		best, bestScore := Dir(0), -1<<30
		neighbours(g, x, y, func(d Dir, nx, ny int) {
			if g.At(nx, ny).Kind == Live || dist[ny*g.W+nx] >= here {
				return
			}
			threat := enemiesAround(g, nx, ny, me)
			score := -10*threat - dist[ny*g.W+nx]
			if score > bestScore {
				best, bestScore = d, score
			}
		})
		if bestScore > -1<<30 {
			return Action{Kind: Move, Dir: best}
		}
	}
	return Action{Kind: Rest}
}

// Result is one in-process game's end.
type Result struct {
	Winner int // seat 0 or 1, -1 a tie
	Cells  [2]int
	Turns  [2]int
	// Invalid counts each seat's actions that were no legal action.
	Invalid [2]int
}

// PlayCells plays one game between two cell programs in process, through the same strings
// a driver exchanges (BEGIN, the view, the action line), seat 0 first.
func PlayCells(a, b Cell, w, h int, rules Rules, seed uint64) Result {
	cells := [2]Cell{a, b}
	var sp [2]Species
	for i, c := range cells {
		line, _ := c.Answer("BEGIN", rules, seed)
		s, err := ParseSpecies(line)
		if err != nil {
			panic(err)
		}
		sp[i] = s
	}
	g := New(w, h, rules, sp[0], sp[1])
	var res Result
	for !g.Over {
		p := g.Player
		line, _ := cells[p].Answer(g.Input(), rules, seed+uint64(p))
		a, err := ParseAction(line)
		if err != nil {
			a = Action{Kind: Rest}
		}
		if !g.Do(a) || err != nil {
			res.Invalid[p]++
		}
	}
	res.Winner, res.Cells, res.Turns = g.Winner, g.Count(), g.Turns
	return res
}
