package contract

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// floors are the module's lower packages, lowest first: a package may import its own floor
// and the floors below it, never one above (each floor is a path and everything under it).
// The contract is the game contract that everything stands on; the engine kit (engine and its
// searches) is generic over positions and needs none of the contract, but mctsengine stands
// on mcts and its tests on nn; judge plays engines over the contract's notation; agentdef
// joins the contract and the engines for the agent. Tests obey the floors too: a test that
// needs a higher floor's package lives on that floor.
var floors = []string{"internal", "contract", "mcts", "store", "data", "nn", "engine", "judge", "agentdef"}

// floorOf is the index in floors of the package path p (colony/...), or -1 when p is on no
// floor (the games, registry, the programs: the upper storeys, free to import any floor).
func floorOf(p string) int {
	p, ok := strings.CutPrefix(p, "colony/")
	if !ok {
		return -1
	}
	for i, f := range floors {
		if p == f || strings.HasPrefix(p, f+"/") {
			return i
		}
	}
	return -1
}

// imports lists the packages of pattern with what each imports, its tests included (go list's
// Imports, TestImports and XTestImports: the arrows a reviewer would draw), one slice per
// package: its path, then its imports.
func imports(t *testing.T, pattern string) [][]string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", pattern).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var pkgs [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkgs = append(pkgs, strings.Fields(line))
	}
	return pkgs
}

// TestFloors: no package, its tests included, imports a package of a higher floor.
func TestFloors(t *testing.T) {
	onFloor := make([]int, len(floors))
	for _, f := range imports(t, "colony/...") {
		from := floorOf(f[0])
		if from < 0 {
			continue
		}
		onFloor[from]++
		for _, imp := range f[1:] {
			if to := floorOf(imp); to > from {
				t.Errorf("%s (floor %s) imports %s (floor %s, above it)", f[0], floors[from], imp, floors[to])
			}
		}
	}
	for i, n := range onFloor {
		if n == 0 {
			t.Errorf("floor %s has no package: the floors name packages that are gone", floors[i])
		}
	}
}

// TestGenericPackagesImportNoGame: the pipeline's generic packages take everything
// game-specific from the contract and import no game package (go list -deps, as a reviewer
// would run it).
func TestGenericPackagesImportNoGame(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	generic := []string{"colony/nn", "colony/data", "colony/selfplay", "colony/train", "colony/arena", "colony/mcts",
		"colony/engine/mctsengine", "colony/engine", "colony/engine/random", "colony/engine/alphabeta", "colony/engine/tt", "colony/judge", "colony/contract", "colony/contract/contracttest"}
	out, err := exec.Command(goTool, append([]string{"list", "-deps"}, generic...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < len(generic) {
		t.Fatalf("go list printed %d packages", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "colony/game/") || d == "colony/game" || d == "colony/registry" {
			t.Errorf("a generic package depends on %s", d)
		}
	}
}

// TestReadmeListsEveryPackage: the "What is where" table (docs/layout.md, linked from the
// README) names every package and every command of the module, so a newcomer finds each.
func TestReadmeListsEveryPackage(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}", "colony/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	layout, err := os.ReadFile("../docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(layout), "## What is where")
	if !ok {
		t.Fatal(`docs/layout.md has no "## What is where" section`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 20 {
		t.Fatalf("go list printed %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		dir := strings.TrimPrefix(p, "colony/")
		if !strings.Contains(table, "`"+dir+"`") && !strings.Contains(table, "`"+dir+"/`") {
			t.Errorf("docs/layout.md's What is where does not list %s", dir)
		}
	}
}

// TestCommandsImportNoGame: every command (its tests included) reaches the games through the
// registry and imports no game package directly.
func TestCommandsImportNoGame(t *testing.T) {
	cmds := imports(t, "colony/cmd/...")
	if len(cmds) < 5 {
		t.Fatalf("go list printed %d commands", len(cmds))
	}
	for _, f := range cmds {
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "colony/game/") {
				t.Errorf("%s imports %s", f[0], imp)
			}
		}
	}
}
