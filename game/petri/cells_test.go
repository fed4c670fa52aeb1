package petri

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

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

// TestMatches (PETRI_GAMES=N) plays colony against each baseline in process.
func TestMatches(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PETRI_GAMES"))
	if n == 0 || testing.Short() {
		t.Skip("PETRI_GAMES=N runs the in-process matches")
	}
	me, _ := CellByName("colony")
	for _, rules := range []Rules{DriverRules, PageRules} {
		for _, size := range [][2]int{{10, 4}, {20, 10}} {
			for _, opp := range Cells[1:] {
				w, d, l, inv := match(me, opp, n, size[0], size[1], rules, 1)
				fmt.Printf("%s %dx%d colony vs %s: %d-%d-%d invalid %v\n", rules, size[0], size[1], opp.Name, w, d, l, inv)
			}
		}
	}
}

// TestSweep (PETRI_SWEEP=N) plays colony with every species of HP 2..8 and no acidity
// against the baselines (and the sample cell with colony's 4 8 0) on both sizes.
func TestSweep(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PETRI_SWEEP"))
	if n == 0 || testing.Short() {
		t.Skip("PETRI_SWEEP=N runs the species sweep")
	}
	me, _ := CellByName("colony")
	sample, _ := CellByName("sample")
	strongSample := sample
	strongSample.Species = Species{4, 8, 0}
	mirror := me
	for hp := 2; hp <= 8; hp++ {
		c := me
		c.Species = Species{hp, 12 - hp, 0}
		line := c.Species.String() + ":"
		for _, size := range [][2]int{{10, 4}, {20, 10}} {
			for _, opp := range []Cell{sample, strongSample, mirror} {
				w, d, l, _ := match(c, opp, n, size[0], size[1], DriverRules, 1)
				line += fmt.Sprintf("  %dx%d %s%v %d-%d-%d", size[0], size[1], opp.Name, opp.Species, w, d, l)
			}
		}
		fmt.Println(line)
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
