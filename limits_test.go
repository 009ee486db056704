package ladybug_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/require"
)

// joined is n copies of term separated by sep.
func joined(term, sep string, n int) string {
	return strings.TrimSuffix(strings.Repeat(term+sep, n), sep)
}

// cteChain is a WITH of n CTEs, each reading the one before, and a query
// of the last.
func cteChain(n int) string {
	var b strings.Builder
	b.WriteString("WITH c0(x) AS (SELECT 1)")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, ", c%d(x) AS (SELECT x FROM c%d)", i, i-1)
	}
	fmt.Fprintf(&b, " SELECT x FROM c%d", n-1)
	return b.String()
}

func openLimitsDB(t *testing.T) *sql.DB { return openLimitsDBAt(t, ":memory:") }

// openLimitsDBAt opens dsn on one connection with a table t(a, b).
func openLimitsDBAt(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("ladybug", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	_, err = db.Exec("CREATE TABLE t(a, b)")
	require.NoError(t, err)
	return db
}

// TestLimits_SQLitesLimitsWithSQLitesErrors runs each limit of
// docs/LIMITS.md at its value (accepted) and one past it (SQLite's
// error), through the driver.
func TestLimits_SQLitesLimitsWithSQLitesErrors(t *testing.T) {
	db := openLimitsDB(t)
	for _, c := range []struct {
		name, ok, bad, msg string
	}{
		{"expression depth", "SELECT " + joined("1", "+", 1000), "SELECT " + joined("1", "+", 1001), "Expression tree is too large (maximum depth 1000)"},
		{"expression depth AND", "SELECT " + joined("1", " AND ", 1000), "SELECT " + joined("1", " AND ", 1_000_000), "Expression tree is too large (maximum depth 1000)"},
		{"expression depth ||", "SELECT " + joined("'a'", "||", 1000), "SELECT " + joined("'a'", "||", 1_000_000), "Expression tree is too large (maximum depth 1000)"},
		{"compound terms", "SELECT count(*) FROM (" + joined("SELECT 1", " UNION ALL ", 500) + ")", "SELECT count(*) FROM (" + joined("SELECT 1", " UNION ALL ", 501) + ")", "too many terms in compound SELECT"},
		{"result columns", "SELECT " + joined("a", ",", 2000) + " FROM t", "SELECT " + joined("a", ",", 2001) + " FROM t", "too many columns in result set"},
		{"star columns", "SELECT " + joined("*", ",", 1000) + " FROM t", "SELECT " + joined("*", ",", 1001) + " FROM t", "too many columns in result set"},
		{"values terms", "VALUES(" + joined("1", ",", 2000) + ")", "VALUES(" + joined("1", ",", 2001) + ")", "too many columns in result set"},
		{"order by terms", "SELECT a FROM t ORDER BY " + joined("a", ",", 2000), "SELECT a FROM t ORDER BY " + joined("a", ",", 2001), "too many terms in ORDER BY clause"},
		{"group by terms", "SELECT a FROM t GROUP BY " + joined("a", ",", 2000), "SELECT a FROM t GROUP BY " + joined("a", ",", 2001), "too many terms in GROUP BY clause"},
		{"join tables", "SELECT count(*) FROM " + joined("t", ",", 64), "SELECT count(*) FROM " + joined("t", ",", 1000), "at most 64 tables in a join"},
		{"function arguments", "SELECT max(" + joined("1", ",", 1000) + ")", "SELECT max(" + joined("1", ",", 1001) + ")", "too many arguments on function max"},
		{"variable number", "SELECT ?32766 IS NULL", "SELECT ?32767", "variable number must be between ?1 and ?32766"},
		{"cte chain", cteChain(999), cteChain(10_000), "VIEWs and/or subqueries nested too deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []any{}
			if strings.Contains(c.ok, "?32766") {
				args = make([]any, 32766)
			}
			rows, err := db.Query(c.ok, args...)
			require.NoError(t, err)
			require.NoError(t, rows.Close())
			_, err = db.Query(c.bad)
			require.ErrorContains(t, err, c.msg)
		})
	}
}

func TestLimits_TableColumns(t *testing.T) {
	db := openLimitsDB(t)
	var b strings.Builder
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&b, ",c%d", i)
	}
	all := b.String()[1:]
	_, err := db.Exec("CREATE TABLE w(" + all + ")")
	require.ErrorContains(t, err, "too many columns on w")
	at := strings.Index(all, ",c2000")
	_, err = db.Exec("CREATE TABLE w(" + all[:at] + ")")
	require.NoError(t, err)
	_, err = db.Exec("ALTER TABLE w ADD COLUMN extra")
	require.ErrorContains(t, err, "too many columns on w")
}

// TestLimits_ViewChains: a chain of views nests like a chain of CTEs; a
// long chain is not mistaken for a circular one, a real cycle still is.
func TestLimits_ViewChains(t *testing.T) {
	db := openLimitsDB(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "CREATE VIEW v0 AS SELECT 1 AS x")
	require.NoError(t, err)
	for i := 1; i < 100; i++ {
		_, err = conn.ExecContext(ctx, fmt.Sprintf("CREATE VIEW v%d AS SELECT x FROM v%d", i, i-1))
		require.NoError(t, err)
	}
	var x int
	require.NoError(t, conn.QueryRowContext(ctx, "SELECT x FROM v99").Scan(&x))
	require.Equal(t, 1, x)
	// 100 views under 900 CTEs pass SQLite's nesting limit of 1000.
	chain := strings.Replace(cteChain(900), "c0(x) AS (SELECT 1)", "c0(x) AS (SELECT x FROM v99)", 1)
	_, err = conn.QueryContext(ctx, chain)
	require.ErrorContains(t, err, "VIEWs and/or subqueries nested too deep")
	// A view made circular by a rename of a table is still reported as such.
	_, err = conn.ExecContext(ctx, "CREATE TABLE base(x); CREATE VIEW loop AS SELECT x FROM base; DROP TABLE base; CREATE VIEW base AS SELECT x FROM loop")
	if err == nil {
		_, err = conn.QueryContext(ctx, "SELECT x FROM loop")
		require.ErrorContains(t, err, "circularly defined")
	}
}

func TestLimits_TriggerDepth(t *testing.T) {
	db := openLimitsDB(t)
	_, err := db.Exec(`PRAGMA recursive_triggers = ON;
		CREATE TABLE n(x);
		CREATE TRIGGER more AFTER INSERT ON n WHEN new.x < (SELECT a FROM t) BEGIN INSERT INTO n VALUES (new.x + 1); END;
		INSERT INTO t VALUES (1000, 0)`)
	require.NoError(t, err)
	_, err = db.Exec("INSERT INTO n VALUES (1)") // 999 nested trigger programs
	require.NoError(t, err)
	_, err = db.Exec("UPDATE t SET a = 1001; DELETE FROM n")
	require.NoError(t, err)
	_, err = db.Exec("INSERT INTO n VALUES (1)")
	require.ErrorContains(t, err, "too many levels of trigger recursion")
}

// TestLimits_LikeAndGlob: SQLite's pattern length limit, and the
// wildcard-heavy pattern that once ran for minutes answers at once.
func TestLimits_LikeAndGlob(t *testing.T) {
	db := openLimitsDB(t)
	var m int
	require.NoError(t, db.QueryRow("SELECT printf('%.*c', 1000, 'a') LIKE '%a%a%a%b'").Scan(&m))
	require.Equal(t, 0, m)
	require.NoError(t, db.QueryRow("SELECT printf('%.*c', 1000, 'a') GLOB '*a*a*a*a'").Scan(&m))
	require.Equal(t, 1, m)
	require.NoError(t, db.QueryRow("SELECT 'a' LIKE printf('%.*c', 50000, 'a')").Scan(&m))
	for _, q := range []string{
		"SELECT 'a' LIKE printf('%.*c', 50001, 'a')",
		"SELECT 'a' GLOB printf('%.*c', 50001, 'a')",
		"SELECT like(printf('%.*c', 50001, 'a'), 'a')",
	} {
		require.ErrorContains(t, db.QueryRow(q).Scan(&m), "LIKE or GLOB pattern too complex", q)
	}
}

// TestLimits_MemoryLimitCoversEveryGrowingOperator: each operator that
// holds rows or keys growing with its input fails with the memory-limit
// error under a small memory_limit instead of growing past it.
func TestLimits_MemoryLimitCoversEveryGrowingOperator(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:?memory_limit=1MiB")
	require.NoError(t, err)
	defer db.Close()
	for name, q := range map[string]string{
		"distinct":            "SELECT count(*) FROM (SELECT DISTINCT value FROM generate_series(1, 1000000))",
		"count distinct":      "SELECT count(DISTINCT value) FROM generate_series(1, 1000000)",
		"union":               "SELECT count(*) FROM (SELECT value FROM generate_series(1, 1000000) UNION SELECT value FROM generate_series(1, 10))",
		"except":              "SELECT count(*) FROM (SELECT 1 EXCEPT SELECT value FROM generate_series(1, 1000000))",
		"recursive cte union": "WITH RECURSIVE r(x) AS (SELECT 1 UNION SELECT x + 1 FROM r WHERE x < 1000000) SELECT count(*) FROM r",
		"recursive cte queue": "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 1000000 UNION ALL SELECT x + 2 FROM r WHERE x < 1000000) SELECT count(*) FROM r",
		"window":              "SELECT max(s) FROM (SELECT sum(value) OVER (ORDER BY -value) s FROM generate_series(1, 1000000))",
		"group by":            "SELECT count(*) FROM (SELECT value, count(*) FROM generate_series(1, 1000000) GROUP BY value)",
		"group_concat":        "SELECT length(group_concat(printf('%.*c', 1000, 'a'))) FROM generate_series(1, 10000)",
		"string_agg grouped":  "SELECT max(length(s)) FROM (SELECT string_agg(printf('%.*c', 1000, 'a'), ',') s FROM generate_series(1, 10000) GROUP BY value % 2)",
		"window keys":         "SELECT max(s) FROM (SELECT count(*) OVER (PARTITION BY value % 3 ORDER BY printf('%.*c', 100, value)) s FROM generate_series(1, 100000))",
	} {
		requireMemoryLimit(t, db, name, q)
	}
}

// requireMemoryLimit runs query q as subtest name and requires the
// memory-limit error.
func requireMemoryLimit(t *testing.T, db *sql.DB, name, q string) {
	t.Run(name, func(t *testing.T) {
		var n any
		err := db.QueryRow(q).Scan(&n)
		require.ErrorIs(t, err, ladybug.ErrNoMem)
		require.ErrorContains(t, err, "memory limit")
	})
}

// TestLimits_MemoryLimitCoversBufferedDeletes: the tombstones a DELETE or
// a key-changing UPDATE leaves buffered until commit count toward the
// statement's memory_limit; the failed statement changes nothing.
func TestLimits_MemoryLimitCoversBufferedDeletes(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:?memory_limit=1MiB")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		`CREATE TABLE t(id INTEGER PRIMARY KEY, k INT)`,
		`CREATE INDEX t_k ON t(k)`,
		`INSERT INTO t SELECT value, (value * 7919) % 100003 FROM generate_series(1, 100000)`,
	} {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	var sum0 int64
	require.NoError(t, db.QueryRow(`SELECT sum(k) FROM t`).Scan(&sum0))
	for _, s := range []string{`DELETE FROM t`, `UPDATE t SET k = k + 1`} {
		_, err := db.Exec(s)
		require.ErrorIs(t, err, ladybug.ErrNoMem, s)
		require.ErrorContains(t, err, "memory limit", s)
		var n, sum int64
		require.NoError(t, db.QueryRow(`SELECT count(*), sum(k) FROM t INDEXED BY t_k WHERE k >= 0`).Scan(&n, &sum))
		require.Equal(t, int64(100000), n, s)
		require.Equal(t, sum0, sum, s)
	}
	var ok string
	require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
	require.Equal(t, "ok", ok)
	// A small one fits.
	res, err := db.Exec(`DELETE FROM t WHERE id <= 1000`)
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.Equal(t, int64(1000), n)
}

func TestLimits_StringOrBlobTooBig(t *testing.T) {
	db := openLimitsDB(t)
	var n int64
	for _, q := range []string{
		"SELECT length(printf('%1000000000d', 1))",
		"SELECT length(printf('%.*c', 1000000001, 'a'))",
		"SELECT length(zeroblob(1000000001))",
	} {
		require.ErrorContains(t, db.QueryRow(q).Scan(&n), "string or blob too big", q)
	}
}

// TestLimits_LongInListOfLiterals: the values of a constant IN list are
// held once (a list of a million literals once took over 3 GB).
func TestLimits_LongInListOfLiterals(t *testing.T) {
	db := openLimitsDB(t)
	var in, notIn int
	list := joined("1", ",", 199_999) + ",2"
	require.NoError(t, db.QueryRow("SELECT 2 IN ("+list+"), 3 NOT IN ("+list+")").Scan(&in, &notIn))
	require.Equal(t, 1, in)
	require.Equal(t, 1, notIn)
}

// inLiterals is n distinct integer literals, comma-separated.
func inLiterals(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, 1000+i)
	}
	return b.String()
}

// TestLimits_MemoryLimitCoversGrowingValues: aggregates that build one
// growing text (json_group_array, json_group_object) and scalar results
// that can be much larger than their arguments fail with the memory-limit
// error under a small memory_limit instead of allocating, and a write
// that would store such a value changes nothing.
func TestLimits_MemoryLimitCoversGrowingValues(t *testing.T) {
	db := openLimitsDBAt(t, ":memory:?memory_limit=1MiB")
	_, err := db.Exec(`INSERT INTO t VALUES (1, 'x')`)
	require.NoError(t, err)
	for name, q := range map[string]string{
		"json_group_array":          "SELECT length(json_group_array(printf('%.*c', 1000, 'a'))) FROM generate_series(1, 10000)",
		"json_group_object":         "SELECT length(json_group_object(value, printf('%.*c', 1000, 'a'))) FROM generate_series(1, 10000)",
		"json_group_object grouped": "SELECT max(length(s)) FROM (SELECT json_group_object(value, printf('%.*c', 1000, 'a')) s FROM generate_series(1, 10000) GROUP BY value % 2)",
		"replace":                   "SELECT length(replace(printf('%.*c', 100000, 'a'), 'a', printf('%.*c', 1000, 'b')))",
		"zeroblob":                  "SELECT length(zeroblob(100000000))",
		"randomblob":                "SELECT length(randomblob(100000000))",
		"printf":                    "SELECT length(printf('%.*c', 100000000, 'a'))",
		"format width":              "SELECT length(format('%100000000d', 1))",
		"hex":                       "SELECT length(hex(b)) FROM (SELECT zeroblob(900000) b)",
		"concat":                    "SELECT length(concat(b, b, b)) FROM (SELECT zeroblob(500000) b)",
		"concat_ws":                 "SELECT length(concat_ws(',', b, b, b)) FROM (SELECT zeroblob(500000) b)",
		"quote":                     "SELECT length(quote(b)) FROM (SELECT zeroblob(600000) b)",
		"operator ||":               "SELECT length(b || b || b) FROM (SELECT zeroblob(500000) b)",
		"IN list set":               "SELECT count(*) FROM generate_series(1, 10) WHERE value IN (" + inLiterals(100000) + ")",
		"doubling ||":               "WITH RECURSIVE r(s, n) AS (SELECT 'ab', 0 UNION ALL SELECT s || s, n + 1 FROM r WHERE n < 40) SELECT max(length(s)) FROM r",
	} {
		requireMemoryLimit(t, db, name, q)
	}
	_, err = db.Exec(`UPDATE t SET b = zeroblob(100000000)`)
	require.ErrorContains(t, err, "memory limit")
	_, err = db.Exec(`INSERT INTO t SELECT 2, printf('%.*c', 100000000, 'a')`)
	require.ErrorContains(t, err, "memory limit")
	var a int
	var b string
	require.NoError(t, db.QueryRow(`SELECT a, b FROM t`).Scan(&a, &b))
	require.Equal(t, 1, a)
	require.Equal(t, "x", b)
	// Below the limit the same functions work.
	var n int
	require.NoError(t, db.QueryRow(`SELECT length(json_group_object(value, printf('%.*c', 10, 'a'))) FROM generate_series(1, 1000)`).Scan(&n))
	require.Greater(t, n, 10000)
	require.NoError(t, db.QueryRow(`SELECT length(printf('%.*c', 500000, 'a') || 'x')`).Scan(&n))
	require.Equal(t, 500001, n)
}

// TestLimits_SortSpillsUnderMemoryLimit: an ORDER BY whose rows pass a
// small memory_limit sorts through temp files and returns the same rows
// in the same order as without a limit (equal keys in input order too),
// with text payloads, NULLs, DESC keys and a LIMIT/OFFSET above it.
func TestLimits_SortSpillsUnderMemoryLimit(t *testing.T) {
	small := openLimitsDBAt(t, ":memory:?memory_limit=1MiB")
	free := openLimitsDB(t)
	fill := `INSERT INTO t SELECT CASE WHEN value % 97 = 0 THEN NULL ELSE (value * 7919) % 5003 END,
		printf('%08d-%.*c', value, value % 50, 'x') FROM generate_series(1, 60000)`
	for _, db := range []*sql.DB{small, free} {
		_, err := db.Exec(fill)
		require.NoError(t, err)
	}
	for _, q := range []string{
		"SELECT a, b FROM t ORDER BY a",
		"SELECT a, b FROM t ORDER BY a DESC, length(b)",
		"SELECT b FROM t ORDER BY b DESC",
		"SELECT a, b FROM t ORDER BY a LIMIT 100 OFFSET 30000",
		"SELECT a % 10, count(*), min(b) FROM (SELECT a, b FROM t ORDER BY a) GROUP BY 1 ORDER BY 2 DESC, 1",
	} {
		require.Equal(t, queryRows(t, free, q), queryRows(t, small, q), q)
	}
	// The sort did go through a temp file: with no usable temp directory
	// the limited one fails with a clear error, the other still sorts.
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	rows, err := small.Query("SELECT a, b FROM t ORDER BY a")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	require.ErrorContains(t, err, "sorting to a temp file")
	require.Len(t, queryRows(t, free, "SELECT a, b FROM t ORDER BY a"), 60000)
}

// TestLimits_ProcessMemoryBudgetSharedByConnections: SetMemoryBudget caps
// what the operators of all connections hold together. A grouping that
// fits alone fails on a second connection while the first one's result
// set holds its groups, and runs again once that one is closed; a sort
// spills instead of failing; the bytes come back when the statements end.
func TestLimits_ProcessMemoryBudgetSharedByConnections(t *testing.T) {
	a := openLimitsDBAt(t, ":memory:")
	b := openLimitsDBAt(t, "file:budget_b?mode=memory")
	const group = "SELECT value % 50000, count(*) FROM generate_series(1, 200000) GROUP BY 1"
	base := ladybug.MemoryBudgetUsed()
	ra, err := a.Query(group)
	require.NoError(t, err)
	require.True(t, ra.Next())
	one := ladybug.MemoryBudgetUsed() - base
	require.Greater(t, one, int64(1<<20), "the grouping holds its groups")
	require.NoError(t, ra.Close())
	require.Equal(t, base, ladybug.MemoryBudgetUsed())

	defer ladybug.SetMemoryBudget(ladybug.SetMemoryBudget(base + one*3/2))
	ra, err = a.Query(group)
	require.NoError(t, err)
	require.True(t, ra.Next())
	var n int
	err = b.QueryRow("SELECT count(*) FROM (" + group + ")").Scan(&n)
	require.ErrorIs(t, err, ladybug.ErrNoMem)
	require.ErrorContains(t, err, "process memory budget")
	// A sort on the second connection spills instead.
	rows := queryRows(t, b, "SELECT value FROM generate_series(1, 200000) ORDER BY -value LIMIT 3 OFFSET 100000")
	require.Equal(t, []string{"100000", "99999", "99998"}, rows)
	require.NoError(t, ra.Close())
	require.NoError(t, b.QueryRow("SELECT count(*) FROM ("+group+")").Scan(&n))
	require.Equal(t, 50000, n)
	require.Equal(t, base, ladybug.MemoryBudgetUsed())
}

// TestLimits_LoweredPerDSN: each limit_NAME DSN option lowers its limit as
// sqlite3_limit does: a statement at the lowered limit runs, one past it
// gets SQLite's error; a value above the default keeps the default; a
// bad value is refused at open.
func TestLimits_LoweredPerDSN(t *testing.T) {
	db := openLimitsDBAt(t, "file:lowered?mode=memory&limit_length=1000&limit_sql_length=200&limit_column=10"+
		"&limit_expr_depth=10&limit_compound_select=3&limit_function_arg=3&limit_like_pattern_length=10"+
		"&limit_variable_number=10&limit_trigger_depth=5")
	_, err := db.Exec(`CREATE TABLE nums(n); INSERT INTO nums VALUES (400), (1000), (1001)`)
	require.NoError(t, err)
	for _, c := range []struct {
		name, ok, bad, msg string
	}{
		{"length zeroblob", "SELECT length(zeroblob(n)) FROM nums WHERE n = 1000", "SELECT length(zeroblob(n)) FROM nums WHERE n = 1001", "string or blob too big"},
		{"length ||", "SELECT length(zeroblob(600) || zeroblob(n)) FROM nums WHERE n = 400", "SELECT length(zeroblob(600) || zeroblob(n)) FROM nums WHERE n = 1000", "string or blob too big"},
		{"length constant", "SELECT length(zeroblob(1000))", "SELECT length(zeroblob(1001))", "string or blob too big"},
		{"like constant", "SELECT 'a' LIKE '" + strings.Repeat("%", 10) + "'", "SELECT 'a' LIKE '" + strings.Repeat("%", 11) + "'", "LIKE or GLOB pattern too complex"},
		{"length replace", "SELECT length(replace(printf('%.*c', n, 'a'), 'a', 'ab')) FROM nums WHERE n = 400", "SELECT length(replace(printf('%.*c', n, 'a'), 'a', 'abc')) FROM nums WHERE n = 400", "string or blob too big"},
		{"sql length", "SELECT 1" + strings.Repeat(" ", 192), "SELECT 1" + strings.Repeat(" ", 193), "sql text too long"},
		{"columns", "SELECT " + joined("1", ",", 10), "SELECT " + joined("1", ",", 11), "too many columns in result set"},
		{"values columns", "VALUES (" + joined("1", ",", 10) + ")", "VALUES (" + joined("1", ",", 11) + ")", "too many columns in result set"},
		{"expression depth", "SELECT " + joined("1", "+", 10), "SELECT " + joined("1", "+", 11), "Expression tree is too large (maximum depth 10)"},
		{"compound terms", joined("SELECT 1", " UNION ALL ", 3), joined("SELECT 1", " UNION ALL ", 4), "too many terms in compound SELECT"},
		{"function arguments", "SELECT max(1, 2, 3)", "SELECT max(1, 2, 3, 4)", "too many arguments on function max"},
		{"like pattern", "SELECT 'a' LIKE printf('%.*c', n / 100, '%') FROM nums WHERE n = 1000", "SELECT 'a' LIKE printf('%.*c', n / 100 + 1, '%') FROM nums WHERE n = 1000", "LIKE or GLOB pattern too complex"},
		{"glob function", "SELECT glob(printf('%.*c', n / 100, '*'), 'a') FROM nums WHERE n = 1000", "SELECT glob(printf('%.*c', n / 100 + 1, '*'), 'a') FROM nums WHERE n = 1000", "LIKE or GLOB pattern too complex"},
		{"variable number", "SELECT ?10 IS NULL", "SELECT ?11", "variable number must be between ?1 and ?10"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var args []any
			if strings.Contains(c.ok, "?10") {
				args = make([]any, 10)
			}
			rows, err := db.Query(c.ok, args...)
			require.NoError(t, err)
			for rows.Next() {
			}
			require.NoError(t, rows.Err())
			require.NoError(t, rows.Close())
			rows, err = db.Query(c.bad)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			require.ErrorContains(t, err, c.msg)
		})
	}
	// Tables: CREATE TABLE and ALTER TABLE ADD COLUMN.
	cols := make([]string, 11)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i)
	}
	_, err = db.Exec("CREATE TABLE w(" + strings.Join(cols, ",") + ")")
	require.ErrorContains(t, err, "too many columns on w")
	_, err = db.Exec("CREATE TABLE w(" + strings.Join(cols[:10], ",") + ")")
	require.NoError(t, err)
	_, err = db.Exec("ALTER TABLE w ADD COLUMN c10")
	require.ErrorContains(t, err, "too many columns on w")
	// Triggers: 4 nested programs run, the 5th fails.
	_, err = db.Exec(`PRAGMA recursive_triggers = ON; CREATE TABLE n(x); DELETE FROM t; INSERT INTO t VALUES (5, 0)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TRIGGER more AFTER INSERT ON n WHEN new.x < (SELECT a FROM t) BEGIN INSERT INTO n VALUES (new.x + 1); END`)
	require.NoError(t, err)
	_, err = db.Exec("INSERT INTO n VALUES (1)")
	require.NoError(t, err)
	_, err = db.Exec("UPDATE t SET a = 6; DELETE FROM n")
	require.NoError(t, err)
	_, err = db.Exec("INSERT INTO n VALUES (1)")
	require.ErrorContains(t, err, "too many levels of trigger recursion")

	// Only lowering: a value above the default keeps SQLite's default.
	high := openLimitsDBAt(t, ":memory:?limit_expr_depth=5000&limit_column=100000")
	_, err = high.Query("SELECT " + joined("1", "+", 1001))
	require.ErrorContains(t, err, "Expression tree is too large (maximum depth 1000)")
	_, err = high.Query("SELECT " + joined("1", ",", 2001))
	require.ErrorContains(t, err, "too many columns in result set")
	for _, bad := range []string{"limit_column=0", "limit_expr_depth=-1", "limit_length=x", "limit_nothing=3"} {
		db, err := sql.Open("ladybug", ":memory:?"+bad)
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		require.Error(t, err, bad)
	}
}

// TestLimits_LongInListAgreesWithShortOnes: a long IN list of literals
// (looked up in a set) answers as the OR of IN lists short enough to be
// compared item by item: numbers across int and real, text under BINARY,
// NOCASE and RTRIM, blobs, NULLs, NOT IN and items that are not literals.
func TestLimits_LongInListAgreesWithShortOnes(t *testing.T) {
	db := openLimitsDB(t)
	items := []string{"1", "2.0", "'a'", "'B'", "'c  '", "x'00ff'", "3", "-4", "9007199254740993", "1e300",
		"'1'", "'é'", "5.5", "6", "'d'", "7", "8", "x''", "''", "10", "11", "12", "'Zz'", "13"}
	xs := []string{"1", "1.0", "2", "'2'", "'a'", "'A'", "'b'", "'c'", "'c '", "x'00ff'", "-4.0", "9007199254740992",
		"9007199254740993", "1e300", "'é'", "'É'", "''", "x''", "99", "NULL", "b"}
	_, err := db.Exec(`INSERT INTO t VALUES (1, 'nonliteral'), (2, NULL)`)
	require.NoError(t, err)
	for _, withNull := range []bool{false, true} {
		list := append([]string(nil), items...)
		if withNull {
			list = append(list, "NULL")
		}
		list = append(list, "(SELECT b FROM t WHERE a = 1)")
		for _, coll := range []string{"", " COLLATE NOCASE", " COLLATE RTRIM"} {
			for _, not := range []string{"", "NOT "} {
				var long, short []string
				for _, x := range xs {
					x += coll
					long = append(long, fmt.Sprintf("%s %sIN (%s)", x, not, strings.Join(list, ", ")))
					var parts []string
					for i := 0; i < len(list); i += 8 {
						parts = append(parts, fmt.Sprintf("%s %sIN (%s)", x, not, strings.Join(list[i:min(i+8, len(list))], ", ")))
					}
					op := " OR "
					if not != "" {
						op = " AND "
					}
					short = append(short, "("+strings.Join(parts, op)+")")
				}
				q := "SELECT " + strings.Join(long, ", ") + " FROM t WHERE a = 1"
				want := "SELECT " + strings.Join(short, ", ") + " FROM t WHERE a = 1"
				require.Equal(t, queryRows(t, db, want), queryRows(t, db, q), q)
			}
		}
	}
}

// TestLimits_ExecBorrowsBlobArguments: Exec uses a []byte argument in
// place (no copy of a large value), and what it stored does not change
// when the caller reuses the slice afterwards.
func TestLimits_ExecBorrowsBlobArguments(t *testing.T) {
	db := openLimitsDB(t)
	v := []byte("abc")
	_, err := db.Exec("INSERT INTO t VALUES (1, ?)", v)
	require.NoError(t, err)
	_, err = db.Exec("UPDATE t SET b = b || ? WHERE a = 1", v)
	require.NoError(t, err)
	copy(v, "XYZ")
	var got []byte
	require.NoError(t, db.QueryRow("SELECT b FROM t WHERE a = 1").Scan(&got))
	require.Equal(t, "abcabc", string(got))
}

// TestLimits_JoinTablesCountedAfterFlattening: the 64-table limit counts
// the tables of FROM subqueries and views that SQLite flattens into the
// join around them; a subquery SQLite keeps apart (DISTINCT, aggregate,
// LIMIT) counts as one table.
func TestLimits_JoinTablesCountedAfterFlattening(t *testing.T) {
	db := openLimitsDB(t)
	tables := func(n int, prefix string) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf("t %s%d", prefix, i))
		}
		return strings.Join(parts, ", ")
	}
	_, err := db.Exec("CREATE VIEW v40 AS SELECT x0.a FROM " + tables(40, "x"))
	require.NoError(t, err)
	for _, c := range []struct {
		q  string
		ok bool
	}{
		{"SELECT count(*) FROM (SELECT x0.a FROM " + tables(32, "x") + "), (SELECT y0.a FROM " + tables(32, "y") + ")", true},
		{"SELECT count(*) FROM (SELECT x0.a FROM " + tables(33, "x") + "), (SELECT y0.a FROM " + tables(32, "y") + ")", false},
		{"SELECT count(*) FROM v40, " + tables(24, "z"), true},
		{"SELECT count(*) FROM v40, " + tables(25, "z"), false},
		{"SELECT count(*) FROM v40 JOIN v40 w ON 1", false},
		{"SELECT count(*) FROM (SELECT DISTINCT x0.a FROM " + tables(40, "x") + "), " + tables(40, "z"), true},
		{"SELECT count(*) FROM (SELECT count(*) FROM " + tables(40, "x") + "), " + tables(40, "z"), true},
		{"SELECT count(*) FROM (SELECT x0.a FROM " + tables(40, "x") + " LIMIT 5), v40", true},
	} {
		rows, err := db.Query(c.q)
		if c.ok {
			require.NoError(t, err, c.q)
			require.NoError(t, rows.Close())
			continue
		}
		require.ErrorContains(t, err, "at most 64 tables in a join", c.q)
	}
}

// TestLimits_MemoryLimitCoversWriteBuffers: the rows an INSERT … SELECT
// reading its own target holds before writing them, and the target rows a
// DELETE or UPDATE collects before applying, count toward memory_limit:
// past it the statement fails with the memory-limit error and changes
// nothing. An INSERT … SELECT from other tables streams.
func TestLimits_MemoryLimitCoversWriteBuffers(t *testing.T) {
	db := openLimitsDBAt(t, ":memory:?memory_limit=1MiB")
	_, err := db.Exec(`CREATE TABLE src(id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE sink(id, v);
		INSERT INTO src SELECT value, printf('%.*c', 100, 'x') FROM generate_series(1, 20000)`)
	require.NoError(t, err)
	for _, s := range []string{
		"INSERT INTO src(v) SELECT v FROM src",
		"DELETE FROM src WHERE v LIKE 'x%'",
		"UPDATE src SET v = v || 'y'",
	} {
		_, err := db.Exec(s)
		require.ErrorIs(t, err, ladybug.ErrNoMem, s)
		require.ErrorContains(t, err, "memory limit", s)
		var n, sinkN, long int
		require.NoError(t, db.QueryRow(`SELECT count(*), (SELECT count(*) FROM sink), sum(length(v) > 100) FROM src`).Scan(&n, &sinkN, &long))
		require.Equal(t, []int{20000, 0, 0}, []int{n, sinkN, long}, s)
	}
	// Small ones fit.
	res, err := db.Exec("DELETE FROM src WHERE id <= 1000")
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.Equal(t, int64(1000), n)
	// A source that does not read the target streams: no limit applies.
	_, err = db.Exec("INSERT INTO sink SELECT id, v FROM src")
	require.NoError(t, err)
	var sinkN int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM sink`).Scan(&sinkN))
	require.Equal(t, 19000, sinkN)
}

// TestLimits_InsertSelectStreamsFromOtherTables: an INSERT … SELECT whose
// source does not read the target writes each row as the source yields
// it, in a transaction that already changed the source and under a page
// cache small enough that the writes spill; the result is the source's
// rows, and a source that reads the target still sees none of its own
// inserts.
func TestLimits_InsertSelectStreamsFromOtherTables(t *testing.T) {
	db := openLimitsDBAt(t, filepath.Join(t.TempDir(), "s.db")+"?cache_size=64KiB")
	_, err := db.Exec(`CREATE TABLE src(id INTEGER PRIMARY KEY, v TEXT); CREATE TABLE sink(id, v); CREATE INDEX sink_v ON sink(v);
		INSERT INTO src SELECT value, printf('%.*c', value % 300, 'x') FROM generate_series(1, 30000)`)
	require.NoError(t, err)
	tx, err := db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec("UPDATE src SET v = v || id WHERE id % 3 = 0")
	require.NoError(t, err)
	_, err = tx.Exec("INSERT INTO sink SELECT id, v FROM src WHERE id IN (SELECT id FROM src WHERE id % 2 = 0) OR id % 5 = 0")
	require.NoError(t, err)
	require.NoError(t, tx.Commit())
	var want, got string
	require.NoError(t, db.QueryRow("SELECT count(*) || '/' || sum(length(v)) || '/' || sum(id) FROM src WHERE id % 2 = 0 OR id % 5 = 0").Scan(&want))
	require.NoError(t, db.QueryRow("SELECT count(*) || '/' || sum(length(v)) || '/' || sum(id) FROM sink").Scan(&got))
	require.Equal(t, want, got)
	// Reading the target: each source row once.
	_, err = db.Exec("INSERT INTO sink SELECT id + 100000, v FROM sink")
	require.NoError(t, err)
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM sink").Scan(&n))
	require.Equal(t, 2*18000, n)
	var ok string
	require.NoError(t, db.QueryRow("PRAGMA integrity_check").Scan(&ok))
	require.Equal(t, "ok", ok)
}
