package petri

import "colony/contract"

// Match is a game as the driver plays it, for a referee that runs the programs (package
// arena's stdin referee): the species come from the programs' answers to BEGIN, every
// action is the line a program printed for one cell's stdin.
type Match struct {
	G *Game
	// Forfeit is the seat whose species was invalid (-1: none; 2: both), a fatal error in the
	// driver: that seat loses at once (both: a tie).
	Forfeit int
}

// NewMatch starts a w x h game under rules from the programs' BEGIN answers, seat 0 first.
func NewMatch(w, h int, rules Rules, begin [2]string) *Match {
	var sp [2]Species
	m := &Match{Forfeit: -1}
	for i, line := range begin {
		s, err := ParseSpecies(line)
		if err != nil {
			if m.Forfeit >= 0 {
				m.Forfeit = 2
			} else {
				m.Forfeit = i
			}
			s = Species{1, 11, 0}
		}
		sp[i] = s
	}
	m.G = New(w, h, rules, sp[0], sp[1])
	if m.Forfeit >= 0 {
		m.G.Over = true
		m.G.Winner = -1
		if m.Forfeit < 2 {
			m.G.Winner = 1 - m.Forfeit
		}
	}
	return m
}

// Over reports whether the game has ended, and its winner (0, 1, or -1 for a tie).
func (m *Match) Over() (bool, int) { return m.G.Over, m.G.Winner }

// Seat is the player whose cell acts next.
func (m *Match) Seat() int { return m.G.Player }

// Input is the acting cell's stdin.
func (m *Match) Input() string { return m.G.Input() }

// Play plays a program's output line for the acting cell; the result says why it was no
// legal action ("" when it was one), in which case the cell rested.
func (m *Match) Play(line string) string {
	a, err := ParseAction(line)
	if err != nil {
		m.G.Do(Action{Kind: Rest})
		return err.Error()
	}
	if !m.G.Do(a) {
		return "illegal: " + a.String()
	}
	return ""
}

// Cells is the living cells of each seat.
func (m *Match) Cells() []int {
	n := m.G.Count()
	return n[:]
}

// Outcome describes the end.
func (m *Match) Outcome() string {
	if m.Forfeit >= 0 {
		return "invalid species (forfeit)"
	}
	return m.G.Outcome()
}

// Board is the board notation (player 1's side).
func (m *Match) Board() string { return m.G.String() }

// Picture draws the game for the replay viewer (Position.Picture).
func (m *Match) Picture() contract.Picture { return Position{m.G}.Picture() }
