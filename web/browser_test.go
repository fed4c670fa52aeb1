package web_test

// The play page in headless Chromium (chromedp, as the replay viewer's tests): whole games
// played by clicks against the WebAssembly engine, checked move by move against the native
// rules, the record saved and read back by the viewer's and the arena's readers, the record
// loaded and one of its positions analysed, a forced pass and its take-back, and no request
// leaving the page. PLAY_SCREENSHOTS=DIR also writes DIR/play-GAME.png (docs/img's screenshots).

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"colony/arena"
	"colony/contract"
	"colony/game/ataxx"
	"colony/game/mouse"
	"colony/replay"
	"colony/web"
	"colony/web/page"
)

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

// pageState is what the test reads of the page after each step.
type pageState struct {
	Ready    bool     `json:"ready"`
	Busy     bool     `json:"busy"`
	Board    string   `json:"board"`
	Terminal bool     `json:"terminal"`
	ToMove   int      `json:"toMove"`
	Ply      int      `json:"ply"`
	Moves    []string `json:"moves"` // each move's judge coordinates, "r1 c1 r2 c2"
	Result   string   `json:"result"`
	Winner   string   `json:"winner"`
	Error    string   `json:"error"`
	Status   string   `json:"status"`
}

const readPage = `(() => {
  const b = document.getElementById("board"), p = window.colonyPage;
  return {ready: !!(p && p.ready), busy: !!(p && p.busy), board: b.dataset.board || "", terminal: b.dataset.terminal === "true",
    toMove: Number(b.dataset.toMove), ply: Number(b.dataset.ply),
    moves: Array.from(document.querySelectorAll("#moves li")).map((li) => li.dataset.coords),
    result: document.getElementById("result").textContent, winner: document.getElementById("result").dataset.winner || "",
    error: document.getElementById("error").textContent, status: document.getElementById("status").textContent};
})()`

// browserGame plays one game of def on the page: the test is the human in seat human and
// picks its moves with pick; every engine move is checked legal by the native rules and the
// page's board against the native position. It returns the moves played.
func browserGame[P contract.Position[P, M], M contract.Move](t *testing.T, ctx context.Context, def *contract.Def[P, M], human int, pick func(p P, ms []M) M) []contract.Coords {
	t.Helper()
	info := def.Info
	p := def.Start()
	var played []contract.Coords
	engineMoves := 0
	waitIdle := chromedp.Poll[bool](`window.colonyPage.ready && !window.colonyPage.busy`, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))
	for ply := 0; ; ply++ {
		if _, err := chromedp.Run(ctx, waitIdle); err != nil {
			st, _ := chromedp.Run(ctx, chromedp.Evaluate[pageState](readPage))
			t.Fatalf("%s ply %d: the page does not settle: %v (%+v)", info.Name, ply, err, st)
		}
		st, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](readPage))
		if err != nil {
			t.Fatal(err)
		}
		if st.Error != "" {
			t.Fatalf("%s ply %d: the page shows an error: %s", info.Name, ply, st.Error)
		}
		// The engine's moves since the last look: legal where they were played.
		for len(played) < len(st.Moves) {
			var c contract.Coords
			if _, err := fmt.Sscan(st.Moves[len(played)], &c[0], &c[1], &c[2], &c[3]); err != nil {
				t.Fatalf("move %d: %q: %v", len(played)+1, st.Moves[len(played)], err)
			}
			if p.ToMove() == human {
				t.Fatalf("%s move %d: the page shows %v in the human's turn", info.Name, len(played)+1, c)
			}
			m, err := def.Judge.Move(p, c)
			if err != nil {
				t.Fatalf("%s move %d: the engine played %v, illegal in %s: %v", info.Name, len(played)+1, c, p, err)
			}
			p = p.Apply(m)
			played = append(played, c)
			engineMoves++
		}
		if len(st.Moves) != len(played) || st.Board != p.String() || st.Terminal != p.Terminal() {
			t.Fatalf("%s ply %d: the page shows %q (terminal %v, %d moves), the rules %q (terminal %v, %d moves)",
				info.Name, ply, st.Board, st.Terminal, len(st.Moves), p, p.Terminal(), len(played))
		}
		if p.Terminal() {
			want := contract.WinnerOf(p.Values(), p.NumPlayers())
			if st.Result == "" || st.Winner != strconv.Itoa(want) {
				t.Fatalf("%s: game over, the page's result %q (winner %q), want winner %d (%s)", info.Name, st.Result, st.Winner, want, def.Outcome(p))
			}
			t.Logf("%s: %d moves (%d by the engine): %s", info.Name, len(played), engineMoves, st.Result)
			break
		}
		if p.ToMove() != human {
			t.Fatalf("%s ply %d: the page waits, but it is the engine's turn (%s)", info.Name, ply, st.Status)
		}
		m := pick(p, p.LegalMoves(nil))
		c := def.Judge.Coords(p, m)
		var clicks []chromedp.Action[chromedp.Void]
		if c == contract.PassCoords {
			clicks = append(clicks, chromedp.Click(chromedp.ID("pass")))
		} else {
			cols := info.Width
			for _, cell := range []int{(c[0]-1)*cols + c[1] - 1, (c[2]-1)*cols + c[3] - 1} {
				clicks = append(clicks, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .cell[data-cell="%d"]`, cell))))
			}
		}
		if err := chromedp.Do(ctx, clicks...); err != nil {
			t.Fatalf("%s ply %d: clicking %v: %v", info.Name, ply, c, err)
		}
		p = p.Apply(m)
		played = append(played, c)
	}
	if engineMoves == 0 {
		t.Fatalf("%s: the engine never moved", info.Name)
	}
	return played
}

// setGame chooses the game, the human's seat and the engine's budget and starts a game.
// kind is "nodes" or "time" (n milliseconds a move).
func setGame(t *testing.T, ctx context.Context, game string, seat int, kind string, n int) {
	t.Helper()
	js := fmt.Sprintf(`(() => { document.getElementById("game").value = %q; document.getElementById("limit-kind").value = %q;
	  document.getElementById("limit-value").value = "%d"; return true; })()`, game, kind, n)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("new"))); err != nil {
		t.Fatal(err)
	}
	js = fmt.Sprintf(`(() => { document.getElementById("seat").value = "%d"; return true; })()`, seat)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("new"))); err != nil {
		t.Fatal(err)
	}
}

func TestBrowserPlay(t *testing.T) {
	if chromium() == "" {
		t.Skip("browser test skipped: chromium is not installed (apt-get install chromium; .ci/run installs it)")
	}
	t.Parallel() // with the parity test: Chromium starts while Node.js searches
	start := time.Now()
	file, root := wasm(t)
	dir := filepath.Join(tmp, "page")
	files, size, err := page.Write(dir, file, filepath.Join(root, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("page: %d files, %.1f MB; built in %v", len(files), float64(size)/(1<<20), time.Since(start).Round(time.Millisecond))

	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(chromium()), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("window-size", "1200,1000"))
	defer stopAlloc()
	ctx, stopCtx := chromedp.NewContext(alloc)
	defer stopCtx()
	ctx, stop := context.WithTimeout(ctx, 4*time.Minute)
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
	pageURL := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.colonyPage && window.colonyPage.ready`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		st, _ := chromedp.Run(ctx, chromedp.Evaluate[pageState](readPage))
		t.Fatalf("the engine does not load: %v (%+v)", err, st)
	}
	t.Logf("page ready at %v", time.Since(start).Round(time.Millisecond))

	// Bacteria War as O against nnab at 300 nodes a move; the test copies where it gains most.
	setGame(t, ctx, ataxx.Info.Name, 0, "nodes", 300)
	greedy := func(p ataxx.Position, ms []ataxx.Move) ataxx.Move {
		best, most := ms[0], -1
		for _, m := range ms {
			if n := countOf(p.Apply(m), p.ToMove()); n > most {
				best, most = m, n
			}
		}
		return best
	}
	moves := browserGame(t, ctx, ataxx.Def(), 0, greedy)
	t.Logf("Bacteria War done at %v", time.Since(start).Round(time.Millisecond))

	// The record: the viewer and the arena read it.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("save"))); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.colonyPage.lastRecord || ""`))
	if err != nil || text == "" {
		t.Fatalf("no record after Save: %v", err)
	}
	checkRecord(t, text, moves)

	// The record loaded again: its position after move 10 shown and analysed.
	recFile := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(recFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("load"), []string{recFile})); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelectorAll("#moves li").length === %d && document.getElementById("board").dataset.ply === "0"`, len(moves)),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the saved record does not load: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#moves li[data-ply="10"]`))); err != nil {
		t.Fatal(err)
	}
	p := ataxx.Start()
	for _, c := range moves[:10] {
		m, _ := ataxx.Def().Judge.Move(p, c)
		p = p.Apply(m)
	}
	if st, _ := chromedp.Run(ctx, chromedp.Evaluate[pageState](readPage)); st.Board != p.String() || st.Ply != 10 {
		t.Fatalf("the loaded record at move 10 shows %q (ply %d), want %q", st.Board, st.Ply, p)
	}
	js := `(() => { document.getElementById("analyse-ms").value = "700"; return Number(document.getElementById("analysis").dataset.updates || 0); })()`
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("analyse"))); err != nil {
		t.Fatal(err)
	}
	type analysis struct {
		Updates int    `json:"updates"`
		Depth   int    `json:"depth"`
		PV      string `json:"pv"`
		Score   string `json:"score"`
	}
	a, err := chromedp.Run(ctx, chromedp.Poll[analysis](`!window.colonyPage.busy && {updates: Number(document.getElementById("analysis").dataset.updates || 0),
		depth: Number(document.getElementById("depth").dataset.depth || 0), pv: document.getElementById("pv").textContent, score: document.getElementById("score").textContent}`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("the analysis does not end: %v", err)
	}
	if a.Updates < before+3 || a.Depth < 3 || len(strings.Fields(a.PV)) < 2 || a.Score == "–" {
		t.Fatalf("the analysis of move 10 shows %+v", a)
	}
	pv := strings.Fields(a.PV)
	if _, err := ataxx.Def().Judge.Move(p, mustCoords(t, p, pv[0])); err != nil {
		t.Fatalf("the analysis's best move %q is not legal in %s", pv[0], p)
	}
	t.Logf("analysis of move 10: %d updates, %+v", a.Updates-before, a)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#board .cell.movable`))); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "play-bacteria-war.png")

	forcedPass(t, ctx)

	// Catch The Mouse as Nadori's team against mcts at 24 playouts; the test's moves are random.
	setGame(t, ctx, mouse.Info.Name, mouse.Team, "nodes", 24)
	r := rand.New(rand.NewPCG(5, 5))
	browserGame(t, ctx, mouse.Def(), mouse.Team, func(_ mouse.Position, ms []mouse.Move) mouse.Move { return ms[r.IntN(len(ms))] })
	t.Logf("Catch The Mouse done at %v", time.Since(start).Round(time.Millisecond))
	screenshot(t, ctx, "play-catch-the-mouse.png")

	mu.Lock()
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page asked the network for %s", u)
		}
	}
	if len(requests) == 0 {
		t.Error("no request seen at all: the network listener is not working")
	}
	requests = nil
	mu.Unlock()

	// The same folder from the local server (play -serve): the engine loads and, as O at 150
	// ms a move, plays its first move in about that time.
	srv := httptest.NewServer(page.Handler(dir))
	defer srv.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.colonyPage && window.colonyPage.ready`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("served: the engine does not load: %v", err)
	}
	setGame(t, ctx, ataxx.Info.Name, 1, "time", 150)
	ms, err := chromedp.Run(ctx, chromedp.Poll[float64](`document.querySelectorAll("#moves li").length === 1 && window.colonyPage.ms[0]`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatalf("served: the engine does not play the first move: %v", err)
	}
	if ms < 50 || ms > 5000 {
		t.Errorf("served: the engine's first move at 150 ms a move took %v ms", ms)
	}
	t.Logf("served: the engine's first move at 150 ms a move took %v ms", ms)
	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the served page asked the network for %s", u)
		}
	}
}

// countOf is pl's pieces in p.
func countOf(p ataxx.Position, pl int) int {
	n := 0
	for b := p.Pieces(pl); b != 0; b &= b - 1 {
		n++
	}
	return n
}

// mustCoords finds the legal move of p spelled text.
func mustCoords(t *testing.T, p ataxx.Position, text string) contract.Coords {
	t.Helper()
	for _, m := range p.LegalMoves(nil) {
		if m.String() == text {
			return ataxx.Def().Judge.Coords(p, m)
		}
	}
	t.Fatalf("%q is no legal move of %s", text, p)
	return contract.Coords{}
}

// checkRecord reads the page's record as the viewer (replay.Parse) and the arena
// (arena.ReadRecords) do, and finds the game's moves in it.
func checkRecord(t *testing.T, text string, moves []contract.Coords) {
	t.Helper()
	g, err := replay.Parse([]byte(text), "")
	if err != nil {
		t.Fatalf("the viewer refuses the page's record: %v\n%s", err, text)
	}
	if len(g.Moves) != len(moves) || g.Result == "" {
		t.Fatalf("the viewer reads %d moves (result %q), the game had %d", len(g.Moves), g.Result, len(moves))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "game-00000.json"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := arena.ReadRecords(dir)
	if err != nil {
		t.Fatalf("the arena refuses the page's record: %v", err)
	}
	rec := recs[0]
	infos := 0
	for i, m := range rec.Moves {
		if m.Move != moves[i] {
			t.Fatalf("record move %d: %v, played %v", i+1, m.Move, moves[i])
		}
		if m.Player == "b" && m.Info != nil && m.Info.Nodes > 0 {
			infos++
		}
	}
	if infos == 0 || rec.Winner == "" || !rec.AFirst {
		b, _ := json.Marshal(rec)
		t.Fatalf("the record lacks the engine's accounts, a winner or the human's seat: %s", b)
	}
	t.Logf("record: %s, winner %s, %d engine moves with their account", rec.Outcome, rec.Winner, infos)
}

// screenshot writes the page's picture to $PLAY_SCREENSHOTS/name when that is set (docs/img's
// screenshots: PLAY_SCREENSHOTS=$PWD/docs/img go test -count=1 -run BrowserPlay ./web).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("PLAY_SCREENSHOTS")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// forcedPass loads a record that starts where O is walled in: only Pass plays, and Take back
// takes the pass back.
func forcedPass(t *testing.T, ctx context.Context) {
	t.Helper()
	g, err := web.Lookup(ataxx.Info.Name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Record(web.RecordRequest{Game: ataxx.Info.Name, Start: passBoard, Human: 0, Engine: "nnab"})
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "pass.json")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	poll := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			st, _ := chromedp.Run(ctx, chromedp.Evaluate[pageState](readPage))
			t.Fatalf("%s: %v (%+v)", what, err, st)
		}
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("load"), []string{f})); err != nil {
		t.Fatal(err)
	}
	poll("the walled-in position", fmt.Sprintf(`document.getElementById("board").dataset.board === %q && !document.getElementById("pass").disabled
		&& document.querySelectorAll("#board .cell.movable").length === 0`, passBoard))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("pass"))); err != nil {
		t.Fatal(err)
	}
	poll("the pass played", `document.querySelectorAll("#moves li").length === 1 && document.querySelector("#moves li").dataset.coords === "-1 -1 -1 -1"
		&& document.getElementById("board").dataset.toMove === "1" && document.getElementById("pass").disabled`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("takeback"))); err != nil {
		t.Fatal(err)
	}
	poll("the pass taken back", `document.querySelectorAll("#moves li").length === 0 && !document.getElementById("pass").disabled`)
}
