package petri

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
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

// TestMatches (PETRI_GAMES=N) plays a cell program (PETRI_CELL, default colony) against every
// other one in process, N games each under both rule readings on 10x4 and 20x10
// (PETRI_RULES=driver|page, PETRI_SIZE=WxH and PETRI_OPP=name narrow it).
func TestMatches(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PETRI_GAMES"))
	if n == 0 || testing.Short() {
		t.Skip("PETRI_GAMES=N runs the in-process matches")
	}
	name := cmp.Or(os.Getenv("PETRI_CELL"), "colony")
	me, ok := CellByName(name)
	if !ok {
		t.Fatalf("no cell program %q", name)
	}
	for _, rules := range []Rules{DriverRules, PageRules} {
		if r := os.Getenv("PETRI_RULES"); r != "" && r != rules.String() {
			continue
		}
		for _, size := range [][2]int{{10, 4}, {20, 10}} {
			if sz := os.Getenv("PETRI_SIZE"); sz != "" && sz != fmt.Sprintf("%dx%d", size[0], size[1]) {
				continue
			}
			for _, opp := range Cells {
				if opp.Name == me.Name || (os.Getenv("PETRI_OPP") != "" && os.Getenv("PETRI_OPP") != opp.Name) {
					continue
				}
				start := time.Now()
				w, d, l, inv := match(me, opp, n, size[0], size[1], rules, 1)
				fmt.Printf("%s %dx%d %s vs %s: %d-%d-%d invalid %v (%.0fs)\n", rules, size[0], size[1], me.Name, opp.Name, w, d, l, inv, time.Since(start).Seconds())
			}
		}
	}
}

// TestSweep (PETRI_SWEEP=N) plays colony's plan with each of the 91 species (every HP,
// ENERGY, ACIDITY >= 0 summing to 12) against the sample cell, the random cell and colony as
// shipped, N games each (colours alternating) on 10x4 and 20x10 under the driver's rules, and
// prints a line per species and the ten best by their points against colony as shipped.
func TestSweep(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PETRI_SWEEP"))
	if n == 0 || testing.Short() {
		t.Skip("PETRI_SWEEP=N runs the species sweep")
	}
	me, _ := CellByName("colony")
	sample, _ := CellByName("sample")
	random, _ := CellByName("random")
	type row struct {
		sp              Species
		base, vsMe, all float64 // points (win 1, draw 0.5) against the baselines and colony
		line            string
	}
	var rows []row
	for hp := 0; hp <= 12; hp++ {
		for en := 0; hp+en <= 12; en++ {
			c := me
			c.Species = Species{hp, en, 12 - hp - en}
			r := row{sp: c.Species, line: c.Species.String() + ":"}
			for _, size := range [][2]int{{10, 4}, {20, 10}} {
				for k, opp := range []Cell{sample, random, me} {
					w, d, l, _ := match(c, opp, n, size[0], size[1], DriverRules, 1)
					pts := float64(w) + float64(d)/2
					if k == 2 {
						r.vsMe += pts
					} else {
						r.base += pts
					}
					r.line += fmt.Sprintf("  %dx%d %s %d-%d-%d", size[0], size[1], opp.Name, w, d, l)
				}
			}
			fmt.Println(r.line)
			rows = append(rows, r)
		}
	}
	if len(rows) != 91 {
		t.Fatalf("%d species, want 91", len(rows))
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.vsMe, a.vsMe), cmp.Compare(b.base, a.base))
	})
	fmt.Printf("best of 91 (points of %d against colony %v, of %d against the baselines):\n", 2*n, me.Species, 4*n)
	for _, r := range rows[:10] {
		fmt.Printf("  %v  %.1f  %.1f\n", r.sp, r.vsMe, r.base)
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
