// Command export writes an agent program as ONE self-contained Go source file (package main,
// standard library only) for judges that compile a single file with `go build Main.go`:
//
//	export -game bacteria-war [-engine E] [-model F] [-o Main.go] [-- extra agent flags]
//
// The file is generated from the packages of the main package (-main, colony/cmd/agent by
// default) for the judge's build configuration; the flags are fixed in it, the model is carried
// in it. See packages colony/export/gofile and, for -lang cpp, colony/export/cpp.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"colony/export"
	"colony/export/cpp"
	"colony/export/gofile"
	"colony/internal/atomicfile"
	"colony/registry"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: export -game G [-engine E] [-model F|none] [-o Main.go] [flags] [-- agent flags]")
		fs.PrintDefaults()
	}
	game := fs.String("game", "bacteria-war", "game the program plays (its -game flag)")
	engine := fs.String("engine", "", "engine the program plays with (its -engine flag; default: the game's default engine: "+defaultEngines()+")")
	model := fs.String("model", "", "model file to carry (default: the game's newest embedded model; \""+gofile.ModelNone+"\": none)")
	out := fs.String("o", "Main.go", "output file (- for stdout)")
	mainPkg := fs.String("main", gofile.DefaultMain, "import path of the program's main package")
	tags := fs.String("tags", strings.Join(gofile.DefaultTags, ","), "build tags of the exported build (comma-separated)")
	goos := fs.String("goos", "linux", "target GOOS (the judge's)")
	goarch := fs.String("goarch", "amd64", "target GOARCH (the judge's)")
	strip := fs.Bool("strip-comments", false, "leave the packages' comments out (smaller file)")
	dir := fs.String("C", "", "directory inside the module to load from (default: the current one)")
	check := fs.Bool("check", false, "then build the file as a judge would (go build Main.go in an empty directory, no module cache, no proxy; C++: g++ -std=c++17 -O2 Main.cpp) and check that READY is answered OK within 3000 ms")
	lang := fs.String("lang", "go", "language of the program: go, or cpp (one C++17 file: "+strings.Join(cpp.Games(), ", ")+")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch *lang {
	case "go":
	case "cpp":
		return runCPP(cppArgs{game: *game, engine: *engine, model: *model, out: *out, check: *check}, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "export: -lang %q: want go or cpp\n", *lang)
		return 2
	}
	var g interface {
		DefaultEngine() string
		Engines() []registry.EngineInfo
	}
	g, err := registry.Lookup(*game)
	if err != nil {
		fmt.Fprintln(stderr, "export:", err)
		return 2
	}
	if *engine == "" {
		*engine = g.DefaultEngine()
	}
	netExt, usesNet, known := "", false, false
	for _, e := range g.Engines() {
		if e.Name == *engine {
			known = true
			usesNet = slices.Contains(e.Flags, "model")
			if e.NNUE {
				netExt = gofile.NNUEExt
			}
		}
	}
	if !known {
		fmt.Fprintf(stderr, "export: %s has no engine %q\n", *game, *engine)
		return 2
	}
	if !usesNet && *model == "" {
		*model = gofile.ModelNone
	}
	var tagList []string
	for _, t := range strings.Split(*tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tagList = append(tagList, t)
		}
	}
	if tagList == nil {
		tagList = []string{}
	}
	prog, err := gofile.Load(gofile.LoadConfig{Dir: *dir, Main: *mainPkg, Tags: tagList, GOOS: *goos, GOARCH: *goarch})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	src, info, err := prog.Generate(gofile.Options{Game: *game, Engine: *engine, Flags: fs.Args(), Model: *model, NetExt: netExt, StripComments: *strip})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := emit(*out, src, stdout); err != nil {
		fmt.Fprintln(stderr, "export:", err)
		return 1
	}
	m := "no model"
	if info.Model != "" {
		m = fmt.Sprintf("model %s (%s, SHA-256 %.16s...)", info.Model, info.ModelSource, info.ModelSHA256)
	}
	fmt.Fprintf(stderr, "export: wrote %s: %d bytes, %s %s, %s, %d packages\n", *out, info.Size, *game, *engine, m, len(prog.Packages()))
	if *check {
		built, ready, err := checkBuild(src, gofile.BuildStandalone)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stderr, "export: check: go build Main.go took %v; READY answered OK %v after start\n", built.Round(time.Millisecond), ready.Round(time.Millisecond))
	}
	return 0
}

// emit writes src to the file out, or to stdout for "-".
func emit(out string, src []byte, stdout io.Writer) error {
	if out == "-" {
		_, err := stdout.Write(src)
		return err
	}
	return writeFile(out, src)
}

// checkBuild builds src with build in an empty temporary directory, as a judge would, and
// checks that the program answers READY with OK within 3000 ms: it returns the build's time and
// the time from the start of the program to its OK.
func checkBuild(src []byte, build func(src []byte, dir string) (string, error)) (built, ready time.Duration, err error) {
	tmp, err := os.MkdirTemp("", "export-check-")
	if err != nil {
		return 0, 0, fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	bin, err := build(src, tmp)
	if err != nil {
		return 0, 0, err
	}
	built = time.Since(start)
	ready, err = export.CheckReady(bin, 3*time.Second)
	return built, ready, err
}

// defaultEngines lists each registered game's default engine ("game: engine, ...").
func defaultEngines() string {
	var list []string
	for _, name := range registry.Names() {
		if g, err := registry.Lookup(name); err == nil {
			list = append(list, name+": "+g.DefaultEngine())
		}
	}
	return strings.Join(list, ", ")
}

// writeFile writes data to path atomically (internal/atomicfile), making its directory.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data)
}
