package gofile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// StandaloneEnv is the environment in which BuildStandalone compiles a file the way a judge
// does: the caller's environment without any Go setting but PATH, HOME and the build cache,
// an empty GOPATH and module cache under dir, no module proxy, no go.env file, the local
// toolchain only and the default GOEXPERIMENT and cgo settings.
func StandaloneEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GO") || k == "CGO_ENABLED" {
			continue
		}
		env = append(env, kv)
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if c := strings.TrimSpace(string(out)); c != "" && c != "off" {
			env = append(env, "GOCACHE="+c)
		}
	}
	gp := filepath.Join(dir, "gopath")
	return append(env, "GOPATH="+gp, "GOMODCACHE="+filepath.Join(gp, "pkg", "mod"), "GOPROXY=off",
		"GOFLAGS=", "GOENV=off", "GOWORK=off", "GOTOOLCHAIN=local", "GONOSUMDB=", "GOSUMDB=off")
}

// BuildStandalone copies src as Main.go into dir (which must hold no go.mod, nor any directory
// above it) and runs `go build Main.go` there as a judge would; it returns the binary's path.
func BuildStandalone(src []byte, dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return "", fmt.Errorf("export: %s is inside a module (%s): build it where no go.mod is", dir, d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "Main.go"), src, 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "Main.go")
	cmd.Dir = dir
	cmd.Env = StandaloneEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("export: go build Main.go: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "Main")
	if _, err := os.Stat(bin); err != nil {
		return "", err
	}
	return bin, nil
}
