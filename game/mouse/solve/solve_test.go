package solve

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"colony/game/mouse"
	"colony/game/mouse/mousetest"
)

var mustDiagram = mousetest.MustDiagram

// naiveWins is plain exhaustive minimax: can att force a win within d plies of p?
func naiveWins(p mouse.Position, att, d int) bool {
	if p.Terminal() {
		return p.Winner() == att
	}
	if d == 0 {
		return false
	}
	var buf [mouse.MaxMoves]mouse.Move
	moves := p.LegalMoves(buf[:0])
	if p.ToMove() == att {
		for _, m := range moves {
			if naiveWins(p.Apply(m), att, d-1) {
				return true
			}
		}
		return false
	}
	for _, m := range moves {
		if !naiveWins(p.Apply(m), att, d-1) {
			return false
		}
	}
	return true
}

var cases = []struct {
	name    string
	diagram string
	side    int
	winner  int // -1: neither within depth
	depth   int // the fastest win's length, or the depth searched when winner is -1
}{
	{"mouse on row 6 steps out", `
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . C . . . . . .
		. . . . . . C . . . .
		. . N . . . . . C . .
		R . . . . . . . . . .
		. . . . . . . . . . .`, mouse.Mice, mouse.Mice, 1},
	{"lone runner, Nadori too far", `
		. . . . . . . . . . .
		. . . . . . . . . . N
		. . . . . . . . . . .
		. . . . . . . . . . .
		R . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .`, mouse.Mice, mouse.Mice, 3},
	{"Nadori takes the last mouse", `
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . R . . . . . .
		. . . . . N . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .`, mouse.Team, mouse.Team, 1},
	{"the last mouse is stuck after a cat steps under it", `
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . R . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . C . . . . .
		. . . . . . . . . . .`, mouse.Team, mouse.Team, 1},
	{"two runners on row 6 beat one Nadori", `
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . N . . . . .
		R . . . . . . . . . R
		. . . . . . . . . . .`, mouse.Team, mouse.Mice, 2},
	{"Nadori takes the only runner on row 6, then the mice are stuck", `
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . . . . . . . . .
		. . . C . . . . . . .
		. . . R . N . . . . .
		. . . C R . . . . . .
		. . . . . . . . . . .`, mouse.Team, mouse.Team, 1},
	{"start: nobody wins within 8 plies", "", mouse.Mice, -1, 8},
}

func TestHandMade(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mouse.Start()
			if c.diagram != "" {
				p = mustDiagram(t, c.diagram, c.side)
			}
			s := New(4)
			lim := Limits{}
			if c.winner < 0 {
				lim.Depth = c.depth
			}
			r := s.Solve(p, lim)
			if r.Winner != c.winner || r.Depth != c.depth || !r.Complete {
				t.Fatalf("got %+v, want winner %d at depth %d\n%s", r, c.winner, c.depth, p.Diagram())
			}
			if c.winner == p.ToMove() {
				if r.Move == mouse.NoMove || !p.IsLegal(r.Move) {
					t.Fatalf("no legal winning move: %v", r.Move)
				}
				// The move keeps the win within one ply less.
				if !naiveWins(p.Apply(r.Move), c.winner, c.depth-1) {
					t.Fatalf("move %v does not win within %d", r.Move, c.depth-1)
				}
			}
			if c.winner >= 0 && c.depth <= 4 {
				if !naiveWins(p, c.winner, c.depth) || c.depth > 1 && naiveWins(p, c.winner, c.depth-1) {
					t.Fatalf("naive minimax disagrees on the distance %d", c.depth)
				}
			}
		})
	}
}

// randomPosition plays k random plies from the start (or fewer if the game ends).
func randomPosition(r *rand.Rand, k int) mouse.Position {
	p := mouse.Start()
	var buf [mouse.MaxMoves]mouse.Move
	for range k {
		if p.Terminal() {
			break
		}
		moves := p.LegalMoves(buf[:0])
		// Nadori's captures are taken half the time, so positions thin out like real games.
		m := moves[r.IntN(len(moves))]
		for _, c := range moves {
			if p.IsCapture(c) && r.IntN(4) != 0 {
				m = c
			}
		}
		p = p.Apply(m)
	}
	return p
}

// randomSparse places 1..4 mice, up to 4 cats and Nadori at random.
func randomSparse(r *rand.Rand) mouse.Position { return randomBoard(r, 1, 4) }

// randomBoard places lo..hi mice (fewer when columns repeat), up to 4 cats and Nadori at
// random.
func randomBoard(r *rand.Rand, lo, hi int) mouse.Position {
	for {
		var top uint16
		var mice, cats, nad uint64
		for range lo + r.IntN(hi-lo+1) {
			c, row := r.IntN(mouse.Cols), r.IntN(6)
			if (uint64(top)|mice|mice>>11|mice>>22|mice>>33|mice>>44)>>c&1 != 0 {
				continue
			}
			if row == 0 {
				top |= 1 << c
			} else {
				mice |= 1 << ((row-1)*mouse.Cols + c)
			}
		}
		occ := func() uint64 { return mice | cats | nad }
		for range r.IntN(5) {
			cats |= 1 << r.IntN(mouse.InnerCells) &^ occ()
		}
		nad = 1 << r.IntN(mouse.InnerCells) &^ occ()
		p := mouse.NewPosition(top, mice, cats, nad, 0, r.IntN(2))
		if p.Valid() && !p.Terminal() {
			return p
		}
	}
}

// randomTight places 6 or 7 mice on rows 2..5, a cat right below four of them and Nadori
// next to another: team wins that need captures first are near.
func randomTight(r *rand.Rand) mouse.Position {
	for {
		var mice, cats, nad uint64
		cols := r.Perm(mouse.Cols)[:6+r.IntN(2)]
		for i, c := range cols {
			row := r.IntN(3) // inner rows 0..2 (board rows 2..4)
			mice |= 1 << (row*mouse.Cols + c)
			if i < 4 {
				cats |= 1 << ((row+1)*mouse.Cols + c)
			}
			if i == 4 {
				nr, nc := row+r.IntN(2), c+r.IntN(3)-1
				if nc >= 0 && nc < mouse.Cols && nr < 5 {
					nad = 1 << (nr*mouse.Cols + nc)
				}
			}
		}
		p := mouse.NewPosition(0, mice, cats&^mice, nad&^(mice|cats), 0, mouse.Team)
		if nad != 0 && p.Valid() && !p.Terminal() && p.Nadori() != 0 {
			return p
		}
	}
}

// TestAgainstMinimax compares Wins with plain minimax, for both attackers, at every depth up
// to 4 (5 for the positions with few team moves), on positions deep into random games where
// wins are near.
func TestAgainstMinimax(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 20))
	n := 300
	if testing.Short() {
		n = 60
	}
	found := [2]int{}
	captures := 0 // team wins that need captures first
	for i := 0; i < n; i++ {
		p := randomPosition(r, 30+r.IntN(70))
		switch i % 3 {
		case 1:
			p = randomSparse(r)
		case 2:
			p = randomBoard(r, 6, 9) // the team must take mice first: its distance bound
		}
		if p.Terminal() {
			continue
		}
		s := New(2)
		maxD := 4
		if p.ToMove() == mouse.Team && p.CountMoves() > 40 {
			maxD = 3
		}
		if i%3 == 1 || i%3 == 2 && p.CountMoves() < 40 {
			maxD = 5
		}
		for d := 1; d <= maxD; d++ {
			for att := range 2 {
				got, ok := s.Wins(p, att, d)
				want := naiveWins(p, att, d)
				if !ok || got != want {
					t.Fatalf("att %d depth %d: solver %v, minimax %v\n%s", att, d, got, want, p.Diagram())
				}
				if got {
					found[att]++
					if att == mouse.Team && p.NumMice() > bits.OnesCount64(p.Cats()|p.Nadori()) {
						captures++
					}
				}
			}
		}
	}
	t.Logf("wins found: mice %d, team %d (%d of them with captures to make first)", found[0], found[1], captures)
	if found[0] == 0 || found[1] == 0 {
		t.Errorf("the positions test too little: wins found %v", found)
	}
}

// TestTeamCaptureBound: team wins that need captures first (more mice than team pieces),
// solver against minimax.
func TestTeamCaptureBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	wins := 0
	for range 300 {
		p := randomTight(r)
		s := New(2)
		for d := 1; d <= 3; d++ {
			got, _ := s.Wins(p, mouse.Team, d)
			if want := naiveWins(p, mouse.Team, d); got != want {
				t.Fatalf("depth %d: solver %v, minimax %v\n%s", d, got, want, p.Diagram())
			}
			if got {
				wins++
				break
			}
		}
	}
	if wins == 0 {
		t.Fatal("no team win with captures to make")
	}
	t.Logf("%d team wins with captures to make first", wins)
}

// TestSolveExactEndgames: positions with few steps left are decided, and the winner's
// move keeps the win, by minimax where that is cheap.
func TestSolveExactEndgames(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	solved := 0
	for i := 0; i < 100; i++ {
		p := randomPosition(r, 40+r.IntN(40))
		if i%2 == 1 {
			p = randomSparse(r)
		}
		if p.Terminal() || p.MouseStepsLeft() > 16 {
			continue
		}
		s := New(8)
		res := s.Solve(p, Limits{Nodes: 2_000_000})
		if !res.Complete {
			continue
		}
		if res.Winner < 0 || !res.Exact {
			t.Fatalf("a finished search must find a winner: %+v\n%s", res, p.Diagram())
		}
		solved++
		if res.Winner == p.ToMove() {
			if !p.IsLegal(res.Move) {
				t.Fatalf("illegal move %v", res.Move)
			}
			if w, _ := New(2).Wins(p.Apply(res.Move), res.Winner, res.Depth-1); !w {
				t.Fatalf("move %v does not keep the win", res.Move)
			}
		}
		if res.Depth <= 4 && (!naiveWins(p, res.Winner, res.Depth) || naiveWins(p, res.Winner, res.Depth-1)) {
			t.Fatalf("minimax disagrees: %+v\n%s", res, p.Diagram())
		}
	}
	t.Logf("%d endgames solved exactly", solved)
	if solved == 0 {
		t.Error("nothing solved")
	}
}

func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		s := New(256)
		s.Solve(mouse.Start(), Limits{Depth: 19})
	}
}
