package judge

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"colony/engine"
)

// Info is what an agent says about one of its moves on its log (stderr), never on stdout
// where the judge reads only the protocol: the line
//
//	info move N [score S | value V] [proven P] [depth D] [nodes K] [visits K]
//
// N counts the agent's moves in the game from 1; S is an alpha-beta score (hundredths of a
// piece, the mover's side), V a tree search's expected result in [-1, 1] for the mover, P
// 1 or -1 for a proven win or loss. The referee (package arena) reads these lines into its
// game records; the replay viewer draws them. Unknown words are skipped, so the line may grow.
type Info struct {
	Move   int      `json:"move"`
	Score  *int32   `json:"score,omitempty"`
	Value  *float64 `json:"value,omitempty"`
	Proven int      `json:"proven,omitempty"`
	Depth  int      `json:"depth,omitempty"`
	Nodes  int64    `json:"nodes,omitempty"`
	Visits int      `json:"visits,omitempty"`
}

// InfoWord starts an info line.
const InfoWord = "info"

// InfoOf is the Info of an engine's report on the agent's move n.
func InfoOf(n int, r engine.Report) Info {
	in := Info{Move: n, Proven: r.Proven, Depth: r.Depth, Nodes: r.Nodes, Visits: r.Visits}
	if r.HasAB {
		s := r.Score
		in.Score = &s
	} else {
		v := r.Value
		in.Value = &v
	}
	return in
}

// String is the info line.
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s move %d", InfoWord, in.Move)
	if in.Score != nil {
		fmt.Fprintf(&b, " score %d", *in.Score)
	}
	if in.Value != nil {
		fmt.Fprintf(&b, " value %.4f", *in.Value)
	}
	for _, f := range []struct {
		key string
		v   int64
	}{{"proven", int64(in.Proven)}, {"depth", int64(in.Depth)}, {"nodes", in.Nodes}, {"visits", int64(in.Visits)}} {
		if f.v != 0 {
			fmt.Fprintf(&b, " %s %d", f.key, f.v)
		}
	}
	return b.String()
}

// ParseInfo reads an info line; ok is false for any other line, or one without a move
// number or with a malformed number.
func ParseInfo(line string) (in Info, ok bool) {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != InfoWord || len(f)%2 != 1 {
		return Info{}, false
	}
	for i := 1; i+1 < len(f); i += 2 {
		key, val := f[i], f[i+1]
		var err error
		switch key {
		case "move":
			in.Move, err = strconv.Atoi(val)
		case "score":
			var s int64
			s, err = strconv.ParseInt(val, 10, 32)
			s32 := int32(s)
			in.Score = &s32
		case "value":
			var v float64
			v, err = strconv.ParseFloat(val, 64)
			if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				err = strconv.ErrRange
			}
			in.Value = &v
		case "proven":
			in.Proven, err = strconv.Atoi(val)
		case "depth":
			in.Depth, err = strconv.Atoi(val)
		case "nodes":
			in.Nodes, err = strconv.ParseInt(val, 10, 64)
		case "visits":
			in.Visits, err = strconv.Atoi(val)
		}
		if err != nil {
			return Info{}, false
		}
	}
	return in, in.Move > 0
}
