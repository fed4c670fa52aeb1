package agentdef

import (
	"strings"
	"testing"
)

// TestCheck: each setting out of its range, a bad time rule and an unknown experiment are
// refused with a text naming the flag; the zero options and good settings pass.
func TestCheck(t *testing.T) {
	for _, ok := range []EngineOptions{{}, {BlendWeight: 0.5, BlendDepth: 2, BlendScale: 300, ProverShare: 0.3, Endgame: 20,
		TimeRules: "reservediv=4", Experiments: "iir,nolmr", HashMB: 8, Nodes: 100}} {
		if err := ok.Check(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
	for _, tc := range []struct {
		o    EngineOptions
		want string
	}{
		{EngineOptions{BlendWeight: 2}, "-value-blend 2: want [0, 1]"},
		{EngineOptions{BlendDepth: 9}, "-value-depth 9"},
		{EngineOptions{BlendWeight: 0.5}, "-value-scale 0"},
		{EngineOptions{CPuct: -1}, "-cpuct -1"},
		{EngineOptions{ProverShare: 1.5}, "-prove 1.5"},
		{EngineOptions{Endgame: -1}, "-endgame -1"},
		{EngineOptions{NodeClock: -5}, "-node-clock must be >= 0"},
		{EngineOptions{TimeRules: "nosuch=3"}, "-tm: "},
		{EngineOptions{Experiments: "iir,nonesuch"}, `-exp: unknown search experiment "nonesuch"`},
	} {
		if err := tc.o.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
}
