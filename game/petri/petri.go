// Package petri is the rules engine of Petri Dish (docs/rules.md §4), a code-golf
// King-of-the-Hill game: two species of cells on a W x H grid, one process per cell action.
//
// Model. A Game is the whole state between two single-cell actions: the board, the player
// whose turn it is and the queue of that player's cells (by creation order) that still act
// this turn. A "turn" is the sequence of those single-cell actions; Do plays the action of
// the cell at the head of the queue and advances (the next cell, or the other player's
// turn). The win check runs after every action. For the games contract, Position wraps a
// Game: its moves are the actions of the cell whose turn it is and ToMove is the player
// owning that cell (so one player moves several times in a row).
//
// Two readings of the rules differ between the contest page and its driver (petri.js); both
// are Rules options, the driver's the zero value (the default).
package petri

import (
	"fmt"
	"strings"
)

// Reading selects the page's or the driver's reading of one rule.
type Reading uint8

const (
	// Driver is the reading of the contest's driver petri.js (the default).
	Driver Reading = iota
	// Page is the reading of the contest page's text.
	Page
)

func (r Reading) String() string {
	if r == Page {
		return "page"
	}
	return "driver"
}

// Rules are the rule options where the page and the driver differ.
type Rules struct {
	// MoveCost: Driver checks energy >= 1 and deducts nothing; Page deducts 1.
	MoveCost Reading
	// Explode: Driver deals the exploder's current HP to the 3x3 block column by column from
	// the west (the exploder included, so only NW, W, SW and N are hurt); Page deals HP +
	// acidity to all 8 neighbours.
	Explode Reading
}

// DriverRules and PageRules are the two consistent readings.
var (
	DriverRules = Rules{}
	PageRules   = Rules{MoveCost: Page, Explode: Page}
)

// ParseRules reads "driver" or "page".
func ParseRules(s string) (Rules, error) {
	switch strings.ToLower(s) {
	case "driver", "":
		return DriverRules, nil
	case "page":
		return PageRules, nil
	}
	return Rules{}, fmt.Errorf("petri: rules %q: want driver or page", s)
}

func (r Rules) String() string {
	if r == DriverRules {
		return "driver"
	}
	if r == PageRules {
		return "page"
	}
	return "move:" + r.MoveCost.String() + ",explode:" + r.Explode.String()
}

// Species is a player's allocation of 12 points.
type Species struct{ HP, Energy, Acidity int }

// Valid reports whether s is three non-negative integers summing to 12.
func (s Species) Valid() bool {
	return s.HP >= 0 && s.Energy >= 0 && s.Acidity >= 0 && s.HP+s.Energy+s.Acidity == 12
}

func (s Species) String() string { return fmt.Sprintf("%d %d %d", s.HP, s.Energy, s.Acidity) }

// ParseSpecies reads the answer to BEGIN: three non-negative integers summing to 12.
func ParseSpecies(line string) (Species, error) {
	f := strings.Fields(line)
	var v [3]int
	if len(f) != 3 {
		return Species{}, fmt.Errorf("petri: species %q: want three integers", line)
	}
	for i, w := range f {
		if _, err := fmt.Sscan(w, &v[i]); err != nil || fmt.Sprint(v[i]) != strings.TrimPrefix(w, "+") {
			return Species{}, fmt.Errorf("petri: species %q: %q is no integer", line, w)
		}
	}
	s := Species{v[0], v[1], v[2]}
	if !s.Valid() {
		return s, fmt.Errorf("petri: species %q: want non-negative numbers summing to 12", line)
	}
	return s, nil
}

// Kind is what a square holds.
type Kind uint8

const (
	Empty Kind = iota
	Live
	Corpse
)

// Square is one square of the grid; Owner, HP, Energy and ID are those of a living cell.
type Square struct {
	Kind   Kind
	Owner  int8
	HP     int16
	Energy int16
	ID     int32 // creation order: smaller is older
}

// Dir is one of the eight directions.
type Dir uint8

const (
	N Dir = iota
	NE
	E
	SE
	S
	SW
	W
	NW
)

var dirNames = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
var dirDX = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
var dirDY = [8]int{-1, -1, 0, 1, 1, 1, 0, -1}

func (d Dir) String() string { return dirNames[d&7] }

// Delta is the step of d (y grows southwards).
func (d Dir) Delta() (dx, dy int) { return dirDX[d&7], dirDY[d&7] }

// ActKind is an action's verb.
type ActKind uint8

const (
	Rest ActKind = iota
	Move
	Attack
	Divide
	Eat
	Explode
)

// Action is one cell's action. N is an attack's strength (1..3).
type Action struct {
	Kind ActKind
	Dir  Dir
	N    int8
}

// String is the program's output line (upper case, no newline).
func (a Action) String() string {
	switch a.Kind {
	case Move:
		return "MOVE " + a.Dir.String()
	case Attack:
		return fmt.Sprintf("ATTACK %s %d", a.Dir, a.N)
	case Divide:
		return "DIVIDE " + a.Dir.String()
	case Eat:
		return "EAT " + a.Dir.String()
	case Explode:
		return "EXPLODE"
	}
	return "REST"
}

// PolicyIndex numbers the 50 actions: REST 0, EXPLODE 1, MOVE 2-9, DIVIDE 10-17, EAT 18-25,
// ATTACK 26-49 (direction*3 + strength-1).
func (a Action) PolicyIndex() int {
	switch a.Kind {
	case Explode:
		return 1
	case Move:
		return 2 + int(a.Dir)
	case Divide:
		return 10 + int(a.Dir)
	case Eat:
		return 18 + int(a.Dir)
	case Attack:
		return 26 + 3*int(a.Dir) + int(a.N) - 1
	}
	return 0
}

// ParseAction reads an output line, case-insensitively: MOVE d, ATTACK d n (n = 1..3),
// DIVIDE d, EAT d, REST, EXPLODE. Only syntax is checked here (Legal checks the board).
func ParseAction(line string) (Action, error) {
	f := strings.Fields(strings.ToUpper(strings.TrimRight(line, "\r\n")))
	bad := func() (Action, error) { return Action{}, fmt.Errorf("petri: %q is no action", line) }
	if len(f) == 0 {
		return bad()
	}
	dir := func(s string) (Dir, bool) {
		for i, n := range dirNames {
			if n == s {
				return Dir(i), true
			}
		}
		return 0, false
	}
	switch f[0] {
	case "REST", "EXPLODE":
		if len(f) != 1 {
			return bad()
		}
		if f[0] == "REST" {
			return Action{Kind: Rest}, nil
		}
		return Action{Kind: Explode}, nil
	case "MOVE", "DIVIDE", "EAT":
		if len(f) != 2 {
			return bad()
		}
		d, ok := dir(f[1])
		if !ok {
			return bad()
		}
		k := map[string]ActKind{"MOVE": Move, "DIVIDE": Divide, "EAT": Eat}[f[0]]
		return Action{Kind: k, Dir: d}, nil
	case "ATTACK":
		if len(f) != 3 {
			return bad()
		}
		d, ok := dir(f[1])
		if !ok || len(f[2]) != 1 || f[2][0] < '1' || f[2][0] > '3' {
			return bad()
		}
		return Action{Kind: Attack, Dir: d, N: int8(f[2][0] - '0')}, nil
	}
	return bad()
}

// MaxTurns is the contest's turn limit: 150 turns each.
const MaxTurns = 150

// Game is the state between two single-cell actions.
type Game struct {
	W, H    int
	Rules   Rules
	Species [2]Species
	Sq      []Square // row-major, y*W + x
	// Player is whose turn it is; Queue the IDs of its cells still to act this turn, in
	// creation order (the head acts next).
	Player int
	Queue  []int32
	NextID int32
	// Turns counts the whole turns each player has finished; MaxTurns is the limit (each).
	Turns    [2]int
	MaxTurns int
	// Over says the game has ended; Winner is 0, 1 or -1 for a tie.
	Over   bool
	Winner int
}

// New returns the start: player 1 (index 0) at (1,1), player 2 at (W-2,H-2), each one cell
// at full HP and energy, player 1 to move. The board must be at least 3x3 (the two start
// squares differ).
func New(w, h int, rules Rules, s0, s1 Species) *Game {
	g := &Game{W: w, H: h, Rules: rules, Species: [2]Species{s0, s1}, Sq: make([]Square, w*h), MaxTurns: MaxTurns, Winner: -1}
	g.put(1, 1, 0)
	g.put(w-2, h-2, 1)
	g.startTurn()
	g.check()
	return g
}

func (g *Game) put(x, y, owner int) {
	sp := g.Species[owner]
	g.Sq[y*g.W+x] = Square{Kind: Live, Owner: int8(owner), HP: int16(sp.HP), Energy: int16(sp.Energy), ID: g.NextID}
	g.NextID++
}

// Clone is a deep copy.
func (g *Game) Clone() *Game {
	c := *g
	c.Sq = append([]Square(nil), g.Sq...)
	c.Queue = append([]int32(nil), g.Queue...)
	return &c
}

// In reports whether (x,y) is on the grid.
func (g *Game) In(x, y int) bool { return x >= 0 && y >= 0 && x < g.W && y < g.H }

// At is the square at (x,y) (on the grid).
func (g *Game) At(x, y int) *Square { return &g.Sq[y*g.W+x] }

// Count is the number of living cells of each player.
func (g *Game) Count() [2]int {
	var n [2]int
	for i := range g.Sq {
		if g.Sq[i].Kind == Live {
			n[g.Sq[i].Owner]++
		}
	}
	return n
}

// startTurn fills the queue with the player's living cells by creation order.
func (g *Game) startTurn() {
	g.Queue = g.Queue[:0]
	for i := range g.Sq {
		if s := &g.Sq[i]; s.Kind == Live && int(s.Owner) == g.Player {
			g.Queue = append(g.Queue, s.ID)
		}
	}
	// Insertion sort: the queue is short and nearly sorted.
	q := g.Queue
	for i := 1; i < len(q); i++ {
		for j := i; j > 0 && q[j] < q[j-1]; j-- {
			q[j], q[j-1] = q[j-1], q[j]
		}
	}
}

// find returns the square index of the living cell id, or -1.
func (g *Game) find(id int32) int {
	for i := range g.Sq {
		if g.Sq[i].Kind == Live && g.Sq[i].ID == id {
			return i
		}
	}
	return -1
}

// Actor returns the coordinates of the cell that acts next (ok false when the game is over).
func (g *Game) Actor() (x, y int, ok bool) {
	if g.Over {
		return 0, 0, false
	}
	for len(g.Queue) > 0 {
		if i := g.find(g.Queue[0]); i >= 0 {
			return i % g.W, i / g.W, true
		}
		g.Queue = g.Queue[1:]
	}
	return 0, 0, false
}

// check ends the game when a player has no living cell, or when both have played MaxTurns.
func (g *Game) check() {
	n := g.Count()
	switch {
	case n[0] == 0 && n[1] == 0:
		g.Over, g.Winner = true, -1
	case n[0] == 0:
		g.Over, g.Winner = true, 1
	case n[1] == 0:
		g.Over, g.Winner = true, 0
	case g.Turns[0] >= g.MaxTurns && g.Turns[1] >= g.MaxTurns:
		g.Over = true
		switch {
		case n[0] > n[1]:
			g.Winner = 0
		case n[1] > n[0]:
			g.Winner = 1
		default:
			g.Winner = -1
		}
	}
}

// Legal reports whether the cell at (x,y) may do a (the game's rules; false means REST).
func (g *Game) Legal(x, y int, a Action) bool {
	c := g.At(x, y)
	if c.Kind != Live {
		return false
	}
	tx, ty := x, y
	if a.Kind != Rest && a.Kind != Explode {
		dx, dy := a.Dir.Delta()
		tx, ty = x+dx, y+dy
		if a.Dir > NW || !g.In(tx, ty) {
			return false
		}
	}
	switch a.Kind {
	case Rest:
		return true
	case Move:
		return c.Energy >= 1 && g.At(tx, ty).Kind != Live
	case Attack:
		return a.N >= 1 && a.N <= 3 && int(c.Energy) >= int(a.N) && g.At(tx, ty).Kind == Live
	case Divide:
		return c.Energy >= 5 && g.At(tx, ty).Kind != Live
	case Eat:
		return g.At(tx, ty).Kind == Corpse
	case Explode:
		return c.HP <= 3 && c.Energy > c.HP
	}
	return false
}

// damage hits the living cell at (x,y) for d; at HP <= 0 it dies and leaves a corpse.
func (g *Game) damage(x, y, d int) {
	if !g.In(x, y) {
		return
	}
	s := g.At(x, y)
	if s.Kind != Live {
		return
	}
	s.HP -= int16(d)
	if s.HP <= 0 {
		*s = Square{Kind: Corpse}
	}
}

// Apply plays a for the cell at (x,y) (an illegal one is a REST) and reports whether it was
// legal. It does not advance the turn (see Do).
func (g *Game) Apply(x, y int, a Action) bool {
	if !g.Legal(x, y, a) {
		if g.At(x, y).Kind != Live {
			return false
		}
		g.rest(g.At(x, y))
		return false
	}
	c := g.At(x, y)
	maxE := int16(g.Species[c.Owner].Energy)
	dx, dy := a.Dir.Delta()
	tx, ty := x+dx, y+dy
	switch a.Kind {
	case Rest:
		g.rest(c)
	case Move:
		if g.Rules.MoveCost == Page {
			c.Energy--
		}
		*g.At(tx, ty) = *c
		*c = Square{}
	case Attack:
		c.Energy -= int16(a.N)
		g.damage(tx, ty, int(a.N))
	case Divide:
		c.Energy -= 5
		sp := g.Species[c.Owner]
		*g.At(tx, ty) = Square{Kind: Live, Owner: c.Owner, HP: int16(sp.HP), Energy: c.Energy, ID: g.NextID}
		g.NextID++
	case Eat:
		*g.At(tx, ty) = Square{}
		c.Energy = min(c.Energy+4, maxE)
	case Explode:
		if g.Rules.Explode == Page {
			d := int(c.HP) + g.Species[c.Owner].Acidity
			*c = Square{Kind: Corpse}
			for k := range 8 {
				ddx, ddy := Dir(k).Delta()
				g.damage(x+ddx, y+ddy, d)
			}
		} else {
			// The driver: column by column from the west, the current HP of the exploder
			// (0 once it has hit itself).
			for ex := x - 1; ex <= x+1; ex++ {
				for ey := y - 1; ey <= y+1; ey++ {
					d := 0
					if c.Kind == Live {
						d = int(c.HP)
					}
					g.damage(ex, ey, d)
				}
			}
		}
	}
	return true
}

func (g *Game) rest(c *Square) {
	c.Energy = min(c.Energy+2, int16(g.Species[c.Owner].Energy))
}

// Do plays a for the cell whose turn it is, then runs the win check and advances to the next
// cell (or the next turn). It reports whether a was legal (false: it was a REST).
func (g *Game) Do(a Action) bool {
	x, y, ok := g.Actor()
	if !ok {
		return false
	}
	legal := g.Apply(x, y, a)
	g.Queue = g.Queue[1:]
	g.advance()
	return legal
}

// advance runs the win check and, when the player's queue is empty, ends its turn.
func (g *Game) advance() {
	g.check()
	for !g.Over {
		if _, _, ok := g.Actor(); ok {
			return
		}
		g.Turns[g.Player]++
		g.Player ^= 1
		g.check()
		if g.Over {
			return
		}
		g.startTurn()
	}
}

// Row returns row y as the player sees it: o own cells, x enemies, c corpses, . empty.
func (g *Game) Row(y, player int) string {
	b := make([]byte, g.W)
	for x := range g.W {
		s := g.At(x, y)
		switch {
		case s.Kind == Corpse:
			b[x] = 'c'
		case s.Kind == Live && int(s.Owner) == player:
			b[x] = 'o'
		case s.Kind == Live:
			b[x] = 'x'
		default:
			b[x] = '.'
		}
	}
	return string(b)
}

// Input is the stdin of the cell whose turn it is: "W H", H rows, a blank line,
// "x y hp energy", no trailing newline.
func (g *Game) Input() string {
	x, y, ok := g.Actor()
	if !ok {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d\n", g.W, g.H)
	for r := range g.H {
		b.WriteString(g.Row(r, g.Player))
		b.WriteByte('\n')
	}
	c := g.At(x, y)
	fmt.Fprintf(&b, "\n%d %d %d %d", x, y, c.HP, c.Energy)
	return b.String()
}

// String is the board from player 1's side ('o' player 1, 'x' player 2), rows joined by '/',
// then the player to move and the turns played.
func (g *Game) String() string {
	rows := make([]string, g.H)
	for y := range g.H {
		rows[y] = g.Row(y, 0)
	}
	return fmt.Sprintf("%s %d %d/%d", strings.Join(rows, "/"), g.Player+1, g.Turns[0], g.Turns[1])
}

// Outcome describes the end for humans.
func (g *Game) Outcome() string {
	n := g.Count()
	how := "all cells of one side dead"
	if g.Turns[0] >= g.MaxTurns && g.Turns[1] >= g.MaxTurns && n[0] > 0 && n[1] > 0 {
		how = fmt.Sprintf("%d turns each", g.MaxTurns)
	} else if n[0] == 0 && n[1] == 0 {
		how = "both sides dead"
	}
	return fmt.Sprintf("%s, cells %d-%d", how, n[0], n[1])
}
