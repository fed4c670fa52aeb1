package web

import "colony/contract"

// ParityCase is one search of the parity test: a position of a game and a node budget.
type ParityCase struct {
	Game  string `json:"game"`
	Board string `json:"board"`
	Nodes int64  `json:"nodes"`
}

// ParityResult is what a search of a ParityCase chose and spent.
type ParityResult struct {
	Move   contract.Coords `json:"move"`
	Score  int32           `json:"score"`
	Value  float64         `json:"value"`
	Depth  int             `json:"depth"`
	Nodes  int64           `json:"nodes"`
	Visits int             `json:"visits"`
}

// RunParity searches each case with the page's engine of its game, afresh (NewGame) at the
// case's nodes: the WebAssembly side of the parity test (web/wasm's "parity" command).
func RunParity(cases []ParityCase) ([]ParityResult, error) {
	var out []ParityResult
	for _, c := range cases {
		g, err := Lookup(c.Game)
		if err != nil {
			return nil, err
		}
		res, err := g.Search(Request{Game: c.Game, Start: c.Board, Nodes: c.Nodes, NewGame: true}, nil)
		if err != nil {
			return nil, err
		}
		in := res.Info
		out = append(out, ParityResult{Move: res.Move.Coords, Score: in.Score, Value: in.Value, Depth: in.Depth, Nodes: in.Nodes, Visits: in.Visits})
	}
	return out, nil
}
