package mcts

// PV is the principal line of the current tree: from the root, the most visited child at
// each node (ties: the first), at most max moves, while the child has visits. Nil without a
// tree. It reads the tree only (the browser page's analysis shows it).
func (s *Searcher[P, M]) PV(max int) []M {
	if !s.hasRoot || len(s.nodes) == 0 {
		return nil
	}
	var pv []M
	idx := int32(0)
	for len(pv) < max {
		nd := &s.nodes[idx]
		if nd.state != stateExpanded || nd.count == 0 {
			break
		}
		best := int32(-1)
		for i := nd.first; i < nd.first+nd.count; i++ {
			if s.nodes[i].n > 0 && (best < 0 || s.nodes[i].n > s.nodes[best].n) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		pv = append(pv, s.nodes[best].move)
		idx = best
	}
	return pv
}
