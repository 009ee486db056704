package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// The sqllogictest-style runner: files in testdata/*.test hold records
// separated by blank lines:
//
//	statement ok | statement error <substring>
//	<sql>
//
//	query <I|R|T…> [nosort|rowsort|valuesort]
//	<sql>
//	----
//	<one value per line>
//
// Each file runs in a fresh in-memory database.

type sltRecord struct {
	line    int
	kind    string // "ok", "error", "query"
	errText string
	types   string
	sort    string
	sql     string
	want    []string
}

func parseSLT(t *testing.T, path string) []sltRecord {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []sltRecord
	sc := bufio.NewScanner(f)
	line := 0
	var cur *sltRecord
	inResult := false
	flush := func() {
		if cur != nil {
			cur.sql = strings.TrimSpace(cur.sql)
			recs = append(recs, *cur)
		}
		cur, inResult = nil, false
	}
	for sc.Scan() {
		line++
		l := sc.Text()
		switch {
		case strings.TrimSpace(l) == "":
			if cur != nil && (cur.kind != "query" || inResult || cur.sql != "") {
				if cur.kind == "query" && !inResult {
					cur.sql += "\n"
					continue
				}
				flush()
			}
		case cur == nil && strings.HasPrefix(l, "#"):
		case cur == nil && strings.HasPrefix(l, "statement ok"):
			cur = &sltRecord{line: line, kind: "ok"}
		case cur == nil && strings.HasPrefix(l, "statement error"):
			cur = &sltRecord{line: line, kind: "error", errText: strings.TrimSpace(strings.TrimPrefix(l, "statement error"))}
		case cur == nil && strings.HasPrefix(l, "query "):
			f := strings.Fields(l)
			cur = &sltRecord{line: line, kind: "query", types: f[1], sort: "nosort"}
			if len(f) > 2 {
				cur.sort = f[2]
			}
		case cur == nil && strings.HasPrefix(l, "hash-threshold"):
		case cur == nil:
			t.Fatalf("%s:%d: unexpected line %q", path, line, l)
		case cur.kind == "query" && l == "----":
			inResult = true
		case inResult:
			cur.want = append(cur.want, l)
		default:
			cur.sql += l + "\n"
		}
	}
	flush()
	return recs
}

// formatValue renders v for a result column of type typ.
func formatValue(v types.Value, typ byte) string {
	if v.IsNull() {
		return "NULL"
	}
	switch typ {
	case 'I':
		if v.Kind() == types.KindReal {
			return fmt.Sprint(int64(v.Real()))
		}
		if v.Kind() == types.KindText && !types.LooksNumeric(v.Str()) {
			return "0"
		}
		return fmt.Sprint(v.AsInt())
	case 'R':
		f := v.AsReal()
		if math.IsInf(f, 0) {
			return fmt.Sprint(f)
		}
		return fmt.Sprintf("%.3f", f)
	}
	s := v.Text()
	if s == "" {
		return "(empty)"
	}
	return s
}

func runSLTFile(t *testing.T, path string) {
	db, err := Open(Options{Memory: true, ForeignKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := db.NewSession()
	defer s.Close()
	for _, r := range parseSLT(t, path) {
		where := fmt.Sprintf("%s:%d", filepath.Base(path), r.line)
		switch r.kind {
		case "ok":
			if _, err := execSQL(s, r.sql); err != nil {
				t.Errorf("%s: %s\nunexpected error: %v", where, r.sql, err)
			}
		case "error":
			_, err := execSQL(s, r.sql)
			if err == nil {
				t.Errorf("%s: %s\nexpected an error containing %q", where, r.sql, r.errText)
			} else if !strings.Contains(err.Error(), r.errText) {
				t.Errorf("%s: %s\nerror %q does not contain %q", where, r.sql, err, r.errText)
			}
		case "query":
			got, err := querySQL(s, r.sql, r.types)
			if err != nil {
				t.Errorf("%s: %s\nunexpected error: %v", where, r.sql, err)
				continue
			}
			got = sortResult(got, len(r.types), r.sort)
			if strings.Join(got, "\n") != strings.Join(r.want, "\n") {
				t.Errorf("%s: %s\ngot:\n%s\nwant:\n%s", where, r.sql, strings.Join(got, "\n"), strings.Join(r.want, "\n"))
			}
		}
	}
}

func sortResult(vals []string, ncol int, mode string) []string {
	switch mode {
	case "valuesort":
		sort.Strings(vals)
	case "rowsort":
		var rows [][]string
		for i := 0; i+ncol <= len(vals); i += ncol {
			rows = append(rows, vals[i:i+ncol])
		}
		sort.Slice(rows, func(i, j int) bool { return strings.Join(rows[i], "\x00") < strings.Join(rows[j], "\x00") })
		var out []string
		for _, r := range rows {
			out = append(out, r...)
		}
		return out
	}
	return vals
}

func execSQL(s *Session, sql string) (Result, error) {
	st, err := s.Prepare(context.Background(), sql)
	if err != nil {
		return Result{}, err
	}
	defer st.Close()
	return st.Exec(context.Background(), nil)
}

func querySQL(s *Session, sql, typs string) ([]string, error) {
	st, err := s.Prepare(context.Background(), sql)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	rows, err := st.Query(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := len(rows.Columns())
	if n != len(typs) {
		return nil, fmt.Errorf("query returns %d columns, record declares %d", n, len(typs))
	}
	dest := make([]types.Value, n)
	var out []string
	for {
		err := rows.Next(dest)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		for i, v := range dest {
			out = append(out, formatValue(v, typs[i]))
		}
	}
}

func TestSQLLogic_Files(t *testing.T) {
	files, err := filepath.Glob("testdata/*.test")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".test"), func(t *testing.T) { runSLTFile(t, f) })
	}
}
