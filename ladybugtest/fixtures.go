package ladybugtest

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// LoadSQL runs the SQL script in the file at path on db, in one
// transaction, and fails the test on error.
func LoadSQL(t testing.TB, db *sql.DB, path string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("ladybugtest: LoadSQL: %v", err)
	}
	if err := execScript(db, string(text)); err != nil {
		t.Fatalf("ladybugtest: LoadSQL %s: %v", path, err)
	}
}

// LoadCSV inserts the rows of the CSV file at path into table, in one
// transaction, and fails the test on error. See InsertCSV.
func LoadCSV(t testing.TB, db *sql.DB, table, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("ladybugtest: LoadCSV: %v", err)
	}
	defer f.Close()
	if _, err := InsertCSV(db, table, f); err != nil {
		t.Fatalf("ladybugtest: LoadCSV %s: %v", path, err)
	}
}

// InsertCSV inserts CSV rows into table in one transaction and returns how
// many it inserted. The first record names the columns; every later record
// is one row. Fields are inserted as text, so the columns' types convert
// them as SQLite's type affinity does ("42" into an INTEGER column is 42);
// an empty field is NULL.
func InsertCSV(db *sql.DB, table string, r io.Reader) (int, error) {
	cr := csv.NewReader(r)
	cols, err := cr.Read()
	if err != nil {
		return 0, fmt.Errorf("csv header: %w", err)
	}
	quoted := make([]string, len(cols))
	marks := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = quoteIdent(strings.TrimSpace(c))
		marks[i] = "?"
	}
	tx, err := db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	st, err := tx.Prepare(fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", quoteIdent(table), strings.Join(quoted, ", "), strings.Join(marks, ", ")))
	if err != nil {
		return 0, err
	}
	defer st.Close()
	args := make([]any, len(cols))
	n := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, fmt.Errorf("csv: %w", err)
		}
		for i, f := range rec {
			if f == "" {
				args[i] = nil
			} else {
				args[i] = f
			}
		}
		if _, err := st.Exec(args...); err != nil {
			return n, fmt.Errorf("csv line %d: %w", n+2, err)
		}
		n++
	}
	if err := st.Close(); err != nil {
		return n, err
	}
	return n, tx.Commit()
}

// quoteIdent quotes a name for SQL: a schema-qualified "s.t" stays two
// names.
func quoteIdent(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
	}
	return strings.Join(parts, ".")
}

// DumpTable renders every row of table as text (see DumpQuery), ordered by
// all its columns, so the dump does not depend on storage order.
func DumpTable(t testing.TB, db *sql.DB, table string) string {
	t.Helper()
	rows, err := db.Query("SELECT * FROM " + quoteIdent(table) + " LIMIT 0")
	if err != nil {
		t.Fatalf("ladybugtest: DumpTable %s: %v", table, err)
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		t.Fatalf("ladybugtest: DumpTable %s: %v", table, err)
	}
	order := make([]string, len(cols))
	for i := range cols {
		order[i] = strconv.Itoa(i + 1)
	}
	return DumpQuery(t, db, "SELECT * FROM "+quoteIdent(table)+" ORDER BY "+strings.Join(order, ", "))
}

// DumpQuery runs query and renders its result as text for golden files: a
// header line of column names, then one line per row, values separated by
// " | ". NULL is NULL, text is written as is (a newline as \n), a BLOB as
// x'hex', a time in RFC 3339, numbers as Go formats them.
func DumpQuery(t testing.TB, db *sql.DB, query string, args ...any) string {
	t.Helper()
	out, err := Dump(db, query, args...)
	if err != nil {
		t.Fatalf("ladybugtest: DumpQuery: %v", err)
	}
	return out
}

// Dump is DumpQuery returning its error.
func Dump(db *sql.DB, query string, args ...any) (string, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(strings.Join(cols, " | "))
	b.WriteByte('\n')
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(formatValue(v))
		}
		b.WriteByte('\n')
	}
	return b.String(), rows.Err()
}

func formatValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return "x'" + hex.EncodeToString(v) + "'"
	case string:
		return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(v)
	case time.Time:
		return v.Format(time.RFC3339Nano)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// Golden compares got with the file at path and fails the test when they
// differ, showing both. With LADYBUGTEST_UPDATE=1 in the environment it
// writes got to the file instead (creating its directory).
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if os.Getenv("LADYBUGTEST_UPDATE") == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("ladybugtest: Golden: %v", err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("ladybugtest: Golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("ladybugtest: Golden: %v (run with LADYBUGTEST_UPDATE=1 to create it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("ladybugtest: %s differs (LADYBUGTEST_UPDATE=1 rewrites it)\n--- want\n%s--- got\n%s", path, want, got)
	}
}
