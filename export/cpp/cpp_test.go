package cpp

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// Helpers of the C++ exports' tests, for every game: the program built once per test binary,
// and its --parity command mode.

// cppBuild is one game's program, built on first use.
type cppBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

var cppBuilds sync.Map // game name -> *cppBuild

func TestMain(m *testing.M) {
	code := m.Run()
	cppBuilds.Range(func(_, v any) bool {
		if b := v.(*cppBuild); b.dir != "" {
			os.RemoveAll(b.dir)
		}
		return true
	})
	os.Exit(code)
}

// cppProgram returns game's exported C++ program, built with g++ -std=c++17 -O2 (Build) on
// first use; the test is skipped when g++ is not installed.
func cppProgram(t testing.TB, game string) string {
	t.Helper()
	return cppProgramWith(t, game, "")
}

// cppProgramWith is cppProgram carrying the net at model ("": the game's newest embedded one),
// built once per game and model.
func cppProgramWith(t testing.TB, game, model string) string {
	t.Helper()
	return cppProgramOf(t, game+"\x00"+model, Options{Game: game, Model: model})
}

// cppProgramOf is the program exported with o, built once per test binary and key (which
// names o).
func cppProgramOf(t testing.TB, key string, o Options) string {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ is not installed: the C++ export's tests need it (.ci/run installs it)")
	}
	v, _ := cppBuilds.LoadOrStore(key, &cppBuild{})
	b := v.(*cppBuild)
	b.once.Do(func() {
		src, _, err := Generate(o)
		if err != nil {
			b.err = err
			return
		}
		if b.dir, err = os.MkdirTemp("", "colony-cpp-"); err != nil {
			b.err = err
			return
		}
		b.bin, b.err = Build(src, b.dir)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// parityProc is a program in its --parity command mode: one answer line per command line.
type parityProc struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

// startParity starts bin's command mode (flags: before --parity, e.g. --portable).
func startParity(t *testing.T, bin string, flags ...string) *parityProc {
	t.Helper()
	cmd := exec.Command(bin, append(flags, "--parity")...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &parityProc{in: in, out: sc}
}

// ask sends the commands (written while the answers are read) and returns one answer each.
func (p *parityProc) ask(t *testing.T, cmds []string) []string {
	t.Helper()
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(p.in)
		for _, c := range cmds {
			w.WriteString(c)
			w.WriteByte('\n')
		}
		werr <- w.Flush()
	}()
	answers := make([]string, 0, len(cmds))
	for range cmds {
		if !p.out.Scan() {
			t.Fatalf("the C++ program stopped answering after %d of %d commands: %v", len(answers), len(cmds), p.out.Err())
		}
		answers = append(answers, p.out.Text())
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	return answers
}

// TestRegisterRefuses: a registration without a filler, with a template that is not embedded,
// or of a game already registered panics.
func TestRegisterRefuses(t *testing.T) {
	fill := func(Options) (map[string]string, Info, error) { return map[string]string{}, Info{}, nil }
	for name, g := range map[string]Game{
		"no filler":   {Name: "toy", Template: "common.cpp", Engine: "e"},
		"no template": {Name: "toy", Template: "toy.cpp", Engine: "e", Fill: fill},
		"twice":       {Name: "catch-the-mouse", Template: "mouse.cpp", Engine: "alphabeta", Fill: fill},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered", name)
				}
			}()
			Register(g)
		}()
	}
	if _, _, err := Generate(Options{Game: "toy"}); err == nil {
		t.Error("a refused game is registered")
	}
}
