package cpp

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"colony/contract/contracttest"
	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/export"
	"colony/game/mouse"
	"colony/game/mouse/mouseab"
	"colony/internal/golden"
	"colony/registry"
)

// askSearches sends cmds to the program and returns the answers of its go commands (the
// others answer ok).
func askSearches(t *testing.T, proc *parityProc, cmds []string) []string {
	t.Helper()
	var out []string
	for i, a := range proc.ask(t, cmds) {
		if strings.HasPrefix(cmds[i], "go ") {
			out = append(out, a)
		} else if a != "ok" {
			t.Fatalf("%q answered %q", cmds[i], a)
		}
	}
	return out
}

// mousePositions are n positions of deterministic playouts from the start, none over: each
// plays a random number of plies, alphabeta's moves at depth 1 but for half the mice's, which
// are random (a random team loses at once); a playout stops before a mouse reaches row 6.
func mousePositions(n int, seed uint64) []mouse.Position {
	rng := rand.New(rand.NewPCG(seed, 0x6d6f757365))
	g := mouseab.NewWithOptions(mouseab.Options{Options: ab.Options{Seed: seed, HashMB: 1}, SolveMB: -1})
	var buf [mouse.MaxMoves]mouse.Move
	ps := make([]mouse.Position, 0, n)
	for range n {
		g.NewGame()
		p := mouse.Start()
		for range rng.IntN(80) {
			m := g.BestMove(p, engine.Limits{Depth: 1})
			if p.ToMove() == mouse.Mice && rng.IntN(2) == 0 {
				moves := p.LegalMoves(buf[:0])
				m = moves[rng.IntN(len(moves))]
			}
			c := p.Apply(m)
			if rows := c.MouseRows(); c.Terminal() || slices.Contains(rows[:], mouse.Rows-2) {
				break // over, or won next move: nothing to search
			}
			p = c
		}
		ps = append(ps, p)
	}
	return ps
}

// compareLines reports the lines of got that differ from want, with what was asked.
func compareLines(t *testing.T, what string, asked, got, want []string) {
	t.Helper()
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			if bad < 5 {
				t.Errorf("%s %q: C++ %q, Go %q", what, asked[i], got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d differ", what, bad, len(want))
	}
}

// TestMouseCPPParity: the C++ Catch The Mouse agent (templates/mouse.cpp filled by the exporter)
// is the Go engine: perft on the rules' 30-position file, the hash, both evaluation profiles
// and the clock's estimates on 10,000 positions of random playouts, the clock budget, and on
// positions of mousePositions the best move, score, depth and node count of fixed-depth searches on 200 positions (the
// agent's seed), and whole stretches of games searched on a node budget with the prover in
// front, the table and the move-ordering statistics carried from move to move.
func TestMouseCPPParity(t *testing.T) {
	bin := cppProgram(t, mouse.Info.Name)
	proc := startParity(t, bin)

	t.Run("export", func(t *testing.T) {
		a, info, err := Generate(Options{Game: mouse.Info.Name})
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := Generate(Options{Game: mouse.Info.Name, Engine: "alphabeta"})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !bytes.Equal(a, b):
			t.Error("two exports differ")
		case info.Size != len(a) || len(a) > 1500*1000:
			t.Errorf("size %d (info %d), want at most 1.5 MB", len(a), info.Size)
		case bytes.Contains(a, []byte("@@")):
			t.Error("a marker is left in the file")
		}
		if _, _, err := Generate(Options{Game: mouse.Info.Name, Engine: "mcts"}); err == nil {
			t.Error("mcts, which has no C++ port, was exported")
		}
		for name, set := range map[string]func(c *ab.Config[mouse.Move]){
			"a staged search, whose Legal hook the port lacks,":   func(c *ab.Config[mouse.Move]) { c.Staged = true },
			"reverse futility, whose Static hook the port lacks,": func(c *ab.Config[mouse.Move]) { c.RFPDepth = 2 },
			"futility pruning, whose Static hook the port lacks,": func(c *ab.Config[mouse.Move]) { c.FPDepth = 2 },
		} {
			c := ab.WithDefaults(mouseab.SearchConfig())
			set(&c)
			if mouseSearchPorted(c) == nil {
				t.Errorf("%s passed the check", name)
			}
		}
	})

	t.Run("ready", func(t *testing.T) {
		ready, err := export.CheckReady(bin, 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("READY answered OK %v after start", ready)
	})

	t.Run("perft", func(t *testing.T) {
		cases := contracttest.ReadPerft(t, "../../game/mouse/testdata/catch-the-mouse-perft.txt", 30)
		maxD := 4
		if testing.Short() {
			maxD = 3
		}
		var cmds, want []string
		for _, c := range cases {
			p, err := mouse.ParseBoard(c.Board)
			if err != nil {
				t.Fatal(err)
			}
			for d := 1; d <= min(maxD, len(c.Counts)); d++ {
				if got := mouse.Perft(p, d); got != c.Counts[d-1] {
					t.Fatalf("Go perft(%d) of %s = %d, the file says %d", d, c.Board, got, c.Counts[d-1])
				}
				cmds = append(cmds, fmt.Sprintf("perft %d %s", d, c.Board))
				want = append(want, fmt.Sprint(c.Counts[d-1]))
			}
		}
		start := mouse.Start()
		for d := 1; d <= maxD+1; d++ {
			cmds = append(cmds, fmt.Sprintf("perft %d %s", d, start))
			want = append(want, fmt.Sprint(mouse.Perft(start, d)))
		}
		compareLines(t, "perft", cmds, proc.ask(t, cmds), want)
	})

	t.Run("eval", func(t *testing.T) {
		legal := func(p mouse.Position, b []mouse.Move) []mouse.Move { return p.LegalMoves(b) }
		ps := golden.Positions(10000, 24, mouse.Start(), 90, legal, mouse.Position.Apply, mouse.Position.Terminal)
		cmds, want := make([]string, len(ps)), make([]string, len(ps))
		for i, p := range ps {
			cmds[i] = "eval " + p.String()
			want[i] = fmt.Sprintf("%d %d %d %d %d", p.Hash(), mouseab.Evaluate(&p, true), mouseab.Evaluate(&p, false),
				p.MouseStepsLeft(), p.MovesLeft())
		}
		compareLines(t, "eval", cmds, proc.ask(t, cmds), want)
	})

	t.Run("budget", func(t *testing.T) {
		e := mouseab.New()
		var cmds, want []string
		for _, p := range mousePositions(200, 25) {
			for _, ms := range []int64{10000, 6543, 2000, 500, 120, 60, 9, 1} {
				b := e.Budget(&p, engine.Limits{MyTime: time.Duration(ms) * time.Millisecond})
				cmds = append(cmds, fmt.Sprintf("budget %d %s", ms, p))
				want = append(want, fmt.Sprintf("%d %d %d", b.Soft(), b.Hard, b.Depth))
			}
		}
		compareLines(t, "budget", cmds, proc.ask(t, cmds), want)
	})

	t.Run("search", func(t *testing.T) {
		depth := 6
		if testing.Short() {
			depth = 4
		}
		// One engine searches them all in turn, as in one game: the history and the table
		// carry over (the first difference is the one to look at).
		e := mouseab.NewWithOptions(mouseab.Options{Options: ab.Options{Seed: agentSeed}})
		cmds := []string{fmt.Sprint("seed ", agentSeed), "newgame"}
		var asked, want []string
		for _, p := range mousePositions(200, 26) {
			m := e.BestMove(p, engine.Limits{Depth: depth})
			d, v, n := e.Stats()
			cmds = append(cmds, fmt.Sprintf("go 0 %d %s", depth, p))
			asked = append(asked, p.String())
			want = append(want, fmt.Sprintf("%d %d %d %d", m, d, v, n))
		}
		compareLines(t, "search", asked, askSearches(t, proc, cmds), want)
	})

	t.Run("games", func(t *testing.T) {
		// From positions where the prover works (50 mouse steps left or fewer), both sides
		// played by one engine on a node budget: the prover's wins and vetoes, the search
		// stopped mid-iteration, the table's ageing and the history carried over.
		games, nodes, plies := 40, int64(20000), 12
		if testing.Short() {
			games, nodes, plies = 30, 5000, 8
		}
		e := mouseab.NewWithOptions(mouseab.Options{Options: ab.Options{Seed: agentSeed}})
		cmds := []string{fmt.Sprint("seed ", agentSeed)}
		var asked, want []string
		for _, p := range mousePositions(games, 27) {
			e.NewGame()
			cmds = append(cmds, "newgame")
			for range plies {
				if p.Terminal() {
					break
				}
				m := e.BestMove(p, engine.Limits{Nodes: nodes})
				d, v, n := e.Stats()
				cmds = append(cmds, fmt.Sprintf("go %d 0 %s", nodes, p))
				asked = append(asked, p.String())
				want = append(want, fmt.Sprintf("%d %d %d %d", m, d, v, n))
				p = p.Apply(m)
			}
		}
		compareLines(t, "games", asked, askSearches(t, proc, cmds), want)
	})

	t.Run("protocol", func(t *testing.T) {
		// Judge sessions, odd input included, answered by the C++ program and by the agent's
		// own path (registry Serve of alphabeta with the agent's defaults and seed). The
		// clocks are short enough that every move is the depth-1 search of a move in time
		// trouble, before the prover's range: the same move on both sides, whatever the load.
		g, err := registry.Lookup(mouse.Info.Name)
		if err != nil {
			t.Fatal(err)
		}
		o := g.Defaults()
		o.Seed = agentSeed
		goServe := func(script string) string {
			var out bytes.Buffer
			if err := g.Serve("judge", "alphabeta", o, strings.NewReader(script), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			return out.String()
		}
		for i, script := range mouseSessions() {
			cmd := exec.Command(bin)
			cmd.Stdin = strings.NewReader(script)
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("session %d: %v", i, err)
			}
			// Go builds its engine in the background and answers with greedy while it is not
			// there (an eighth of the clock): on a stalled machine, once more.
			want := goServe(script)
			if string(got) != want {
				want = goServe(script)
			}
			if string(got) != want {
				t.Errorf("session %d:\n%s\nC++ answered:\n%s\nGo answered:\n%s", i, script, got, want)
			}
		}
	})
}

// mouseSessions are judge sessions for the protocol parity: both seats, a READY without a seat,
// lower case, legal, forced and unplayable OPP moves, malformed lines, an over-long line, the
// POSITION extension, a finished game and several games in one process.
func mouseSessions() []string {
	won := "RRRRRRRRRR./.........../.........../.........../.........../...CCNCC.../..........R R" // a mouse on row 7
	mid := "RRR.RRRR.RR/...R......./.........../........R../.......C.../...C.N..C../........... N"
	return []string{
		"READY FIRST\nTURN 60 60\nOPP 6 6 5 6 12\nTURN 59 59\nOPP 6 4 3 4 7\nTURN 58 58\nOPP 1 1 1 2 3\n" +
			"TURN 57 57\nOPP 5 6 2 2 3\nTURN 56 56\nFINISH\n",
		"READY SECOND\nOPP 1 6 2 6 40\nTURN 60 60\nOPP 2 6 3 6 40\nTURN 59 59\nOPP 1 1 2 1 3\nTURN 58 58\n" +
			"OPP -1 -1 -1 -1 0\nTURN 57 57\nFINISH\n",
		"ready\nhello world\n\nopp 1 3 2 3 5\nturn 60 60\nOPP 1 4 2 4\nTURN 55\nOPP a b c d 1\nTURN 54 x\n" +
			strings.Repeat("x", 5000) + "\nTURN 53 53\nOPP 9 9 9 9 9\nTURN 52 52\nFINISH extra\nTURN 50 50\n",
		"READY FIRST\nOPP 6 6 5 6 1\nTURN 60 60\nTURN 59 59\nREADY SECOND\nOPP 1 1 2 1 1\nTURN 60 60\n" +
			"READY FIRST\nPOSITION " + won + "\nTURN 60 60\nREADY SECOND\nposition " + mid + "\nTURN 60 60\n" +
			"OPP 1 1 2 1 2\nTURN 59 59\nPOSITION nonsense\nTURN 58 58\n",
	}
}
