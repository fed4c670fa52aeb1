package engine

// OpeningDecided reports whether an opening whose first search scores score (for the side to
// move, in the engine's units) is already decided: beyond ±bound (bound <= 0: none is). The
// data generator drops the game of such an opening (selfplay's OpeningMaxScore) and the
// referee draws another opening (arena -opening-max-score): both ask this.
func OpeningDecided(score, bound int32) bool {
	return bound > 0 && (score > bound || score < -bound)
}

// SearchScore searches p with e under lim as the first move of a new game and returns the
// search's score for the side to move (false: e reports no alpha-beta score).
func SearchScore[P, M any](e Engine[P, M], p P, lim Limits) (int32, bool) {
	e.NewGame()
	e.BestMove(p, lim)
	r, ok := ReportOf(e)
	if !ok || !r.HasAB {
		return 0, false
	}
	return r.Score, true
}
