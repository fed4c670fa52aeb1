// Package gofile turns an agent program into ONE self-contained Go source file for judges that
// compile a single file (package main, standard library only) with a plain `go build Main.go`.
//
// The file is generated from the program's own packages: Load loads the dependency closure of
// the main package with golang.org/x/tools/go/packages for the judge's build configuration
// (GOEXPERIMENT unset, CGO_ENABLED=0, build tag purego), refuses it if it contains a package
// that is neither in the standard library nor in the main module, or a file with assembly, cgo
// or go:linkname, and rewrites every package of the main module into one package main:
//
//   - each package-level identifier gets a package prefix (nn.Forward becomes nn_Forward),
//     qualified references are rewritten to match, methods and fields keep their names (an
//     embedded field named after a renamed type follows the type);
//   - the standard-library imports of all files are merged, with an alias where two packages
//     share a name; dot imports are turned into qualified references;
//   - packages are emitted in the order Go initialises them, and each package's init
//     functions run, through a package-level variable placed after the package, before the
//     variables of the packages that import it are initialised (as in the original program);
//   - //go:embed variables are replaced by the files the export carries, packed as one
//     compressed literal at the end of the file (see Generate).
//
// Generate then writes the file: a header naming what it carries, the packages, a main that runs
// the original main with fixed flags, and the packed files.
package gofile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// DefaultMain is the agent program exported when LoadConfig.Main is empty.
const DefaultMain = "colony/cmd/agent"

// DefaultTags are the build tags of the exported build: purego selects plain-Go kernels where
// a package offers assembly-backed ones (colony/nn's gonum BLAS).
var DefaultTags = []string{"purego"}

// LoadConfig says which program to load and for which build configuration.
type LoadConfig struct {
	Dir    string   // a directory inside the main module ("" = the current directory)
	Main   string   // import path of the main package ("" = DefaultMain)
	Tags   []string // build tags (nil = DefaultTags; empty non-nil = none)
	GOOS   string   // target system ("" = linux, the judge's)
	GOARCH string   // target architecture ("" = amd64)
	Env    []string // extra environment for the go command (tests), after the fixed settings
}

// Program is a loaded, checked and rewritten agent program, ready for Generate (which may be
// called several times with different options).
type Program struct {
	Main      string // main package path
	Module    string // main module path
	ModuleDir string
	GoVersion string // the go line of the main module's go.mod
	Toolchain string // go version of the toolchain that loaded it
	GOOS      string
	GOARCH    string
	Tags      []string
	GitRev    string // "abc123...", with "+dirty" when a file of the closure differs from it; "" unknown

	// SourcesSHA256 digests the module-relative names and contents of every Go file of the
	// closure's own packages.
	SourcesSHA256 string
	// Ignored are the own packages' Go files left out by build constraints (module-relative).
	Ignored []string

	fset      *token.FileSet
	pkgs      []*ownPkg          // in initialisation order, the main package last
	byPath    map[string]*ownPkg // import path -> package
	stdAlias  map[string]string  // standard-library import path -> file-scope name
	stdUsed   map[string]bool    // standard-library packages the rewritten code refers to
	stdBlank  []string           // standard-library packages imported for side effects
	embeds    []*embedVar
	mainFunc  string          // renamed main function of the main package
	fileScope map[string]bool // every file-scope name of the output
}

type ownPkg struct {
	pkg    *packages.Package
	rel    string // directory relative to the module root ("." for the root)
	prefix string
	files  []*ownFile
	inits  []string // renamed init functions, in source order
}

type ownFile struct {
	rel      string // module-relative path
	ast      *ast.File
	decls    []ast.Decl          // the declarations to print (imports removed)
	comments []*ast.CommentGroup // the comments to print (directives removed)
	dirs     []*ast.CommentGroup // the compiler directives alone (for stripped output)
}

// helperPaths are the standard-library packages the generated code (main, unpacking) uses.
var helperPaths = []string{"bytes", "compress/flate", "crypto/sha256", "encoding/hex", "io", "os", "testing/fstest"}

// Load loads and rewrites the program described by cfg.
func Load(cfg LoadConfig) (*Program, error) {
	if cfg.Main == "" {
		cfg.Main = DefaultMain
	}
	if cfg.Tags == nil {
		cfg.Tags = DefaultTags
	}
	if cfg.GOOS == "" {
		cfg.GOOS = "linux"
	}
	if cfg.GOARCH == "" {
		cfg.GOARCH = "amd64"
	}
	env := buildEnv(cfg)
	var flags []string
	if len(cfg.Tags) > 0 {
		flags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}

	// Pass 1: the import graph alone (go list), to check it and find the main module's packages.
	graph, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedFiles,
		Dir:  cfg.Dir, Env: env, BuildFlags: flags,
	}, cfg.Main)
	if err != nil {
		return nil, fmt.Errorf("export: loading %s: %w", cfg.Main, err)
	}
	if len(graph) != 1 {
		return nil, fmt.Errorf("export: %s matched %d packages, want one main package", cfg.Main, len(graph))
	}
	root := graph[0]
	if err := packageErrors(graph); err != nil {
		return nil, err
	}
	if root.Name != "main" {
		return nil, fmt.Errorf("export: %s is package %s, not a main package", root.PkgPath, root.Name)
	}
	if root.Module == nil || !root.Module.Main {
		return nil, fmt.Errorf("export: %s is not in a main module (module mode with a go.mod is required)", root.PkgPath)
	}
	p := &Program{
		Main: root.PkgPath, Module: root.Module.Path, ModuleDir: root.Module.Dir, GoVersion: root.Module.GoVersion,
		GOOS: cfg.GOOS, GOARCH: cfg.GOARCH, Tags: slices.Clone(cfg.Tags),
		byPath: map[string]*ownPkg{}, stdAlias: map[string]string{}, stdUsed: map[string]bool{}, fileScope: map[string]bool{},
	}
	var own []string
	var problems []string
	packages.Visit(graph, nil, func(pk *packages.Package) {
		switch {
		case pk.Module == nil: // the standard library
		case pk.Module.Main:
			own = append(own, pk.PkgPath)
			problems = append(problems, fileProblems(pk, p.ModuleDir)...)
		}
	})
	problems = append(problems, foreignImports(graph)...)
	if len(problems) > 0 {
		return nil, fmt.Errorf("export: %s cannot become one standard-library-only file:\n\t%s", root.PkgPath, strings.Join(problems, "\n\t"))
	}
	sort.Strings(own)

	// Pass 2: the own packages from source, fully type-checked; the standard library comes from
	// export data.
	loaded, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule |
			packages.NeedEmbedFiles | packages.NeedEmbedPatterns,
		Dir: cfg.Dir, Env: env, BuildFlags: flags,
	}, own...)
	if err != nil {
		return nil, fmt.Errorf("export: loading %s: %w", cfg.Main, err)
	}
	if err := packageErrors(loaded); err != nil {
		return nil, err
	}
	for _, pk := range loaded {
		if pk.Module == nil || !pk.Module.Main || pk.Types == nil {
			return nil, fmt.Errorf("export: %s: not loaded from the main module's source", pk.PkgPath)
		}
		rel, err := filepath.Rel(p.ModuleDir, pk.Dir)
		if err != nil {
			return nil, err
		}
		p.byPath[pk.PkgPath] = &ownPkg{pkg: pk, rel: filepath.ToSlash(rel)}
		p.fset = pk.Fset
	}
	for _, path := range own {
		if p.byPath[path] == nil {
			return nil, fmt.Errorf("export: %s was listed but not loaded (is the tree changing under the exporter?)", path)
		}
	}
	p.pkgs = initOrder(p.byPath)
	p.assignPrefixes()
	if err := p.collectFiles(); err != nil {
		return nil, err
	}
	if err := p.assignStdAliases(); err != nil {
		return nil, err
	}
	if err := p.rewrite(); err != nil {
		return nil, err
	}
	if err := p.checkNames(); err != nil {
		return nil, err
	}
	p.Toolchain = goEnv(cfg, env, "GOVERSION")
	p.SourcesSHA256, p.GitRev = p.fingerprint()
	return p, nil
}

// buildEnv is the go command's environment: the caller's, with the judge's configuration.
func buildEnv(cfg LoadConfig) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOEXPERIMENT", "CGO_ENABLED", "GOFLAGS", "GOOS", "GOARCH", "GOWORK", "GOPACKAGESDRIVER":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GOEXPERIMENT=", "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off", "GOPACKAGESDRIVER=off",
		"GOOS="+cfg.GOOS, "GOARCH="+cfg.GOARCH)
	return append(env, cfg.Env...)
}

func goEnv(cfg LoadConfig, env []string, key string) string {
	cmd := exec.Command("go", "env", key)
	cmd.Dir = cfg.Dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// packageErrors reports the load and type errors of pkgs and their dependencies.
func packageErrors(pkgs []*packages.Package) error {
	var msgs []string
	packages.Visit(pkgs, nil, func(pk *packages.Package) {
		for _, e := range pk.Errors {
			msgs = append(msgs, pk.PkgPath+": "+e.Error())
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	sort.Strings(msgs)
	return fmt.Errorf("export: the program does not load cleanly:\n\t%s", strings.Join(msgs, "\n\t"))
}

// foreignImports names every package outside the standard library and the main module that an
// own package imports, with the importers.
func foreignImports(graph []*packages.Package) []string {
	by := map[string][]string{}
	mods := map[string]string{}
	packages.Visit(graph, nil, func(pk *packages.Package) {
		if pk.Module == nil || !pk.Module.Main {
			return
		}
		for _, imp := range pk.Imports {
			if imp.Module != nil && !imp.Module.Main {
				by[imp.PkgPath] = append(by[imp.PkgPath], pk.PkgPath)
				mods[imp.PkgPath] = imp.Module.Path + " " + imp.Module.Version
			}
			if imp.PkgPath == "C" {
				by["C"] = append(by["C"], pk.PkgPath)
				mods["C"] = "cgo"
			}
		}
	})
	// The shortest import chain from the main package to each own package, to say why it is
	// in the program.
	chain := map[string][]string{}
	if len(graph) == 1 {
		chain[graph[0].PkgPath] = []string{graph[0].PkgPath}
		queue := []*packages.Package{graph[0]}
		for len(queue) > 0 {
			pk := queue[0]
			queue = queue[1:]
			var paths []string
			for ip := range pk.Imports {
				paths = append(paths, ip)
			}
			sort.Strings(paths)
			for _, ip := range paths {
				imp := pk.Imports[ip]
				if _, seen := chain[imp.PkgPath]; seen || imp.Module == nil || !imp.Module.Main {
					continue
				}
				chain[imp.PkgPath] = append(slices.Clone(chain[pk.PkgPath]), imp.PkgPath)
				queue = append(queue, imp)
			}
		}
	}
	var out []string
	for path, importers := range by {
		sort.Strings(importers)
		msg := fmt.Sprintf("package %s (module %s) is not in the standard library; imported by %s",
			path, mods[path], strings.Join(importers, ", "))
		if c := chain[importers[0]]; len(c) > 1 {
			msg += " (" + strings.Join(c, " -> ") + ")"
		}
		out = append(out, msg)
	}
	sort.Strings(out)
	return out
}

// fileProblems names the files of an own package that cannot go into one Go file: assembly and
// other non-Go sources, cgo, and go:linkname directives.
func fileProblems(pk *packages.Package, modDir string) []string {
	rel := func(f string) string {
		if r, err := filepath.Rel(modDir, f); err == nil {
			return filepath.ToSlash(r)
		}
		return f
	}
	var out []string
	for _, f := range pk.OtherFiles {
		out = append(out, fmt.Sprintf("package %s: file %s is not Go (assembly, C, ...): the judge compiles one Go file", pk.PkgPath, rel(f)))
	}
	for _, f := range pk.GoFiles {
		src, err := os.ReadFile(f)
		if err != nil {
			out = append(out, fmt.Sprintf("package %s: %v", pk.PkgPath, err))
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			continue // reported by the type-checking pass
		}
		for _, imp := range af.Imports {
			if imp.Path.Value == `"C"` {
				out = append(out, fmt.Sprintf("package %s: file %s uses cgo (import \"C\")", pk.PkgPath, rel(f)))
			}
		}
		if bytes.Contains(src, []byte("//go:linkname")) {
			for _, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(line, "//go:linkname") {
					out = append(out, fmt.Sprintf("package %s: file %s has a //go:linkname directive (%s)", pk.PkgPath, rel(f), strings.TrimSpace(line)))
					break
				}
			}
		}
	}
	return out
}

// initOrder sorts the own packages in the order Go (1.21 and later) initialises them: repeatedly
// the first package by import path whose own imports are all initialised.
func initOrder(byPath map[string]*ownPkg) []*ownPkg {
	done := map[string]bool{}
	var order []*ownPkg
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for len(order) < len(paths) {
		progressed := false
		for _, path := range paths {
			if done[path] {
				continue
			}
			ready := true
			for imp := range byPath[path].pkg.Imports {
				if byPath[imp] != nil && !done[imp] {
					ready = false
					break
				}
			}
			if ready {
				done[path] = true
				order = append(order, byPath[path])
				progressed = true
				break
			}
		}
		if !progressed {
			panic("export: import cycle among own packages") // the type checker refuses cycles first
		}
	}
	return order
}

// assignPrefixes names each package's identifiers: the package name (the directory name for a
// main package), or, where two packages would share one, the module-relative directory.
func (p *Program) assignPrefixes() {
	count := map[string]int{}
	base := map[*ownPkg]string{}
	for _, op := range p.pkgs {
		name := op.pkg.Name
		if name == "main" {
			name = path.Base(op.pkg.PkgPath)
		}
		base[op] = identify(name)
		count[base[op]]++
	}
	for _, op := range p.pkgs {
		op.prefix = base[op]
		if count[op.prefix] > 1 {
			op.prefix = identify(op.rel)
		}
	}
}

// identify maps s to an identifier: every rune that cannot appear in one becomes '_'.
func identify(s string) string {
	b := []rune(s)
	for i, r := range b {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// collectFiles sorts each package's files by name and notes what they import.
func (p *Program) collectFiles() error {
	for _, op := range p.pkgs {
		pk := op.pkg
		if len(pk.Syntax) != len(pk.CompiledGoFiles) {
			return fmt.Errorf("export: %s: %d files parsed of %d", pk.PkgPath, len(pk.Syntax), len(pk.CompiledGoFiles))
		}
		for i, f := range pk.Syntax {
			rel, err := filepath.Rel(p.ModuleDir, pk.CompiledGoFiles[i])
			if err != nil {
				return err
			}
			op.files = append(op.files, &ownFile{rel: filepath.ToSlash(rel), ast: f})
		}
		sort.Slice(op.files, func(i, j int) bool { return op.files[i].rel < op.files[j].rel })
		for _, f := range pk.IgnoredFiles {
			if rel, err := filepath.Rel(p.ModuleDir, f); err == nil && strings.HasSuffix(f, ".go") {
				p.Ignored = append(p.Ignored, filepath.ToSlash(rel))
			}
		}
	}
	sort.Strings(p.Ignored)
	return nil
}

// assignStdAliases gives every standard-library package that the own packages or the generated
// code import one file-scope name: its package name, or, where two packages share a name, a name
// made from the import path (math/rand and math/rand/v2 become math_rand and math_rand_v2).
func (p *Program) assignStdAliases() error {
	names := map[string]string{} // path -> package name
	for _, op := range p.pkgs {
		for _, imp := range op.pkg.Types.Imports() {
			if p.byPath[imp.Path()] == nil {
				names[imp.Path()] = imp.Name()
			}
		}
	}
	for _, h := range helperPaths {
		if _, ok := names[h]; !ok {
			names[h] = path.Base(h)
		}
	}
	paths := make([]string, 0, len(names))
	byName := map[string][]string{}
	for ip, n := range names {
		paths = append(paths, ip)
		byName[n] = append(byName[n], ip)
	}
	sort.Strings(paths)
	for _, ip := range paths {
		n := names[ip]
		if len(byName[n]) > 1 || p.isPrefix(n) {
			n = identify(strings.ReplaceAll(ip, "/", "_"))
		}
		p.stdAlias[ip] = n
	}
	return nil
}

func (p *Program) isPrefix(name string) bool {
	for _, op := range p.pkgs {
		if op.prefix == name {
			return true
		}
	}
	return false
}

// fingerprint digests the closure's Go files and asks git for the revision, marked +dirty when
// one of these files (or a carried embedded file) differs from it.
func (p *Program) fingerprint() (sum, rev string) {
	h := sha256.New()
	var files []string
	for _, op := range p.pkgs {
		for _, f := range op.files {
			files = append(files, f.rel)
		}
		for _, f := range op.pkg.EmbedFiles {
			if r, err := filepath.Rel(p.ModuleDir, f); err == nil {
				files = append(files, filepath.ToSlash(r))
			}
		}
	}
	files = append(files, "go.mod")
	sort.Strings(files)
	for _, f := range files {
		data, _ := os.ReadFile(filepath.Join(p.ModuleDir, filepath.FromSlash(f)))
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	sum = hex.EncodeToString(h.Sum(nil))
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", p.ModuleDir}, args...)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		return strings.TrimSpace(out.String()), err
	}
	rev, err := git("rev-parse", "HEAD")
	if err != nil || rev == "" {
		return sum, ""
	}
	status, err := git(append([]string{"status", "--porcelain", "--untracked-files=all", "--"}, files...)...)
	if err != nil {
		return sum, rev + "+unknown"
	}
	if status != "" {
		rev += "+dirty"
	}
	return sum, rev
}

// isPkgLevel reports whether obj is declared at package level (not a method, field or local).
func isPkgLevel(obj types.Object) bool {
	return obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() && obj.Name() != "_"
}

// newName is the output name of a package-level object of an own package.
func (p *Program) newName(obj types.Object) (string, bool) {
	switch o := obj.(type) {
	case *types.Func:
		obj = o.Origin()
	case *types.Var:
		obj = o.Origin()
	}
	if !isPkgLevel(obj) {
		return "", false
	}
	op := p.byPath[obj.Pkg().Path()]
	if op == nil {
		return "", false
	}
	return op.prefix + "_" + obj.Name(), true
}

// quoteArgs renders args for the header, quoted where needed.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n\"'`\\") {
			q[i] = strconv.Quote(a)
		}
	}
	return strings.Join(q, " ")
}

// Packages lists the own packages in the order they are emitted (and initialised).
func (p *Program) Packages() []string {
	out := make([]string, len(p.pkgs))
	for i, op := range p.pkgs {
		out[i] = op.pkg.PkgPath
	}
	return out
}
