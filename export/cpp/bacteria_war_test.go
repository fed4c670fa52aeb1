package cpp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"colony/agent"
	"colony/engine"
	ab "colony/engine/alphabeta"
	"colony/export"
	"colony/export/exporttest"
	"colony/game/ataxx"
	"colony/game/ataxx/abrules"
	"colony/game/ataxx/nnab"
	"colony/nn/nnue"
)

// Parity of the C++ export of Bacteria War with the Go engine: the program is built once per
// test binary and asked, in its --parity command mode, for perft counts, net evaluations and
// fixed-depth searches, which must equal the Go side's exactly (the searches: best move, score,
// depth and node count, so that any change of the tree on one side alone fails).

// ataxxCPP is the exported Bacteria War program (cppProgram).
func ataxxCPP(t testing.TB) string { return cppProgram(t, ataxx.Info.Name) }

// posArgs is a position in the command mode's spelling.
func posArgs(p ataxx.Position) string {
	return fmt.Sprintf("%d %d %d %d", p.Pieces(ataxx.O), p.Pieces(ataxx.X), p.ToMove(), p.Turns())
}

// TestCPPPerft: the C++ perft counts equal the 40 positions of the game's perft file (depths
// 1-4; 1-3 in short mode) and Go's Perft on 60 positions of random games (depths 1-3; 1-2).
func TestCPPPerft(t *testing.T) {
	proc := startParity(t, ataxxCPP(t))
	data, err := os.ReadFile("../../game/ataxx/testdata/bacteria-war-perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	maxDepth := 4
	if testing.Short() {
		maxDepth = 3
	}
	var cmds, want, names []string
	add := func(p ataxx.Position, d int, count string) {
		cmds = append(cmds, fmt.Sprintf("perft %s %d", posArgs(p), d))
		want = append(want, count)
		names = append(names, fmt.Sprintf("%s depth %d", p, d))
	}
	files := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, ";")
		p, err := ataxx.ParseBoard(f[0])
		if err != nil {
			t.Fatal(err)
		}
		for d := 1; d < len(f) && d <= maxDepth; d++ {
			add(p, d, f[d])
		}
		files++
	}
	for _, p := range searchPositions(100 - files) {
		for d := 1; d < maxDepth; d++ {
			add(p, d, strconv.FormatUint(ataxx.Perft(p, d), 10))
		}
	}
	for i, got := range proc.ask(t, cmds) {
		if got != want[i] {
			t.Errorf("perft %s: C++ %s, Go %s", names[i], got, want[i])
		}
	}
}

// randomGame plays uniformly random moves from the start to the end of the game (at most
// plies moves).
func randomGame(rng *rand.Rand, plies int) []ataxx.Move {
	p := ataxx.Start()
	var line []ataxx.Move
	buf := make([]ataxx.Move, 0, ataxx.MaxMoves)
	for len(line) < plies && !p.Terminal() {
		buf = p.LegalMoves(buf)
		m := buf[rng.IntN(len(buf))]
		line = append(line, m)
		p = p.Apply(m)
	}
	return line
}

// windowModel and cellModel are a window-input (nnue.WindowInput) and a cell-input net.
const (
	windowModel = "../../models/bacteria-war/nnue-candidates/w64-g7.nnue"
	cellModel   = "../../models/bacteria-war/nnue/000007.nnue"
)

type parityNet struct{ name, model string }

// parityNets are the nets of the evaluation and search parity tests: the newest embedded one
// (what ships) and a net of the other input kind, so that both kinds are always checked
// whichever kind ships.
func parityNets(t *testing.T) []parityNet {
	t.Helper()
	other := parityNet{"windows", windowModel}
	if testNet(t, "").Arch().Input == nnue.WindowInput {
		other = parityNet{"cells", cellModel}
	}
	if testNet(t, other.model).Arch().Input == testNet(t, "").Arch().Input {
		t.Fatalf("%s has the embedded net's input kind", other.model)
	}
	return []parityNet{{"embedded", ""}, other}
}

// testNet is the Go net of model ("": the newest embedded one).
func testNet(t *testing.T, model string) *nnue.Net {
	t.Helper()
	net, _, err := nnab.LoadNet(model)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// TestCPPEvaluation: the net's score of 10,000 positions of random games, kept incrementally
// along each game by the C++ program and from scratch by Go, are equal; so are the C++
// program's own scores from scratch of every tenth. Every C++ kernel is checked: AVX2 (where
// the CPU has it), SSE2 (--portable) and plain C++ (--scalar), with each of parityNets.
func TestCPPEvaluation(t *testing.T) {
	for _, pn := range parityNets(t) {
		t.Run(pn.name, func(t *testing.T) {
			bin := cppProgramWith(t, ataxx.Info.Name, pn.model)
			compareKernels(t, bin, testNet(t, pn.model), 1, 10000, "")
		})
	}
}

// compareKernels runs evalCommands(net, seed, total) through bin in every kernel.
func compareKernels(t *testing.T, bin string, net *nnue.Net, seed uint64, total int, name string) {
	t.Helper()
	lines, want, scratch, scratchWant := evalCommands(net, seed, total)
	for _, flags := range [][]string{nil, {"--portable"}, {"--scalar"}} {
		proc := startParity(t, bin, flags...)
		name := strings.TrimSpace(fmt.Sprintf("%s %v", name, flags))
		compareAnswers(t, proc, name, lines, want)
		compareAnswers(t, proc, name, scratch, scratchWant)
	}
}

// evalCommands are the evaluation test's commands and Go's answers: seeded random games of
// total positions, each as one "line" command (the C++ side updates its accumulator along
// the game), and every tenth position alone as an "eval" command (from scratch).
func evalCommands(net *nnue.Net, seed uint64, total int) (lines, want, scratch, scratchWant []string) {
	acc := net.NewAcc()
	rng := rand.New(rand.NewPCG(24, seed))
	n := 0
	for n < total {
		line := randomGame(rng, total-n)
		p := ataxx.Start()
		var b strings.Builder
		b.WriteString("line " + posArgs(p))
		var w []string
		for _, m := range line {
			fmt.Fprintf(&b, " %d", m)
			p = p.Apply(m)
			net.Refresh(acc, nnab.Pieces(&p))
			w = append(w, strconv.Itoa(int(net.Evaluate(acc, p.ToMove(), net.Arch().Bucket(nnab.Pieces(&p))))))
			if n++; n%10 == 0 {
				scratch = append(scratch, "eval "+posArgs(p))
				scratchWant = append(scratchWant, w[len(w)-1])
			}
		}
		lines = append(lines, b.String())
		want = append(want, strings.Join(w, " "))
	}
	return lines, want, scratch, scratchWant
}

// compareAnswers asks proc the commands and reports every answer that is not Go's (name: what
// was asked).
func compareAnswers(t *testing.T, proc *parityProc, name string, cmds, want []string) {
	t.Helper()
	bad := 0
	for i, got := range proc.ask(t, cmds) {
		if got != want[i] {
			if bad++; bad <= 3 {
				t.Errorf("%s: %.80s...: C++\n%s\nGo\n%s", name, cmds[i], got, want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d answers differ", name, bad, len(cmds))
	}
}

// TestCPPEvaluationShapes: exports of random nets of other shapes than the shipped ones
// evaluate positions as Go does, in every kernel, and search as Go does (best move, score,
// depth and node count). Short mode: one program, the candidates' shape (window input, 128
// lanes, SCReLU, 8 output buckets; the shipped nets cover one output), 300 positions and 4
// searches; long mode adds the same net with one output, cell-input nets of 128 lanes (CReLU
// and SCReLU, both perspectives or the side to move's only, one with 4 buckets) and 256-lane
// window SCReLU nets (the side to move's perspective only with 8 buckets, and both), 2,000
// positions and 20 searches each.
func TestCPPEvaluationShapes(t *testing.T) {
	screlu := func(a nnue.Arch) nnue.Arch { a.Activation = nnue.SCReLU; return a }
	bk := func(a nnue.Arch, b int) nnue.Arch { a.Buckets = b; return a }
	shapes := []nnue.Arch{bk(screlu(nnab.WindowArch(128, 0)), 8)}
	evals, searches := 300, 4
	if !testing.Short() {
		stm := func(a nnue.Arch) nnue.Arch { a.STMOnly = true; return a }
		shapes = append(shapes, screlu(nnab.WindowArch(128, 0)), nnab.Arch(128, 0), screlu(nnab.Arch(128, 0)),
			bk(stm(nnab.Arch(128, 0)), 4), stm(screlu(nnab.Arch(128, 0))), bk(stm(screlu(nnab.WindowArch(256, 0))), 8),
			screlu(nnab.WindowArch(256, 0)))
		evals, searches = 2000, 20
	}
	for _, a := range shapes {
		name := fmt.Sprintf("%s-%d-%s-p%d-b%d", a.Input, a.Hidden, a.Activation, a.Perspectives(), a.OutputBuckets())
		t.Run(name, func(t *testing.T) {
			m := nnue.NewRandom(a, 31)
			file := filepath.Join(t.TempDir(), "net.nnue")
			if err := m.Save(file); err != nil {
				t.Fatal(err)
			}
			bin := cppProgramOf(t, "shape "+name, Options{Game: ataxx.Info.Name, Model: file})
			net, err := nnue.Quantize(m, 0)
			if err != nil {
				t.Fatal(err)
			}
			compareKernels(t, bin, net, 3, evals, name)
			compareSearches(t, startParity(t, bin), net, searchPositions(searches), searchVariant{name: "default", depth: 5}, nil)
		})
	}
}

// TestCPPEvaluationSTMOnly: the export of a random window-input SCReLU net whose output reads
// the side to move's accumulator only (nnue.Arch.STMOnly; its weights scaled so that both
// the SIMD and the scalar output kernels see large sums) evaluates 1,000 positions as Go
// does, in every kernel.
func TestCPPEvaluationSTMOnly(t *testing.T) {
	a := nnab.WindowArch(128, 0)
	a.Activation, a.STMOnly = nnue.SCReLU, true
	m := nnue.NewRandom(a, 37)
	for i := range m.Weights.OutW {
		m.Weights.OutW[i] *= 20
	}
	compareExport(t, m, 5, 1000)
}

// compareExport exports m (saved and given with -model), builds it and runs compareKernels
// with Go's quantized m.
func compareExport(t *testing.T, m *nnue.Model, seed uint64, total int) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "net.nnue")
	if err := m.Save(file); err != nil {
		t.Fatal(err)
	}
	bin := cppProgramOf(t, "export "+m.Arch.String(), Options{Game: ataxx.Info.Name, Model: file})
	net, err := nnue.Quantize(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	compareKernels(t, bin, net, seed, total, m.Arch.String())
}

// searchPositions are the search tests' positions: n positions at random plies of random
// games, each with at least two moves.
func searchPositions(n int) []ataxx.Position {
	rng := rand.New(rand.NewPCG(24, 2))
	var out []ataxx.Position
	for len(out) < n {
		line := randomGame(rng, rng.IntN(100))
		p := ataxx.Start()
		for _, m := range line {
			p = p.Apply(m)
		}
		if !p.Terminal() && p.CountMoves() >= 2 {
			out = append(out, p)
		}
	}
	return out
}

// searchVariant is one engine setting of the search parity test.
type searchVariant struct {
	name           string
	noPrune, noLMR bool
	depth          int
	nodes          int64
	nodeClock      int64 // a node clock: each search is planned by the time manager on it
	keepBetween    bool  // no NewGame between positions (the table and history carry over)
}

// TestCPPSearch: nnab's fixed-depth searches of 200 positions (depth 5; 6 in long mode) and,
// on 60 of them in short mode, searches in other settings (one sequence without new games
// between positions, no pruning, no late-move reductions, a node budget) give the same best
// move, score, depth and node count in Go and in C++; with each of parityNets, and with the
// embedded net under knobsConfig (an export of its own). The "nodeclock" settings plan each
// search on a node clock, so that the time manager's decisions after each iteration (its
// node share, stability and score drop under knobsConfig) decide the node counts compared.
func TestCPPSearch(t *testing.T) {
	for _, pn := range parityNets(t) {
		t.Run(pn.name, func(t *testing.T) {
			proc := startParity(t, cppProgramWith(t, ataxx.Info.Name, pn.model))
			searchVariants(t, proc, testNet(t, pn.model), nil)
		})
	}
	t.Run("knobs", func(t *testing.T) {
		c := knobsConfig()
		proc := startParity(t, cppProgramOf(t, "knobs", Options{Game: ataxx.Info.Name, config: c}))
		searchVariants(t, proc, testNet(t, ""), &c)
	})
}

// knobsConfig is nnab's search configuration with the knobs of engine/alphabeta that its
// default leaves off turned on (every scaling of the time manager) and some it turns on set
// otherwise (singular extensions from depth 4 at 3 a ply, aspiration from depth 4, so that the
// fixed-depth searches fail high and low, the depth*depth history bonus, another history
// divisor), so that the C++ port of every knob is checked whatever nnab's tuning leaves on.
func knobsConfig() ab.Config[ataxx.Move] {
	c := nnab.SearchConfig()
	c.SEDepth, c.SEMargin = 4, 3
	c.Time = knobsTime
	c.AspDepth = 4
	c.HistMult, c.HistMax, c.HistDiv = 0, 0, 16
	return c
}

// knobsTime are time rules with every scaling of the time manager on.
var knobsTime = func() engine.TimeParams {
	p := engine.DefaultTime
	p.Horizon, p.ShareDepth, p.ShareBase, p.ShareMult = 25, 3, 150, 120
	p.StableDepth, p.StableMax, p.StableStep, p.StableMin = 4, 1300, 100, 700
	p.DropDepth, p.DropPm, p.DropMax = 3, 10, 800
	return p
}()

// searchVariants runs TestCPPSearch's settings with net on proc, an export of nnab's search
// configuration or of cfg (nil: nnab's).
func searchVariants(t *testing.T, proc *parityProc, net *nnue.Net, cfg *ab.Config[ataxx.Move]) {
	positions := searchPositions(200)
	depth, others, deep := 6, positions, len(positions)
	if testing.Short() {
		depth, others, deep = 5, positions[:60], 40 // the other settings on fewer positions
	}
	variants := []searchVariant{
		{name: "default", depth: depth},
		{name: "sequence", depth: 4, keepBetween: true},
		{name: "noprune", noPrune: true, depth: 4},
		{name: "nolmr", noLMR: true, depth: 4},
		{name: "nodes", nodes: 3000},
		{name: "deep", depth: 8}, // iterations from nnab's aspiration depth on (7)
		{name: "nodeclock", nodeClock: 1_500_000, keepBetween: true},
	}
	for i, v := range variants {
		ps := positions
		switch {
		case v.name == "deep":
			ps = positions[:deep]
		case i > 0:
			ps = others
		}
		t.Run(v.name, func(t *testing.T) { compareSearches(t, proc, net, ps, v, cfg) })
	}
}

func compareSearches(t *testing.T, proc *parityProc, net *nnue.Net, positions []ataxx.Position, v searchVariant, cfg *ab.Config[ataxx.Move]) {
	const hashMB = 4
	o := nnab.Options{Options: ab.Options{HashMB: hashMB, Seed: agentSeed, NoPrune: v.noPrune, NoLMR: v.noLMR}, Net: net}
	e, err := nnab.New(o)
	if cfg != nil {
		e, err = nnab.NewWithConfig(o, *cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	b2i := map[bool]int{false: 0, true: 1}
	cmds := []string{fmt.Sprintf("engine %d %d %d %d", hashMB, agentSeed, b2i[v.noPrune], b2i[v.noLMR])}
	var want []string
	for _, p := range positions {
		if !v.keepBetween {
			cmds = append(cmds, "newgame")
			e.NewGame()
		}
		cmds = append(cmds, fmt.Sprintf("search %s %d %d %d", posArgs(p), v.depth, v.nodes, v.nodeClock))
		m := e.BestMove(p, engine.Limits{Depth: v.depth, Nodes: v.nodes, NodeClock: v.nodeClock})
		d, score, nodes := e.Stats()
		want = append(want, fmt.Sprintf("%d %d %d %d", m, score, d, nodes))
	}
	var got []string
	for _, a := range proc.ask(t, cmds) {
		if a != "ok" {
			got = append(got, a)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d answers, want %d", len(got), len(want))
	}
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			if bad++; bad <= 5 {
				t.Errorf("%s (%s): C++ move score depth nodes %s, Go %s", positions[i], v.name, got[i], want[i])
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d searches differ", bad, len(want))
	}
}

// TestCPPClock: the C++ agent plans a move on the judge's clock as nnab does (alphabeta's
// Budget on a fresh time manager with nnab's rules, over the turn cap's reserve and
// abrules.ExpectedMoves) on 200 positions and clocks from 1 ms to 10 minutes, with and without
// an increment.
func TestCPPClock(t *testing.T) {
	proc := startParity(t, ataxxCPP(t))
	cfg := ab.WithDefaults(nnab.SearchConfig())
	var cmds, want []string
	for _, p := range searchPositions(200) {
		for _, ms := range []int64{1, 3, 5, 20, 100, 1000, 10000, 600000} {
			for _, inc := range []int64{0, 100} {
				cmds = append(cmds, fmt.Sprintf("budget %s %d %d", posArgs(p), ms, inc))
				lim := engine.Limits{MyTime: time.Duration(ms) * time.Millisecond, MyInc: time.Duration(inc) * time.Millisecond}
				tm := engine.TimeManager{P: cfg.Time}
				b := ab.PlanMove(&tm, lim, 0, 0, p.OwnTurnsLeft(), abrules.ExpectedMoves(&p))
				want = append(want, fmt.Sprintf("%d %d %d %d", b.Soft(), b.Hard, b.Depth, b.Nodes))
			}
		}
	}
	compareAnswers(t, proc, "budget", cmds, want)
}

// TestCPPTimeManager: the C++ time manager (templates/common.cpp's TimeManager) decides as
// engine.TimeManager does, driven through the same scripts: rules drawn at random around
// nnab's (every scaling on or off), games of plans on wall and node clocks, each followed by
// iterations with drawn elapsed ticks, best moves, scores and node shares. The answers are the
// plan (optimum, maximum, quick) and each iteration's decision and scale.
func TestCPPTimeManager(t *testing.T) {
	proc := startParity(t, ataxxCPP(t))
	rng := rand.New(rand.NewPCG(77, 1))
	base := ab.WithDefaults(nnab.SearchConfig()).Time
	var cmds, want []string
	for script := range 60 {
		p := base
		if script > 0 {
			p = knobsTime
			p.Horizon = rng.Int64N(40)
			p.OptPm, p.MaxPm, p.StartPm = 500+rng.Int64N(1500), 1000+rng.Int64N(4000), 200+rng.Int64N(800)
			p.ShareDepth, p.StableDepth, p.DropDepth = rng.Int64N(8), rng.Int64N(8), rng.Int64N(8)
			p.StableStep, p.DropPm = rng.Int64N(200), rng.Int64N(30)
		}
		spec := p.String()
		cmds, want = append(cmds, "tm "+spec), append(want, "ok")
		tm := engine.TimeManager{P: p}
		for move := range 30 {
			perMs := int64(time.Millisecond)
			if script%2 == 1 {
				perMs = p.NodesPerMs
			}
			left := rng.Int64N(10_000) * perMs
			if move%7 == 6 {
				left = rng.Int64N(1000) * perMs / 100
			}
			inc := [2]int64{0, 100 * perMs}[rng.IntN(2)]
			own, exp := rng.IntN(200), rng.IntN(50)
			o, m := tm.Start(engine.Clock{Left: left, Inc: inc, PerMs: perMs}, own, exp)
			b2i := map[bool]int{false: 0, true: 1}
			cmds = append(cmds, fmt.Sprintf("tmstart %d %d %d %d %d", left, inc, perMs, own, exp))
			want = append(want, fmt.Sprintf("%d %d %d", o, m, b2i[tm.Quick]))
			var elapsed, nodes int64
			best := uint32(rng.IntN(5))
			score := int32(rng.IntN(600) - 300)
			for d := 1; d <= 1+rng.IntN(14); d++ {
				elapsed += rng.Int64N(max(o/4, 1)) + 1
				nodes += rng.Int64N(1 << 20)
				if rng.IntN(3) == 0 {
					best = uint32(rng.IntN(5))
				}
				score += int32(rng.IntN(81) - 40)
				bestNodes := rng.Int64N(nodes + 1)
				stop := tm.Iteration(d, elapsed, best, score, bestNodes, nodes)
				cmds = append(cmds, fmt.Sprintf("tmiter %d %d %d %d %d %d", d, elapsed, best, score, bestNodes, nodes))
				want = append(want, fmt.Sprintf("%d %d", b2i[stop], tm.Factor()))
			}
			if move == 20 {
				tm.Reset()
				cmds, want = append(cmds, "tmreset"), append(want, "ok")
			}
		}
	}
	compareAnswers(t, proc, "time manager", cmds, want)
	if a := proc.ask(t, []string{"tm nosuch=1", "tm optpm=x", "tm reservediv=0"}); a[0] != "error" || a[1] != "error" || a[2] != "error" {
		t.Errorf("bad rules answered %q, want errors", a)
	}
}

// TestCPPExportDeterministic: two exports are byte-identical and the file stays within the
// judge's 1.5 MB, with the shipped net and with a random 128-lane window SCReLU net of two
// perspectives (the feature weights go in Rice-coded in base64: as decimal text that net's
// file was 2.1 MB; TestCPPExportTableFits has a 256-lane net of trained weights).
func TestCPPExportDeterministic(t *testing.T) {
	wide := nnab.WindowArch(128, 0)
	wide.Activation = nnue.SCReLU
	file := filepath.Join(t.TempDir(), "wide.nnue")
	if err := nnue.NewRandom(wide, 41).Save(file); err != nil {
		t.Fatal(err)
	}
	if w, info, err := Generate(Options{Game: ataxx.Info.Name, Model: file}); err != nil {
		t.Fatal(err)
	} else if len(w) > 1500*1000 || info.Size != len(w) {
		t.Errorf("the 128-lane export: size %d (info %d), want at most 1.5 MB", len(w), info.Size)
	}
	a, info, err := Generate(Options{Game: ataxx.Info.Name})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Generate(Options{Game: ataxx.Info.Name, Engine: "nnab"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two exports differ")
	}
	if info.Size != len(a) || len(a) > 1500*1000 {
		t.Errorf("size %d (info %d), want at most 1.5 MB", len(a), info.Size)
	}
	if bytes.Contains(a, []byte("@@")) {
		t.Error("a marker is left in the file")
	}
	if _, _, err := Generate(Options{Game: ataxx.Info.Name, Engine: "mcts"}); err == nil {
		t.Error("an engine without a C++ port was exported")
	}
	if _, _, err := Generate(Options{Game: "no-such-game"}); err == nil {
		t.Error("a game without a C++ port was exported")
	}
}

// TestFillMarkers: markers are replaced whole; a marker without text and text without a
// marker are errors.
func TestFillMarkers(t *testing.T) {
	out, err := fillMarkers([]byte("a\n  // @@X@@\nb {{c}}\n"), map[string]string{"X": "int x;\n"})
	if err != nil || string(out) != "a\nint x;\nb {{c}}\n" {
		t.Fatalf("%q, %v", out, err)
	}
	if _, err := fillMarkers([]byte("// @@X@@\n"), map[string]string{}); err == nil {
		t.Error("a marker without text was accepted")
	}
	if _, err := fillMarkers([]byte("a\n"), map[string]string{"X": ""}); err == nil {
		t.Error("text without a marker was accepted")
	}
}

// TestCPPAgentPlays: the exported C++ agent answers READY within 3000 ms and plays 2 games at
// 2 s against the agent binary's nnab (the same engine and net) without a TLE, RE or crash.
func TestCPPAgentPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agent and the arena and plays a match")
	}
	bin := ataxxCPP(t)
	ready, err := export.CheckReady(bin, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("READY answered OK %v after start", ready)
	tools := exporttest.BuildTools(t, "../..")
	exporttest.PlayClean(t, tools, "cpp", bin, filepath.Join(tools, "agent")+" -engine nnab -seed {seed}")
}

// sessionStep is one line sent to the agent: how it changes the tracked position and, for a
// TURN, the check of the answer (then answer is true).
type sessionStep struct {
	line   string
	answer bool
	next   func(p ataxx.Position, answer string) (ataxx.Position, error)
}

// withSide is p with player pl to move (judge.Session.setToMove).
func withSide(p ataxx.Position, pl int) ataxx.Position {
	return ataxx.NewPosition(p.Pieces(ataxx.O), p.Pieces(ataxx.X), pl, p.Turns())
}

// TestCPPJudgeSession: the C++ agent speaks the judge protocol as colony/judge's session does:
// a lower-case READY names its seat, blank, unknown and over-long lines are skipped, OPP moves
// are applied legally, by force, or as a pass, POSITION sets the position, every TURN (a zero
// clock included) gets a legal move of the tracked position, FINISH ends the program.
func TestCPPJudgeSession(t *testing.T) {
	const me = ataxx.X // READY SECOND
	same := func(p ataxx.Position, _ string) (ataxx.Position, error) { return p, nil }
	skip := func(line string) sessionStep { return sessionStep{line: line, next: same} }
	turn := func(clock string) sessionStep {
		return sessionStep{line: "TURN " + clock, answer: true, next: func(p ataxx.Position, a string) (ataxx.Position, error) {
			p = withSide(p, me)
			var c [4]int
			if _, err := fmt.Sscanf(a, "MOVE %d %d %d %d", &c[0], &c[1], &c[2], &c[3]); err != nil {
				return p, fmt.Errorf("answer %q to TURN: %v", a, err)
			}
			m, err := p.JudgeMove(c[0], c[1], c[2], c[3])
			if err != nil {
				return p, fmt.Errorf("MOVE %v in %s: %v", c, p, err)
			}
			return p.Apply(m), nil
		}}
	}
	opp := func(c [4]int, apply func(p ataxx.Position) ataxx.Position) sessionStep {
		return sessionStep{line: fmt.Sprintf("OPP %d %d %d %d 7", c[0], c[1], c[2], c[3]),
			next: func(p ataxx.Position, _ string) (ataxx.Position, error) { return apply(withSide(p, me^1)), nil }}
	}
	const board = "O....../.O...../......X/......./......./......./X.....O O 2"
	forced := [4]int{4, 4, 4, 5} // no O piece on (4,4): applied by force
	steps := []sessionStep{
		{line: "ready second", answer: true, next: func(p ataxx.Position, a string) (ataxx.Position, error) {
			if a != "OK" {
				return p, fmt.Errorf("answer %q to READY, want OK", a)
			}
			return ataxx.Start(), nil
		}},
		skip(""), skip("HELLO there"), skip(strings.Repeat("x", 5000)),
		opp([4]int{1, 1, 2, 2}, func(p ataxx.Position) ataxx.Position { m, _ := p.JudgeMove(1, 1, 2, 2); return p.Apply(m) }),
		turn("300 300"),
		{line: "position " + board, next: func(ataxx.Position, string) (ataxx.Position, error) { return ataxx.ParseBoard(board) }},
		turn("300 300"),
		opp([4]int{9, 9, 9, 9}, ataxx.Position.ForcePass), // off the board: a pass
		turn("0 0"),
		opp(forced, func(p ataxx.Position) ataxx.Position { f, _ := p.Force(forced); return f }),
		turn("300 300"),
		skip("FINISH"), skip("TURN 300 300"), // nothing is read after FINISH
	}
	var script []string
	for _, st := range steps {
		script = append(script, st.line)
	}
	cmd := exec.Command(ataxxCPP(t))
	cmd.Stdin = strings.NewReader(strings.Join(script, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	answers := strings.Split(strings.TrimSpace(string(out)), "\n")
	pos := ataxx.Start()
	for _, st := range steps {
		a := ""
		if st.answer {
			if len(answers) == 0 {
				t.Fatalf("no answer to %q\n%s", st.line, stderr.String())
			}
			a, answers = answers[0], answers[1:]
		}
		if pos, err = st.next(pos, a); err != nil {
			t.Fatal(err)
		}
	}
	if len(answers) > 0 {
		t.Errorf("answers after the script's: %q", answers)
	}
	for _, want := range []string{"skipping a blank line", "skipping unknown line", "longer than 4096", "applying it by force", "passing the turn"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestAgentDefaults: the C++ export plays what the agent plays by default: its -seed
// (agentSeed) and no opening book, read from the agent's own help.
func TestAgentDefaults(t *testing.T) {
	var help bytes.Buffer
	agent.Main([]string{"-h"}, strings.NewReader(""), &help, &help)
	for flag, want := range map[string]string{"seed": fmt.Sprintf("(default %d)", agentSeed), "book": `(default "none")`} {
		_, after, ok := strings.Cut(help.String(), "\n  -"+flag+" ")
		line, _, _ := strings.Cut(after, "\n  -")
		if !ok || !strings.Contains(line, want) {
			t.Errorf("the agent's -%s is %q, the C++ export plays %s", flag, line, want)
		}
	}
}

// TestCPPRefusesUnportedNets: the C++ export refuses, naming why, a Bacteria War net the
// template cannot evaluate (a hidden layer), and takes cell- and window-input ones without.
func TestCPPRefusesUnportedNets(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		arch nnue.Arch
		want string // "" accepted
	}{
		{nnab.WindowArch(32, 0), ""},
		{nnab.WindowArch(32, 16), "hidden layer"},
		{nnab.Arch(32, 16), "hidden layer"},
		{nnab.Arch(32, 0), ""},
		{func() nnue.Arch { a := nnab.WindowArch(32, 0); a.Buckets = 8; return a }(), ""},
	} {
		file := filepath.Join(dir, strings.NewReplacer(">", "", " ", "-").Replace(c.arch.String())+".nnue")
		if err := nnue.NewRandom(c.arch, 1).Save(file); err != nil {
			t.Fatal(err)
		}
		_, _, err := Generate(Options{Game: ataxx.Info.Name, Model: file})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.arch, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: err %v, want one mentioning %q", c.arch, err, c.want)
		}
	}
}
