package export

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
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

// CheckReady starts bin, sends the judge's "READY FIRST" and waits for "OK" up to limit; it
// returns the time from the start of the process to the answer.
func CheckReady(bin string, limit time.Duration) (time.Duration, error) {
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	if _, err := io.WriteString(stdin, "READY FIRST\n"); err != nil {
		return 0, err
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		el := time.Since(start)
		if strings.TrimSpace(s) != "OK" {
			return el, fmt.Errorf("export: READY FIRST answered %q, want OK", s)
		}
		io.WriteString(stdin, "FINISH\n")
		return el, nil
	case <-time.After(limit):
		cmd.Process.Kill()
		return limit, errors.New("export: no OK to READY within " + limit.String())
	}
}

// BuildCPP copies src as Main.cpp alone into the empty directory dir and builds it there as the
// judge does, `g++ -std=c++17 -O2 Main.cpp`; it returns the binary's path (dir/a.out).
func BuildCPP(src []byte, dir string) (string, error) {
	if entries, err := os.ReadDir(dir); err != nil {
		return "", err
	} else if len(entries) > 0 {
		return "", fmt.Errorf("export: %s is not empty: the C++ file is built alone", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, "Main.cpp"), src, 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command("g++", "-std=c++17", "-O2", "Main.cpp")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("export: g++ -std=c++17 -O2 Main.cpp: %v\n%s", err, out)
	}
	return filepath.Join(dir, "a.out"), nil
}
