package ladybug_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/ladybugsql/ladybug"

// allowedImports is the core module's import graph, exactly: for each
// package (by path inside the module, "" for the root), the module packages
// and third-party modules it imports (the standard library aside). An import
// not listed fails TestDeps_ImportsFlowOneWay, and so does a listed edge no
// longer used or a package missing from the table, so the table stays the
// graph as built; docs/ARCHITECTURE.md's package table quotes it
// (TestDeps_ArchitectureTableMatches).
//
// The design: the root driver talks to the engine façade (engine, with
// engine/errs for the error type it re-exports; values through
// engine.Value), never to types, storage, txn, plan or exec; the engine's
// layers import downwards only; leaves (errs, keycodec, factorized, vfs,
// grammar) import no other layer, and types only keycodec: the byte keys'
// one codec (rowid keys, value keys), which storage, types and the layers
// above share; neither the executor (engine/exec) nor the write side
// (engine/dml) reads syntax: a write's conflict resolution, DEFAULTs,
// index keys and foreign-key actions come bound in its plan
// (TestDeps_WriteSideBindsNothing).
var allowedImports = map[string][]string{
	"":                    {"engine", "engine/errs"},
	"engine":              {"engine/catalog", "engine/dml", "engine/errs", "engine/exec", "engine/keycodec", "engine/plan", "engine/storage", "engine/txn", "engine/types", "factorized", "grammar", "vfs", "github.com/hashicorp/golang-lru/v2"},
	"engine/dml":          {"engine/catalog", "engine/errs", "engine/exec", "engine/keycodec", "engine/plan", "engine/txn", "engine/types"},
	"engine/exec":         {"engine/catalog", "engine/errs", "engine/funcs", "engine/keycodec", "engine/plan", "engine/storage", "engine/txn", "engine/types", "factorized"},
	"engine/plan":         {"engine/catalog", "engine/errs", "engine/funcs", "engine/types", "grammar"},
	"engine/catalog":      {"engine/types"},
	"engine/txn":          {"engine/errs", "engine/storage"},
	"engine/storage":      {"engine/keycodec", "pagecache", "vfs"},
	"engine/funcs":        {"engine/errs", "engine/types"},
	"engine/types":        {"engine/keycodec"},
	"engine/keycodec":     {},
	"engine/errs":         {},
	"grammar":             {"github.com/alecthomas/participle/v2"},
	"pagecache":           {"github.com/hashicorp/golang-lru/v2"},
	"factorized":          {},
	"vfs":                 {},
	"examples/quickstart": {""},
	"ladybugtest":         {""},
}

// listPackages returns each package of the core module (path inside the
// module) with its imports, from go list.
func listPackages(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, "|")
		pkgs[relPkg(pkg)] = strings.Fields(imports)
	}
	return pkgs
}

func relPkg(pkg string) string { return strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/") }

func TestDeps_ImportsFlowOneWay(t *testing.T) {
	pkgs := listPackages(t)
	for rel, imports := range pkgs {
		allowed, ok := allowedImports[rel]
		if !ok {
			t.Errorf("package %q is not placed in the import graph (add it to allowedImports and docs/ARCHITECTURE.md)", displayPkg(rel))
			continue
		}
		used := map[string]bool{}
		for _, imp := range imports {
			a, err := checkEdge(rel, imp, allowed)
			if err != "" {
				t.Error(err)
			}
			used[a] = true
		}
		for _, a := range allowed {
			if !used[a] {
				t.Errorf("allowedImports lets %s import %q, which it no longer does: remove the edge (and from docs/ARCHITECTURE.md)", displayPkg(rel), a)
			}
		}
	}
	for rel := range allowedImports {
		if _, ok := pkgs[rel]; !ok {
			t.Errorf("allowedImports places %q, which is not a package of the module", displayPkg(rel))
		}
	}
}

// checkEdge returns the allowedImports entry that admits imp ("" for the
// standard library), or an error naming the forbidden edge.
func checkEdge(from, imp string, allowed []string) (string, string) {
	internal := imp == module || strings.HasPrefix(imp, module+"/")
	if !internal && !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
		return "", "" // standard library
	}
	target := relPkg(imp)
	for _, a := range allowed {
		switch {
		case !internal && (imp == a || strings.HasPrefix(imp, a+"/")):
			return a, ""
		case internal && target == a:
			return a, ""
		}
	}
	return "", "forbidden import: " + displayPkg(from) + " -> " + imp
}

// TestDeps_WriteSideBindsNothing: engine/dml runs what was bound when the
// statement was prepared; it calls neither the binder nor the parser (an
// import of grammar already fails TestDeps_ImportsFlowOneWay).
func TestDeps_WriteSideBindsNothing(t *testing.T) {
	files, err := filepath.Glob("engine/dml/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("engine/dml sources: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{"NewBinder(", "NewObjectBinder(", ".Bind(", "BindConstant(", "IndexKeysFor(", "ParseExpr("} {
			if strings.Contains(string(src), call) {
				t.Errorf("%s calls %s at execution: bind it when the statement is prepared", f, call)
			}
		}
	}
}

func displayPkg(rel string) string {
	if rel == "" {
		return module
	}
	return module + "/" + rel
}

// TestDeps_ArchitectureTableMatches: docs/ARCHITECTURE.md's package table
// names every package of the core module once, and for each exactly the
// imports allowedImports lists (module packages by path inside the module,
// the root as `ladybug`, third-party modules by module path, — for none).
func TestDeps_ArchitectureTableMatches(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	const header = "| package | imports (besides the standard library) | concern |"
	_, table, ok := strings.Cut(string(doc), header+"\n|---|---|---|\n")
	if !ok {
		t.Fatalf("docs/ARCHITECTURE.md has no table headed %q", header)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `") {
			break
		}
		cells := strings.Split(line, " | ")
		if len(cells) < 3 {
			t.Fatalf("table row %q has fewer than three cells", line)
		}
		name := strings.TrimSuffix(strings.Trim(strings.TrimPrefix(cells[0], "| "), "`"), "` (root)")
		name = strings.Trim(name, "`")
		if name == "ladybug" {
			name = ""
		}
		if _, dup := rows[name]; dup {
			t.Errorf("docs/ARCHITECTURE.md lists %s twice", displayPkg(name))
		}
		rows[name] = docImports(cells[1])
	}
	for rel, allowed := range allowedImports {
		got, ok := rows[rel]
		if !ok {
			t.Errorf("docs/ARCHITECTURE.md's package table lacks %s", displayPkg(rel))
			continue
		}
		want := slices.Clone(allowed)
		for i, a := range want {
			if a == "" {
				want[i] = "ladybug"
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("docs/ARCHITECTURE.md says %s imports %v; allowedImports (the graph as built) says %v", displayPkg(rel), got, want)
		}
	}
	for name := range rows {
		if _, ok := allowedImports[name]; !ok {
			t.Errorf("docs/ARCHITECTURE.md lists %s, which is not a package of the core module", displayPkg(name))
		}
	}
}

// docImports reads an imports cell: "—", or a comma-separated list of
// package paths, each possibly in backquotes.
func docImports(cell string) []string {
	cell = strings.TrimSpace(cell)
	if cell == "—" {
		return []string{}
	}
	var out []string
	for _, p := range strings.Split(cell, ",") {
		out = append(out, strings.Trim(strings.TrimSpace(p), "`"))
	}
	slices.Sort(out)
	return out
}

// TestDeps_ArchitectureNamesEveryNestedModule: every nested module (a
// directory below the root with a go.mod) is named in docs/ARCHITECTURE.md
// as `dir/`.
func TestDeps_ArchitectureNamesEveryNestedModule(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.Name() != "go.mod" || path == "go.mod" {
			return nil
		}
		n++
		dir := filepath.ToSlash(filepath.Dir(path)) + "/"
		if !strings.Contains(string(doc), "`"+dir+"`") {
			t.Errorf("docs/ARCHITECTURE.md does not name the nested module `%s`", dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no nested module: the walk is broken")
	}
}
