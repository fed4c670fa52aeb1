package gofile

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// Kinds of //go:embed variables.
const (
	embedString = iota
	embedBytes
	embedFS
)

// embedVar is a //go:embed variable of an own package. Its initialiser becomes a call of fn,
// which Generate writes with the files the export carries.
type embedVar struct {
	pkg   *ownPkg
	name  string // output name of the variable
	kind  int
	fn    string      // generated function returning the value
	files []embedFile // the files its patterns match, sorted
}

type embedFile struct {
	rel string // path inside the embedding package's directory (the name the program sees)
	abs string
}

// Names of the generated helpers.
const (
	helperFiles  = "export_files"
	helperUnpack = "export_unpack"
	helperData   = "export_data"
	helperEmbed  = "export_embed"
)

// rewrite renames, requalifies and filters the syntax of every own package (once: Generate
// only prints it).
func (p *Program) rewrite() error {
	fields := p.embeddedFieldNames()
	var errs []string
	for _, op := range p.pkgs {
		for _, f := range op.files {
			if err := p.findEmbeds(op, f); err != nil {
				return err
			}
			for _, d := range f.ast.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
					for _, s := range gd.Specs {
						is := s.(*ast.ImportSpec)
						if is.Name != nil && is.Name.Name == "_" {
							ip, _ := strconv.Unquote(is.Path.Value)
							if p.byPath[ip] == nil && ip != "embed" && !contains(p.stdBlank, ip) {
								p.stdBlank = append(p.stdBlank, ip)
							}
						}
					}
					continue
				}
				fd, _ := d.(*ast.FuncDecl)
				isInit := fd != nil && fd.Recv == nil && fd.Name.Name == "init"
				astutil.Apply(d, func(c *astutil.Cursor) bool {
					if isInit && c.Node() == fd.Name {
						return false
					}
					return p.visit(c, op, fields, &errs)
				}, nil)
				if isInit {
					fd.Name.Name = fmt.Sprintf("%s_init_%d", op.prefix, len(op.inits))
					op.inits = append(op.inits, fd.Name.Name)
				}
				f.decls = append(f.decls, d)
			}
			f.comments, f.dirs = filterComments(f.ast)
		}
		if op.pkg.PkgPath == p.Main {
			main := op.pkg.Types.Scope().Lookup("main")
			fn, ok := main.(*types.Func)
			if !ok || fn.Signature().Params().Len() != 0 || fn.Signature().Results().Len() != 0 {
				return fmt.Errorf("export: %s has no func main()", p.Main)
			}
			p.mainFunc, _ = p.newName(fn)
		}
	}
	sort.Strings(p.stdBlank)
	if len(errs) > 0 {
		return fmt.Errorf("export: cannot rewrite:\n\t%s", strings.Join(errs, "\n\t"))
	}
	return nil
}

// visit rewrites one node: qualified references to own packages become prefixed identifiers,
// references to the standard library use the merged file-scope names, own package-level
// identifiers get their prefix, and embedded fields follow their renamed types.
func (p *Program) visit(c *astutil.Cursor, op *ownPkg, fields map[*types.Var]string, errs *[]string) bool {
	info := op.pkg.TypesInfo
	switch n := c.Node().(type) {
	case *ast.SelectorExpr:
		x, ok := n.X.(*ast.Ident)
		if !ok {
			return true
		}
		pn, ok := info.Uses[x].(*types.PkgName)
		if !ok {
			return true
		}
		ip := pn.Imported().Path()
		if p.byPath[ip] != nil {
			name, ok := p.newName(info.Uses[n.Sel])
			if !ok {
				*errs = append(*errs, fmt.Sprintf("%s: %s.%s is not a package-level object", p.fset.Position(n.Pos()), x.Name, n.Sel.Name))
				return false
			}
			c.Replace(&ast.Ident{NamePos: x.NamePos, Name: name})
			p.checkShadow(op, x.Pos(), name, errs)
			return false
		}
		if x.Name != p.stdAlias[ip] {
			x.Name = p.stdAlias[ip]
			p.checkShadow(op, x.Pos(), x.Name, errs)
		}
		p.stdUsed[ip] = true
		return false
	case *ast.Ident:
		if _, ok := c.Parent().(*ast.SelectorExpr); ok && c.Name() == "Sel" {
			// x.f: fields and methods keep their names, except embedded fields named after
			// a renamed type.
			if v, ok := info.Uses[n].(*types.Var); ok {
				if name, ok := fields[v.Origin()]; ok {
					n.Name = name
				}
			}
			return false
		}
		obj := info.Uses[n]
		if obj == nil {
			obj = info.Defs[n]
		}
		if obj == nil {
			return false
		}
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			if name, ok := fields[v.Origin()]; ok {
				n.Name = name
			}
			return false
		}
		if name, ok := p.newName(obj); ok {
			if info.Uses[n] != nil {
				p.checkShadow(op, n.Pos(), name, errs)
			}
			n.Name = name
			return false
		}
		if _, ok := obj.(*types.PkgName); ok {
			return false
		}
		if isPkgLevel(obj) && p.byPath[obj.Pkg().Path()] == nil && info.Uses[n] == obj {
			// A dot-imported standard-library object: qualify it.
			ip := obj.Pkg().Path()
			p.stdUsed[ip] = true
			p.checkShadow(op, n.Pos(), p.stdAlias[ip], errs)
			c.Replace(&ast.SelectorExpr{X: &ast.Ident{NamePos: n.NamePos, Name: p.stdAlias[ip]}, Sel: &ast.Ident{NamePos: n.NamePos, Name: n.Name}})
		}
		return false
	}
	return true
}

// embeddedFieldNames maps every embedded struct field whose name comes from a renamed type to
// the type's new name (the field is renamed with it).
func (p *Program) embeddedFieldNames() map[*types.Var]string {
	out := map[*types.Var]string{}
	for _, op := range p.pkgs {
		info := op.pkg.TypesInfo
		for id, obj := range info.Defs {
			v, ok := obj.(*types.Var)
			if !ok || !v.IsField() || !v.Embedded() {
				continue
			}
			if tn, ok := info.Uses[id].(*types.TypeName); ok {
				if name, ok := p.newName(tn); ok {
					out[v.Origin()] = name
				}
			}
		}
	}
	return out
}

// findEmbeds records the //go:embed variables of f and points their initialisers at generated
// functions (before the identifiers are renamed, so that the embed.FS type is not counted as a
// use of package embed).
func (p *Program) findEmbeds(op *ownPkg, f *ownFile) error {
	info := op.pkg.TypesInfo
	for _, d := range f.ast.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			doc := vs.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			pats := embedPatterns(doc)
			if len(pats) == 0 {
				continue
			}
			pos := p.fset.Position(vs.Pos())
			if len(vs.Names) != 1 || len(vs.Values) != 0 {
				return fmt.Errorf("export: %s: a //go:embed variable must be one variable without a value", pos)
			}
			obj, _ := info.Defs[vs.Names[0]].(*types.Var)
			if obj == nil {
				return fmt.Errorf("export: %s: //go:embed variable without type information", pos)
			}
			ev := &embedVar{pkg: op, fn: fmt.Sprintf("%s_%d", helperEmbed, len(p.embeds))}
			ev.name, _ = p.newName(obj)
			t := obj.Type()
			switch {
			case types.Identical(t, types.Typ[types.String]):
				ev.kind = embedString
			case types.Identical(t, types.NewSlice(types.Typ[types.Byte])):
				ev.kind = embedBytes
			case isEmbedFS(t):
				ev.kind = embedFS
			default:
				return fmt.Errorf("export: %s: //go:embed variable of type %s (want string, []byte or embed.FS)", pos, t)
			}
			for _, abs := range op.pkg.EmbedFiles {
				rel, err := filepath.Rel(op.pkg.Dir, abs)
				if err != nil {
					return err
				}
				rel = filepath.ToSlash(rel)
				if matchEmbed(pats, rel) {
					ev.files = append(ev.files, embedFile{rel: rel, abs: abs})
				}
			}
			sort.Slice(ev.files, func(i, j int) bool { return ev.files[i].rel < ev.files[j].rel })
			if ev.kind != embedFS && len(ev.files) != 1 {
				return fmt.Errorf("export: %s: //go:embed %s matches %d files, a %s takes one", pos, strings.Join(pats, " "), len(ev.files), t)
			}
			// The new nodes take the position of the old type, so that the printer keeps the
			// comments around them in place.
			at := vs.Names[0].End()
			if vs.Type != nil {
				at = vs.Type.Pos()
			}
			if ev.kind == embedFS {
				vs.Type = &ast.SelectorExpr{X: &ast.Ident{NamePos: at, Name: p.stdAlias["testing/fstest"]}, Sel: &ast.Ident{NamePos: at, Name: "MapFS"}}
			}
			vs.Values = []ast.Expr{&ast.CallExpr{Fun: &ast.Ident{NamePos: at, Name: ev.fn}, Lparen: at, Rparen: at}}
			p.embeds = append(p.embeds, ev)
		}
	}
	return nil
}

func isEmbedFS(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS"
}

// embedPatterns returns the patterns of the //go:embed lines of doc.
func embedPatterns(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var pats []string
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		pats = append(pats, splitPatterns(rest)...)
	}
	return pats
}

// splitPatterns splits a //go:embed argument list: space-separated, Go-quoted where needed.
func splitPatterns(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out
		}
		if s[0] == '"' || s[0] == '`' {
			if q, err := strconv.QuotedPrefix(s); err == nil {
				u, _ := strconv.Unquote(q)
				out = append(out, u)
				s = s[len(q):]
				continue
			}
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
}

// matchEmbed reports whether one of pats names rel or a directory above it (the go command has
// already applied the rules on hidden files).
func matchEmbed(pats []string, rel string) bool {
	for _, pat := range pats {
		pat = strings.TrimPrefix(pat, "all:")
		for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			if ok, _ := path.Match(pat, p); ok {
				return true
			}
		}
	}
	return false
}

// dropDirective reports the directives that have no meaning in the exported file.
func dropDirective(text string) bool {
	for _, d := range []string{"//go:build", "// +build", "//go:embed", "//go:generate"} {
		if text == d || strings.HasPrefix(text, d+" ") || strings.HasPrefix(text, d+"\t") {
			return true
		}
	}
	return false
}

// filterComments returns the comments of f to print: none before the package clause (build
// constraints, package documentation) or in import declarations, and no directive that the
// exported file has no use for; and apart from them the directives alone.
func filterComments(f *ast.File) (all, dirs []*ast.CommentGroup) {
	var imports [][2]token.Pos
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			imports = append(imports, [2]token.Pos{gd.Pos(), gd.End()})
		}
	}
	for _, g := range f.Comments {
		if g.Pos() < f.Package {
			continue
		}
		inImport := false
		for _, r := range imports {
			if g.Pos() >= r[0] && g.Pos() < r[1] {
				inImport = true
			}
		}
		if inImport {
			continue
		}
		var keep, dir []*ast.Comment
		for _, c := range g.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:embed"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				// Keep the line (and the comment's place) as a note: the value is generated.
				keep = append(keep, &ast.Comment{Slash: c.Slash, Text: "// (exported: go:embed" + rest + ")"})
				continue
			}
			if dropDirective(c.Text) {
				continue
			}
			keep = append(keep, c)
			if strings.HasPrefix(c.Text, "//go:") {
				dir = append(dir, c)
			}
		}
		if len(keep) > 0 {
			all = append(all, &ast.CommentGroup{List: keep})
		}
		if len(dir) > 0 {
			dirs = append(dirs, &ast.CommentGroup{List: dir})
		}
	}
	return all, dirs
}

// checkNames makes sure that the file-scope names of the output are distinct.
func (p *Program) checkNames() error {
	owner := map[string]string{}
	var dups []string
	add := func(name, what string) {
		if prev, ok := owner[name]; ok && prev != what {
			dups = append(dups, fmt.Sprintf("%s (%s and %s)", name, prev, what))
			return
		}
		owner[name] = what
	}
	for _, op := range p.pkgs {
		scope := op.pkg.Types.Scope()
		for _, n := range scope.Names() {
			if n == "_" {
				continue
			}
			nn := op.prefix + "_" + n
			add(nn, op.pkg.PkgPath+"."+n)
		}
		for _, n := range op.inits {
			add(n, op.pkg.PkgPath+" init")
		}
	}
	for ip, a := range p.stdAlias {
		add(a, "import "+strconv.Quote(ip))
	}
	for _, h := range []string{helperFiles, helperUnpack, helperData, "main"} {
		add(h, "the exporter's "+h)
	}
	for _, ev := range p.embeds {
		add(ev.fn, "the exporter's "+ev.fn)
	}
	if len(dups) > 0 {
		sort.Strings(dups)
		return fmt.Errorf("export: names clash in the one-file program: %s", strings.Join(dups, ", "))
	}
	p.fileScope = map[string]bool{}
	for n := range owner {
		p.fileScope[n] = true
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkShadow reports a reference rewritten to name at pos that a local declaration of that
// name would capture in the one-file program.
func (p *Program) checkShadow(op *ownPkg, pos token.Pos, name string, errs *[]string) {
	pkgScope := op.pkg.Types.Scope()
	inner := pkgScope.Innermost(pos)
	if inner == nil {
		return
	}
	scope, obj := inner.LookupParent(name, pos)
	if obj == nil || scope == pkgScope || scope == types.Universe || scope.Parent() == pkgScope {
		return
	}
	*errs = append(*errs, fmt.Sprintf("%s: the reference becomes %s, which the local %s declared at %s would hide (rename the local)",
		p.fset.Position(pos), name, name, p.fset.Position(obj.Pos())))
}
