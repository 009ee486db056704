package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// The sqllogictest-style runner: files in testdata/*.test, and the files
// of ../conformance/testdata named in sharedRecordFiles, hold records
// separated by blank lines:
//
//	statement ok | statement error <substring or SQLite result code>
//	<sql>
//
//	query <I|R|T…> [nosort|rowsort|valuesort]
//	<sql>
//	----
//	<one value per line>
//
// A record may be preceded by "skipif <engine>" / "onlyif <engine>" lines
// (conformance's conditions; this runner is engine "ladybug"), and "halt"
// ends a file. Each file runs in a fresh in-memory database.

// sharedRecordFiles are record files kept once, in conformance/testdata
// (where the conformance runner also checks them against SQLite), and run
// here against the engine alone. A file lives in exactly one of the two
// directories: TestSQLLogic_FilesOnce fails on a name found in both.
var sharedRecordFiles = []string{
	"analysis_limit", "analyze_temp", "compound_affinity", "constraint_errors",
	"cte_recursive", "drop_fk", "drop_sequence", "eager_aggregate",
	"gorm_migrator", "gorm_migrator_more", "group_intkey", "group_limit",
	"in_subquery_seek", "order_by_index_more", "order_desc", "pragma_optimize",
	"reindex", "rename_text", "scan_agg", "schema_write", "sqlite_divergences",
	"temp", "window",
}

const sharedRecordDir = "../conformance/testdata"

type sltRecord struct {
	line    int
	kind    string // "ok", "error", "query"
	errText string
	types   string
	sort    string
	sql     string
	want    []string
	skip    bool // a skipif/onlyif condition leaves ladybug out
}

// sltCondition applies a "skipif <engine>" or "onlyif <engine>" line to
// skip (whether the next record is left out for ladybug); ok is false for
// any other line.
func sltCondition(l string, skip *bool) bool {
	f := strings.Fields(l)
	if len(f) < 2 || (f[0] != "skipif" && f[0] != "onlyif") {
		return false
	}
	isLadybug := strings.EqualFold(f[1], "ladybug")
	if (f[0] == "skipif") == isLadybug {
		*skip = true
	}
	return true
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
	inResult, skip := false, false
	flush := func() {
		if cur != nil {
			cur.sql = strings.TrimSpace(cur.sql)
			recs = append(recs, *cur)
		}
		cur, inResult = nil, false
	}
	start := func(r *sltRecord) {
		r.skip, skip = skip, false
		cur = r
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
		case cur == nil && sltCondition(l, &skip):
		case cur == nil && strings.TrimSpace(l) == "halt":
			return recs
		case cur == nil && strings.HasPrefix(l, "statement ok"):
			start(&sltRecord{line: line, kind: "ok"})
		case cur == nil && strings.HasPrefix(l, "statement error"):
			start(&sltRecord{line: line, kind: "error", errText: strings.TrimSpace(strings.TrimPrefix(l, "statement error"))})
		case cur == nil && strings.HasPrefix(l, "query "):
			f := strings.Fields(l)
			start(&sltRecord{line: line, kind: "query", types: f[1], sort: "nosort"})
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
		if r.skip {
			continue
		}
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
			} else if !sltErrorMatches(err, r.errText) {
				t.Errorf("%s: %s\nerror %q does not match %q", where, r.sql, err, r.errText)
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

// sltErrorMatches reports whether err matches a statement-error pattern as
// conformance's MatchError does: a number is SQLite's extended or primary
// result code, anything else a substring of the message, empty any error.
func sltErrorMatches(err error, pattern string) bool {
	if n, perr := strconv.Atoi(pattern); perr == nil {
		var e *errs.Error
		return errors.As(err, &e) && (e.ExtendedCode == n || int(e.Code) == n)
	}
	return strings.Contains(err.Error(), pattern)
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
	for _, name := range sharedRecordFiles {
		files = append(files, filepath.Join(sharedRecordDir, name+".test"))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".test"), func(t *testing.T) { runSLTFile(t, f) })
	}
}

// TestSQLLogic_FilesOnce: no record file is kept in both testdata
// directories, and every shared file exists.
func TestSQLLogic_FilesOnce(t *testing.T) {
	for _, name := range sharedRecordFiles {
		if _, err := os.Stat(filepath.Join(sharedRecordDir, name+".test")); err != nil {
			t.Errorf("shared record file: %v", err)
		}
	}
	mine, err := filepath.Glob("testdata/*.test")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range mine {
		if _, err := os.Stat(filepath.Join(sharedRecordDir, filepath.Base(f))); err == nil {
			t.Errorf("%s is also in %s: keep one copy (list it in sharedRecordFiles)", f, sharedRecordDir)
		}
	}
}
