package replay

import (
	"math"

	"colony/judge"
)

// SwingMin is how far one engine's evaluation must move between two of its own moves to be a
// big swing (on the graph's scale, -1 to 1).
const SwingMin = 0.5

// EvalPoint is one engine's evaluation of its move on the graph's scale: -1 to 1, in a
// two-player game from the first seat's view (O in Bacteria War, whichever engine moved),
// in a game of more players the mover's own.
type EvalPoint struct {
	Ply  int     `json:"ply"` // the move's ply (1: the first move after Frames[0])
	Seat int     `json:"seat"`
	V    float64 `json:"v"`
}

// Swing is a big swing: the evaluation of the engine in Seat moved from From to To between
// its move before and its move at Ply (both from the first seat's view).
type Swing struct {
	Ply  int     `json:"ply"`
	Seat int     `json:"seat"`
	From float64 `json:"from"`
	To   float64 `json:"to"`
}

// infoValue is an engine's account of its move as the mover's expected result in [-1, 1]
// (false: it gave none): a proof is ±1, a value as it is, a search score tanh(score/400).
func infoValue(in *judge.Info) (float64, bool) {
	switch {
	case in == nil:
		return 0, false
	case in.Proven != 0:
		if in.Proven > 0 {
			return 1, true
		}
		return -1, true
	case in.Value != nil:
		return math.Max(-1, math.Min(1, *in.Value)), true
	case in.Score != nil:
		return math.Tanh(float64(*in.Score) / 400), true
	}
	return 0, false
}

// evaluations sets g.Eval and g.Swings from the moves' infos. Each engine scores its own
// moves from its own side; in a two-player game every score is turned to the first seat's
// view, so both engines' lines read the same way, and a swing compares an engine's score
// with its own previous one: the two engines disagreeing is not a swing (drawn as one line,
// their alternating scores made a sawtooth of false swings).
func (g *Game) evaluations() {
	g.Eval, g.Swings = nil, nil
	two := len(g.Seats) == 2
	last := map[int]EvalPoint{}
	for k, m := range g.Moves {
		v, ok := infoValue(m.Info)
		if !ok {
			continue
		}
		if two && m.Seat == 1 {
			v = -v
		}
		p := EvalPoint{Ply: k + 1, Seat: m.Seat, V: v}
		g.Eval = append(g.Eval, p)
		if prev, seen := last[m.Seat]; two && seen && math.Abs(v-prev.V) >= SwingMin {
			g.Swings = append(g.Swings, Swing{Ply: p.Ply, Seat: m.Seat, From: prev.V, To: v})
		}
		last[m.Seat] = p
	}
}
