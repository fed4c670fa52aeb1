package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	} {
		fs := flag.NewFlagSet("arena", flag.ContinueOnError)
		fs.SetOutput(&bytes.Buffer{})
		var out, errOut bytes.Buffer
		code, err := run(fs, c.args, &out, &errOut)
		if err == nil || code == 0 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: code %d err %v, want %q", c.args, code, err, c.want)
		}
	}
}

func TestArenaHelpExitsZero(t *testing.T) {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(&bytes.Buffer{})
	if code, _ := run(fs, []string{"-h"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}
