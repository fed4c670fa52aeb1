package web_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The WebAssembly build is made once per test run, into tmp (TestMain removes it).
var (
	tmp       string
	wasmOnce  sync.Once
	wasmPath  string
	wasmError error
	goroot    string
)

func TestMain(m *testing.M) {
	var err error
	if tmp, err = os.MkdirTemp("", "colony-web-test-"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// goTool is the go command that runs the tests.
func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	t.Fatal("no go tool on PATH: the tests build the page's WebAssembly with it")
	return ""
}

// wasm builds web/wasm for GOOS=js GOARCH=wasm once and returns the file and the GOROOT
// whose lib/wasm runs it.
func wasm(t *testing.T) (file, root string) {
	t.Helper()
	gt := goTool(t)
	wasmOnce.Do(func() {
		out, err := exec.Command(gt, "env", "GOROOT").Output()
		if err != nil {
			wasmError = err
			return
		}
		goroot = strings.TrimSpace(string(out))
		wasmPath = filepath.Join(tmp, "colony.wasm")
		cmd := exec.Command(gt, "build", "-o", wasmPath, "./wasm")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			wasmError = err
			wasmPath = string(out)
		}
	})
	if wasmError != nil {
		t.Fatalf("building the WebAssembly engine: %v\n%s", wasmError, wasmPath)
	}
	return wasmPath, goroot
}
