package replay_test

// The replay pages in a real browser: for each game, a tiny match refereed by the arena
// (agents are this test binary, started as the agent), the run folder turned into a page,
// and headless Chromium driving it through chromedp. Skipped when chromium is not installed.
//
// REPLAY_SCREENSHOTS=DIR also writes DIR/replay-GAME.png (docs/img's screenshots).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"colony/agent"
	"colony/arena"
	"colony/judge"
	"colony/registry"
	"colony/replay"
)

// agentEnv makes this test binary the agent (agent.Main) when the arena starts it.
const agentEnv = "COLONY_REPLAY_TEST_AGENT"

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) == "1" {
		os.Exit(agent.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	stopBrowser()
	if agentBin() != os.Args[0] {
		os.RemoveAll(filepath.Dir(agentBin()))
	}
	os.Exit(code)
}

// agentBin is this test binary under the name agent (a link), so that pages and screenshots
// name the program as a real run does.
var agentBin = sync.OnceValue(func() string {
	dir, err := os.MkdirTemp("", "replay-agent")
	if err != nil {
		return os.Args[0]
	}
	self, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	link := filepath.Join(dir, "agent")
	if os.Symlink(self, link) != nil {
		return os.Args[0]
	}
	return link
})

// agentCmd is the arena command line of this binary as the agent for game with engine.
func agentCmd(game, engine string) string {
	return fmt.Sprintf("%s -game %s -engine %s -seed {seed}", agentBin(), game, engine)
}

// playRun referees a tiny match of game into the run folder dir.
// judgeRunSeed is the judge-protocol runs' seed: above 2^53, so that a page showing it as a
// JavaScript number would round its last digits (1796676963614330400).
const judgeRunSeed = 1796676963614330306

func playRun(game, dir string) error {
	g, err := registry.Lookup(game)
	if err != nil {
		return err
	}
	var run func(stdout, stderr io.Writer) (int, error)
	switch game {
	case "bacteria-war", "catch-the-mouse":
		m := arena.MatchCommand{Game: game, Rules: g.Rules(), A: agentCmd(game, "alphabeta"), B: agentCmd(game, "greedy"),
			Games: 2, Clock: time.Second, Ready: 5 * time.Second, Parallel: 1, Seed: judgeRunSeed, Openings: 2, Out: dir,
			MemMB: 1024, Grace: 500 * time.Millisecond}
		run = func(stdout, stderr io.Writer) (int, error) { return m.Run(context.Background(), stdout, stderr) }
	case "slime":
		run = arena.KotHCommand{Game: game, Rules: g.Rules(), Fixed: true, Rounds: 1, Parallel: 1, Seed: 7, Out: dir,
			Cmds:      []string{agentCmd(game, "greedy"), agentCmd(game, "jumper"), agentCmd(game, "simplebot"), agentCmd(game, "random")},
			MoveLimit: 5 * time.Second, Slow: time.Second, RSS: 1 << 30}.Run
	case "petri":
		variant, _ := registry.StdinDriver(game)
		run = arena.StdinCommand{Game: game, Variant: variant, A: agentCmd(game, "colony"), B: agentCmd(game, "sample"),
			Games: 1, Size: "5x3", Rules: "driver", MoveLimit: 5 * time.Second, SlowLimit: time.Second, Parallel: 1, Seed: 7, Out: dir}.Run
	default:
		return fmt.Errorf("no match for %s", game)
	}
	var log strings.Builder
	if code, err := run(io.Discard, &log); code != 0 || err != nil {
		return fmt.Errorf("arena %s: exit %d, %v\n%s", game, code, err, log.String())
	}
	return nil
}

// recordEnd is what a game record itself says of the end: the final board (one letter per
// cell, '.' empty, row-major) and each seat's pieces or cells.
func recordEnd(t *testing.T, game, path string) (board string, counts []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Final   string    `json:"final"`
		AFirst  bool      `json:"a_first"`
		Scores  []float64 `json:"scores"`
		Cells   []int     `json:"cells"`
		Winner  string    `json:"winner"`
		Verdict []any     `json:"verdicts"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	rows := strings.Fields(r.Final)[0]
	switch game {
	case "bacteria-war":
		board = strings.ReplaceAll(rows, "/", "")
		counts = []int{strings.Count(board, "O"), strings.Count(board, "X")}
	case "catch-the-mouse":
		board = strings.ReplaceAll(rows, "/", "")
		counts = []int{strings.Count(board, "R"), strings.Count(board, "C") + strings.Count(board, "N")}
	case "slime": // "4,r0,r1,...": the player to move, then rows of '0'..'4'
		board = strings.ReplaceAll(strings.Join(strings.Split(rows, ",")[1:], ""), "0", ".")
		for _, s := range r.Scores {
			counts = append(counts, int(s))
		}
	case "petri": // cells by entry (A, B); seats by a_first
		board = strings.ReplaceAll(rows, "/", "")
		counts = r.Cells
		if !r.AFirst {
			counts = []int{r.Cells[1], r.Cells[0]}
		}
	}
	return board, counts
}

// view is what the page shows now, read back from the DOM.
type view struct {
	Ply          int      `json:"ply"`
	Board        string   `json:"board"`  // one letter per cell from the pieces' data-piece
	Owners       []int    `json:"owners"` // the pieces drawn per seat (data-owner)
	Counts       []int    `json:"counts"` // the side panel's counts
	Clocks       []string `json:"clocks"`
	ResultHidden bool     `json:"resultHidden"`
	Current      int      `json:"current"` // the highlighted move's ply (0: none)
}

const readView = `(() => {
  const svg = document.getElementById("board");
  const n = svg.querySelectorAll("rect[data-sq]").length;
  const cells = new Array(n).fill(".");
  const seats = document.querySelectorAll("#players tr").length;
  const owners = new Array(seats).fill(0);
  svg.querySelectorAll("g.piece").forEach(p => {
    cells[Number(p.dataset.cell)] = p.dataset.piece;
    const o = Number(p.dataset.owner);
    if (o >= 0 && !p.classList.contains("corpse")) owners[o]++;
  });
  const counts = [], clocks = [];
  for (let k = 0; k < seats; k++) {
    counts.push(Number(document.getElementById("count-" + k).textContent));
    clocks.push(document.getElementById("clock-" + k).textContent);
  }
  const cur = document.querySelector("td.mv.current");
  return {ply: Number(svg.dataset.ply), board: cells.join(""), owners, counts, clocks,
    resultHidden: document.getElementById("result").hidden, current: cur ? Number(cur.dataset.ply) : 0};
})()`

// chromium is the browser's path ("" when it is not installed).
func chromium() string {
	if path, err := exec.LookPath("chromium"); err == nil {
		return path
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// stopBrowser ends the browser that browser started (TestMain calls it).
var stopBrowser = func() {}

// browser starts one headless Chromium for the tests.
var browser = sync.OnceValues(func() (context.Context, error) {
	path := chromium()
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("window-size", "1200,1000"))
	ctx, stopCtx := chromedp.NewContext(alloc)
	stopBrowser = func() { stopCtx(); stopAlloc() }
	if err := chromedp.Do(ctx); err != nil { // start it
		return nil, fmt.Errorf("chromium %s does not start: %w", path, err)
	}
	return ctx, nil
})

func TestBrowserReplay(t *testing.T) {
	if chromium() == "" {
		t.Skip("browser tests skipped: chromium is not installed (apt-get install chromium; .ci/run installs it)")
	}
	start := time.Now()
	// The four matches are played while the browser starts and the pages are checked.
	t.Setenv(agentEnv, "1")
	type run struct {
		dir  string
		done chan error
	}
	games := []string{"bacteria-war", "catch-the-mouse", "slime", "petri"}
	runs := map[string]run{}
	for _, game := range games {
		r := run{dir: filepath.Join(t.TempDir(), game), done: make(chan error, 1)}
		runs[game] = r
		go func() {
			err := playRun(game, r.dir)
			t.Logf("%s: arena done at %v", game, time.Since(start).Round(time.Millisecond))
			r.done <- err
			close(r.done)
		}()
		defer func() { <-r.done }() // the folders outlive the matches
	}
	started := make(chan error, 1)
	go func() { _, err := browser(); started <- err }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("chromium did not start in 2 minutes")
	}
	t.Logf("chromium started in %v", time.Since(start).Round(time.Millisecond))
	for _, game := range games {
		t.Run(game, func(t *testing.T) {
			if err := <-runs[game].done; err != nil {
				t.Fatal(err)
			}
			checkReplay(t, game, runs[game].dir)
		})
	}
}

func checkReplay(t *testing.T, game, dir string) {
	root, _ := browser()
	page, err := replay.Build([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "index.html")
	if err := page.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	// The longest game of the run (a game lost on time at once would be too short).
	shown := 0
	for i, x := range page.Games {
		if len(x.Moves) > len(page.Games[shown].Moves) {
			shown = i
		}
	}
	g := page.Games[shown]
	n := len(g.Moves)
	if n < 4 {
		t.Fatalf("%s: a game of %d moves is too short to test", game, n)
	}
	ctx, cancel := chromedp.NewContext(root) // a new tab
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 40*time.Second)
	defer stop()

	var mu sync.Mutex
	var requests []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: out}).String()
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s#g%d", pageURL, shown)), chromedp.WaitVisible(chromedp.CSS("#board g.piece"))); err != nil {
		t.Fatal(err)
	}
	read := func(what string) view {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[view](readView))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
	keys := func(k ...string) {
		t.Helper()
		var steps []chromedp.Action[chromedp.Void]
		for _, s := range k {
			steps = append(steps, chromedp.KeyEvent(s))
		}
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	// check compares what the page shows at ply with the page's data for that position.
	check := func(v view, ply int) {
		t.Helper()
		f := g.Frames[ply]
		if v.Ply != ply || v.Board != f.Cells {
			t.Fatalf("at ply %d the page shows ply %d:\n%s\nwant\n%s", ply, v.Ply, v.Board, f.Cells)
		}
		for s := range g.Seats {
			if v.Counts[s] != f.Counts[s] || v.Owners[s] != f.Counts[s] {
				t.Fatalf("ply %d seat %d: the panel counts %d, the board draws %d, the position has %d", ply, s, v.Counts[s], v.Owners[s], f.Counts[s])
			}
		}
		if v.ResultHidden != (ply < n) {
			t.Fatalf("ply %d of %d: result hidden %v", ply, n, v.ResultHidden)
		}
		if ply > 0 && v.Current != ply {
			t.Fatalf("ply %d: the move list marks ply %d", ply, v.Current)
		}
	}

	// The keys.
	check(read("start"), 0)
	keys(kb.ArrowRight, kb.ArrowRight, kb.ArrowRight)
	check(read("three right"), 3)
	keys(kb.ArrowLeft)
	check(read("left"), 2)
	keys(kb.End)
	end := read("end")
	check(end, n)
	keys(kb.Home)
	check(read("home"), 0)
	keys(" ") // autoplay
	time.Sleep(800 * time.Millisecond)
	keys(" ")
	if v := read("autoplay"); v.Ply < 1 || v.Ply > n {
		t.Fatalf("Space played to ply %d", v.Ply)
	}

	// The end as the record itself has it: the final board and each seat's count.
	board, counts := recordEnd(t, game, g.File)
	if end.Board != board {
		t.Fatalf("the last position on the page\n%s\nthe record's final board\n%s", end.Board, board)
	}
	for s := range counts {
		if end.Counts[s] != counts[s] {
			t.Fatalf("seat %d: the page counts %d at the end, the record %d", s, end.Counts[s], counts[s])
		}
	}
	// Clocks where the game has them: the record's remaining clock after the last move.
	if g.Clocks != nil {
		last := g.Moves[n-1].Clocks
		for s := range last {
			if want := clockText(last[s]); end.Clocks[s] != want {
				t.Fatalf("seat %d's clock at the end: %q, the record says %q", s, end.Clocks[s], want)
			}
		}
	}

	// Clicking a move shows its position.
	for _, ply := range []int{n / 2, 1, n} {
		sel := fmt.Sprintf(`td.mv[data-ply="%d"]`, ply)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatal(err)
		}
		check(read("click "+sel), ply)
	}

	// The run's seed, exactly as the arena wrote it, so that the run can be played again.
	if game == "bacteria-war" || game == "catch-the-mouse" {
		meta, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#run p.meta").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("seed %d", uint64(judgeRunSeed)); !strings.Contains(meta, want+",") && !strings.HasSuffix(meta, want) {
			t.Fatalf("the run's line %q does not show %q", meta, want)
		}
	}

	// The evaluation graph where the engines logged evaluations.
	logged := false
	for _, m := range g.Moves {
		logged = logged || m.Info != nil
	}
	if game == "bacteria-war" && !logged {
		t.Fatal("alphabeta logged no evaluation")
	}
	points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#graph circle[data-ply]").length`))
	if err != nil {
		t.Fatal(err)
	}
	if logged != (points > 0) || points != len(g.Eval) {
		t.Fatalf("evaluations logged %v, graph points %d, the page's data %d", logged, points, len(g.Eval))
	}
	if len(g.Seats) == 2 {
		checkGraphLines(t, ctx, g)
	}
	if game == "bacteria-war" {
		checkNoSawtooth(t, root, g, filepath.Join(dir, "sawtooth.html"))
	}

	if dir := os.Getenv("REPLAY_SCREENSHOTS"); dir != "" {
		keys(kb.Home)
		for range min(n*2/3, 40) {
			keys(kb.ArrowRight)
		}
		shot := func(scrollTo, name string) {
			t.Helper()
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](scrollTo+`, true`)); err != nil {
				t.Fatal(err)
			}
			b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		shot(`document.getElementById("game-title").scrollIntoView()`, "replay-"+game+".png")
		if game == "bacteria-war" {
			shot(`window.scrollTo(0, 0)`, "run-view.png")
		}
	}

	// Nothing but the page itself was requested.
	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if strings.SplitN(u, "#", 2)[0] != pageURL {
			t.Errorf("the page requested %s", u)
		}
	}
	if len(requests) == 0 {
		t.Error("saw no request at all: the network listener is not working")
	}
}

// clockText is the page's clock format.
func clockText(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return fmt.Sprintf("%s%d.%03d s", sign, ms/1000, ms%1000)
}

// graphLines is what the evaluation graph draws: each line's seat and its points' heights, and
// the big swings listed under it.
type graphLines struct {
	Seats  []int       `json:"seats"`
	Ys     [][]float64 `json:"ys"`
	Swings []int       `json:"swings"` // the plies the list links to
}

const readGraph = `(() => {
  const seats = [], ys = [];
  document.querySelectorAll("#graph path.series").forEach(p => {
    seats.push(Number(p.dataset.seat));
    ys.push(p.getAttribute("d").split(/[ML]/).filter(x => x).map(x => Number(x.trim().split(" ")[1])));
  });
  const swings = [...document.querySelectorAll("#swings a")].map(a => Number(a.dataset.ply));
  return {seats, ys, swings};
})()`

// checkGraphLines: a two-player game's graph draws one line per engine that logged scores, each
// through that engine's points alone, and lists the page's swings.
func checkGraphLines(t *testing.T, ctx context.Context, g *replay.Game) {
	t.Helper()
	gl, err := chromedp.Run(ctx, chromedp.Evaluate[graphLines](readGraph))
	if err != nil {
		t.Fatal(err)
	}
	per := map[int]int{}
	for _, p := range g.Eval {
		per[p.Seat]++
	}
	if len(gl.Seats) != len(per) {
		t.Fatalf("the graph draws %d lines for seats %v; the engines of %d seats logged scores", len(gl.Seats), gl.Seats, len(per))
	}
	for i, seat := range gl.Seats {
		if len(gl.Ys[i]) != per[seat] {
			t.Errorf("seat %d's line has %d points, its engine logged %d", seat, len(gl.Ys[i]), per[seat])
		}
	}
	if len(gl.Swings) != len(g.Swings) {
		t.Fatalf("the page lists swings at %v, its data has %+v", gl.Swings, g.Swings)
	}
	for i, w := range g.Swings {
		if gl.Swings[i] != w.Ply {
			t.Errorf("swing %d at ply %d, the data says %d", i, gl.Swings[i], w.Ply)
		}
	}
}

// checkNoSawtooth: the game again with both engines saying "+2.00 for me" at every move. From
// O's side that alternates between +0.76 and -0.76; drawn as one line it was a sawtooth with a
// big swing at every move. Now each engine's line is flat and no swing is listed.
func checkNoSawtooth(t *testing.T, root context.Context, g *replay.Game, out string) {
	t.Helper()
	saw := *g
	saw.Moves = slices.Clone(g.Moves)
	for k := range saw.Moves {
		s := int32(200)
		saw.Moves[k].Info = &judge.Info{Move: k/2 + 1, Score: &s}
	}
	if err := replay.NewPage([]*replay.Game{&saw}, nil).WriteFile(out); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := chromedp.NewContext(root)
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	if err := chromedp.Do(ctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: out}).String()), chromedp.WaitVisible(chromedp.CSS("#graph"))); err != nil {
		t.Fatal(err)
	}
	gl, err := chromedp.Run(ctx, chromedp.Evaluate[graphLines](readGraph))
	if err != nil {
		t.Fatal(err)
	}
	if len(gl.Seats) != 2 || len(gl.Swings) != 0 {
		t.Fatalf("both engines at +2.00 for themselves: %d lines, swings at %v; want two flat lines, no swing", len(gl.Seats), gl.Swings)
	}
	for i, ys := range gl.Ys {
		for _, y := range ys {
			if y != ys[0] {
				t.Fatalf("seat %d's line is not flat: %v", gl.Seats[i], ys)
			}
		}
	}
	if gl.Ys[0][0] == gl.Ys[1][0] {
		t.Errorf("O's and X's engines drawn at the same height %v: the scores were not turned to O's side", gl.Ys[0][0])
	}
}
