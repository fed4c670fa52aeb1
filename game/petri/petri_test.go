package petri

import (
	"io"
	"strings"
	"testing"
	"time"
)

var sp480 = Species{4, 8, 0}

func rowsOf(g *Game) string {
	var r []string
	for y := range g.H {
		r = append(r, g.Row(y, 0))
	}
	return strings.Join(r, "/")
}

func TestActions(t *testing.T) {
	mv := func(d Dir) Action { return Action{Kind: Move, Dir: d} }
	cases := []struct {
		name   string
		rules  Rules
		rows   []string
		x, y   int
		energy int // set the actor's energy first (-1: keep)
		a      Action
		legal  bool
		after  string
		wantE  int
	}{
		{"move onto empty", DriverRules, []string{"...", ".o.", "..."}, 1, 1, -1, mv(E), true, ".../..o/...", 8},
		{"move costs 1 on the page", PageRules, []string{"...", ".o.", "..."}, 1, 1, -1, mv(E), true, ".../..o/...", 7},
		{"move onto corpse destroys it", DriverRules, []string{"...", ".oc", "..."}, 1, 1, -1, mv(E), true, ".../..o/...", 8},
		{"move needs energy 1", DriverRules, []string{"...", ".o.", "..."}, 1, 1, 0, mv(E), false, ".../.o./...", 2},
		{"move off the grid", DriverRules, []string{"o..", "...", "..."}, 0, 0, -1, mv(N), false, "o../.../...", 8},
		{"move onto a cell", DriverRules, []string{"...", ".ox", "..."}, 1, 1, 3, mv(E), false, ".../.ox/...", 5},
		{"attack kills, leaves corpse", DriverRules, []string{"...", ".ox", "..."}, 1, 1, -1, Action{Kind: Attack, Dir: E, N: 3}, true, ".../.ox/...", 5},
		{"attack friendly", DriverRules, []string{"...", ".oo", "..."}, 1, 1, -1, Action{Kind: Attack, Dir: E, N: 3}, true, ".../.oo/...", 5},
		{"attack empty", DriverRules, []string{"...", ".o.", "..."}, 1, 1, -1, Action{Kind: Attack, Dir: E, N: 1}, false, ".../.o./...", 8},
		{"attack needs energy", DriverRules, []string{"...", ".ox", "..."}, 1, 1, 2, Action{Kind: Attack, Dir: E, N: 3}, false, ".../.ox/...", 4},
		{"divide", DriverRules, []string{"...", ".o.", "..."}, 1, 1, -1, Action{Kind: Divide, Dir: S}, true, ".../.o./.o.", 3},
		{"divide onto corpse", DriverRules, []string{"...", ".o.", ".c."}, 1, 1, -1, Action{Kind: Divide, Dir: S}, true, ".../.o./.o.", 3},
		{"divide needs 5", DriverRules, []string{"...", ".o.", "..."}, 1, 1, 4, Action{Kind: Divide, Dir: S}, false, ".../.o./...", 6},
		{"eat", DriverRules, []string{"...", ".oc", "..."}, 1, 1, 3, Action{Kind: Eat, Dir: E}, true, ".../.o./...", 7},
		{"eat capped", DriverRules, []string{"...", ".oc", "..."}, 1, 1, 6, Action{Kind: Eat, Dir: E}, true, ".../.o./...", 8},
		{"eat no corpse", DriverRules, []string{"...", ".o.", "..."}, 1, 1, 3, Action{Kind: Eat, Dir: E}, false, ".../.o./...", 5},
		{"rest capped", DriverRules, []string{"...", ".o.", "..."}, 1, 1, 7, Action{Kind: Rest}, true, ".../.o./...", 8},
		{"explode needs HP <= 3", DriverRules, []string{"...", ".o.", "..."}, 1, 1, -1, Action{Kind: Explode}, false, ".../.o./...", 8},
	}
	for _, c := range cases {
		g := Board(c.rules, sp480, Species{4, 6, 2}, c.rows...)
		if c.energy >= 0 {
			g.At(c.x, c.y).Energy = int16(c.energy)
		}
		if c.name == "attack kills, leaves corpse" || c.name == "attack friendly" {
			g.At(c.x+1, c.y).HP = 3
		}
		legal := g.Apply(c.x, c.y, c.a)
		after := rowsOf(g)
		if c.name == "attack kills, leaves corpse" || c.name == "attack friendly" {
			c.after = ".../.oc/..."
		}
		if legal != c.legal || after != c.after {
			t.Errorf("%s: legal %v after %s, want %v %s", c.name, legal, after, c.legal, c.after)
		}
		// Find the actor (it may have moved).
		dx, dy := c.a.Dir.Delta()
		s := g.At(c.x, c.y)
		if c.a.Kind == Move && legal {
			s = g.At(c.x+dx, c.y+dy)
		}
		if int(s.Energy) != c.wantE {
			t.Errorf("%s: energy %d, want %d", c.name, s.Energy, c.wantE)
		}
	}
}

func TestDivideChild(t *testing.T) {
	g := Board(DriverRules, sp480, sp480, "....", ".o..", "....", "...x")
	g.Do(Action{Kind: Divide, Dir: E}) // the only cell: turn passes to player 2
	if g.Player != 1 {
		t.Fatalf("player %d after the only cell acted", g.Player)
	}
	c := g.At(2, 1)
	if c.Kind != Live || c.HP != 4 || c.Energy != 3 || g.At(1, 1).Energy != 3 {
		t.Fatalf("child %+v parent %+v", *c, *g.At(1, 1))
	}
	g.Do(Action{Kind: Rest})
	// Player 1 again: the parent acts first, then the child.
	if x, y, _ := g.Actor(); x != 1 || y != 1 {
		t.Fatalf("actor (%d,%d), want the parent", x, y)
	}
	g.Do(Action{Kind: Rest})
	if x, y, _ := g.Actor(); x != 2 || y != 1 || g.Player != 0 {
		t.Fatalf("actor (%d,%d) of %d, want the child", x, y, g.Player)
	}
}

func TestChildDoesNotActInBirthTurn(t *testing.T) {
	g := Board(DriverRules, sp480, sp480, "o...", "....", "....", "...x")
	g.Do(Action{Kind: Divide, Dir: E})
	if g.Player != 1 || g.Turns[0] != 1 {
		t.Fatalf("the child acted in its birth turn: player %d turns %v", g.Player, g.Turns)
	}
}

func TestExplodeDriver(t *testing.T) {
	// All eight neighbours are enemies with 4 HP; the exploder has 3 HP.
	g := Board(DriverRules, sp480, sp480, ".....", ".xxx.", ".xox.", ".xxx.", ".....")
	g.At(2, 2).HP = 3
	if !g.Apply(2, 2, Action{Kind: Explode}) {
		t.Fatal("explode refused")
	}
	// NW, W, SW, N take 3 (4 -> 1); the exploder is a corpse; S, NE, E, SE untouched.
	want := map[[2]int]int16{{1, 1}: 1, {1, 2}: 1, {1, 3}: 1, {2, 1}: 1, {2, 3}: 4, {3, 1}: 4, {3, 2}: 4, {3, 3}: 4}
	for xy, hp := range want {
		if s := g.At(xy[0], xy[1]); s.Kind != Live || s.HP != hp {
			t.Errorf("(%d,%d): %+v, want HP %d", xy[0], xy[1], *s, hp)
		}
	}
	if g.At(2, 2).Kind != Corpse {
		t.Error("the exploder is no corpse")
	}
	// Chains: a 3-HP neighbour to the west dies and leaves a corpse; friends are hit too.
	g = Board(DriverRules, sp480, sp480, "...", "oo.", "...")
	g.At(0, 1).HP, g.At(1, 1).HP = 2, 3
	g.Apply(1, 1, Action{Kind: Explode})
	if rowsOf(g) != ".../cc./..." {
		t.Errorf("friendly explode: %s", rowsOf(g))
	}
}

func TestExplodePage(t *testing.T) {
	g := Board(PageRules, Species{4, 6, 2}, sp480, ".....", ".xxx.", ".xox.", ".xxx.", ".....")
	g.At(2, 2).HP = 1
	g.At(2, 2).Energy = 2
	g.Apply(2, 2, Action{Kind: Explode}) // 1 + 2 = 3 damage to all eight
	for k := range 8 {
		dx, dy := Dir(k).Delta()
		if s := g.At(2+dx, 2+dy); s.Kind != Live || s.HP != 1 {
			t.Errorf("%v: %+v", Dir(k), *s)
		}
	}
	// Energy must exceed HP.
	g = Board(PageRules, sp480, sp480, "...", ".o.", "...")
	g.At(1, 1).HP, g.At(1, 1).Energy = 3, 3
	if g.Apply(1, 1, Action{Kind: Explode}) {
		t.Error("explode with energy == HP accepted")
	}
}

func TestWinCheckMidTurn(t *testing.T) {
	g := Board(DriverRules, sp480, sp480, "oo..", "x...", "....")
	g.At(0, 1).HP = 2
	// The first cell kills the only enemy: the game ends before the second cell acts.
	g.Do(Action{Kind: Attack, Dir: S, N: 2})
	if !g.Over || g.Winner != 0 {
		t.Fatalf("over %v winner %d", g.Over, g.Winner)
	}
	// Both die in one explosion: a tie.
	g = Board(DriverRules, sp480, sp480, "x...", "o...", "....")
	g.At(0, 1).HP, g.At(0, 0).HP = 3, 3
	g.Do(Action{Kind: Explode})
	if !g.Over || g.Winner != -1 {
		t.Fatalf("explode both: over %v winner %d", g.Over, g.Winner)
	}
}

func TestTurnLimitAndTies(t *testing.T) {
	for _, c := range []struct {
		rows   []string
		winner int
	}{{[]string{"o...", "....", "...x"}, -1}, {[]string{"oo..", "....", "...x"}, 0}, {[]string{"o...", "....", "..xx"}, 1}} {
		g := Board(DriverRules, sp480, sp480, c.rows...)
		actions := 0
		for !g.Over {
			g.Do(Action{Kind: Rest})
			actions++
		}
		n := g.Count()
		if g.Turns != [2]int{150, 150} || g.Winner != c.winner || actions != 150*(n[0]+n[1]) {
			t.Errorf("%v: turns %v winner %d actions %d", c.rows, g.Turns, g.Winner, actions)
		}
	}
	// Player 2 moves last: after player 1's 150th turn the game is not over.
	g := Board(DriverRules, sp480, sp480, "o...", "....", "...x")
	for range 299 {
		g.Do(Action{Kind: Rest})
	}
	if g.Over || g.Player != 1 || g.Turns != [2]int{150, 149} {
		t.Fatalf("after 299 actions: over %v player %d turns %v", g.Over, g.Player, g.Turns)
	}
}

func TestIO(t *testing.T) {
	g := New(10, 4, DriverRules, Species{5, 6, 1}, sp480)
	want := "10 4\n..........\n.o........\n........x.\n..........\n\n1 1 5 6"
	if in := g.Input(); in != want {
		t.Fatalf("input %q", in)
	}
	v, err := ParseView(want)
	if err != nil || v.X != 1 || v.Y != 1 || v.HP != 5 || v.Energy != 6 || v.Rows[2] != "........x." {
		t.Fatalf("view %+v %v", v, err)
	}
	g.Do(Action{Kind: Divide, Dir: SE})
	if in := g.Input(); !strings.HasPrefix(in, "10 4\n..........\n.x........\n..x.....o.\n") || !strings.HasSuffix(in, "\n\n8 2 4 8") {
		t.Fatalf("player 2's input %q", in)
	}
	for _, c := range []struct {
		line string
		a    Action
		ok   bool
	}{
		{"MOVE N", Action{Kind: Move, Dir: N}, true}, {"move sw\n", Action{Kind: Move, Dir: SW}, true},
		{"attack Ne 2", Action{Kind: Attack, Dir: NE, N: 2}, true}, {"ATTACK N 4", Action{}, false},
		{"DIVIDE E", Action{Kind: Divide, Dir: E}, true}, {"EAT W", Action{Kind: Eat, Dir: W}, true},
		{"rest", Action{Kind: Rest}, true}, {"EXPLODE", Action{Kind: Explode}, true},
		{"MOVE", Action{}, false}, {"JUMP N", Action{}, false}, {"", Action{}, false}, {"MOVE X", Action{}, false},
	} {
		a, err := ParseAction(c.line)
		if (err == nil) != c.ok || (c.ok && a != c.a) {
			t.Errorf("%q: %v %v", c.line, a, err)
		}
		if c.ok {
			if b, _ := ParseAction(a.String()); b != a {
				t.Errorf("%v does not round-trip", a)
			}
		}
	}
	for _, c := range []struct {
		s  string
		ok bool
	}{{"5 6 1", true}, {"4 8 0\n", true}, {"4 8 1", false}, {"12 0 0", true}, {"-1 13 0", false}, {"4 8", false}, {"a b c", false}} {
		if _, err := ParseSpecies(c.s); (err == nil) != c.ok {
			t.Errorf("species %q: %v", c.s, err)
		}
	}
}

func TestInvalidIsRest(t *testing.T) {
	g := New(10, 4, DriverRules, sp480, sp480)
	g.At(1, 1).Energy = 3
	if g.Do(Action{Kind: Divide, Dir: N}) {
		t.Fatal("divide with 3 energy accepted")
	}
	if e := g.At(1, 1).Energy; e != 5 {
		t.Fatalf("energy %d after an invalid action, want 5 (a REST)", e)
	}
}

func TestPositionMoves(t *testing.T) {
	p := Start()
	ms := p.LegalMoves(nil)
	// REST, 8 moves, 8 divides.
	if len(ms) != 17 {
		t.Fatalf("%d moves: %v", len(ms), ms)
	}
	seen := map[int]bool{}
	for _, m := range ms {
		if seen[m.PolicyIndex()] || m.PolicyIndex() >= Info.PolicySize {
			t.Fatalf("policy index %d", m.PolicyIndex())
		}
		seen[m.PolicyIndex()] = true
	}
	q := p.Apply(ms[len(ms)-1])
	if q.ToMove() != 1 || p.ToMove() != 0 || p.G.Count() != [2]int{1, 1} {
		t.Fatal("Apply is not copy-make")
	}
	buf := make([]float32, Info.InputSize())
	q.Encode(buf)
}

// TestReadInput: the input is read to EOF; a whole input on a pipe left open is taken after
// the quiet time; a partial one is not.
func TestReadInput(t *testing.T) {
	view := "10 4\n..........\n.o........\n........x.\n..........\n\n1 1 5 7"
	for _, in := range []string{"BEGIN", "BEGIN\n", view, view + "\n"} {
		// Closed after writing.
		got, err := ReadInput(strings.NewReader(in), time.Hour)
		if err != nil || got != in {
			t.Fatalf("EOF: %q, %v; want %q", got, err, in)
		}
		// Left open.
		r, w := io.Pipe()
		go w.Write([]byte(in))
		start := time.Now()
		got, err = ReadInput(r, 20*time.Millisecond)
		if err != nil || got != in {
			t.Fatalf("open pipe: %q, %v; want %q", got, err, in)
		}
		if d := time.Since(start); d < 20*time.Millisecond {
			t.Fatalf("open pipe: answered after %v, before the quiet time", d)
		}
		w.Close()
	}
	// A partial view on an open pipe is not a whole input: the rest is waited for.
	r, w := io.Pipe()
	go func() {
		w.Write([]byte(view[:20]))
		time.Sleep(60 * time.Millisecond)
		w.Write([]byte(view[20:]))
		w.Close()
	}()
	got, err := ReadInput(r, 20*time.Millisecond)
	if err != nil || got != view {
		t.Fatalf("partial: %q, %v; want %q", got, err, view)
	}
}
