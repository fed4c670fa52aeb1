package petri_test

import (
	"bytes"
	"strings"
	"testing"

	"colony/agent"
	"colony/game/petri"
)

// TestProgram runs the agent's main as the driver does: BEGIN, then one cell's view.
func TestProgram(t *testing.T) {
	run := func(stdin string, args ...string) (string, int) {
		var out, errb bytes.Buffer
		code := agent.Main(append([]string{"-game", "petri"}, args...), strings.NewReader(stdin), &out, &errb)
		return out.String(), code
	}
	for _, name := range []string{"", "colony", "sample", "random"} {
		var args []string
		if name != "" {
			args = []string{"-engine", name}
		}
		out, code := run("BEGIN", args...)
		if _, err := petri.ParseSpecies(out); err != nil || code != 0 || !strings.HasSuffix(out, "\n") {
			t.Errorf("%q BEGIN: %q %d %v", name, out, code, err)
		}
		view := "10 4\n..........\n.o........\n........x.\n..........\n\n1 1 5 6"
		out, code = run(view, args...)
		a, err := petri.ParseAction(out)
		g := petri.New(10, 4, petri.DriverRules, petri.Species{5, 6, 1}, petri.Species{4, 8, 0})
		if err != nil || code != 0 || !g.Legal(1, 1, a) {
			t.Errorf("%q view: %q %d %v", name, out, code, err)
		}
	}
	if out, code := run("10 4\nnonsense"); out != "REST\n" || code == 0 {
		t.Errorf("bad view: %q %d", out, code)
	}
}
