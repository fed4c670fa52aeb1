// Package page writes the play page (colony/web) into a folder: index.html, its script and
// style, wasm_exec.js (Go's, copied from the toolchain that built the engine), and engine.js,
// which carries the engine compiled to WebAssembly, the nets it plays with (the newest
// embedded ones, as the agent's) and the worker's source, base64 and JSON in one script, so
// that the page works from the file itself with no server and no network; Serve is the
// small server for those who prefer one.
package page

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"colony/game/ataxx"
	"colony/game/mouse"
	"colony/models"
)

//go:embed static
var static embed.FS

// Net is a net the page carries: its name and its file's bytes.
type Net struct {
	Name string `json:"name"`
	Data []byte `json:"data"` // base64 in JSON
}

// Nets are the nets of the agent's default engines: the newest embedded nnue net of
// Bacteria War (nnab) and the best embedded convnet of Catch The Mouse (mcts).
func Nets() (map[string]Net, error) {
	nnue, nnueName, ok := models.NewestNNUE(ataxx.Info.Name)
	if !ok {
		return nil, fmt.Errorf("no embedded %s nnue net", ataxx.Info.Name)
	}
	conv, convName, ok := models.Best(mouse.Info.Name)
	if !ok {
		return nil, fmt.Errorf("no embedded %s model", mouse.Info.Name)
	}
	return map[string]Net{ataxx.Info.Name: {nnueName, nnue}, mouse.Info.Name: {convName, conv}}, nil
}

// Write writes the page into dir from the WebAssembly engine wasmFile (web/wasm built with
// GOOS=js GOARCH=wasm) and the wasm_exec.js of the toolchain that built it. It returns the
// files written and their total size in bytes.
func Write(dir, wasmFile, wasmExec string) (files []string, size int64, err error) {
	wasm, err := os.ReadFile(wasmFile)
	if err != nil {
		return nil, 0, err
	}
	exec, err := os.ReadFile(wasmExec)
	if err != nil {
		return nil, 0, err
	}
	nets, err := Nets()
	if err != nil {
		return nil, 0, err
	}
	worker, err := static.ReadFile("static/worker.js")
	if err != nil {
		return nil, 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, err
	}
	out := map[string][]byte{"wasm_exec.js": exec}
	for _, name := range []string{"index.html", "play.js", "play.css"} {
		if out[name], err = static.ReadFile("static/" + name); err != nil {
			return nil, 0, err
		}
	}
	assets := struct {
		Wasm   []byte         `json:"wasm"`
		Nets   map[string]Net `json:"nets"`
		Worker string         `json:"worker"`
	}{wasm, nets, string(exec) + "\n" + string(worker)}
	js, err := json.Marshal(assets)
	if err != nil {
		return nil, 0, err
	}
	var b strings.Builder
	b.WriteString("// Written by make web (colony/web/page): the Go engine compiled to WebAssembly, its nets\n")
	b.WriteString("// (base64) and its worker's source, in one script so that the page works from the file.\n")
	b.WriteString("var colonyAssets = ")
	b.Write(js)
	b.WriteString(";\n")
	out["engine.js"] = []byte(b.String())
	for name, data := range out {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, 0, err
		}
		files = append(files, name)
		size += int64(len(data))
	}
	return files, size, nil
}

// Handler serves the page's folder dir.
func Handler(dir string) http.Handler { return http.FileServer(http.Dir(dir)) }
