package petri

import "testing"

// TestCellsLegal: every program answers BEGIN with a valid species and never plays an
// invalid action in a few short games.
func TestCellsLegal(t *testing.T) {
	for _, a := range Cells {
		for _, b := range Cells {
			for _, size := range [][2]int{{10, 4}, {6, 5}} {
				r := PlayCells(a, b, size[0], size[1], DriverRules, 3)
				if r.Invalid != [2]int{} {
					t.Errorf("%s vs %s on %v: invalid %v", a.Name, b.Name, size, r.Invalid)
				}
			}
		}
	}
}

// match plays n games of a against b, colours alternating; it returns a's wins, draws, losses.
func match(a, b Cell, n, w, h int, rules Rules, seed uint64) (win, draw, loss int, inv [2]int) {
	for i := range n {
		var r Result
		if i%2 == 0 {
			r = PlayCells(a, b, w, h, rules, seed+uint64(i))
		} else {
			r = PlayCells(b, a, w, h, rules, seed+uint64(i))
			if r.Winner >= 0 {
				r.Winner = 1 - r.Winner
			}
			r.Invalid[0], r.Invalid[1] = r.Invalid[1], r.Invalid[0]
		}
		switch r.Winner {
		case 0:
			win++
		case 1:
			loss++
		default:
			draw++
		}
		inv[0] += r.Invalid[0]
		inv[1] += r.Invalid[1]
	}
	return
}

// TestColonyBeatsTheOthers: colony's cell program beats every other program in process, a few
// games each (colours alternating) under both rule readings on the driver's 10x4 arena.
func TestColonyBeatsTheOthers(t *testing.T) {
	me, _ := CellByName("colony")
	for _, rules := range []Rules{DriverRules, PageRules} {
		for _, opp := range Cells {
			if opp.Name == me.Name {
				continue
			}
			w, d, l, inv := match(me, opp, 4, 10, 4, rules, 1)
			t.Logf("%s 10x4 %s vs %s: %d-%d-%d invalid %v", rules, me.Name, opp.Name, w, d, l, inv)
			if pts := float64(w) + float64(d)/2; pts < 3 || inv != [2]int{} {
				t.Errorf("%s rules: %s against %s %d-%d-%d (want 3 points of 4), invalid %v", rules, me.Name, opp.Name, w, d, l, inv)
			}
		}
	}
}

func TestEnemyDist(t *testing.T) {
	g := Board(DriverRules, sp480, sp480, "o.......", "........", ".....x..", "........", "x.......")
	d := enemyDist(g, 0)
	for i := range g.Sq {
		x, y := i%g.W, i/g.W
		want := 1 << 20
		for j := range g.Sq {
			if isEnemy(g, j%g.W, j/g.W, 0) {
				want = min(want, max(abs(j%g.W-x), abs(j/g.W-y)))
			}
		}
		if d[i] != want {
			t.Fatalf("(%d,%d): %d, want %d", x, y, d[i], want)
		}
	}
}
