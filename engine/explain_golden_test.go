package engine

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestExplain_Golden runs each testdata/explain/*.sql file in a fresh
// database: statements end with ";" at the end of a line, and every
// EXPLAIN QUERY PLAN statement's plan is rendered as a tree and compared
// with the .golden file beside it (go test -run TestExplain_Golden -update
// rewrites them). One file per optimizer rule. The tables of a file count
// as SQLite's default size until ANALYZE measures them (DB.unsized), so
// the plans are the rules' for tables of unknown size, the same whether
// a file fills its tables or not; a file named *_sized.sql plans with the
// sizes of its tables' trees instead.
func TestExplain_Golden(t *testing.T) {
	files, err := filepath.Glob("testdata/explain/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no explain files: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			got := explainFile(t, path)
			golden := strings.TrimSuffix(path, ".sql") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("plans differ from %s (run with -update to accept):\n%s", golden, got)
			}
		})
	}
}

// explainFile runs path's statements and returns the rendered plans.
func explainFile(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, s := explainDB(t)
	db.unsized = !strings.HasSuffix(path, "_sized.sql")
	var out strings.Builder
	for _, sql := range splitScript(string(src)) {
		if !strings.HasPrefix(strings.ToUpper(sql), "EXPLAIN") {
			explainExec(t, s, sql)
			continue
		}
		out.WriteString(sql + "\n")
		out.WriteString(renderPlan(explainQuery(t, s, sql)))
		out.WriteString(optimizedPlan(t, db, s, sql))
		out.WriteString("\n")
	}
	return out.String()
}

// explainDB opens an in-memory database and a session, both closed when
// the test ends.
func explainDB(t *testing.T) (*DB, *Session) {
	t.Helper()
	db, err := Open(Options{Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	s := db.NewSession()
	t.Cleanup(func() {
		s.Close()
		db.Close()
	})
	return db, s
}

// optimizedPlan is the planner's full tree of an EXPLAIN statement's
// query (filters and join keys included), as plan.Format draws it, bound
// as s binds it (with table sizes unless db.unsized).
func optimizedPlan(t *testing.T, db *DB, s *Session, sql string) string {
	t.Helper()
	sc, err := db.parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	b := plan.NewBinder(db.cat.Load(), exec.ConstEvaluator{})
	if !db.unsized {
		b.SizeTables(s.sizer.begin(s, stmtTx{}))
		defer s.sizer.end()
	}
	p, err := b.Bind(sc.stmts[0])
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := p.(*plan.Explain)
	if !ok {
		return ""
	}
	q, ok := ex.Stmt.(*plan.Query)
	if !ok {
		return ""
	}
	return "PLAN\n" + plan.Format(q.Root)
}

// splitScript splits src on lines ending with ";", dropping "--" comment
// lines.
func splitScript(src string) []string {
	var stmts []string
	var cur strings.Builder
	for _, line := range strings.Split(src, "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "--") || (trim == "" && cur.Len() == 0) {
			continue
		}
		cur.WriteString(line + "\n")
		if strings.HasSuffix(trim, ";") {
			stmts = append(stmts, strings.TrimSuffix(strings.TrimSpace(cur.String()), ";"))
			cur.Reset()
		}
	}
	return stmts
}

func explainExec(t *testing.T, s *Session, sql string) {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if _, err := st.Exec(context.Background(), nil); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func explainQuery(t *testing.T, s *Session, sql string) [][]types.Value {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	// Placeholders are bound to NULL: only the plan is read.
	args := make([]Arg, st.NumInput())
	for i := range args {
		args[i] = Arg{Ordinal: i + 1, Value: types.Null}
	}
	rows, err := st.Query(context.Background(), args)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	var out [][]types.Value
	for {
		row := make([]types.Value, len(rows.Columns()))
		if err := rows.Next(row); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		out = append(out, row)
	}
}

// renderPlan draws EXPLAIN QUERY PLAN rows (id, parent, notused, detail)
// as the sqlite3 shell does: a tree with |-- and `-- branches.
func renderPlan(rows [][]types.Value) string {
	children := map[int64][]int{}
	for i, r := range rows {
		children[r[1].Int()] = append(children[r[1].Int()], i)
	}
	var b strings.Builder
	b.WriteString("QUERY PLAN\n")
	var walk func(parent int64, indent string)
	walk = func(parent int64, indent string) {
		kids := children[parent]
		for k, i := range kids {
			branch, next := "|--", "|  "
			if k == len(kids)-1 {
				branch, next = "`--", "   "
			}
			b.WriteString(indent + branch + rows[i][3].Text() + "\n")
			walk(rows[i][0].Int(), indent+next)
		}
	}
	walk(0, "")
	return b.String()
}
