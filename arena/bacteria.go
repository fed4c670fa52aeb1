package arena

import (
	"fmt"
	"math/rand/v2"

	"colony/game/ataxx"
)

func init() { register(bacteriaWar{}) }

// bacteriaWar adapts game/ataxx to the referee.
type bacteriaWar struct{}

func (bacteriaWar) Name() string           { return "bacteria-war" }
func (bacteriaWar) Start() State           { return bwState{ataxx.Start()} }
func (bacteriaWar) PlayerNames() [2]string { return [2]string{"O", "X"} }

type bwState struct{ p ataxx.Position }

func (s bwState) ToMove() int    { return s.p.ToMove() }
func (s bwState) Terminal() bool { return s.p.Terminal() }
func (s bwState) Winner() int    { return s.p.Winner() }
func (s bwState) String() string { return s.p.String() }

func (s bwState) Play(c Coords) (State, error) {
	if s.p.Terminal() {
		return nil, fmt.Errorf("the game is over")
	}
	m, err := s.p.JudgeMove(c[0], c[1], c[2], c[3])
	if err != nil {
		return nil, err
	}
	return bwState{s.p.Apply(m)}, nil
}

func (s bwState) RandomMove(r *rand.Rand) Coords {
	var buf [ataxx.MaxMoves]ataxx.Move
	moves := s.p.LegalMoves(buf[:0])
	if len(moves) == 0 {
		return PassCoords
	}
	m := moves[r.IntN(len(moves))]
	r1, c1, r2, c2 := s.p.JudgeCoords(m)
	return Coords{r1, c1, r2, c2}
}

func (s bwState) Outcome() string {
	o, x := s.p.Count(ataxx.O), s.p.Count(ataxx.X)
	why := "in progress"
	switch {
	case o == 0 || x == 0:
		why = "a side has no pieces"
	case s.p.Empty() == 0:
		why = "board full"
	case s.p.Turns() >= ataxx.MaxTurns:
		why = fmt.Sprintf("%d-turn cap", ataxx.MaxTurns)
	}
	return fmt.Sprintf("%s, O %d X %d", why, o, x)
}
