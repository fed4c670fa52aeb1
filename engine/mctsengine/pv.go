package mctsengine

// PV is the principal line of the engine's tree after its last search (mcts.Searcher.PV),
// at most max moves.
func (e *Engine[P, M]) PV(max int) []M { return e.s.PV(max) }
