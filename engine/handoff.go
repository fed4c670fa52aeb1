package engine

// Handoff plays with Early until Late(pos) first holds, then with Finish for the rest of the
// game: for example a network-guided tree search in the opening and middlegame, and an
// alpha-beta searcher once few empty cells are left and the game is tactics to the end. The
// switch is one-way within a game (a phase test that flickers would leave both engines with
// stale trees); NewGame resets both engines and the switch. Handoff satisfies Engine.
type Handoff[P, M any] struct {
	Early, Finish Engine[P, M]
	Late          func(pos P) bool
	Label         string // Name; "" means Early's name

	late bool
}

var _ Engine[struct{}, struct{}] = (*Handoff[struct{}, struct{}])(nil)

// Name returns Label, or Early's name.
func (h *Handoff[P, M]) Name() string {
	if h.Label != "" {
		return h.Label
	}
	return h.Early.Name()
}

// NewGame resets both engines and goes back to Early.
func (h *Handoff[P, M]) NewGame() {
	h.late = false
	h.Early.NewGame()
	h.Finish.NewGame()
}

// BestMove asks Finish once Late has held for a position of this game, else Early.
func (h *Handoff[P, M]) BestMove(pos P, lim Limits) M {
	if !h.late && h.Late(pos) {
		h.late = true
	}
	if h.late {
		return h.Finish.BestMove(pos, lim)
	}
	return h.Early.BestMove(pos, lim)
}

// Finishing reports whether the game has been handed to Finish.
func (h *Handoff[P, M]) Finishing() bool { return h.late }

// Report is the account of the engine that played the last move (ReportOf).
func (h *Handoff[P, M]) Report() (Report, bool) {
	if h.late {
		return ReportOf(h.Finish)
	}
	return ReportOf(h.Early)
}
