package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"colony/contract"
	"colony/engine"
	"colony/game/slime"
	"colony/game/slime/bots"
)

// The test binary doubles as a King-of-the-Hill program: run with ARENA_ARGV_BOT set, it
// answers the position in its last argument and exits before any test runs.
func init() {
	mode := os.Getenv("ARENA_ARGV_BOT")
	if mode == "" {
		return
	}
	p, err := slime.Parse(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	switch mode {
	case "greedy":
		fmt.Println(bots.GreedyMove(p))
	case "jumper":
		fmt.Println(bots.JumperMove(p))
	case "simplebot":
		fmt.Println(bots.NewSimplebot(p.Hash()).BestMove(p, engine.Limits{}))
	}
	os.Exit(0)
}

func botCommand(mode string) []string {
	return []string{"env", "ARENA_ARGV_BOT=" + mode, os.Args[0]}
}

// smallRules is Slime on a 4x4 board (short games).
func smallRules(n int) Rules {
	d := slime.Def()
	d.Start = func() slime.Position { return slime.StartSize(n) }
	return contract.NewRules(d)
}

func TestParseControllerLine(t *testing.T) {
	for _, c := range []struct {
		line string
		want [4]int
		ok   bool
	}{
		{"1 2 3 4\n", [4]int{1, 2, 3, 4}, true},
		{"1 2 3 4", [4]int{}, false}, // the stream ends at the fourth number
		{"1 2 3 4x", [4]int{1, 2, 3, 4}, true},
		{" \t+1\v-2 3\r4 \n", [4]int{1, -2, 3, 4}, true},
		{"0 0 0 0\n", [4]int{}, true},
		{"1,2,3,4\n", [4]int{}, false},
		{"1 2 3\n", [4]int{}, false},
		{"", [4]int{}, false},
		{"\n", [4]int{}, false},
		{"- 1 2 3 4\n", [4]int{}, false},
		{"a 1 2 3\n", [4]int{}, false},
		{"2147483648 0 0 0\n", [4]int{}, false},
		{"-2147483648 0 0 0\n", [4]int{-2147483648, 0, 0, 0}, true},
		{"1 2 3 4 5 6\n", [4]int{1, 2, 3, 4}, true},
		{"01 02 03 04 \n", [4]int{1, 2, 3, 4}, true},
	} {
		got, err := ParseControllerLine(c.line)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseControllerLine(%q) = %v, %v; want %v ok %v", c.line, got, err, c.want, c.ok)
		}
	}
}

// TestRunOnce checks the controller's reading of a program's output: the first line, at
// most 127 bytes, without waiting for the program's end.
func TestRunOnce(t *testing.T) {
	long := strings.Repeat(" ", 200) + "1 2 3 4"
	for _, c := range []struct {
		name, script string
		line, why    string
		maxTook      time.Duration
	}{
		{"line", `echo "1 2 3 4"; echo "5 6 7 8"`, "1 2 3 4\n", "", 3 * time.Second},
		{"no newline", `printf "1 2 3 4"`, "1 2 3 4", "", 3 * time.Second},
		{"long line", `printf "%s\n" "` + long + `"`, long[:127], "", 3 * time.Second},
		{"nothing", `exit 3`, "", "no output", 3 * time.Second},
		{"silent sleeper", `sleep 5`, "", "no line after 300ms", 3 * time.Second},
		{"answers then lingers", `echo "1 1 1 1"; sleep 5`, "1 1 1 1\n", "", 3 * time.Second},
		{"background child", `(sleep 5; echo late) & echo "0 0 0 0"`, "0 0 0 0\n", "", 3 * time.Second},
	} {
		limit := 3 * time.Second // generous: the shared machine stalls processes at times
		if c.why == "no line after 300ms" {
			limit = 300 * time.Millisecond
		}
		res := runOnce([]string{"/bin/sh", "-c", c.script}, "1,....,....,....,....", limit, 0)
		if res.line != c.line || res.why != c.why || res.took > c.maxTook {
			t.Errorf("%s: line %q why %q took %v; want %q, %q", c.name, res.line, res.why, res.took, c.line, c.why)
		}
	}
	// The position is the program's one argument ($0 of sh -c).
	res := runOnce([]string{"/bin/sh", "-c", `echo "$0" >&2; echo "$#"`}, "2,1..2,....,....,3..4", time.Second, 0)
	if res.line != "0\n" || !strings.Contains(res.stderr, "2,1..2,....,....,3..4") {
		t.Errorf("argument: line %q stderr %q", res.line, res.stderr)
	}
	if res := runOnce([]string{"/nonexistent/program"}, "x", time.Second, 0); !strings.HasPrefix(res.why, "cannot start") {
		t.Errorf("missing program: %+v", res)
	}
}

// TestPlayArgvMatchesInProcess: four greedy programs play, through processes and the
// controller's parsing, exactly the game that GreedyMove plays in process.
func TestPlayArgvMatchesInProcess(t *testing.T) {
	for _, n := range []int{4, 5} {
		cfg := &ArgvConfig{Rules: smallRules(n), Entries: [][]string{botCommand("greedy"), botCommand("greedy"), botCommand("greedy"), botCommand("jumper")}}
		rec, err := PlayArgv(cfg, 0, []int{0, 1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		p := slime.StartSize(n)
		for i, mv := range rec.Moves {
			var m slime.Move
			if mv.Seat == 3 {
				m = bots.JumperMove(p)
			} else {
				m = bots.GreedyMove(p)
			}
			if got := strings.TrimSpace(mv.Line); got != m.String() {
				t.Fatalf("%dx%d move %d: the program said %q, in process %v", n, n, i, got, m)
			}
			if mv.Pass != (m == slime.Pass) {
				t.Fatalf("%dx%d move %d (%v): pass %v why %q", n, n, i, m, mv.Pass, mv.Why)
			}
			p = p.Apply(m)
		}
		if !p.Terminal() || rec.Final != p.String() {
			t.Fatalf("%dx%d: final %s, in process %s (terminal %v)", n, n, rec.Final, p, p.Terminal())
		}
		s := p.Scores()
		for seat := range 4 {
			if rec.Scores[seat] != float64(s[seat]) {
				t.Errorf("%dx%d: scores %v, in process %v", n, n, rec.Scores, s)
			}
		}
	}
}

// TestRunArgv plays a small tournament with every seat order and checks the summary.
func TestRunArgv(t *testing.T) {
	dir := t.TempDir()
	passer := []string{"/bin/sh", "-c", `echo "0 0 0 0"`}
	garbage := []string{"/bin/sh", "-c", `echo "move please"`}
	cfg := ArgvConfig{
		Rules:   smallRules(4),
		Entries: [][]string{botCommand("greedy"), passer, botCommand("simplebot"), garbage},
		OutDir:  dir, Parallel: 2,
	}
	if testing.Short() {
		cfg.FixedOrder = true
	}
	var calls int
	sum, err := RunArgv(cfg, func(done, total int, r *ArgvRecord) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	wantGames := 24
	if testing.Short() {
		wantGames = 1
	}
	if sum.Games != wantGames || calls != wantGames {
		t.Fatalf("%d games, %d progress calls; want %d", sum.Games, calls, wantGames)
	}
	total := 0.0
	for i, e := range sum.Entries {
		if e.Games != wantGames || e.Moves == 0 || e.MaxMs <= 0 || e.P99Ms > e.MaxMs || e.P50Ms > e.P99Ms {
			t.Errorf("entry %d: %+v", i, e)
		}
		total += e.Score
	}
	if total > 16 || total <= 0 {
		t.Errorf("average scores add up to %v on a 4x4 board", total)
	}
	if e := sum.Entries[1]; e.Passes != e.Moves || e.Invalid != 0 || e.Score > 1 {
		t.Errorf("the passer: %+v", e)
	}
	if e := sum.Entries[3]; e.Passes != e.Moves || e.Invalid != e.Moves {
		t.Errorf("the garbage printer: %+v", e)
	}
	if e := sum.Entries[0]; e.Invalid != 0 || e.Score <= sum.Entries[2].Score {
		t.Errorf("greedy %+v; simplebot %+v", e, sum.Entries[2])
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
	if got, _ := filepath.Glob(filepath.Join(dir, "game-*.json")); len(got) != wantGames {
		t.Errorf("%d game records", len(got))
	}
	if len(Permutations(4)) != 24 || len(Permutations(3)) != 6 {
		t.Error("permutations")
	}
}
