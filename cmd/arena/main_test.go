package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// build compiles the arena and the test agent into a temporary directory.
func build(t *testing.T) (arenaBin, agentBin string) {
	t.Helper()
	dir := t.TempDir()
	arenaBin, agentBin = filepath.Join(dir, "arena"), filepath.Join(dir, "testagent")
	for pkg, out := range map[string]string{"colony/cmd/arena": arenaBin, "colony/cmd/testagent": agentBin} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return arenaBin, agentBin
}

func TestArenaJSON(t *testing.T) {
	arenaBin, agentBin := build(t)
	out := t.TempDir()
	cmd := exec.Command(arenaBin, "-game", "bacteria-war", "-games", "6", "-parallel", "2", "-seed", "5",
		"-openings", "3", "-out", out, "-json",
		"-a", agentBin+" -mode random", "-b", agentBin+" -mode garbage -after 4")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("arena: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var sum map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("last stdout line is not JSON: %v\n%s", err, stdout.String())
	}
	for _, k := range []string{"games", "a_wins", "b_wins", "draws", "a_score", "elo", "elo_err",
		"a_tle", "a_re", "a_crash", "b_tle", "b_re", "b_crash"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q: %v", k, sum)
		}
	}
	num := func(k string) int { v, _ := sum[k].(float64); return int(v) }
	// The openings were judged by Bacteria War's opening search at the default bound.
	if num("opening_max_score") != 113 || !strings.Contains(stderr.String(), "openings drawn again") {
		t.Errorf("opening filter: summary %v\nstderr %s", sum, stderr.String())
	}
	if num("games") != 6 || num("a_wins")+num("b_wins")+num("draws") != 6 || num("a_re")+num("a_tle")+num("a_crash") != 0 {
		t.Errorf("summary %v", sum)
	}
	// B misbehaves from its 5th turn: every game it reaches that far is an RE, and A wins it.
	if num("b_re") == 0 || num("b_re") > num("a_wins") || num("b_tle")+num("b_crash") != 0 {
		t.Errorf("summary %v", sum)
	}
	if !strings.Contains(stdout.String(), "A wins") || !strings.Contains(stderr.String(), "[6/6]") {
		t.Errorf("no summary or progress:\nstdout %s\nstderr %s", stdout.String(), stderr.String())
	}
	recs, _ := filepath.Glob(filepath.Join(out, "game-*.json"))
	if len(recs) != 6 {
		t.Errorf("%d records in %s", len(recs), out)
	}
	// The records are reproducible: the same seed gives the same openings.
	b, err := os.ReadFile(filepath.Join(out, "game-00004.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Opening [][4]int `json:"opening"`
		Seed    uint64   `json:"seed"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || rec.Seed != 5 || len(rec.Opening) != 3 {
		t.Errorf("record: %+v %v", rec, err)
	}
}

func TestArenaFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "petri-dish", "-a", "x", "-b", "y"}, "unknown game"},
		{[]string{"-game", "go", "-a", "x", "-b", "y"}, "unknown game"},
		{[]string{"-a", "x"}, "both -a and -b"},
		{[]string{"-a", "x", "-b", "y", "-games", "0"}, "must be positive"},
		{[]string{"-a", "/nonexistent/agent", "-b", "/nonexistent/agent", "-out", t.TempDir()}, "/nonexistent/agent"},
		{[]string{"-a", "x", "-b", "y", "-sprt", "10,0"}, "elo0 < elo1"},
		{[]string{"-a", "x", "-b", "y", "-ladder", "10s,fast"}, "not a positive duration"},
		{[]string{"-a", "x", "-b", "y", "-ladder", "10s", "-clock-b", "20s"}, "does not go with -ladder"},
		{[]string{"-game", "petri", "-a", "x", "-b", "y", "-sprt", "0,10"}, "does not apply to petri"},
		{[]string{"-a", "x", "-b", "y", "-openings", "2", "-opening-max-score", "-1"}, "want 0 (no filter)"},
		{[]string{"-game", "catch-the-mouse", "-a", "x", "-b", "y", "-openings", "2", "-opening-max-score", "50"}, "no opening search"},
		{[]string{"-game", "slime", "-a", "x", "-b", "y", "-opening-max-score", "50"}, "is for judge-protocol games"},
		{[]string{"-paired", "x"}, "pairs of run directories"},
		{[]string{"-paired", "-games", "4", "x", "y"}, "no flag but -paired"},
		{[]string{"-paired", t.TempDir(), t.TempDir()}, "no game records"},
	} {
		fs := flag.NewFlagSet("arena", flag.ContinueOnError)
		fs.SetOutput(&bytes.Buffer{})
		var out, errOut bytes.Buffer
		code, err := run(context.Background(), fs, c.args, &out, &errOut)
		if err == nil || code == 0 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: code %d err %v, want %q", c.args, code, err, c.want)
		}
	}
}

// TestArenaPaired: -paired reads two runs' records and prints the game-by-game comparison.
func TestArenaPaired(t *testing.T) {
	run1 := func(scores []float64) string {
		dir := t.TempDir()
		for i, s := range scores {
			b, err := json.Marshal(map[string]any{"format": "colony-arena-game", "version": 2, "game": "bacteria-war",
				"index": i, "seed": 5, "start": fmt.Sprintf("opening %d", i/2), "a_first": i%2 == 0, "a_score": s})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("game-%05d.json", i)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	x, y := run1([]float64{1, 1, 0, 1}), run1([]float64{1, 0, 0, 0})
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(&bytes.Buffer{})
	var out bytes.Buffer
	if code, err := run(context.Background(), fs, []string{"-paired", x, y, y, x}, &out, &bytes.Buffer{}); code != 0 || err != nil {
		t.Fatalf("code %d err %v", code, err)
	}
	for _, want := range []string{"8 games in both runs", "X: 4 points, 50.0%", "Y: 4 points, 50.0%", "X better in 2 games, Y better in 2: z +0.00"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestArenaHelpExitsZero(t *testing.T) {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(&bytes.Buffer{})
	if code, _ := run(context.Background(), fs, []string{"-h"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}

// TestArenaSlime: the King-of-the-Hill tournament through the command (-players, every seat
// order, the JSON summary) with four copies of the deterministic greedy program (their own
// fallback, so a stalled process plays the same move): every seat order replays the same
// game, so each entry must be credited the same score in each seat, the game's.
func TestArenaSlime(t *testing.T) {
	arenaBin, _ := build(t)
	agentBin := filepath.Join(t.TempDir(), "agent")
	if b, err := exec.Command("go", "build", "-o", agentBin, "colony/cmd/agent").CombinedOutput(); err != nil {
		t.Fatalf("go build agent: %v\n%s", err, b)
	}
	greedy := agentBin + " -game slime -engine greedy"
	var cmds []string
	for i := range 4 {
		cmds = append(cmds, fmt.Sprintf("%s -seed %d", greedy, i+1))
	}
	out := t.TempDir()
	args := []string{"-game", "slime", "-rounds", "1", "-parallel", "2", "-seed", "3", "-move-limit", "10s",
		"-out", out, "-json", "-players", strings.Join(cmds, ";")}
	games, orders, rounds := 24, 24, 1
	if testing.Short() { // the entries' own order twice (about 240 processes instead of 1,500)
		args = append(args, "-fixed-order", "-rounds", "2")
		games, orders, rounds = 2, 1, 2
	}
	cmd := exec.Command(arenaBin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("arena: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var sum struct {
		Games, Orders, Rounds int
		Entries               []struct {
			Command        string
			Games          int
			Score          float64
			BySeat         []float64 `json:"by_seat"`
			Moves, Invalid int
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("last stdout line is not JSON: %v\n%s", err, stdout.String())
	}
	if sum.Games != games || sum.Orders != orders || sum.Rounds != rounds || len(sum.Entries) != 4 {
		t.Fatalf("summary %+v", sum)
	}
	var game []float64 // the one game's score of each seat
	for i, e := range sum.Entries {
		if testing.Short() {
			game = append(game, e.Score) // entry i always sits in seat i
		} else if i == 0 {
			game = e.BySeat
		}
	}
	cells := 0.0
	for _, v := range game {
		cells += v
	}
	if len(game) != 4 || cells > 64 || cells < 4 || slices.Max(game) == slices.Min(game) {
		t.Fatalf("seat scores %v", game)
	}
	for i, e := range sum.Entries {
		want := slices.Clone(game)
		if testing.Short() {
			want = []float64{0, 0, 0, 0}
			want[i] = game[i]
		}
		if e.Command != cmds[i] || e.Games != games || !slices.Equal(e.BySeat, want) || e.Invalid != 0 ||
			(!testing.Short() && math.Abs(e.Score-cells/4) > 1e-9) {
			t.Errorf("entry %c: %+v; want the seat scores %v", 'A'+i, e, want)
		}
	}
	head := fmt.Sprintf("%d games (%d seat orders x %d rounds)", games, orders, rounds)
	if !strings.Contains(stdout.String(), head) || !strings.Contains(stderr.String(), fmt.Sprintf("[%d/%d]", games, games)) {
		t.Errorf("no summary or progress:\nstdout %s\nstderr %s", stdout.String(), stderr.String())
	}
	recs, _ := filepath.Glob(filepath.Join(out, "*.json"))
	if len(recs) < games {
		t.Errorf("%d records in %s", len(recs), out)
	}
	// Four entries are required, as -a -b -c -d or as a list of four.
	for _, args := range [][]string{
		{"-game", "slime", "-a", greedy, "-b", greedy},
		{"-game", "slime", "-players", greedy + ";" + greedy + ";" + greedy},
		{"-game", "slime", "-players", strings.Join(cmds, ";"), "-a", greedy},
		{"-game", "slime", "-a", greedy, "-b", greedy, "-c", greedy, "-d", greedy, "-games", "4"},
	} {
		fs := flag.NewFlagSet("arena", flag.ContinueOnError)
		fs.SetOutput(&bytes.Buffer{})
		if code, err := run(context.Background(), fs, args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || code != 2 {
			t.Errorf("%q: code %d, err %v", args[2:], code, err)
		}
	}
}

// TestArenaLadderAndSPRT: a time-odds ladder prints a row per B clock, and an SPRT match
// against an agent that loses every game stops early with H1.
func TestArenaLadderAndSPRT(t *testing.T) {
	arenaBin, agentBin := build(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(arenaBin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("arena %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String()
	}
	slow := agentBin + " -mode slow -think 150ms -seed {seed}"
	out := run("-games", "2", "-parallel", "2", "-seed", "3", "-out", t.TempDir(), "-clock", "600ms", "-ladder", "600ms,1m", "-a", slow, "-b", slow)
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "600ms ") || strings.HasPrefix(l, "1m0s ") {
			rows = append(rows, l)
		}
	}
	// A (600 ms, 150 ms a move) runs out of time in both games of the second rung.
	if len(rows) != 2 || !strings.Contains(rows[1], "0-0-2") || !strings.Contains(out, "clocks A 600 ms, B 60000 ms") {
		t.Fatalf("ladder output:\n%s", out)
	}
	out = run("-games", "100", "-parallel", "2", "-seed", "4", "-out", t.TempDir(), "-sprt", "0,40",
		"-a", agentBin+" -mode random -seed {seed}", "-b", agentBin+" -mode illegal")
	if !strings.Contains(out, "H1 accepted") || strings.Contains(out, "100 games") {
		t.Fatalf("sprt output:\n%s", out)
	}
}

// TestArenaInterrupt: SIGINT stops a match after the games being played; their summary is
// printed, and the exit status says the match is not whole (no summary.json).
func TestArenaInterrupt(t *testing.T) {
	arenaBin, agentBin := build(t)
	out := t.TempDir()
	slow := agentBin + " -mode slow -think 5ms"
	cmd := exec.Command(arenaBin, "-game", "bacteria-war", "-games", "400", "-parallel", "2", "-seed", "3",
		"-openings", "2", "-out", out, "-a", slow, "-b", slow)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if n, _ := filepath.Glob(filepath.Join(out, "game-*.json")); len(n) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no two games recorded in 60 s\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("interrupted arena: %v, want exit status 1\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped after") {
		t.Errorf("stderr does not say the match stopped:\n%s", stderr.String())
	}
	recs, _ := filepath.Glob(filepath.Join(out, "game-*.json"))
	if len(recs) >= 400 || !strings.Contains(stdout.String(), fmt.Sprintf("bacteria-war: %d games", len(recs))) {
		t.Errorf("%d records; summary:\n%s", len(recs), stdout.String())
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
		t.Error("summary.json written for a stopped match")
	}
}
