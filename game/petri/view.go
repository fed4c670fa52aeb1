package petri

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// View is one cell's stdin: the grid as its player sees it and the acting cell.
type View struct {
	W, H       int
	Rows       []string // 'o' own, 'x' enemy, 'c' corpse, '.' empty
	X, Y       int
	HP, Energy int
}

// ParseView reads "W H", H rows, a blank line and "x y hp energy" (a trailing newline and
// '\r' are tolerated).
func ParseView(s string) (View, error) {
	var v View
	lines := strings.Split(strings.ReplaceAll(s, "\r", ""), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 1 {
		return v, fmt.Errorf("petri: empty input")
	}
	if _, err := fmt.Sscan(lines[0], &v.W, &v.H); err != nil || v.W < 1 || v.H < 1 || v.W > 1000 || v.H > 1000 {
		return v, fmt.Errorf("petri: bad size line %q", lines[0])
	}
	if len(lines) != v.H+3 || strings.TrimSpace(lines[v.H+1]) != "" {
		return v, fmt.Errorf("petri: want %d rows, a blank line and the cell's line", v.H)
	}
	for y := range v.H {
		r := strings.TrimSpace(lines[1+y])
		if len(r) != v.W || strings.Trim(r, "oxc.") != "" {
			return v, fmt.Errorf("petri: bad row %d %q", y, r)
		}
		v.Rows = append(v.Rows, r)
	}
	if _, err := fmt.Sscan(lines[v.H+2], &v.X, &v.Y, &v.HP, &v.Energy); err != nil {
		return v, fmt.Errorf("petri: bad cell line %q", lines[v.H+2])
	}
	if v.X < 0 || v.Y < 0 || v.X >= v.W || v.Y >= v.H || v.Rows[v.Y][v.X] != 'o' {
		return v, fmt.Errorf("petri: the cell (%d,%d) is not one of ours", v.X, v.Y)
	}
	return v, nil
}

// Game builds a game from the view, seen as player 0 with the acting cell to act (the only
// one in the queue). What the view does not show is guessed: the other own cells have the
// acting cell's energy and full HP, the enemies have species enemy at full HP and energy.
func (v View) Game(rules Rules, own, enemy Species) *Game {
	g := &Game{W: v.W, H: v.H, Rules: rules, Species: [2]Species{own, enemy}, Sq: make([]Square, v.W*v.H), MaxTurns: MaxTurns, Winner: -1}
	id := int32(1)
	for y, r := range v.Rows {
		for x := range v.W {
			s := &g.Sq[y*v.W+x]
			switch r[x] {
			case 'c':
				s.Kind = Corpse
			case 'o':
				*s = Square{Kind: Live, Owner: 0, HP: int16(own.HP), Energy: int16(v.Energy), ID: id}
			case 'x':
				*s = Square{Kind: Live, Owner: 1, HP: int16(enemy.HP), Energy: int16(enemy.Energy), ID: id}
			}
			id++
		}
	}
	c := g.At(v.X, v.Y)
	c.HP, c.Energy, c.ID = int16(v.HP), int16(v.Energy), 0
	g.NextID = id
	g.Queue = []int32{0}
	return g
}

// Board builds a game from ASCII rows ('o' player 1, 'x' player 2, 'c' corpse) at full HP
// and energy, cells created in reading order (row by row), player 1 to move; for tests and
// hand-built positions.
func Board(rules Rules, s0, s1 Species, rows ...string) *Game {
	h, w := len(rows), len(rows[0])
	g := &Game{W: w, H: h, Rules: rules, Species: [2]Species{s0, s1}, Sq: make([]Square, w*h), MaxTurns: MaxTurns, Winner: -1}
	for y, r := range rows {
		for x := range w {
			switch r[x] {
			case 'o':
				g.put(x, y, 0)
			case 'x':
				g.put(x, y, 1)
			case 'c':
				g.Sq[y*w+x].Kind = Corpse
			}
		}
	}
	g.startTurn()
	g.check()
	return g
}

// ReadInput reads one invocation's stdin: everything up to EOF, as the driver closes the
// pipe after writing. A driver that writes the input and leaves the pipe open is answered
// too: once what has arrived is a whole input (BEGIN, or a view that parses) and nothing more
// comes for quiet, it is taken as it is. At most 1 MB is read.
func ReadInput(r io.Reader, quiet time.Duration) (string, error) {
	type chunk struct {
		b   []byte
		err error
	}
	ch := make(chan chunk, 16)
	go func() {
		r := io.LimitReader(r, 1<<20)
		for {
			b := make([]byte, 4096)
			n, err := r.Read(b)
			ch <- chunk{b[:n], err}
			if err != nil {
				return
			}
		}
	}()
	var buf []byte
	complete := func() bool {
		s := string(buf)
		if isBegin(s) {
			return true
		}
		_, err := ParseView(s)
		return err == nil
	}
	for {
		var timeout <-chan time.Time
		if complete() {
			timeout = time.After(quiet)
		}
		select {
		case c := <-ch:
			buf = append(buf, c.b...)
			if c.err == io.EOF {
				return string(buf), nil
			}
			if c.err != nil {
				return string(buf), c.err
			}
		case <-timeout:
			return string(buf), nil
		}
	}
}
