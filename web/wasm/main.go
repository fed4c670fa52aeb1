//go:build js && wasm

// Command wasm is the play page's engine (colony/web) compiled to WebAssembly. In a page it
// sets globalThis.colony, whose functions take and return JSON text; under Node.js with the
// arguments "parity NETS CASES" (wasm_exec_node.js) it runs the parity test's searches and
// prints their results.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall/js"

	"colony/web"
)

func main() {
	if len(os.Args) > 1 {
		os.Exit(command(os.Args[1:]))
	}
	js.Global().Set("colony", js.ValueOf(map[string]any{
		"games":      js.FuncOf(func(js.Value, []js.Value) any { return answer(web.Games(), nil) }),
		"setNet":     js.FuncOf(setNet),
		"view":       js.FuncOf(view),
		"search":     js.FuncOf(search),
		"record":     js.FuncOf(record),
		"readRecord": js.FuncOf(readRecord),
	}))
	select {}
}

// answer is the JSON text {"ok": v} or {"error": "..."}.
func answer(v any, err error) any {
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b)
	}
	b, err := json.Marshal(map[string]any{"ok": v})
	if err != nil {
		return answer(nil, err)
	}
	return string(b)
}

// setNet(game, name, Uint8Array)
func setNet(_ js.Value, a []js.Value) any {
	g, err := web.Lookup(a[0].String())
	if err != nil {
		return answer(nil, err)
	}
	data := make([]byte, a[2].Get("length").Int())
	js.CopyBytesToGo(data, a[2])
	return answer(g.Info(), g.SetNet(a[1].String(), data))
}

// request decodes the JSON argument arg into a request and looks up the game it names.
func request[R any](arg js.Value, game func(*R) string) (R, web.Game, error) {
	var r R
	if err := json.Unmarshal([]byte(arg.String()), &r); err != nil {
		return r, nil, err
	}
	g, err := web.Lookup(game(&r))
	return r, g, err
}

func gameOf(r *web.Request) string { return r.Game }

// view(JSON {game, start, moves})
func view(_ js.Value, a []js.Value) any {
	r, g, err := request(a[0], gameOf)
	if err != nil {
		return answer(nil, err)
	}
	return answer(g.View(r.Start, r.Moves))
}

// search(JSON Request, onInfo(JSON Info))
func search(_ js.Value, a []js.Value) any {
	r, g, err := request(a[0], gameOf)
	if err != nil {
		return answer(nil, err)
	}
	var report func(web.Info)
	if len(a) > 1 && a[1].Type() == js.TypeFunction {
		report = func(in web.Info) {
			b, _ := json.Marshal(in)
			a[1].Invoke(string(b))
		}
	}
	return answer(g.Search(r, report))
}

// record(JSON RecordRequest): the arena record's text.
func record(_ js.Value, a []js.Value) any {
	r, g, err := request(a[0], func(r *web.RecordRequest) string { return r.Game })
	if err != nil {
		return answer(nil, err)
	}
	b, err := g.Record(r)
	return answer(string(b), err)
}

// readRecord(text)
func readRecord(_ js.Value, a []js.Value) any { return answer(web.ReadRecord([]byte(a[0].String()))) }

// command runs "parity NETS CASES": NETS a JSON object of game name to net file, CASES a JSON
// file of web.ParityCase; it prints the web.ParityResult list as JSON.
func command(args []string) int {
	if len(args) != 3 || args[0] != "parity" {
		fmt.Fprintln(os.Stderr, "usage: wasm parity NETS.json CASES.json")
		return 2
	}
	if err := parity(args[1], args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "wasm:", err)
		return 1
	}
	return 0
}

func parity(netsFile, casesFile string) error {
	var nets map[string]string
	var cases []web.ParityCase
	for f, v := range map[string]any{netsFile: &nets, casesFile: &cases} {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	for game, file := range nets {
		g, err := web.Lookup(game)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if err := g.SetNet(file, data); err != nil {
			return err
		}
	}
	res, err := web.RunParity(cases)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}
