package arena

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestNodeClockCommands: {nodeclock} becomes the clock in both commands, and a command without
// it, or a clock that is not positive, is refused.
func TestNodeClockCommands(t *testing.T) {
	a, b, err := NodeClockCommands("x -node-clock {nodeclock}", "y --node-clock {nodeclock} -z", 12345)
	if err != nil || a != "x -node-clock 12345" || b != "y --node-clock 12345 -z" {
		t.Fatalf("got %q %q %v", a, b, err)
	}
	if _, _, err := NodeClockCommands("x -node-clock {nodeclock}", "y", 5); err == nil || !strings.Contains(err.Error(), "{nodeclock}") {
		t.Fatalf("a command without {nodeclock}: %v", err)
	}
	if _, _, err := NodeClockCommands("x {nodeclock}", "y {nodeclock}", 0); err == nil {
		t.Fatal("a node clock of 0 was taken")
	}
}

// TestNodeClockMatchDeterministic: two node-clock matches of the shipped agent against itself
// with other time rules, on the same seed, play the same games move for move, and a move's
// search stops by the node clock, not the (long) wall clock. Short mode: two games.
func TestNodeClockMatchDeterministic(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "agent")
	if out, err := exec.Command("go", "build", "-o", bin, "colony/cmd/agent").CombinedOutput(); err != nil {
		t.Fatalf("building the agent: %v\n%s", err, out)
	}
	games := 4
	if testing.Short() {
		games = 2
	}
	var moves [2][][]string
	for run := range moves {
		out := filepath.Join(t.TempDir(), fmt.Sprint(run))
		m := MatchCommand{Game: "bacteria-war", Rules: bacteria(t), A: bin + " -seed {seed} -node-clock {nodeclock}",
			B: bin + " -seed {seed} -node-clock {nodeclock} -tm horizon=20,startpm=700", Games: games, Clock: 10 * time.Minute,
			Ready: 10 * time.Second, Parallel: 2, Seed: 77, Openings: 2, Out: out, Grace: time.Second, NodeClock: 200_000}
		var stdout, stderr bytes.Buffer
		if code, err := m.Run(context.Background(), &stdout, &stderr); code != 0 || err != nil {
			t.Fatalf("match: %d %v\n%s", code, err, stderr.String())
		}
		for g := range games {
			r := readRecord(t, filepath.Join(out, fmt.Sprintf("game-%05d.json", g)))
			if len(r.Verdicts) > 0 {
				t.Fatalf("game %d: verdicts %v", g, r.Verdicts)
			}
			var ms []string
			for _, mv := range r.Moves {
				// A node clock of 200,000 nodes a side is a few hundred milliseconds of a
				// whole game; the wall clock's 10 minutes would give a move seconds.
				if mv.Ms > 2000 {
					t.Fatalf("game %d: a move took %.0f ms on a node clock", g, mv.Ms)
				}
				ms = append(ms, fmt.Sprint(mv.Move))
			}
			moves[run] = append(moves[run], ms)
		}
	}
	if !reflect.DeepEqual(moves[0], moves[1]) {
		t.Fatalf("two node-clock matches on one seed differ:\n%v\n%v", moves[0], moves[1])
	}
}
