package replay

import (
	"encoding/json"
	"sort"
	"strings"

	"colony/arena"
)

// Standing is one program's results over the games of a page.
type Standing struct {
	Entry   string `json:"entry"` // its name in the match ("A", "B", ...)
	Command string `json:"command"`
	Games   int    `json:"games"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
	// Score is the share of points (wins plus half the draws) of two-player games, the
	// average final score of scored games (Slime: cells held).
	Score float64 `json:"score"`
	// Elo is the rating difference to the other programs it met (two-player games), with
	// its 95% error; Bound says "lower" or "upper" when it scored every point or none.
	Elo    float64 `json:"elo"`
	EloErr float64 `json:"elo_err"`
	Bound  string  `json:"bound,omitempty"`
	// BySeat are its results in each seat: W-D-L and average score.
	BySeat []SeatResult `json:"by_seat"`
	// Verdicts count its rule violations by kind (TLE, RE, crash) and invalid answers.
	Verdicts map[string]int `json:"verdicts"`
	scoreSum float64
}

// SeatResult is a program's record in one seat.
type SeatResult struct {
	Seat   string  `json:"seat"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"`
}

// Standings sums up the games by program (the match's entry: "A", "B", ...), best first.
// commands are the entries' command lines as the run gave them (with "{seed}" unexpanded;
// nil or missing: the first game's command line).
func Standings(gs []*Game, commands map[string]string) []*Standing {
	by := map[string]*Standing{}
	var order []*Standing
	for _, g := range gs {
		scored := len(g.Seats) > 2 && len(g.Scores) == len(g.Seats)
		for s, seat := range g.Seats {
			st := by[seat.Entry]
			if st == nil {
				cmd, ok := commands[seat.Entry]
				if !ok {
					cmd = seat.Command
				}
				st = &Standing{Entry: seat.Entry, Command: cmd, Verdicts: map[string]int{}}
				by[seat.Entry] = st
				order = append(order, st)
			}
			for len(st.BySeat) < len(g.Seats) {
				st.BySeat = append(st.BySeat, SeatResult{Seat: g.Seats[len(st.BySeat)].Name})
			}
			sr := &st.BySeat[s]
			st.Games++
			sr.Games++
			var pts float64
			switch {
			case scored:
				pts = g.Scores[s]
				if g.Winner == s {
					st.Wins++
					sr.Wins++
				}
			case g.Winner == s:
				pts = 1
				st.Wins++
				sr.Wins++
			case g.Winner < 0:
				pts = 0.5
				st.Draws++
				sr.Draws++
			default:
				st.Losses++
				sr.Losses++
			}
			st.scoreSum += pts
			sr.Score += pts
			for _, m := range g.Moves {
				if m.Seat == s && m.Note != "" && m.Note != arena.MeantPass {
					st.Verdicts["invalid"]++
				}
			}
		}
		for _, v := range g.Verdicts {
			if v.Seat >= 0 && v.Seat < len(g.Seats) {
				by[g.Seats[v.Seat].Entry].Verdicts[v.Kind]++
			}
		}
	}
	for _, st := range order {
		st.Score = st.scoreSum / float64(max(st.Games, 1))
		for i := range st.BySeat {
			if sr := &st.BySeat[i]; sr.Games > 0 {
				sr.Score /= float64(sr.Games)
			}
		}
		e := arena.Estimate(st.Wins, st.Draws, st.Losses)
		st.Elo, st.EloErr, st.Bound = e.Elo, e.Err, e.Bound
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].Score > order[j].Score })
	return order
}

// entryCommands reads the entries' command lines from an arena summary (a_cmd and b_cmd of
// a match, entries[].command of King-of-the-Hill and stdin-driver runs); nil when it has none.
func entryCommands(summary json.RawMessage) map[string]string {
	var s struct {
		A       string `json:"a_cmd"`
		B       string `json:"b_cmd"`
		Entries []struct {
			Command string `json:"command"`
		} `json:"entries"`
	}
	if summary == nil || json.Unmarshal(summary, &s) != nil {
		return nil
	}
	out := map[string]string{}
	if s.A != "" && s.B != "" {
		out["A"], out["B"] = s.A, s.B
	}
	for i, e := range s.Entries {
		out[entryName(i)] = e.Command
	}
	return out
}

// runTitle names a page of several games: the game and the programs.
func runTitle(gs []*Game) string {
	names := map[string]bool{}
	var list []string
	for _, g := range gs {
		for _, s := range g.Seats {
			if c := shortCommand(s.Command); !names[c] {
				names[c] = true
				list = append(list, c)
			}
		}
	}
	game := ""
	if len(gs) > 0 {
		game = gs[0].Game
	}
	return game + " run: " + strings.Join(list, ", ")
}
