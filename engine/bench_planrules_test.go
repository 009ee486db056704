package engine

import (
	"context"
	"strconv"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BenchmarkStmt_Query_InSubquery is x IN (SELECT …) over 100k rows with a
// 10-row subquery: "seek" reads the matching rows by one index (or rowid)
// seek per subquery value; "filter" is the same query with the column
// written +x, which no index serves, so it scans the table and probes the
// subquery's set, the plan before the rule.
func BenchmarkStmt_Query_InSubquery(b *testing.B) {
	_, s := benchDB(b, 100_000)
	benchRun(b, s, "CREATE INDEX t_b ON t (b)")
	benchRun(b, s, "CREATE TABLE p (x INTEGER)")
	for i := 0; i < 10; i++ {
		benchRun(b, s, "INSERT INTO p VALUES (?)", types.NewInt(int64(i*997+13)))
	}
	for _, bc := range []struct{ name, sql string }{
		{"index/seek", "SELECT count(*), sum(a) FROM t WHERE b IN (SELECT x FROM p)"},
		{"index/filter", "SELECT count(*), sum(a) FROM t WHERE +b IN (SELECT x FROM p)"},
		{"rowid/seek", "SELECT count(*), sum(a) FROM t WHERE id IN (SELECT x FROM p)"},
		{"rowid/filter", "SELECT count(*), sum(a) FROM t WHERE +id IN (SELECT x FROM p)"},
		{"rowidlist/seek", "SELECT count(*), sum(a) FROM t WHERE id IN (13, 1010, 2007, 3004, 4001)"},
		{"rowidlist/filter", "SELECT count(*), sum(a) FROM t WHERE +id IN (13, 1010, 2007, 3004, 4001)"},
	} {
		b.Run(bc.name, func(b *testing.B) { benchQuery(b, s, bc.sql, nil) })
	}
}

// BenchmarkStmt_Query_GroupByLimit is GROUP BY g … LIMIT 10 over 100k
// rows in 10k groups with an index on g: "stream" reads the groups in
// index order and stops after the tenth; "hash" groups by +g, which no
// index serves, so it aggregates every row first, the plan before the
// rule.
func BenchmarkStmt_Query_GroupByLimit(b *testing.B) {
	_, s := benchDB(b, 0)
	benchRun(b, s, "CREATE TABLE u (id INTEGER PRIMARY KEY, g INTEGER, v REAL)")
	benchRun(b, s, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) INSERT INTO u SELECT i, (i * 7919) % 10000, i / 7.0 FROM n")
	benchRun(b, s, "CREATE INDEX u_g ON u (g)")
	for _, bc := range []struct{ name, sql string }{
		{"covering/stream", "SELECT g, count(*) FROM u GROUP BY g LIMIT 10"},
		{"covering/hash", "SELECT +g, count(*) FROM u GROUP BY +g LIMIT 10"},
		{"sum/stream", "SELECT g, sum(v) FROM u GROUP BY g LIMIT 10"},
		{"sum/hash", "SELECT +g, sum(v) FROM u GROUP BY +g LIMIT 10"},
		{"having/stream", "SELECT g, sum(v) FROM u GROUP BY g HAVING count(*) > 5 LIMIT 10"},
		{"having/hash", "SELECT +g, sum(v) FROM u GROUP BY +g HAVING count(*) > 5 LIMIT 10"},
		{"desc/stream", "SELECT g, sum(v) FROM u GROUP BY g ORDER BY g DESC LIMIT 10"},
		{"desc/hash", "SELECT +g, sum(v) FROM u GROUP BY +g ORDER BY 1 DESC LIMIT 10"},
	} {
		b.Run(bc.name, func(b *testing.B) { benchQuery(b, s, bc.sql, nil) })
	}
}

// BenchmarkStmt_Query_OrderByIndexMore is ORDER BY over 100k rows answered
// by index order where a sort ran before: "index" is the query, "sort"
// writes the key as +x, which no index serves (the plan before the rule).
// nocase: a top-10 by a NOCASE column, descending; in: an IN list read
// backward under a LIMIT; covering: a full covering index scan, no
// LIMIT; prefix: an equality on one index, the order from another with
// the same leading column; without-rowid: a WITHOUT ROWID table by its
// key, descending.
func BenchmarkStmt_Query_OrderByIndexMore(b *testing.B) {
	_, s := benchDB(b, 0)
	benchRun(b, s, "CREATE TABLE n (id INTEGER PRIMARY KEY, k TEXT COLLATE NOCASE, g INTEGER)")
	benchRun(b, s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100000) INSERT INTO n SELECT i, printf('k%06d', (i * 7919) % 100000), i % 10 FROM r")
	benchRun(b, s, "CREATE INDEX n_k ON n (k)")
	benchRun(b, s, "CREATE INDEX n_g ON n (g)")
	benchRun(b, s, "CREATE INDEX n_gk ON n (g, k)")
	benchRun(b, s, "CREATE TABLE w (k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID")
	benchRun(b, s, "INSERT INTO w SELECT k, id FROM n")
	for _, bc := range []struct{ name, sql string }{
		{"nocase/index", "SELECT id, k FROM n ORDER BY k DESC LIMIT 10"},
		{"nocase/sort", "SELECT id, k FROM n ORDER BY +k DESC LIMIT 10"},
		{"in/index", "SELECT g, k FROM n WHERE g IN (2, 5, 7) ORDER BY g DESC, k DESC LIMIT 10"},
		{"in/sort", "SELECT g, k FROM n WHERE g IN (2, 5, 7) ORDER BY +g DESC, k DESC LIMIT 10"},
		{"prefix/index", "SELECT id, k FROM n WHERE g = 3 ORDER BY k"},
		{"prefix/sort", "SELECT id, k FROM n WHERE g = 3 ORDER BY +k"},
		{"covering/index", "SELECT g, id FROM n ORDER BY g DESC"},
		{"covering/sort", "SELECT g, id FROM n ORDER BY +g DESC"},
		{"without-rowid/index", "SELECT k, v FROM w ORDER BY k DESC"},
		{"without-rowid/sort", "SELECT k, v FROM w ORDER BY +k DESC"},
	} {
		b.Run(bc.name, func(b *testing.B) { benchQuery(b, s, bc.sql, nil) })
	}
}

// BenchmarkStmt_Exec_AnalyzeLimit is ANALYZE of a 100k-row table with two
// indexes: "full" reads every entry, "limit1000" samples with PRAGMA
// analysis_limit = 1000.
func BenchmarkStmt_Exec_AnalyzeLimit(b *testing.B) {
	_, s := benchDB(b, 100_000)
	benchRun(b, s, "CREATE INDEX t_a ON t (a)")
	benchRun(b, s, "CREATE INDEX t_ab ON t (a, b)")
	for _, bc := range []struct {
		name  string
		limit int64
	}{{"full", 0}, {"limit1000", 1000}} {
		b.Run(bc.name, func(b *testing.B) {
			benchRun(b, s, "PRAGMA analysis_limit = "+strconv.FormatInt(bc.limit, 10))
			st, err := s.Prepare(context.Background(), "ANALYZE")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := st.Exec(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
