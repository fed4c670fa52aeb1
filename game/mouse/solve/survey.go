package solve

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"colony/engine"
	"colony/game/mouse"
)

// Mover picks a move in a position: the players of the games a Survey solves positions from.
type Mover func(p mouse.Position) mouse.Move

// RandomMover plays uniformly random moves.
func RandomMover(seed uint64) Mover {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var buf [mouse.MaxMoves]mouse.Move
	return func(p mouse.Position) mouse.Move {
		moves := p.LegalMoves(buf[:0])
		return moves[r.IntN(len(moves))]
	}
}

// EngineMover plays e's move at the limits lim.
func EngineMover(e engine.Engine[mouse.Position, mouse.Move], lim engine.Limits) Mover {
	return func(p mouse.Position) mouse.Move { return e.BestMove(p, lim) }
}

// Bucket counts the positions of one class: solved (a winner proven) per winner.
type Bucket struct {
	Positions int
	Won       [2]int // proven wins of the mice and of the team
	Nodes     int64
	Time      time.Duration
}

func (b *Bucket) add(r Result) {
	b.Positions++
	if r.Winner >= 0 {
		b.Won[r.Winner]++
	}
	b.Nodes += r.Nodes
	b.Time += r.Elapsed
}

func (b Bucket) String() string {
	if b.Positions == 0 {
		return "-"
	}
	pct := func(n int) float64 { return 100 * float64(n) / float64(b.Positions) }
	return fmt.Sprintf("%4d positions, proven %5.1f%% (mice %5.1f%%, team %5.1f%%), %.0f nodes and %.1f ms each",
		b.Positions, pct(b.Won[0]+b.Won[1]), pct(b.Won[0]), pct(b.Won[1]),
		float64(b.Nodes)/float64(b.Positions), float64(b.Time.Microseconds())/1000/float64(b.Positions))
}

// Survey is the statistics of Solve over the positions of whole games.
type Survey struct {
	ByPly      [140 / 10]Bucket // per ten plies played
	ByMice     [mouse.Cols + 1]Bucket
	ByLead     [mouse.Rows]Bucket // by the row (1-based - 1) of the most advanced mouse
	ByStepsCut [14]Bucket         // by MouseStepsLeft / 5
	All        Bucket
	Games      int
	MiceWon    int
	// Contradicted counts proven positions whose game the other side won: the proven winner
	// erred later. FirstProof[ply] counts the games whose first proven position came at that
	// ply, ProofAgree those whose first proof names the game's winner.
	Contradicted int
	FirstProof   [140]int
	ProofAgree   int
}

// Run plays games games between mice and team from the start, solves every position of
// every game with lim, and accumulates the statistics.
func (sv *Survey) Run(s *Solver, games int, mice, team Mover, lim Limits, log io.Writer) {
	for g := range games {
		p := mouse.Start()
		var res []Result
		var pos []mouse.Position
		for !p.Terminal() {
			s.Clear()
			r := s.Solve(p, lim)
			res = append(res, r)
			pos = append(pos, p)
			var m mouse.Move
			if p.ToMove() == mouse.Mice {
				m = mice(p)
			} else {
				m = team(p)
			}
			p = p.Apply(m)
		}
		winner := p.Winner()
		sv.Games++
		if winner == mouse.Mice {
			sv.MiceWon++
		}
		first := -1
		for ply, r := range res {
			q := pos[ply]
			sv.All.add(r)
			sv.ByPly[min(ply/10, len(sv.ByPly)-1)].add(r)
			sv.ByMice[q.NumMice()].add(r)
			lead := 0
			for _, row := range q.MouseRows() {
				lead = max(lead, int(row))
			}
			sv.ByLead[lead].add(r)
			sv.ByStepsCut[min(q.MouseStepsLeft()/5, len(sv.ByStepsCut)-1)].add(r)
			if r.Winner >= 0 {
				if first < 0 {
					first = ply
				}
				if r.Winner != winner {
					sv.Contradicted++
				}
			}
		}
		if first >= 0 {
			sv.FirstProof[first]++
			if res[first].Winner == winner {
				sv.ProofAgree++
			}
		}
		if log != nil {
			fmt.Fprintf(log, "game %d: %d plies, winner %s, first proof at ply %d\n", g+1, len(res), [2]string{"mice", "team"}[winner], first)
		}
	}
}

// Print writes the statistics.
func (sv *Survey) Print(w io.Writer) {
	fmt.Fprintf(w, "%d games, mice won %d\nall: %v\n", sv.Games, sv.MiceWon, sv.All)
	fmt.Fprintf(w, "proven results against the game's winner: %d contradicted (the proven winner erred later)\n", sv.Contradicted)
	fmt.Fprintln(w, "by plies played:")
	for i, b := range sv.ByPly {
		if b.Positions > 0 {
			fmt.Fprintf(w, "  %3d-%3d: %v\n", 10*i, 10*i+9, b)
		}
	}
	fmt.Fprintln(w, "by mice on the board:")
	for i, b := range sv.ByMice {
		if b.Positions > 0 {
			fmt.Fprintf(w, "  %2d: %v\n", i, b)
		}
	}
	fmt.Fprintln(w, "by the row of the most advanced mouse (1..7):")
	for i, b := range sv.ByLead {
		if b.Positions > 0 {
			fmt.Fprintf(w, "  %d: %v\n", i+1, b)
		}
	}
	fmt.Fprintln(w, "by mouse steps left:")
	for i, b := range sv.ByStepsCut {
		if b.Positions > 0 {
			hi := fmt.Sprint(5*i + 4)
			if i == len(sv.ByStepsCut)-1 {
				hi = "..."
			}
			fmt.Fprintf(w, "  %2d-%s: %v\n", 5*i, hi, b)
		}
	}
	n, sum := 0, 0
	for ply, c := range sv.FirstProof {
		n += c
		sum += ply * c
	}
	if n > 0 {
		fmt.Fprintf(w, "games with a proven position: %d of %d; first proof at ply %.1f on average; the first proof names the game's winner in %d\n",
			n, sv.Games, float64(sum)/float64(n), sv.ProofAgree)
	}
}
