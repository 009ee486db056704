package ladybug_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/ladybugsql/ladybug"

// allowedImports lists, for each package of the module, the module packages
// and third-party modules it may import directly (the standard library is
// always allowed). Data flows one way: the root driver over engine, engine
// over its leaves, and no leaf imports another leaf or anything above it.
// A package missing from the table is an error, so a new package must be
// placed in the graph on purpose.
var allowedImports = map[string][]string{
	"":                    {"engine", "engine/errs", "engine/types", "engine/storage", "engine/", "grammar", "vfs"},
	"engine":              {"engine/", "grammar", "factorized", "vfs", "pagecache", "github.com/hashicorp/golang-lru/v2"},
	"engine/exec":         {"engine/plan", "engine/catalog", "engine/types", "engine/funcs", "engine/errs", "engine/txn", "engine/storage", "factorized", "grammar"},
	"engine/plan":         {"engine/catalog", "engine/types", "engine/funcs", "engine/errs", "grammar"},
	"engine/catalog":      {"engine/types", "engine/funcs", "engine/errs", "engine/txn", "engine/storage", "grammar"},
	"engine/txn":          {"engine/storage", "engine/errs", "vfs"},
	"engine/storage":      {"pagecache", "vfs", "engine/errs"},
	"engine/funcs":        {"engine/types", "engine/errs"},
	"engine/types":        {"engine/errs"},
	"engine/errs":         {},
	"grammar":             {"github.com/alecthomas/participle/v2"},
	"pagecache":           {"vfs", "github.com/hashicorp/golang-lru/v2"},
	"factorized":          {},
	"vfs":                 {},
	"examples/quickstart": {""},
	"ladybugtest":         {"", "github.com/stretchr/testify"},
}

func TestDeps_ImportsFlowOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, "|")
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		allowed, ok := lookupAllowed(rel)
		if !ok {
			t.Errorf("package %q is not placed in the import graph (add it to allowedImports and docs/ARCHITECTURE.md)", pkg)
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if err := checkEdge(rel, imp, allowed); err != "" {
				t.Error(err)
			}
		}
	}
}

// lookupAllowed finds a package's rule, letting sub-packages of a leaf
// (grammar/internal/..., for example) share their parent's rule.
func lookupAllowed(rel string) ([]string, bool) {
	for p := rel; ; {
		if a, ok := allowedImports[p]; ok {
			return a, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 || strings.HasPrefix(p, "engine/") && strings.Count(p, "/") == 1 {
			return nil, false
		}
		p = p[:i]
	}
}

func checkEdge(from, imp string, allowed []string) string {
	internal := imp == module || strings.HasPrefix(imp, module+"/")
	if !internal && !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
		return "" // standard library
	}
	target := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
	if internal && (target == from || strings.HasPrefix(target, from+"/") && from != "" && from != "engine") {
		return "" // a package's own sub-packages
	}
	for _, a := range allowed {
		switch {
		case !internal && strings.HasPrefix(imp, a):
			return ""
		case internal && (target == a || strings.HasSuffix(a, "/") && strings.HasPrefix(target, a)):
			return ""
		}
	}
	return "forbidden import: " + displayPkg(from) + " -> " + imp
}

func displayPkg(rel string) string {
	if rel == "" {
		return module
	}
	return module + "/" + rel
}
