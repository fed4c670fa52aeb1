// Package replay turns the referee's game records (package arena: judge-protocol games,
// King-of-the-Hill games, stdin-driver games) into replays people can watch: every position
// of a game rebuilt through the game's rules and drawn (contract.Picture), the moves with their
// times, clocks and the engines' own evaluations, and one self-contained HTML page (inline
// CSS, JavaScript and SVG: no network) for a game or a whole arena run (WriteHTML).
package replay

import (
	"fmt"
	"strings"

	"colony/contract"
	"colony/judge"
)

// Game is one game ready to be drawn.
type Game struct {
	Game  string `json:"game"` // the registered game name
	Title string `json:"title"`
	Index int    `json:"index"`
	File  string `json:"file,omitempty"` // the record it was read from
	// Seats are the players by seat (seat 0 moves first).
	Seats []Seat `json:"seats"`
	// Frames are the positions: the start, then the position after each move.
	Frames []Frame `json:"frames"`
	Moves  []Move  `json:"moves"`
	// Opening is the number of random plies the referee played before Frames[0].
	Opening int `json:"opening,omitempty"`
	// Clocks are the seats' whole-game clocks at the start, in ms (nil: no clock).
	Clocks []int64 `json:"clocks,omitempty"`
	// Result says how the game ended; Winner is the winning seat (-1: none, a draw or a
	// shared first place); Scores are the seats' final scores where the game is scored.
	Result string    `json:"result"`
	Winner int       `json:"winner"`
	Scores []float64 `json:"scores,omitempty"`
	// Verdicts are the rule violations (each loses the game).
	Verdicts []Verdict `json:"verdicts,omitempty"`
	// Base is the first coordinate label of the board (1 for the judge's 1-based rows and
	// columns, 0 for games whose programs count from 0).
	Base int `json:"base"`
	// Eval are the engines' evaluations of their moves as the graph draws them (one line per
	// seat), and Swings the big ones among them (NewPage sets both; see evaluations).
	Eval   []EvalPoint `json:"eval,omitempty"`
	Swings []Swing     `json:"swings,omitempty"`
}

// Verdict is a rule violation of the program in Seat: TLE, RE or crash.
type Verdict struct {
	Seat   int    `json:"seat"`
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// Seat is one player of a game.
type Seat struct {
	Name    string `json:"name"`    // the game's name of the seat ("O", "R", "1")
	Entry   string `json:"entry"`   // the match's name of the program ("A", "B", ...)
	Command string `json:"command"` // its command line
}

// Move is one move.
type Move struct {
	Seat int     `json:"seat"`
	Text string  `json:"text"`           // how it is written for people
	Note string  `json:"note,omitempty"` // a pass, an invalid answer and why
	Ms   float64 `json:"ms"`             // thinking time as the referee measured it
	// Clocks are the seats' remaining clocks after the move, in ms (nil: no clock).
	Clocks []int64 `json:"clocks,omitempty"`
	// From and To are the cells the move starts from and goes to (-1: none).
	From int         `json:"from"`
	To   int         `json:"to"`
	Info *judge.Info `json:"info,omitempty"` // the engine's account of its move
}

// Frame is one position.
type Frame struct {
	Cells  string  `json:"cells"`
	Owner  []int8  `json:"owner"`
	HP     []int16 `json:"hp,omitempty"`
	Energy []int16 `json:"energy,omitempty"`
	Counts []int   `json:"counts"`
	Actor  int     `json:"actor"`
	ToMove int     `json:"to_move"`
	// Flipped are the cells whose owner changed from one player to another by the move that
	// led here (Bacteria War's and Slime's infections, a mouse taken by Nadori).
	Flipped []int `json:"flipped,omitempty"`
	Rows    int   `json:"rows"`
	Cols    int   `json:"cols"`
}

// frameOf is the Frame of a picture, with the cells flipped since prev (nil: none).
func frameOf(p contract.Picture, prev *Frame) Frame {
	f := Frame{Cells: p.Cells, Owner: p.Owner, HP: p.HP, Energy: p.Energy, Counts: p.Counts,
		Actor: p.Actor, ToMove: p.ToMove, Rows: p.Rows, Cols: p.Cols}
	if prev != nil && len(prev.Owner) == len(p.Owner) {
		for i, o := range p.Owner {
			if was := prev.Owner[i]; o >= 0 && was >= 0 && o != was {
				f.Flipped = append(f.Flipped, i)
			}
		}
	}
	return f
}

// picture draws st, or fails for a game that cannot be drawn.
func picture(game string, st contract.State) (contract.Picture, error) {
	if d, ok := st.(contract.Pictured); ok {
		if p, ok := d.Picture(); ok {
			return p, nil
		}
	}
	return contract.Picture{}, fmt.Errorf("replay: %s positions cannot be drawn (the game's Def has no Picture)", game)
}

// builder collects the frames and moves of a game as it is replayed.
type builder struct {
	g    *Game
	cols int
}

func (b *builder) start(game string, st contract.State) error {
	p, err := picture(game, st)
	if err != nil {
		return err
	}
	b.g.Frames = append(b.g.Frames, frameOf(p, nil))
	b.cols = p.Cols
	return nil
}

// add records move m and the position st after it.
func (b *builder) add(m Move, st contract.State) error {
	p, err := picture(b.g.Game, st)
	if err != nil {
		return err
	}
	b.g.Frames = append(b.g.Frames, frameOf(p, &b.g.Frames[len(b.g.Frames)-1]))
	b.g.Moves = append(b.g.Moves, m)
	return nil
}

// play plays c in st and records it as move m; it returns the position after it.
func (b *builder) play(st contract.State, c contract.Coords, m Move) (contract.State, error) {
	next, err := st.Play(c)
	if err != nil {
		return nil, err
	}
	return next, b.add(m, next)
}

// checkFinal fails when the replayed game's last position st is not the record's final one
// ("": the record has none).
func checkFinal(st contract.State, final string) error {
	if f := st.String(); final != "" && f != final {
		return fmt.Errorf("the moves lead to %q, the record's final position is %q", f, final)
	}
	return nil
}

// addPicture records move m and the picture after it (stdin-driver games).
func (b *builder) addPicture(m Move, p contract.Picture) {
	b.g.Frames = append(b.g.Frames, frameOf(p, &b.g.Frames[len(b.g.Frames)-1]))
	b.g.Moves = append(b.g.Moves, m)
}

// cell is the index of the cell at (row, col), counted from base, or -1 off the board.
func (b *builder) cell(row, col, base int) int {
	f := b.g.Frames[0]
	r, c := row-base, col-base
	if r < 0 || c < 0 || r >= f.Rows || c >= f.Cols {
		return -1
	}
	return r*b.cols + c
}

// coordsText writes judge coordinates (counted from base) for people: "3,4→5,6", "pass".
func coordsText(c contract.Coords, base int) string {
	if c == contract.PassCoords {
		return "pass"
	}
	if c[0] == c[2] && c[1] == c[3] {
		return fmt.Sprintf("%d,%d", c[0]-1+base, c[1]-1+base)
	}
	return fmt.Sprintf("%d,%d→%d,%d", c[0]-1+base, c[1]-1+base, c[2]-1+base, c[3]-1+base)
}

// entryName is the match's name of entry i: "A", "B", ...
func entryName(i int) string { return string(rune('A' + i)) }

// shortCommand trims a command for titles: its program's base name and its engine flag.
func shortCommand(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return cmd
	}
	name := f[0][strings.LastIndexByte(f[0], '/')+1:]
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "-engine" || f[i] == "--engine" {
			return name + " " + f[i+1]
		}
	}
	return name
}
