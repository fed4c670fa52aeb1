package arena

import (
	"errors"
	"fmt"
	"time"

	"colony/contract"
)

// Player is an in-process contestant: an engine of a registered game behind the referee's
// view of positions (the registry builds them from engine names).
type Player interface {
	Name() string
	// NewGame starts a game in which the player sits in seat.
	NewGame(seat int)
	// Move answers a move for the player to move in s with clock left on its whole-game
	// clock; an error or an illegal move loses the game (RE).
	Move(s State, clock time.Duration) (Coords, error)
}

// LocalRecord is one in-process game.
type LocalRecord struct {
	Players []string        // player names by seat
	Moves   []Coords        // in order
	Values  contract.Values // final values by seat (a faulty seat gets -1, the others 0 from it)
	Winner  int             // the single best seat, -1 for a shared first place
	Faults  []Verdict       // RE/TLE verdicts; Player is the seat number as a string
	Outcome string          // the game's description of the end
	Clocks  []time.Duration // clock left by seat
}

// PlayLocal referees one game between players (seat i is players[i]) from start, each with
// a whole-game clock (0: no clock). A player that errs, answers an illegal move or runs out
// of time ends the game with the lowest value; the others keep 0.
func PlayLocal(rules Rules, players []Player, start State, clock time.Duration) (*LocalRecord, error) {
	n := rules.Info().Players()
	if len(players) != n {
		return nil, fmt.Errorf("arena: %s needs %d players, got %d", rules.Info().Name, n, len(players))
	}
	rec := &LocalRecord{Winner: -1, Clocks: make([]time.Duration, n)}
	for i, p := range players {
		rec.Players = append(rec.Players, p.Name())
		rec.Clocks[i] = clock
		p.NewGame(i)
	}
	st := start
	const maxMoves = 1 << 20
	for !st.Terminal() {
		if len(rec.Moves) >= maxMoves {
			return nil, errors.New("arena: a local game went on for a million moves")
		}
		seat := st.ToMove()
		t0 := time.Now()
		c, err := players[seat].Move(st, rec.Clocks[seat])
		took := time.Since(t0)
		if clock > 0 {
			rec.Clocks[seat] -= took
		}
		var next State
		switch {
		case err != nil:
			rec.Faults = append(rec.Faults, Verdict{Player: fmt.Sprint(seat), Kind: RE, Detail: err.Error()})
		case clock > 0 && rec.Clocks[seat] < 0:
			rec.Faults = append(rec.Faults, Verdict{Player: fmt.Sprint(seat), Kind: TLE, Detail: fmt.Sprintf("move after %v", took)})
		default:
			next, err = st.Play(c)
			if err != nil {
				rec.Faults = append(rec.Faults, Verdict{Player: fmt.Sprint(seat), Kind: RE, Detail: "illegal move " + c.String() + ": " + err.Error()})
			}
		}
		if len(rec.Faults) > 0 {
			rec.Values[seat] = -1
			rec.Winner = -1
			if n == 2 {
				rec.Values[1-seat], rec.Winner = 1, 1-seat
			}
			rec.Outcome = fmt.Sprintf("seat %d %s: %s", seat, rec.Faults[0].Kind, rec.Faults[0].Detail)
			return rec, nil
		}
		rec.Moves = append(rec.Moves, c)
		st = next
	}
	rec.Values = st.Values()
	rec.Winner = st.Winner()
	rec.Outcome = st.Outcome()
	return rec, nil
}

// LocalSummary is the per-player score of a series of local games.
type LocalSummary struct {
	Games   int
	Players []string  // player names, in the order given to RunLocal
	Wins    []int     // games each player won alone
	Shared  int       // games with a shared first place
	Score   []float64 // each player's average value (the game's per-seat score)
	Faults  int
}

// RunLocal plays games local games rotating the seats (game g puts players[(i+g) % n] in seat
// i), from the game's start position, and sums up each player's results.
func RunLocal(rules Rules, players []Player, games int, clock time.Duration) (*LocalSummary, []*LocalRecord, error) {
	n := len(players)
	sum := &LocalSummary{Wins: make([]int, n), Score: make([]float64, n)}
	for _, p := range players {
		sum.Players = append(sum.Players, p.Name())
	}
	var recs []*LocalRecord
	for g := range games {
		seated := make([]Player, n)
		for i := range n {
			seated[i] = players[(i+g)%n]
		}
		rec, err := PlayLocal(rules, seated, rules.Start(), clock)
		if err != nil {
			return sum, recs, err
		}
		recs = append(recs, rec)
		sum.Games++
		sum.Faults += len(rec.Faults)
		for seat := range n {
			who := (seat + g) % n
			sum.Score[who] += float64(rec.Values[seat])
			if rec.Winner == seat {
				sum.Wins[who]++
			}
		}
		if rec.Winner < 0 {
			sum.Shared++
		}
	}
	for i := range sum.Score {
		sum.Score[i] /= float64(max(sum.Games, 1))
	}
	return sum, recs, nil
}
