package gofile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/format"
	"go/printer"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"colony/nn"
)

// ModelNone as Options.Model carries no model (for engines without a network).
const ModelNone = "none"

// ModelExt is the extension of model files: of the embedded ones, the export carries one.
const ModelExt = ".model"

// droppedExts are embedded files an exported program has no use for (documentation, plots):
// they are left out of embed.FS variables.
var droppedExts = []string{".md", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf"}

// Options are the settings fixed in the exported file.
type Options struct {
	Game   string   // -game value
	Engine string   // -engine value
	Flags  []string // further agent flags, fixed after -game and -engine
	// Model is the model file to carry: "" for the game's newest embedded model, ModelNone for
	// none, or a file path (it replaces the embedded models and becomes the default).
	Model string
	// NetExt is the extension of the net files the engine reads (ModelExt when "", NNUEExt for
	// nnue nets): Model picks among these; the embedded nets of the other kind are left out.
	NetExt string
	// StripComments leaves the comments of the packages out (compiler directives stay).
	StripComments bool
}

// NNUEExt is the extension of nnue net files (engine nnab).
const NNUEExt = ".nnue"

// netExts are the extensions of embedded net files: the export carries at most one of them.
var netExts = []string{ModelExt, NNUEExt}

func (o Options) netExt() string {
	if o.NetExt == "" {
		return ModelExt
	}
	return o.NetExt
}

// Info describes a generated file.
type Info struct {
	Size          int      // bytes of the file
	Args          []string // the arguments the program runs its main with, before its own
	Model         string   // the carried model as the program sees it (embed path), "" if none
	ModelSource   string   // where it came from (module-relative, or the -model path)
	ModelSize     int
	ModelSHA256   string   // of the model file
	WeightsSHA256 string   // recorded in the model file and checked when it is loaded
	Carried       []string // embedded files carried (module-relative embed paths)
	Dropped       []string // embedded files left out
	PackedBytes   int      // size of the packed literal
}

type carried struct {
	ev   *embedVar
	name string // path inside the embedding package's directory
	data []byte
}

// Generate writes the one-file program with the settings of opts.
func (p *Program) Generate(opts Options) ([]byte, *Info, error) {
	if opts.Game == "" || opts.Engine == "" {
		return nil, nil, fmt.Errorf("export: a game and an engine are required")
	}
	for _, f := range opts.Flags {
		name := strings.TrimLeft(f, "-")
		name, _, _ = strings.Cut(name, "=")
		if strings.HasPrefix(f, "-") && name == "model" {
			return nil, nil, fmt.Errorf("export: %q: the program cannot read a model file at the judge; give the exporter -model FILE to carry it", f)
		}
	}
	info := &Info{Args: append([]string{"-game", opts.Game, "-engine", opts.Engine}, opts.Flags...)}
	files, err := p.carry(opts, info)
	if err != nil {
		return nil, nil, err
	}

	used := map[string]bool{}
	for ip := range p.stdUsed {
		used[ip] = true
	}
	used["os"] = true // main
	var tail bytes.Buffer
	alias := func(ip string) string { used[ip] = true; return p.stdAlias[ip] }
	fmt.Fprintf(&tail, "\n// ---- main: %s's main with fixed flags ----\n\n", p.Main)
	fmt.Fprintf(&tail, "// main runs %s's main with %s; arguments given to this program come after them\n"+
		"// (the judge gives none).\nfunc main() {\n", p.Main, quoteArgs(info.Args))
	q := make([]string, len(info.Args))
	for i, a := range info.Args {
		q[i] = strconv.Quote(a)
	}
	osName := alias("os")
	fmt.Fprintf(&tail, "\t%s.Args = append([]string{%s.Args[0], %s}, %s.Args[1:]...)\n\t%s()\n}\n", osName, osName, strings.Join(q, ", "), osName, p.mainFunc)
	if len(p.embeds) > 0 {
		info.PackedBytes = p.writeCarried(&tail, files, alias)
	}

	var body bytes.Buffer
	body.WriteString("package main\n\nimport (\n")
	var paths []string
	for ip := range used {
		paths = append(paths, ip)
	}
	sort.Strings(paths)
	for _, ip := range paths {
		if a := p.stdAlias[ip]; a != path.Base(ip) || strings.Contains(ip, ".") {
			fmt.Fprintf(&body, "\t%s %q\n", a, ip)
		} else {
			fmt.Fprintf(&body, "\t%q\n", ip)
		}
	}
	for _, ip := range p.stdBlank {
		fmt.Fprintf(&body, "\t_ %q\n", ip)
	}
	body.WriteString(")\n")
	for _, op := range p.pkgs {
		var names []string
		for _, f := range op.files {
			names = append(names, path.Base(f.rel))
		}
		fmt.Fprintf(&body, "\n// ---- %s (%s: %s) ----\n\n", op.pkg.PkgPath, op.rel, strings.Join(names, ", "))
		for _, f := range op.files {
			comments := f.comments
			if opts.StripComments {
				comments = f.dirs
			}
			if comments == nil {
				comments = []*ast.CommentGroup{} // not nil: the printer would fall back on the Doc fields
			}
			file := &ast.File{Package: f.ast.Package, Name: f.ast.Name, Decls: f.decls, Comments: comments}
			var buf bytes.Buffer
			if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&buf, p.fset, file); err != nil {
				return nil, nil, fmt.Errorf("export: printing %s: %w", f.rel, err)
			}
			out := buf.Bytes()
			if i := bytes.IndexByte(out, '\n'); i >= 0 && bytes.HasPrefix(out, []byte("package ")) {
				out = out[i+1:]
			}
			body.Write(out)
			body.WriteByte('\n')
		}
		if len(op.inits) > 0 {
			fmt.Fprintf(&body, "\n// %s's init functions: a variable declared after the package's own runs them before\n"+
				"// the variables of the packages that import it are initialised, as in the original program.\n"+
				"var _ = func() bool {\n", op.pkg.PkgPath)
			for _, n := range op.inits {
				fmt.Fprintf(&body, "\t%s()\n", n)
			}
			body.WriteString("\treturn true\n}()\n")
		}
	}
	body.Write(tail.Bytes())
	src, err := format.Source(body.Bytes())
	if err != nil {
		if dump := os.Getenv("EXPORT_DUMP"); dump != "" {
			os.WriteFile(dump, body.Bytes(), 0o644)
		}
		return nil, nil, fmt.Errorf("export: the generated file does not parse (an exporter bug; EXPORT_DUMP=file writes it): %w", err)
	}
	// The header states the file's size: settle it (its own digits count).
	size := len(src)
	var out []byte
	for range 5 {
		out = append([]byte(p.header(opts, info, size)), src...)
		if len(out) == size {
			break
		}
		size = len(out)
	}
	info.Size = len(out)
	return out, info, nil
}

// carry decides which embedded files the export carries and reads them.
func (p *Program) carry(opts Options, info *Info) ([]carried, error) {
	// The game's newest embedded model: the last by name of the .model files under a directory
	// named after the game.
	var best *embedVar
	var bestRel string
	for _, ev := range p.embeds {
		if ev.kind != embedFS {
			continue
		}
		for _, f := range ev.files {
			if strings.HasSuffix(f.rel, opts.netExt()) && slicesContains(strings.Split(path.Dir(f.rel), "/"), opts.Game) {
				if best == nil || p.modRel(ev, f.rel) > p.modRel(best, bestRel) {
					best, bestRel = ev, f.rel
				}
			}
		}
	}
	var model []byte
	var modelVar *embedVar
	var modelRel string
	switch opts.Model {
	case ModelNone:
	case "":
		if best == nil {
			for _, ev := range p.embeds {
				for _, f := range ev.files {
					if strings.HasSuffix(f.rel, opts.netExt()) {
						return nil, fmt.Errorf("export: no embedded model for game %q: give -model FILE, or -model %s for an engine without a network", opts.Game, ModelNone)
					}
				}
			}
			break // the program embeds no models at all
		}
		data, err := os.ReadFile(p.abs(best, bestRel))
		if err != nil {
			return nil, err
		}
		model, modelVar, modelRel = data, best, bestRel
		info.ModelSource = p.modRel(best, bestRel)
	default:
		data, err := os.ReadFile(opts.Model)
		if err != nil {
			return nil, fmt.Errorf("export: -model: %w", err)
		}
		name := filepath.Base(opts.Model)
		if !strings.HasSuffix(name, opts.netExt()) {
			name += opts.netExt()
		}
		modelVar, modelRel = best, ""
		if best != nil {
			modelRel = path.Join(path.Dir(bestRel), name)
		} else {
			// No model of this game is embedded yet: the one embed.FS that holds models gets it
			// under <game>/.
			var holders []*embedVar
			for _, ev := range p.embeds {
				for _, f := range ev.files {
					if ev.kind == embedFS && strings.HasSuffix(f.rel, opts.netExt()) {
						holders = append(holders, ev)
						break
					}
				}
			}
			if len(holders) != 1 {
				return nil, fmt.Errorf("export: -model: no embedded model of game %q shows where the program looks for one (%d embedded file systems hold models)", opts.Game, len(holders))
			}
			modelVar, modelRel = holders[0], path.Join(opts.Game, name)
		}
		model = data
		info.ModelSource = opts.Model
	}
	if model != nil && opts.netExt() != ModelExt {
		sum := sha256.Sum256(model)
		info.Model, info.ModelSize, info.ModelSHA256 = modelRel, len(model), hex.EncodeToString(sum[:])
	} else if model != nil {
		m, err := nn.Read(bytes.NewReader(model))
		if err != nil {
			return nil, fmt.Errorf("export: model %s: %w", info.ModelSource, err)
		}
		if m.Arch.Game != opts.Game {
			return nil, fmt.Errorf("export: model %s is for game %q, not %q", info.ModelSource, m.Arch.Game, opts.Game)
		}
		sum := sha256.Sum256(model)
		info.Model, info.ModelSize, info.ModelSHA256, info.WeightsSHA256 = modelRel, len(model), hex.EncodeToString(sum[:]), m.SHA256()
	}

	var out []carried
	for _, ev := range p.embeds {
		for _, f := range ev.files {
			name := p.modRel(ev, f.rel)
			drop := ev.kind == embedFS && (hasExt(f.rel, netExts) || hasExt(f.rel, droppedExts))
			if drop {
				if ev != modelVar || f.rel != modelRel {
					info.Dropped = append(info.Dropped, name)
				}
				continue
			}
			data, err := os.ReadFile(f.abs)
			if err != nil {
				return nil, err
			}
			out = append(out, carried{ev: ev, name: f.rel, data: data})
			info.Carried = append(info.Carried, name)
		}
		if ev == modelVar {
			out = append(out, carried{ev: ev, name: modelRel, data: model})
			info.Carried = append(info.Carried, p.modRel(ev, modelRel))
		}
	}
	return out, nil
}

func (p *Program) modRel(ev *embedVar, rel string) string { return path.Join(ev.pkg.rel, rel) }

func (p *Program) abs(ev *embedVar, rel string) string {
	for _, f := range ev.files {
		if f.rel == rel {
			return f.abs
		}
	}
	return filepath.Join(ev.pkg.pkg.Dir, filepath.FromSlash(rel))
}

func hasExt(name string, exts []string) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, e := range exts {
		if ext == e {
			return true
		}
	}
	return false
}

func slicesContains(list []string, s string) bool { return contains(list, s) }

// writeCarried writes the embed functions, the unpacker and the packed literal; it returns the
// literal's size.
func (p *Program) writeCarried(w *bytes.Buffer, files []carried, alias func(string) string) int {
	fmt.Fprintf(w, "\n// ---- the embedded files this export carries ----\n")
	index := map[*carried]int{}
	for i := range files {
		index[&files[i]] = i
	}
	for _, ev := range p.embeds {
		fmt.Fprintf(w, "\n// %s is the value of %s's //go:embed variable %s.\n", ev.fn, ev.pkg.pkg.PkgPath, ev.name)
		switch ev.kind {
		case embedFS:
			fs := alias("testing/fstest")
			fmt.Fprintf(w, "func %s() %s.MapFS {\n\treturn %s.MapFS{\n", ev.fn, fs, fs)
			for i := range files {
				if files[i].ev == ev {
					fmt.Fprintf(w, "\t\t%q: {Data: %s[%d], Mode: 0o444},\n", files[i].name, helperFiles, index[&files[i]])
				}
			}
			w.WriteString("\t}\n}\n")
		case embedString, embedBytes:
			i := -1
			for j := range files {
				if files[j].ev == ev {
					i = j
				}
			}
			if ev.kind == embedString {
				fmt.Fprintf(w, "func %s() string { return string(%s[%d]) }\n", ev.fn, helperFiles, i)
			} else {
				fmt.Fprintf(w, "func %s() []byte { return %s[%d] }\n", ev.fn, helperFiles, i)
			}
		}
	}
	if len(files) == 0 {
		return 0
	}
	var all []byte
	var sizes, names, sums []string
	for _, f := range files {
		all = append(all, f.data...)
		sum := sha256.Sum256(f.data)
		sizes = append(sizes, strconv.Itoa(len(f.data)))
		names = append(names, strconv.Quote(f.name))
		sums = append(sums, strconv.Quote(hex.EncodeToString(sum[:])))
	}
	text := pack(all)
	r := strings.NewReplacer("$files", helperFiles, "$unpack", helperUnpack, "$data", helperData,
		"$bytes", alias("bytes"), "$flate", alias("compress/flate"), "$io", alias("io"),
		"$sha256", alias("crypto/sha256"), "$hex", alias("encoding/hex"), "$z85", z85Alphabet,
		"$names", strings.Join(names, ", "), "$sizes", strings.Join(sizes, ", "), "$sums", strings.Join(sums, ",\n\t"))
	w.WriteString(r.Replace(unpackTemplate))
	fmt.Fprintf(w, "\n// %s: the files above, concatenated (%d bytes), split into 4 byte planes, DEFLATEd, in Z85.\nconst %s = `\n", helperData, len(all), helperData)
	for i := 0; i < len(text); i += 100 {
		w.WriteString(text[i:min(i+100, len(text))])
		w.WriteByte('\n')
	}
	w.WriteString("`\n")
	return len(text)
}

const unpackTemplate = `
// $files are the carried files, unpacked once at start: Z85 text, then DEFLATE, then the 4 byte
// planes put back together, then each file checked against its SHA-256.
var $files = $unpack($data, []string{$names}, []int{$sizes}, []string{
	$sums,
})

func $unpack(text string, names []string, sizes []int, sums []string) [][]byte {
	const alphabet = "$z85"
	var digit [256]byte
	for i := 0; i < len(alphabet); i++ {
		digit[alphabet[i]] = byte(i + 1)
	}
	packed := make([]byte, 0, len(text)/5*4)
	var v uint64
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' || c == '\r' {
			continue
		}
		d := digit[c]
		if d == 0 {
			panic("export: the carried data holds a character outside Z85")
		}
		v = v*85 + uint64(d-1)
		if n++; n == 5 {
			if v > 0xffffffff {
				panic("export: the carried data is not valid Z85")
			}
			packed = append(packed, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
			v, n = 0, 0
		}
	}
	total := 0
	for _, s := range sizes {
		total += s
	}
	planes, err := $io.ReadAll($flate.NewReader($bytes.NewReader(packed)))
	if err != nil || len(planes) != total || n != 0 {
		panic("export: the carried data is corrupt")
	}
	data := make([]byte, total)
	k := total / 4
	for p := 0; p < 4; p++ {
		for i, b := range planes[p*k : (p+1)*k] {
			data[i*4+p] = b
		}
	}
	copy(data[4*k:], planes[4*k:])
	files := make([][]byte, len(sizes))
	for i, s := range sizes {
		files[i], data = data[:s:s], data[s:]
		if sum := $sha256.Sum256(files[i]); $hex.EncodeToString(sum[:]) != sums[i] {
			panic("export: carried file " + names[i] + " fails its SHA-256 check")
		}
	}
	return files
}
`

// header is the file's leading comment.
func (p *Program) header(opts Options, info *Info, size int) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, "// "+format+"\n", args...) }
	list := func(label string, items []string, note string) {
		const width = 96
		cur := label
		for i, it := range items {
			sep := ", "
			if i == len(items)-1 {
				sep = note
			}
			if len(cur)+len(it)+len(sep) > width && cur != label {
				line("%s", strings.TrimRight(cur, " "))
				cur = strings.Repeat(" ", len(label))
			}
			cur += it + sep
		}
		line("%s", strings.TrimRight(cur, " "))
	}
	fmt.Fprintf(&b, "// Code generated by colony/cmd/export from %s; DO NOT EDIT.\n//\n", p.Main)
	line("One self-contained Go program: package main, standard library only. Build it with")
	b.WriteString("//\n//\tgo build Main.go\n//\n")
	line("Go:       %s or newer (the go line of %s's go.mod; exported with %s)", p.GoVersion, p.Module, p.Toolchain)
	line("Game:     %s", opts.Game)
	line("Engine:   %s", opts.Engine)
	line("Flags:    %s (fixed: main runs with them, then the program's own arguments)", quoteArgs(info.Args))
	if info.Model != "" {
		line("Model:    %s (%s), %d bytes, SHA-256 %s", info.Model, info.ModelSource, info.ModelSize, info.ModelSHA256)
		line("          weights SHA-256 %s (checked when it is loaded)", info.WeightsSHA256)
	} else {
		line("Model:    none")
	}
	line("Size:     %d bytes (of which %d the packed embedded files)", size, info.PackedBytes)
	rev := p.GitRev
	if rev == "" {
		rev = "unknown"
	}
	line("Source:   %s git %s, Go sources SHA-256 %s", p.Module, rev, p.SourcesSHA256)
	tags := "none"
	if len(p.Tags) > 0 {
		tags = strings.Join(p.Tags, ",")
	}
	line("Build:    %s/%s, tags %s, CGO_ENABLED=0, GOEXPERIMENT unset", p.GOOS, p.GOARCH, tags)
	var pk []string
	for _, op := range p.pkgs {
		pk = append(pk, op.pkg.PkgPath)
	}
	list("Packages: ", pk, " (in initialisation order)")
	if len(info.Carried) > 0 {
		list("Carried:  ", info.Carried, " (embedded files)")
	}
	if len(p.Ignored) > 0 {
		list("Left out: ", p.Ignored, " (build constraints)")
	}
	if len(info.Dropped) > 0 {
		list("Dropped:  ", info.Dropped, " (embedded files not carried)")
	}
	b.WriteString("\n")
	return b.String()
}
