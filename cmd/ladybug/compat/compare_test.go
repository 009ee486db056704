package compat

import (
	"bytes"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/cmd/ladybug/shell"
)

// loadFixture builds testdata/fixture.sql into a new ladybug file through
// the shell and returns the shell on it.
func loadFixture(t *testing.T, path, script string) *shell.Shell {
	t.Helper()
	var errOut bytes.Buffer
	s := shell.New(&bytes.Buffer{}, &errOut)
	require.NoError(t, s.Open(path, false))
	s.Run(strings.NewReader(script), "fixture.sql")
	require.Empty(t, errOut.String())
	require.False(t, s.Failed())
	return s
}

// dot runs one dot command and returns what it printed on stdout and
// stderr.
func dot(t *testing.T, path, cmd string) (string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := shell.New(&out, &errOut)
	require.NoError(t, s.Open(path, false))
	s.Dot(cmd)
	require.NoError(t, s.Close())
	return out.String(), errOut.String()
}

func queryAll(db *sql.DB, q string, args ...any) ([][]any, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			vals[i] = normalize(v)
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

var timeLayouts = []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02"}

// normalize puts the values of different drivers into one form: integers
// as int64, booleans as 1/0, times (and text that reads as a time) as
// "YYYY-MM-DD HH:MM:SS", numeric text as float64.
func normalize(v any) any {
	switch x := v.(type) {
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case int32:
		return int64(x)
	case float32:
		return float64(x)
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.999999999")
	case []byte:
		return append([]byte{}, x...)
	case string:
		for _, l := range timeLayouts {
			if t, err := time.Parse(l, x); err == nil {
				return t.UTC().Format("2006-01-02 15:04:05.999999999")
			}
		}
	}
	return v
}

// sameValue compares two normalized values: numbers within a relative
// 1e-9, everything else exactly (text byte for byte).
func sameValue(a, b any) bool {
	fa, aok := number(a)
	fb, bok := number(b)
	if aok && bok {
		if fa == fb {
			return true
		}
		return math.Abs(fa-fb) <= 1e-9*math.Max(math.Abs(fa), math.Abs(fb))
	}
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && bytes.Equal(ab, bb)
	}
	return fmt.Sprintf("%T %v", a, a) == fmt.Sprintf("%T %v", b, b)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// diffRows describes how two answers differ, or returns "".
func diffRows(a, b [][]any) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d rows vs %d rows:\n%v\n%v", len(a), len(b), a, b)
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return fmt.Sprintf("row %d: %d columns vs %d", i, len(a[i]), len(b[i]))
		}
		for j := range a[i] {
			if !sameValue(a[i][j], b[i][j]) {
				return fmt.Sprintf("row %d column %d: %#v vs %#v", i, j, a[i][j], b[i][j])
			}
		}
	}
	return ""
}

// fixtureQueries are asked of every copy of the fixture.
var fixtureQueries = []string{
	`SELECT id, name, email, active, born, created, balance, photo, score, big FROM customers ORDER BY id`,
	`SELECT id, customer_id, amount, qty, note, total FROM orders ORDER BY id`,
	`SELECT order_id, tag FROM tags ORDER BY order_id, tag`,
	`SELECT name, n, total FROM customer_totals ORDER BY name`,
	`SELECT count(*), sum(amount), max(qty), min(note) FROM orders`,
	`SELECT c.name, o.amount, o.total FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.amount > 1 ORDER BY o.id`,
	`SELECT length(name), upper(email) FROM customers ORDER BY id`,
	`SELECT count(*) FROM customers WHERE active AND born < '1999-01-01'`,
}
