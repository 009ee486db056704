package ladybug_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// queryRows renders each row of q as its values joined by "|", NULL as
// "NULL".
func queryRows(t *testing.T, db queryer, q string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), q, args...)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		parts := make([]string, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				parts[i] = "NULL"
			case []byte:
				parts[i] = string(x)
			default:
				parts[i] = fmt.Sprint(x)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	require.NoError(t, rows.Err())
	return out
}

// Placeholders number in the order of the SQL text, as SQLite numbers
// them, whatever order the statement's parts are built or run in: each
// case binds arguments whose meaning depends on that order, and SQLite's
// answer is the one wanted.
func TestDriver_Params_NumberedInTextOrder(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT);
			CREATE TABLE p (id INTEGER PRIMARY KEY, uid INTEGER, name TEXT);
			CREATE TABLE kv (k INTEGER PRIMARY KEY, v);
			INSERT INTO u VALUES (1, 'alice'), (2, 'bob');
			INSERT INTO p VALUES (10, 1, 'cat'), (11, 2, 'dog')`)
		for _, c := range []struct {
			name, sql string
			args      []any
			want      []string
		}{
			{"join ON before WHERE", `SELECT u.id FROM u JOIN p ON p.uid = u.id AND p.name = ? WHERE u.name = ?`,
				[]any{"cat", "alice"}, []string{"1"}},
			{"LEFT JOIN ON before WHERE", `SELECT u.id, p.id FROM u LEFT JOIN p ON p.uid = u.id AND p.name = ? WHERE u.name = ? ORDER BY 1`,
				[]any{"dog", "bob"}, []string{"2|11"}},
			{"CASE WHEN THEN ELSE", `SELECT name, CASE WHEN name = 'alice' THEN ? ELSE ? END FROM u ORDER BY id`,
				[]any{"main", "other"}, []string{"alice|main", "bob|other"}},
			{"CASE operand", `SELECT CASE ? WHEN 1 THEN ? WHEN 2 THEN ? ELSE ? END`,
				[]any{2, "a", "b", "c"}, []string{"b"}},
			{"derived table before WHERE", `SELECT s.v FROM (SELECT ? AS v) AS s WHERE ? = 1`,
				[]any{"val", 1}, []string{"val"}},
			{"derived table before GROUP BY and HAVING", `SELECT s.g, count(*) FROM (SELECT ? AS g) AS s GROUP BY s.g HAVING count(*) >= ?`,
				[]any{"x", 1}, []string{"x|1"}},
			{"VALUES in FROM", `SELECT column1 FROM (VALUES (?), (?)) WHERE column1 = ? ORDER BY 1`,
				[]any{5, 6, 6}, []string{"6"}},
			{"subquery in select list and WHERE", `SELECT (SELECT ? + 1), ? FROM u WHERE id = ?`,
				[]any{10, "y", 2}, []string{"11|y"}},
			{"named then bare", `SELECT :a, ?`, []any{sql.Named("a", 1), 2}, []string{"1|2"}},
			{"?NNN then bare", `SELECT ?3, ?, ?1`, []any{"one", "two", "three", "four"}, []string{"three|four|one"}},
			{"recursive CTE", `WITH RECURSIVE c(n) AS (SELECT :start UNION ALL SELECT n + 1 FROM c WHERE n < ?) SELECT count(*) FROM c`,
				[]any{sql.Named("start", 1), 5}, []string{"5"}},
			{"CTE before body", `WITH w(x) AS (SELECT ?) SELECT x, ? FROM w WHERE ? = 'go'`,
				[]any{"cte", "body", "go"}, []string{"cte|body"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				assert.Equal(t, c.want, queryRows(t, db, c.sql, c.args...))
			})
		}
		// Writes, in turn: each case sees the previous ones' rows.
		for _, c := range []struct {
			name, sql string
			args      []any
			want      []string
		}{
			{"INSERT RETURNING", `INSERT INTO kv(k, v) VALUES (?, ?) RETURNING k, v, ?`, []any{7, 70, 3}, []string{"7|70|3"}},
			{"DO UPDATE SET", `INSERT INTO kv(k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = ? WHERE kv.v = ? RETURNING k, v, ?`,
				[]any{7, 1, 99, 70, "ret"}, []string{"7|99|ret"}},
			{"UPDATE FROM", `UPDATE kv SET v = ? FROM (SELECT ? AS kk) AS s WHERE kv.k = s.kk AND ? = 'yes' RETURNING k, v`,
				[]any{123, 7, "yes"}, []string{"7|123"}},
			{"INSERT SELECT", `INSERT INTO kv(k, v) SELECT ?, x FROM (SELECT ? AS x) WHERE ? > 0 RETURNING k, v`,
				[]any{8, "sel", 1}, []string{"8|sel"}},
			{"DELETE IN subquery", `DELETE FROM kv WHERE k IN (SELECT ? UNION SELECT ?) AND v = ? RETURNING k`,
				[]any{7, 8, "sel"}, []string{"8"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				assert.Equal(t, c.want, queryRows(t, db, c.sql, c.args...))
			})
		}
	})
}

// :a, @a and $a are three placeholders (SQLite numbers them apart, which
// moves a bare ? after them); a named argument binds all three.
func TestDriver_Params_PrefixesNumberApart(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		assert.Equal(t, []string{"15"}, queryRows(t, db, `SELECT :a + @a + $a`, sql.Named("a", 5)))
		assert.Equal(t, []string{"1|2|3"}, queryRows(t, db, `SELECT :a, @a, ?`, 1, 2, 3))
		assert.Equal(t, []string{"1|1|2"}, queryRows(t, db, `SELECT :a, :a, ?`, 1, 2))
	})
}
