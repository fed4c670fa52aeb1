package solve

import (
	"time"

	"colony/engine"
	"colony/game/mouse"
)

// ProveFrom is the most mouse steps left at which a Prover works: earlier, nothing is
// provable within a move's budget (mousesolve -survey: the first proofs in games between
// alphabeta engines come with about 40 steps left).
const ProveFrom = 50

// Prover is the solver in front of an engine's search (engine.Prover): it plays forced wins
// and rules out proven losses. A third of its budget looks for a win of the side to move, the
// rest deepens proofs that the opponent wins after each move.
type Prover struct {
	mb     int
	s      *Solver // allocated on the first position in reach
	noVeto bool
}

var _ engine.Prover[mouse.Position, mouse.Move] = (*Prover)(nil)

// NewProver returns a prover with a table of about mb megabytes (allocated on first use).
// noVeto keeps it to wins (A/B matches).
func NewProver(mb int, noVeto bool) *Prover { return &Prover{mb: mb, noVeto: noVeto} }

// NewGame clears the table.
func (p *Prover) NewGame() {
	if p.s != nil {
		p.s.Clear()
	}
}

// Prove implements engine.Prover: ProveDepth with no depth bound. Positions with more than
// ProveFrom mouse steps left are declined.
func (p *Prover) Prove(pos mouse.Position, nodes int64, t time.Duration, veto []mouse.Move) (mouse.Move, bool, []mouse.Move, int64) {
	r, veto := p.ProveDepth(pos, 0, nodes, t, veto)
	return r.Move, r.Win, veto, r.Nodes
}

// Proof is what ProveDepth found.
type Proof struct {
	Move  mouse.Move // a move forcing a win of the side to move (Win), else mouse.NoMove
	Win   bool
	Depth int   // the length in plies of that win
	Nodes int64 // nodes searched
}

// Reaches reports whether proofs are worth trying at pos.
func Reaches(pos *mouse.Position) bool {
	return !pos.Terminal() && pos.MouseStepsLeft() <= ProveFrom
}

// ProveDepth is Prove with the win search bounded to depth plies (0: none; alphabeta passes
// its own depth limit), and the length of the win found.
func (p *Prover) ProveDepth(pos mouse.Position, depth int, nodes int64, t time.Duration, veto []mouse.Move) (Proof, []mouse.Move) {
	if !Reaches(&pos) || nodes <= 0 && t <= 0 {
		return Proof{Move: mouse.NoMove}, veto
	}
	if p.s == nil {
		p.s = New(p.mb)
	}
	start := time.Now()
	lim := Limits{MeOnly: true, Nodes: nodes / 3, Time: t / 3, Depth: depth}
	if nodes > 0 {
		lim.Nodes = max(lim.Nodes, 1)
	}
	r := p.s.Solve(pos, lim)
	if r.Winner == pos.ToMove() && r.Move != mouse.NoMove {
		return Proof{Move: r.Move, Win: true, Depth: r.Depth, Nodes: r.Nodes}, veto
	}
	if p.noVeto {
		return Proof{Move: mouse.NoMove, Nodes: r.Nodes}, veto
	}
	var left time.Duration
	if t > 0 {
		left = max(t-time.Since(start), time.Millisecond)
	}
	var rest int64
	if nodes > 0 {
		rest = max(nodes-r.Nodes, 1)
	}
	veto, n := p.vetoLosing(pos, rest, left, veto)
	return Proof{Move: mouse.NoMove, Nodes: r.Nodes + n}, veto
}

// vetoLosing deepens proofs that the opponent wins after each move of pos, within the budget
// (nodes, or time t; zero: none), and appends the moves proven to lose to veto. When every
// move loses, those that lose latest stay out. It returns the nodes spent.
func (p *Prover) vetoLosing(pos mouse.Position, nodes int64, t time.Duration, veto []mouse.Move) ([]mouse.Move, int64) {
	var deadline time.Time
	if t > 0 {
		deadline = time.Now().Add(t)
	}
	s := p.s
	s.SetLimits(max(nodes, 0), deadline)
	opp := 1 - pos.ToMove()
	var buf [mouse.MaxMoves]mouse.Move
	moves := pos.LegalMoves(buf[:0])
	if len(moves) < 2 {
		return veto, 0
	}
	var lost [mouse.MaxMoves]int // the depth at which a move was proven lost, 0: not
	nlost := 0
	maxD := 2*pos.MouseStepsLeft() + 1
	for d := 1; d <= maxD && nlost < len(moves); d++ {
		for i, m := range moves {
			if lost[i] != 0 {
				continue
			}
			c := pos.Apply(m)
			var w, ok bool
			if c.Terminal() {
				w, ok = c.Winner() == opp, true
			} else {
				w, ok = s.Wins(c, opp, d-1)
			}
			if !ok {
				d = maxD // the budget ran out
				break
			}
			if w {
				lost[i] = d
				nlost++
			}
		}
		if nlost == len(moves) {
			// Every move loses: keep those that lose latest.
			for i := range moves {
				if lost[i] == d {
					lost[i] = 0
				}
			}
			break
		}
	}
	for i, m := range moves {
		if lost[i] != 0 {
			veto = append(veto, m)
		}
	}
	return veto, s.Nodes()
}
