package web_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"colony/contract"
	"colony/engine"
	"colony/game/ataxx"
	"colony/game/mouse"
	"colony/models"
	"colony/registry"
	"colony/web"
)

// positions plays a seeded random game of def from its start and returns the boards at the
// given plies (those the game reaches).
func positions[P contract.Position[P, M], M contract.Move](def *contract.Def[P, M], seed uint64, plies ...int) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	p := def.Start()
	var out []string
	for ply := 0; len(plies) > 0 && !p.Terminal(); ply++ {
		if ply == plies[0] {
			out = append(out, p.String())
			plies = plies[1:]
		}
		ms := p.LegalMoves(nil)
		p = p.Apply(ms[r.IntN(len(ms))])
	}
	return out
}

// native searches c with the registry's engine (the agent's default engine of the game,
// built by the registry as the agent builds it with its default options), afresh.
func native[P contract.Position[P, M], M contract.Move](t *testing.T, def *contract.Def[P, M], c web.ParityCase) web.ParityResult {
	t.Helper()
	g, err := registry.Lookup(c.Game)
	if err != nil {
		t.Fatal(err)
	}
	o := g.Defaults()
	o.Seed = web.Seed
	e, err := registry.EngineFor[P, M](c.Game, g.DefaultEngine(), o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := def.ParseBoard(c.Board)
	if err != nil {
		t.Fatal(err)
	}
	e.NewGame()
	m := e.BestMove(p, engine.Limits{Nodes: c.Nodes})
	rep, _ := engine.ReportOf(e)
	return web.ParityResult{Move: def.Judge.Coords(p, m), Score: rep.Score, Value: rep.Value, Depth: rep.Depth, Nodes: rep.Nodes, Visits: rep.Visits}
}

// TestWasmParity: the page's engines compiled to WebAssembly and run under Node.js choose the
// same moves with the same node counts (and scores, depths, values, visits) as the registry's
// native engines (nnab for Bacteria War, mcts with the prover for Catch The Mouse) on
// positions of random games, each searched afresh at fixed nodes.
func TestWasmParity(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("parity test skipped: node (Node.js) is not installed, and it runs the WebAssembly build")
	}
	t.Parallel()
	file, root := wasm(t)

	nnue, _, ok := models.NewestNNUE(ataxx.Info.Name)
	if !ok {
		t.Fatal("no embedded Bacteria War nnue net")
	}
	conv, _, ok := models.Best(mouse.Info.Name)
	if !ok {
		t.Fatal("no embedded Catch The Mouse model")
	}
	dir := t.TempDir()
	nets := map[string]string{ataxx.Info.Name: filepath.Join(dir, "bw.nnue"), mouse.Info.Name: filepath.Join(dir, "ctm.model")}
	writeFile(t, nets[ataxx.Info.Name], nnue)
	writeFile(t, nets[mouse.Info.Name], conv)

	abNodes, playouts := int64(4000), int64(48)
	if testing.Short() {
		abNodes = 2500
	}
	var cases []web.ParityCase
	for _, b := range positions(ataxx.Def(), 1, 0, 3, 8, 14, 21, 30, 40, 52, 66) {
		cases = append(cases, web.ParityCase{Game: ataxx.Info.Name, Board: b, Nodes: abNodes})
	}
	for _, b := range positions(ataxx.Def(), 2, 5, 25, 45, 80) {
		cases = append(cases, web.ParityCase{Game: ataxx.Info.Name, Board: b, Nodes: abNodes})
	}
	nAtaxx := len(cases)
	for _, b := range positions(web.MouseDef(), 3, 0, 2, 5, 9, 14, 20, 28) {
		cases = append(cases, web.ParityCase{Game: mouse.Info.Name, Board: b, Nodes: playouts})
	}
	if nAtaxx < 10 || len(cases)-nAtaxx < 5 {
		t.Fatalf("only %d Bacteria War and %d Catch The Mouse positions", nAtaxx, len(cases)-nAtaxx)
	}
	netsJSON, _ := json.Marshal(nets)
	casesJSON, _ := json.Marshal(cases)
	writeFile(t, filepath.Join(dir, "nets.json"), netsJSON)
	writeFile(t, filepath.Join(dir, "cases.json"), casesJSON)

	start := time.Now()
	cmd := exec.Command(node, filepath.Join(root, "lib", "wasm", "wasm_exec_node.js"), file, "parity",
		filepath.Join(dir, "nets.json"), filepath.Join(dir, "cases.json"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got []web.ParityResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the wasm's answer: %v\n%s", err, out)
	}
	t.Logf("%d searches under Node.js in %v", len(cases), time.Since(start).Round(time.Millisecond))
	if len(got) != len(cases) {
		t.Fatalf("%d results for %d positions", len(got), len(cases))
	}
	for i, c := range cases {
		var want web.ParityResult
		if c.Game == ataxx.Info.Name {
			want = native(t, ataxx.Def(), c)
		} else {
			want = native(t, web.MouseDef(), c)
		}
		if got[i] != want {
			t.Errorf("%s %q at %d nodes: WebAssembly %+v, native %+v", c.Game, c.Board, c.Nodes, got[i], want)
		} else if i == 0 || i == nAtaxx {
			t.Logf("%s %q: both %+v", c.Game, c.Board, want)
		}
		if want.Nodes == 0 {
			t.Errorf("%s %q: the native search reports no nodes", c.Game, c.Board)
		}
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
