package ladybug_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/ladybugsql/ladybug/engine"
)

// TestREADME_DSNReference_MatchesParser keeps README's "DSN reference" true:
// every option its table names is one ParseDSN knows (a bad value draws
// that option's own error, not "unknown DSN option"), every option key
// dsn.go's setOption switches on (and _pragma) is named in the section, and
// page_size's range is the engine's.
func TestREADME_DSNReference_MatchesParser(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## DSN reference\n")
	if !ok {
		t.Fatal(`README has no "## DSN reference" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n### ")
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z_]+)(?:=[^`]*)?`").FindAllStringSubmatch(sec, -1) {
		named[m[1]] = true // `name` or `name=value`
	}

	// The table's options, from each row's first cell.
	rows := 0
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, " | ")
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(cells[0], -1) {
			rows++
			_, err := ladybug.ParseDSN("x.db?" + m[1] + "=%00bad")
			if err == nil || strings.Contains(err.Error(), "unknown DSN option") {
				t.Errorf("README's DSN table names %q, which ParseDSN does not know (%v)", m[1], err)
			}
		}
		if strings.HasPrefix(line, "| `page_size` |") {
			want := fmt.Sprintf("%d–%d", engine.MinPageSize, engine.MaxPageSize)
			if !strings.Contains(cells[1], want) {
				t.Errorf("README's page_size values %q do not say %s", cells[1], want)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("read only %d options from README's DSN table", rows)
	}

	// Every key the parser takes, named somewhere in the section.
	keys := append(setOptionKeys(t), "_pragma", "mode")
	for _, k := range keys {
		if !named[k] {
			t.Errorf("ParseDSN takes the option %q, which README's DSN reference does not name", k)
		}
	}
}

// setOptionKeys returns the string cases of the switch on key in dsn.go's
// Config.setOption.
func setOptionKeys(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "dsn.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "setOption" {
			continue
		}
		for _, st := range fn.Body.List {
			sw, ok := st.(*ast.SwitchStmt)
			if !ok {
				continue
			}
			if id, isID := sw.Tag.(*ast.Ident); !isID || id.Name != "key" {
				continue
			}
			for _, c := range sw.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						keys = append(keys, s)
					}
				}
			}
		}
	}
	if len(keys) < 10 {
		t.Fatalf("found only %d option keys in dsn.go's setOption", len(keys))
	}
	return keys
}
