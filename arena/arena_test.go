package arena

import (
	"colony/contract"
	"colony/game/ataxx"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testagent is the path of cmd/testagent, built once by TestMain.
var testagent string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "arena-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testagent = filepath.Join(dir, "testagent")
	out, err := exec.Command("go", "build", "-o", testagent, "colony/cmd/testagent").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building testagent: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func bacteria(t *testing.T) Rules {
	t.Helper()
	return contract.NewRules(ataxx.Def())
}

func agent(args ...string) []string { return append([]string{testagent}, args...) }

func readRecord(t *testing.T, path string) *Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r.Format != RecordFormat || r.Version != RecordVersion {
		t.Fatalf("%s: format %q version %d", path, r.Format, r.Version)
	}
	return &r
}

// checkRecord replays a record from the start position through its opening and moves and
// checks the final position, the clocks and the result.
func checkRecord(t *testing.T, rules Rules, r *Record) {
	t.Helper()
	st := rules.Start()
	for _, c := range r.Opening {
		next, err := st.Play(c)
		if err != nil {
			t.Fatalf("game %d: opening move %v: %v", r.Index, c, err)
		}
		st = next
	}
	if st.String() != r.Start {
		t.Fatalf("game %d: opening leads to %q, record says %q", r.Index, st, r.Start)
	}
	clock := [2]int64{r.ClockMs, r.ClockMs}
	if r.BClockMs != 0 { // time odds: B's seat starts with its own clock
		clock[map[bool]int{true: 1, false: 0}[r.AFirst]] = r.BClockMs
	}
	for i, m := range r.Moves {
		mover := st.ToMove()
		wantPlayer := "a"
		if (mover == 0) != r.AFirst {
			wantPlayer = "b"
		}
		if m.Player != wantPlayer {
			t.Fatalf("game %d move %d: player %s, want %s", r.Index, i, m.Player, wantPlayer)
		}
		next, err := st.Play(m.Move)
		if err != nil {
			t.Fatalf("game %d move %d %v: %v", r.Index, i, m.Move, err)
		}
		st = next
		if m.Ms < 0 || m.ClockMs[mover] > clock[mover] || m.ClockMs[1-mover] != clock[1-mover] {
			t.Fatalf("game %d move %d: %v ms, clocks %v after %v", r.Index, i, m.Ms, m.ClockMs, clock)
		}
		clock = m.ClockMs
	}
	if st.String() != r.Final {
		t.Fatalf("game %d: moves lead to %q, record says %q", r.Index, st, r.Final)
	}
	if len(r.Verdicts) == 0 {
		if !st.Terminal() {
			t.Fatalf("game %d ended without a verdict in a live position %s", r.Index, st)
		}
		want := "draw"
		if w := st.Winner(); w >= 0 {
			want = "a"
			if (w == 0) != r.AFirst {
				want = "b"
			}
		}
		if r.Winner != want {
			t.Fatalf("game %d: winner %q, want %q (%s)", r.Index, r.Winner, want, r.Outcome)
		}
	}
	if want := map[string]float64{"a": 1, "b": 0, "draw": 0.5}[r.Winner]; r.AScore != want {
		t.Fatalf("game %d: a_score %v for winner %q", r.Index, r.AScore, r.Winner)
	}
}

func TestRandomVsRandom(t *testing.T) {
	rules := bacteria(t)
	dir := t.TempDir()
	cfg := Config{Rules: rules, A: agent("-mode", "random", "-seed", "1"), B: agent("-mode", "random", "-seed", "2"),
		Games: 6, Parallel: 2, Openings: 5, Seed: 42, OutDir: dir, Mem: Limits{RSS: 1 << 30}}
	var calls []int
	sum, err := Run(context.Background(), cfg, func(done int, r *Record, s *Summary) {
		calls = append(calls, done)
		if s.Games != done || s.AWins+s.BWins+s.Draws != done {
			t.Errorf("progress %d: summary %+v", done, s)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(calls, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("progress calls %v", calls)
	}
	if sum.Games != 6 || sum.AWins+sum.BWins+sum.Draws != 6 {
		t.Fatalf("summary %+v", sum)
	}
	if n := sum.ATLE + sum.ARE + sum.ACrash + sum.BTLE + sum.BRE + sum.BCrash; n != 0 {
		t.Fatalf("random agents got %d verdicts: %+v", n, sum)
	}
	if want := (float64(sum.AWins) + float64(sum.Draws)/2) / 6; sum.AScore != want {
		t.Errorf("a_score %v, want %v", sum.AScore, want)
	}
	var wins [3]int
	var byRole [2][3]int
	for i := range 6 {
		r := readRecord(t, filepath.Join(dir, fmt.Sprintf("game-%05d.json", i)))
		if r.Index != i || r.OpeningIndex != i/2 || r.AFirst != (i%2 == 0) || len(r.Opening) != 5 || r.Seed != 42 {
			t.Fatalf("record %d: index %d opening %d a_first %v opening %v seed %d", i, r.Index, r.OpeningIndex, r.AFirst, r.Opening, r.Seed)
		}
		checkRecord(t, rules, r)
		if r.Exit["a"] != "exit 0" || r.Exit["b"] != "exit 0" {
			t.Errorf("game %d: agents did not exit cleanly after FINISH: %v", i, r.Exit)
		}
		if r.PeakRSSMB["a"] <= 0 || r.PeakRSSMB["a"] > 1024 {
			t.Errorf("game %d: peak RSS %v", i, r.PeakRSSMB)
		}
		w := map[string]int{"a": 0, "draw": 1, "b": 2}[r.Winner]
		wins[w]++
		byRole[map[bool]int{true: 0, false: 1}[r.AFirst]][w]++
	}
	if wins != [3]int{sum.AWins, sum.Draws, sum.BWins} {
		t.Errorf("records count %v, summary %+v", wins, sum)
	}
	for i, role := range sum.ByRole {
		if role.Role != [2]string{"O", "X"}[i] || role.Games != 3 || byRole[i] != [3]int{role.AWins, role.Draws, role.BWins} {
			t.Errorf("A as %s: records %v, summary %+v", role.Role, byRole[i], role)
		}
	}
	var s2 Summary
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s2); err != nil || s2 != *sum {
		t.Errorf("summary.json %+v (%v), want %+v", s2, err, *sum)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestOpenings(t *testing.T) {
	rules := bacteria(t)
	a, b := Openings(rules, 8, 6, 7), Openings(rules, 8, 6, 7)
	c := Openings(rules, 8, 6, 8)
	same := 0
	for i := range a {
		if !reflect.DeepEqual(a[i].Opening, b[i].Opening) || a[i].Start.String() != b[i].Start.String() {
			t.Fatalf("game %d: same seed, different openings", i)
		}
		if i%2 == 1 && (!reflect.DeepEqual(a[i].Opening, a[i-1].Opening) || a[i].AFirst == a[i-1].AFirst) {
			t.Fatalf("games %d and %d should share an opening with colours swapped", i-1, i)
		}
		if reflect.DeepEqual(a[i].Opening, c[i].Opening) {
			same++
		}
		if len(a[i].Opening) != 6 || a[i].Start.Terminal() || a[i].Start.ToMove() != 0 {
			t.Fatalf("game %d: opening %v, start %s", i, a[i].Opening, a[i].Start)
		}
	}
	if same == len(a) {
		t.Error("different seeds gave the same openings")
	}
	if a[0].Opening[0] == a[2].Opening[0] && a[0].Opening[1] == a[2].Opening[1] && a[0].Opening[2] == a[2].Opening[2] {
		t.Error("openings 0 and 1 start alike: are they drawn from different streams?")
	}
	if o := Openings(rules, 3, 0, 1); len(o[2].Opening) != 0 || o[2].Start.String() != rules.Start().String() || !o[2].AFirst {
		t.Errorf("no openings: %+v", o[2])
	}
}

// TestFilteredOpenings: an opening the filter refuses is drawn again from its own generator,
// so every opening the filter takes at the first draw is the unfiltered one, each refused one
// is replaced by one the filter takes, the redraws are counted, and the draw is a function of
// the seed and the filter. A filter that takes nothing is an error, and no filter or no
// opening plies ask nothing.
func TestFilteredOpenings(t *testing.T) {
	rules := bacteria(t)
	// The filter takes the openings whose top two rows are as at the start (no piece moved
	// from or into them) and refuses the rest.
	asked := 0
	noJump := func(st State) bool {
		asked++
		return strings.HasPrefix(st.String(), "O.....X/.......")
	}
	plain := Openings(rules, 40, 2, 11)
	got, redrawn, err := FilteredOpenings(rules, 40, 2, 11, noJump)
	if err != nil {
		t.Fatal(err)
	}
	again, redrawn2, _ := FilteredOpenings(rules, 40, 2, 11, noJump)
	changed := 0
	for i := range got {
		if !noJump(got[i].Start) {
			t.Fatalf("game %d: the filter refuses its opening %s", i, got[i].Start)
		}
		if got[i].Start.String() != again[i].Start.String() {
			t.Fatalf("game %d: the same seed and filter drew %s and %s", i, got[i].Start, again[i].Start)
		}
		if noJump(plain[i].Start) != (got[i].Start.String() == plain[i].Start.String()) {
			t.Fatalf("game %d: unfiltered %s, filtered %s", i, plain[i].Start, got[i].Start)
		}
		if i%2 == 0 && got[i].Start.String() != plain[i].Start.String() {
			changed++
		}
		if i%2 == 1 && got[i].Start.String() != got[i-1].Start.String() {
			t.Fatalf("games %d and %d do not share their opening", i-1, i)
		}
	}
	if changed == 0 || redrawn < changed || redrawn != redrawn2 {
		t.Errorf("%d openings changed, %d redraws counted (%d the second time)", changed, redrawn, redrawn2)
	}
	if _, _, err := FilteredOpenings(rules, 2, 2, 11, func(State) bool { return false }); err == nil {
		t.Error("a filter that refuses every opening: no error")
	}
	asked = 0
	if _, n, err := FilteredOpenings(rules, 4, 0, 11, noJump); err != nil || n != 0 || asked != 0 {
		t.Errorf("no opening plies: %d redraws, %d openings judged, %v", n, asked, err)
	}
}

func TestExpand(t *testing.T) {
	got := expand([]string{"bin/agent", "-seed", "{seed}", "-log", "g{game}.txt"}, 9, 12, "a")
	want := []string{"bin/agent", "-seed", fmt.Sprint(AgentSeed(9, 12, "a")), "-log", "g12.txt"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("expand = %q, want %q", got, want)
	}
	seen := map[uint64]bool{}
	for i := range 50 {
		for _, p := range []string{"a", "b"} {
			s := AgentSeed(9, i, p)
			if s == 0 || int64(s) < 0 || seen[s] {
				t.Fatalf("AgentSeed(9, %d, %s) = %d: zero, negative or repeated", i, p, s)
			}
			seen[s] = true
		}
	}
	if AgentSeed(9, 3, "a") == AgentSeed(10, 3, "a") {
		t.Error("the match seed does not change the agent seeds")
	}
}

// TestVerdicts plays two games (one per colour) of a random agent A against a misbehaving
// agent B: B must get the verdict in both and A win both, the referee going on to the next
// game.
func TestVerdicts(t *testing.T) {
	rules := bacteria(t)
	for _, c := range []struct {
		name   string
		args   []string
		kind   string
		detail string
		cfg    func(*Config)
	}{
		{"garbage", []string{"-mode", "garbage"}, RE, "malformed", nil},
		{"illegal", []string{"-mode", "illegal"}, RE, "illegal move", nil},
		{"illegal mid-game", []string{"-mode", "illegal", "-after", "5"}, RE, "illegal move", nil},
		{"pass with moves", []string{"-mode", "pass"}, RE, "pass is illegal", nil},
		{"crash", []string{"-mode", "crash", "-after", "2"}, Crash, "stdout closed", nil},
		{"sleep", []string{"-mode", "sleep", "-after", "3"}, TLE, "left on the clock", func(c *Config) { c.Clock = time.Second }},
		{"slow", []string{"-mode", "slow", "-think", "150ms"}, TLE, "left on the clock", func(c *Config) { c.Clock = 400 * time.Millisecond }},
		{"no OK", []string{"-mode", "silent"}, TLE, "OK within", func(c *Config) { c.ReadyLimit = 300 * time.Millisecond }},
		{"hog", []string{"-mode", "hog", "-hog", "400"}, Crash, "resident memory", func(c *Config) { c.Mem.RSS = 100 << 20 }},
		{"hog address space", []string{"-mode", "hog", "-hog", "1536"}, Crash, "out of memory", func(c *Config) { c.Mem = Limits{AS: 1 << 30} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name == "hog address space" {
				t.Skip("touches several hundred MB")
			}
			t.Parallel()
			dir := t.TempDir()
			cfg := Config{Rules: rules, A: agent("-mode", "random", "-seed", "1"), B: agent(append(c.args, "-seed", "2")...), Games: 2, OutDir: dir,
				Mem: Limits{RSS: 1 << 30}}
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			start := time.Now()
			sum, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Games != 2 || sum.AWins != 2 {
				t.Fatalf("summary %+v", sum)
			}
			n := map[string]int{TLE: sum.BTLE, RE: sum.BRE, Crash: sum.BCrash}[c.kind]
			if n != 2 || sum.ATLE+sum.ARE+sum.ACrash != 0 || sum.BTLE+sum.BRE+sum.BCrash != 2 {
				t.Fatalf("want 2 %s verdicts for B only: %+v", c.kind, sum)
			}
			if c.cfg != nil && (c.kind == TLE) {
				// The clock is enforced: each game ends within its limits and a little.
				limit := 2*(cfg.Defaults2().Clock+cfg.Defaults2().ReadyLimit) + 2*time.Second
				if el := time.Since(start); el > limit {
					t.Errorf("took %v, limit %v", el, limit)
				}
			}
			for i := range 2 {
				r := readRecord(t, filepath.Join(dir, fmt.Sprintf("game-%05d.json", i)))
				checkRecord(t, rules, r)
				if len(r.Verdicts) != 1 || len(r.Moves) < 2*minMoves(c.args) || r.Verdicts[0].Player != "b" || r.Verdicts[0].Kind != c.kind ||
					!strings.Contains(r.Verdicts[0].Detail, c.detail) || r.Winner != "a" {
					t.Fatalf("game %d: verdicts %+v winner %q", i, r.Verdicts, r.Winner)
				}
				if r.Exit["a"] != "exit 0" {
					t.Errorf("game %d: A exit %q", i, r.Exit["a"])
				}
				if c.kind == TLE && r.Exit["b"] != "killed by the referee" {
					t.Errorf("game %d: B exit %q", i, r.Exit["b"])
				}
				if c.kind == RE && r.Verdicts[0].Line == "" {
					t.Errorf("game %d: RE without the offending line", i)
				}
			}
		})
	}
}

// minMoves is B's number of good moves before it misbehaves (its -after flag).
func minMoves(args []string) int {
	for i, a := range args {
		if a == "-after" {
			var n int
			fmt.Sscan(args[i+1], &n)
			return n
		}
	}
	return 0
}

// Defaults2 returns a copy of c with the defaults filled in.
func (c Config) Defaults2() Config { c.Defaults(); return c }

// TestProcessGroupKilled checks that a TLE kills the agent's children too.
func TestProcessGroupKilled(t *testing.T) {
	rules := bacteria(t)
	cfg := Config{Rules: rules, A: agent("-mode", "random"), B: agent("-mode", "spawn"), Games: 1,
		Clock: 300 * time.Millisecond}
	cfg.Defaults()
	rec, err := Play(&cfg, Openings(rules, 1, 0, 1)[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Verdicts) != 1 || rec.Verdicts[0].Kind != TLE {
		t.Fatalf("verdicts %+v", rec.Verdicts)
	}
	var pid int
	if _, err := fmt.Sscanf(rec.Stderr["b"], "child %d", &pid); err != nil || pid <= 0 {
		t.Fatalf("no child pid in stderr %q: %v", rec.Stderr["b"], err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("child %d of the timed-out agent still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestUnstartableAgent(t *testing.T) {
	for _, as := range []uint64{0, 1 << 30} {
		cfg := Config{Rules: bacteria(t), A: agent("-mode", "random"), B: []string{"/nonexistent/agent"}, Games: 4,
			Parallel: 2, Mem: Limits{AS: as}}
		if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "/nonexistent/agent") {
			t.Fatalf("AS %d: err = %v", as, err)
		}
	}
}

// TestGoAgentHoldsMemoryUnderCap: a Go agent with a 400 MB live heap plays normally under the
// 1024 MB resident cap (under RLIMIT_AS = 1024 MB it could not: see Limits.AS).
func TestGoAgentHoldsMemoryUnderCap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 400 MB")
	}
	rules := bacteria(t)
	cfg := Config{Rules: rules, A: agent("-mode", "random"), B: agent("-mode", "hog", "-hog", "400", "-after", "1"),
		Mem: Limits{RSS: 1 << 30}}
	cfg.Defaults()
	rec, err := Play(&cfg, Openings(rules, 1, 0, 1)[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Verdicts) != 0 || rec.PeakRSSMB["b"] < 400 || rec.PeakRSSMB["b"] > 1024 {
		t.Fatalf("verdicts %+v, peak RSS %v", rec.Verdicts, rec.PeakRSSMB)
	}
}

// TestRunStopsWhenCancelled: once the context ends no new game starts; the games played
// count, and Run says it was stopped (no summary.json: the match is not whole).
func TestRunStopsWhenCancelled(t *testing.T) {
	rules := bacteria(t)
	dir := t.TempDir()
	cfg := Config{Rules: rules, A: agent("-mode", "random", "-seed", "1"), B: agent("-mode", "random", "-seed", "2"),
		Games: 40, Parallel: 1, Openings: 2, Seed: 7, OutDir: dir, Mem: Limits{RSS: 1 << 30}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := Run(ctx, cfg, func(done int, r *Record, s *Summary) {
		if done == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after") {
		t.Fatalf("err %v, want a stop on the cancelled context", err)
	}
	if sum == nil || sum.Games < 2 || sum.Games > 4 {
		t.Fatalf("summary %+v: want the 2 games before the cancel and at most the ones then started", sum)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err == nil {
		t.Fatal("summary.json written for a stopped match")
	}
	// A context that has ended before the match starts plays nothing.
	sum, err = Run(ctx, cfg, nil)
	if !errors.Is(err, context.Canceled) || sum.Games != 0 {
		t.Fatalf("an ended context: %d games, err %v", sum.Games, err)
	}
}
