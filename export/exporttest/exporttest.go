// Package exporttest holds the test helpers of the single-file exports (export/gofile,
// export/cpp): the agent and the arena built once per test, and a short referee match that
// must end without a TLE, RE or crash.
package exporttest

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BuildTools builds the agent and the arena of the module at root into a temporary directory
// and returns it.
func BuildTools(t testing.TB, root string) string {
	t.Helper()
	tools := t.TempDir()
	for _, c := range []string{"agent", "arena"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(tools, c), "./cmd/"+c)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", c, err, out)
		}
	}
	return tools
}

// PlayClean plays 2 Bacteria War games at 2 s between the commands a and b through the arena
// (tools: BuildTools) and requires them finished without a TLE, RE or crash.
func PlayClean(t testing.TB, tools, name, a, b string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(tools, "arena"), "-game", "bacteria-war", "-games", "2", "-clock", "2s",
		"-parallel", "1", "-openings", "2", "-seed", "13", "-json", "-out", t.TempDir(), "-a", a, "-b", b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: arena: %v\n%s", name, err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var sum map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("%s: arena summary: %v\n%s", name, err, out)
	}
	t.Logf("%s: %s", name, lines[len(lines)-1])
	verdicts := 0.0
	for _, k := range []string{"a_tle", "a_re", "a_crash", "b_tle", "b_re", "b_crash"} {
		v, _ := sum[k].(float64)
		verdicts += v
	}
	if games, _ := sum["games"].(float64); games != 2 || verdicts != 0 {
		t.Errorf("%s: %v games with %v TLE/RE/crash verdicts, want 2 games without any", name, games, verdicts)
	}
}
