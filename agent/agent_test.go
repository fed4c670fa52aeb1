package agent

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/contract"
	"colony/engine/alphabeta"
	"colony/game/ataxx"
	"colony/game/ataxx/ataxxtest"
	"colony/judge"
	"colony/nn"
	"colony/registry"
)

// runAgent runs the program in-process.
func runAgent(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb strings.Builder
	code = Main(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPerftFlagStart(t *testing.T) {
	want := []string{"1", "16", "256", "6460", "155888"}
	for d, w := range want {
		code, out, errOut := runAgent("", "-game", "bacteria-war", "-perft", strconv.Itoa(d))
		if code != 0 || out != w+"\n" {
			t.Errorf("perft %d: exit %d, output %q, want %q (stderr %q)", d, code, out, w, errOut)
		}
	}
}

func TestPerftFlagBoards(t *testing.T) {
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ";")
		if len(fields) != 5 {
			t.Fatalf("bad testdata line %q", sc.Text())
		}
		maxDepth := 4
		if testing.Short() {
			maxDepth = 3
		}
		for d := 1; d <= maxDepth; d++ {
			code, out, errOut := runAgent("", "-game", "bacteria-war", "-perft", strconv.Itoa(d), "-board", fields[0])
			if code != 0 || out != fields[d]+"\n" {
				t.Errorf("%s perft %d: exit %d, output %q, want %s (stderr %q)", fields[0], d, code, out, fields[d], errOut)
			}
		}
		n++
	}
	if err := sc.Err(); err != nil || n == 0 {
		t.Fatalf("read %d boards: %v", n, err)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.model")
	if err := os.WriteFile(garbage, []byte("not a model at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.model")
	otherGame := filepath.Join(dir, "other-game.model")
	info := ataxx.Info
	info.Name = "some-other-game"
	if err := nn.NewRandom(nn.ArchFor(info, 1, 4), 1).Save(otherGame); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"-game", "chess"}, "unknown game"},
		{[]string{"-game", "bacteria-war", "-engine", "nonesuch"}, "unknown engine"},
		{[]string{"-game", "bacteria-war", "-protocol", "xboard"}, "unknown protocol"},
		{[]string{"-game", "bacteria-war", "-perft", "2", "-board", "OOO X"}, "-board"},
		{[]string{"-game", "bacteria-war", "-board", "......./......./......./......./......./......./....... O"}, "only goes with -perft"},
		{[]string{"-nonesuch"}, "flag provided but not defined"},
		{[]string{"-engine", "mcts", "-endgame", "-1"}, "-endgame"},
		{[]string{"-engine", "mcts", "-value-blend", "2"}, "-value-blend"},
		{[]string{"-game", "catch-the-mouse", "-engine", "mcts", "-prove", "1.5"}, "-prove"},
		{[]string{"-game", "catch-the-mouse", "-engine", "alphabeta", "-prove", "0.3"}, "does not use -prove"},
		{[]string{"-game", "bacteria-war", "-engine", "mcts", "-prove", "0.3"}, "does not use -prove"},
		{[]string{"-game", "bacteria-war", "stray"}, "unexpected arguments"},
		// The model traps: the agent refuses at start, naming the file, never falling back.
		{[]string{"-engine", "mcts", "-model", garbage}, "garbage.model"},
		{[]string{"-engine", "mcts", "-model", missing}, "missing.model"},
		{[]string{"-engine", "mcts", "-model", otherGame}, "some-other-game"},
		// The default engine (nnab) refuses a convnet model, naming the file and the tags.
		{[]string{"-model", otherGame}, "other-game.model"},
		{[]string{"-model", otherGame}, `not a "nnue-2p"`},
		// A flag the engine does not read is an error, not ignored.
		{[]string{"-engine", "alphabeta", "-model", garbage}, "does not use -model"},
		{[]string{"-engine", "greedy", "-cpuct", "2"}, "does not use -cpuct"},
		{[]string{"-engine", "mcts", "-hash", "16"}, "does not use -hash"},
		// Time rules and node clocks: a bad rule names itself, a node clock is a judge's.
		{[]string{"-tm", "nosuch=3"}, "nosuch=3"},
		{[]string{"-tm", "reservediv=0"}, "ReserveDiv"},
		{[]string{"-engine", "mcts", "-tm", "horizon=20"}, "does not use -tm"},
		{[]string{"-node-clock", "-5"}, "-node-clock"},
	} {
		code, out, errOut := runAgent("READY FIRST\n", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.wantErr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.wantErr)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	code, _, errOut := runAgent("", "-h")
	if code != 0 || !strings.Contains(errOut, "-engine") {
		t.Fatalf("-h: exit %d, stderr %q", code, errOut)
	}
}

func TestEnginesListed(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runAgent("", "-engines")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, e := range g.Engines() {
		if !strings.Contains(out, e.Name) {
			t.Errorf("-engines does not list %s: %q", e.Name, out)
		}
	}
	for _, want := range []string{"alphabeta", "greedy", "mcts", "mcts-rollout", "random"} {
		if !strings.Contains(out, want) {
			t.Errorf("-engines does not list %s", want)
		}
	}
}

// TestMCTSEndgameHandoff: with -endgame 49 the mcts agent hands even the first move to
// alphabeta, and still answers the judge with a legal move.
func TestMCTSEndgameHandoff(t *testing.T) {
	code, out, errOut := runAgent("READY FIRST\nTURN 300 300\nFINISH\n", "-engine", "mcts", "-endgame", "49")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) != 3 || lines[0] != "OK" {
		t.Fatalf("exit %d, output %q, stderr %q", code, out, errOut)
	}
	if _, err := judge.ParseMove(lines[1]); err != nil {
		t.Error(err)
	}
}

func TestRunJudgeEveryEngine(t *testing.T) {
	g, err := registry.Lookup("bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range g.Engines() {
		if e.Name == "uai" {
			continue // an external program: TestUAIBinary plays it
		}
		code, out, errOut := runAgent("READY FIRST\nTURN 300 300\nFINISH\n", "-game", "bacteria-war", "-engine", e.Name)
		lines := strings.Split(out, "\n")
		if code != 0 || len(lines) != 3 || lines[0] != "OK" || lines[2] != "" {
			t.Fatalf("%s: exit %d, output %q, stderr %q", e.Name, code, out, errOut)
		}
		c, err := judge.ParseMove(lines[1])
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if _, err := ataxx.Start().JudgeMove(c[0], c[1], c[2], c[3]); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
}

// TestUAIBinary builds the agent and plays a few UAI exchanges with it through pipes.
func TestUAIBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	bin := filepath.Join(t.TempDir(), "agent")
	if out, err := exec.Command(goTool, "build", "-o", bin, "colony/cmd/agent").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range []string{"random", "greedy", "alphabeta", "mcts", "mcts-rollout"} {
		t.Run(name, func(t *testing.T) {
			send, readUntil, quit := startUAI(t, bin, "-game", "bacteria-war", "-engine", name, "-protocol", "uai")
			send("uai")
			if l := readUntil("id name"); !strings.Contains(l, "Colony") {
				t.Errorf("id line %q", l)
			}
			readUntil("uaiok")
			send("isready")
			readUntil("readyok")
			send("uainewgame")
			send("position startpos moves b6 a2 g1e3")
			send("go movetime 100")
			start := time.Now()
			best := readUntil("bestmove ")
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("go movetime 100 took %v", el)
			}
			pos := ataxxtest.DiagramPos(t, afterB6A2G1E3, ataxx.X, 3)
			if _, err := pos.ParseUAIMove(strings.TrimPrefix(best, "bestmove ")); err != nil {
				t.Errorf("%q: %v", best, err)
			}
			quit()
		})
	}
	// A GUI's session with the README's command, `agent -protocol uai` (the default engine,
	// nnab on the embedded net): the handshake, then a game from the start in which every move
	// is asked for as a GUI asks, the whole move list and both clocks each time, and each answer
	// must be legal where the GUI's own board stands; quit ends the program.
	t.Run("gui-session", func(t *testing.T) {
		send, until, quit := startUAI(t, bin, "-protocol", "uai")
		send("uai")
		if l := until("id name"); !strings.Contains(l, "nnab") {
			t.Errorf("the default engine's id line %q", l)
		}
		until("uaiok")
		send("isready")
		until("readyok")
		send("uainewgame")
		pos := ataxx.Start()
		var moves []string
		clocks := [2]int{10000, 10000}
		for ply := 0; ply < 16 && !pos.Terminal(); ply++ {
			position := "position startpos"
			if len(moves) > 0 {
				position += " moves " + strings.Join(moves, " ")
			}
			send(position)
			send(fmt.Sprintf("go wtime %d btime %d", clocks[0], clocks[1]))
			start := time.Now()
			best := strings.TrimPrefix(until("bestmove "), "bestmove ")
			clocks[ply%2] -= int(time.Since(start).Milliseconds())
			if clocks[ply%2] <= 0 {
				t.Fatalf("ply %d: the agent overstepped its 10 s clock", ply)
			}
			m, err := pos.ParseUAIMove(best)
			if err != nil {
				t.Fatalf("ply %d after %v: bestmove %q: %v", ply, moves, best, err)
			}
			pos = pos.Apply(m)
			moves = append(moves, best)
		}
		quit()
	})
	// The same binary as an external engine behind the judge protocol (-engine uai), as the
	// second player: the judge's OPP move reaches the external engine through the FEN, and its
	// answer is legal in the judge's position and is its own (no fallback on the log).
	t.Run("behind-the-judge", func(t *testing.T) {
		pos := ataxx.Start()
		first := pos.LegalMoves(nil)[3]
		r1, c1, r2, c2 := pos.JudgeCoords(first)
		pos = pos.Apply(first)
		in := fmt.Sprintf("READY SECOND\nOPP %d %d %d %d 120\nTURN 3000 2880\nFINISH\n", r1, c1, r2, c2)
		code, out, errOut := runAgent(in, "-engine", "uai", "-uai-cmd", bin+" -engine greedy -protocol uai", "-uai-go", "movetime 50")
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || len(lines) != 2 || lines[0] != "OK" || strings.Contains(errOut, "agent: engine") {
			t.Fatalf("exit %d, output %q, stderr %q", code, out, errOut)
		}
		c, err := judge.ParseMove(lines[1])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pos.JudgeMove(c[0], c[1], c[2], c[3]); err != nil {
			t.Fatalf("%q after %v: %v", lines[1], first, err)
		}
	})
	if code, _, errOut := runAgent("", "-engine", "uai"); code != 2 || !strings.Contains(errOut, "-uai-cmd") {
		t.Errorf("-engine uai without -uai-cmd: exit %d, stderr %q; want 2 naming -uai-cmd", code, errOut)
	}
}

// startUAI starts the agent bin with args (a UAI session): send writes a line, until reads
// lines until one starts with prefix (within 10 s), and quit sends quit, closes the input and
// checks that the program exits cleanly. The program is killed when the test ends.
func startUAI(t *testing.T, bin string, args ...string) (send func(string), until func(prefix string) string, quit func()) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdoutPipe)
		for sc.Scan() {
			lines <- strings.TrimSpace(sc.Text())
		}
		close(lines)
	}()
	send = func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	until = func(prefix string) string {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the agent closed its output waiting for %q (stderr %q)", prefix, stderr.String())
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-deadline:
				t.Fatalf("no %q within 10 s", prefix)
			}
		}
	}
	quit = func() {
		t.Helper()
		send("quit")
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("exit after quit: %v (stderr %q)", err, stderr.String())
		}
	}
	return send, until, quit
}

// afterB6A2G1E3 is the start after x divides to b6, o divides to a2 and x leaps g1-e3.
const afterB6A2G1E3 = `
	O . . . . . X
	. O . . . . .
	. . . . . . .
	. . . . . . .
	. . . . O . .
	X . . . . . .
	X . . . . . .`

// TestCatchTheMouse: the second ALPHANO game through the same agent: perft from the start
// and from a board, and a judge game start for each side and engine.
func TestCatchTheMouse(t *testing.T) {
	for d, want := range []string{"1", "11", "595", "6433", "381796"} {
		code, out, errOut := runAgent("", "-game", "catch-the-mouse", "-perft", strconv.Itoa(d))
		if code != 0 || out != want+"\n" {
			t.Errorf("perft %d: exit %d, output %q, want %s (stderr %q)", d, code, out, want, errOut)
		}
	}
	board := "R.RRR.RR..R/CR...R...../......C.RR./.........../.....C...../...C.N...../........... N"
	code, out, errOut := runAgent("", "-game", "catch-the-mouse", "-perft", "3", "-board", board)
	if code != 0 || out != "36517\n" {
		t.Errorf("perft 3 of %s: exit %d, output %q (stderr %q)", board, code, out, errOut)
	}
	g, err := registry.Lookup("catch-the-mouse")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"greedy", "alphabeta", "random"} {
		for _, seat := range []string{"FIRST", "SECOND"} {
			input := "READY " + seat + "\nTURN 500 500\nFINISH\n"
			if seat == "SECOND" {
				input = "READY SECOND\nOPP 1 1 2 1 5\nTURN 500 500\nFINISH\n"
			}
			code, out, errOut := runAgent(input, "-game", "catch-the-mouse", "-engine", e)
			lines := strings.Split(out, "\n")
			if code != 0 || len(lines) != 3 || lines[0] != "OK" {
				t.Fatalf("%s as %s: exit %d, output %q, stderr %q", e, seat, code, out, errOut)
			}
			c, err := judge.ParseMove(lines[1])
			if err != nil {
				t.Fatal(err)
			}
			st := g.Rules().Start()
			if seat == "SECOND" {
				if st, err = st.Play(contract.Coords{1, 1, 2, 1}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.Play(c); err != nil {
				t.Errorf("%s as %s played %v: %v", e, seat, c, err)
			}
		}
	}
}

// TestExperimentsKnownToAgentAndEngine: the agent's -exp names every search experiment of the
// engine's table, nnab plays with each of them (so each is known to the engine the flag is
// for), and a name outside the table stops the agent at start, listing the known ones.
func TestExperimentsKnownToAgentAndEngine(t *testing.T) {
	_, _, help := runAgent("", "-h")
	_, expHelp, ok := strings.Cut(help, "-exp string")
	if !ok {
		t.Fatalf("-h does not document -exp: %q", help)
	}
	expHelp, _, _ = strings.Cut(expHelp, "\n  -")
	names := alphabeta.Experiments()
	if len(names) == 0 {
		t.Fatal("the engine knows no experiment")
	}
	for _, name := range names {
		if !strings.Contains(expHelp, name+": ") {
			t.Errorf("-exp does not name the engine's experiment %s: %q", name, expHelp)
		}
		code, out, errOut := runAgent("READY FIRST\nTURN 300 300\nFINISH\n", "-engine", "nnab", "-exp", name)
		if lines := strings.Split(out, "\n"); code != 0 || len(lines) != 3 || lines[0] != "OK" {
			t.Errorf("-exp %s: exit %d, output %q, stderr %q", name, code, out, errOut)
		}
	}
	code, _, errOut := runAgent("READY FIRST\n", "-engine", "nnab", "-exp", "nonesuch")
	if code != 2 || !strings.Contains(errOut, "nonesuch") || !strings.Contains(errOut, strings.Join(names, ", ")) {
		t.Errorf("-exp nonesuch: exit %d, stderr %q; want 2 and the known names", code, errOut)
	}
}

// TestEngineFlagsDefined: every flag that an engine of a registered game reads is an agent
// flag, documented by -h.
func TestEngineFlagsDefined(t *testing.T) {
	_, _, help := runAgent("", "-h")
	flags := engineFlags()
	if len(flags) < 5 {
		t.Fatalf("the engines read %d flags", len(flags))
	}
	for f := range flags {
		if !strings.Contains(help, "  -"+f+" ") {
			t.Errorf("an engine reads -%s, which the agent does not define", f)
		}
	}
}

// TestBenchFlag: agent -bench prints the C++ export's --bench lines (a search line per
// position and the total that make speed reads); a game without a benchmark is an error.
func TestBenchFlag(t *testing.T) {
	code, out, errOut := runAgent("", "-game", "bacteria-war", "-bench")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	total := regexp.MustCompile(`(?m)^total\s+nodes (\d+)\s+\d+ nodes/s\s+(\d+) nodes/cpu-s`).FindStringSubmatch(out)
	if total == nil || !strings.Contains(out, "start    depth 10") || !strings.Contains(out, "midgame  depth  8") {
		t.Fatalf("output %q", out)
	}
	if n, _ := strconv.Atoi(total[1]); n < 1000 {
		t.Errorf("%d nodes", n)
	}
	if code, _, errOut := runAgent("", "-game", "slime", "-bench"); code == 0 || !strings.Contains(errOut, "no benchmark") {
		t.Errorf("slime -bench: exit %d, stderr %q", code, errOut)
	}
}
