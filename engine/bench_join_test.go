package engine

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// joinBenchDB is t (see benchDB) with 20k rows plus parent p, 1k rows
// keyed by id, and an index on t.a (100 distinct values).
func joinBenchDB(b *testing.B) *Session {
	_, s := benchDB(b, 20_000)
	benchRun(b, s, "CREATE INDEX t_a ON t (a)")
	benchRun(b, s, "CREATE TABLE p (id INTEGER PRIMARY KEY, g INTEGER NOT NULL, name TEXT)")
	benchRun(b, s, "BEGIN")
	for i := 0; i < 1_000; i++ {
		benchRun(b, s, "INSERT INTO p VALUES (?, ?, 'p')", types.NewInt(int64(i)), types.NewInt(int64(i%7)))
	}
	benchRun(b, s, "COMMIT")
	return s
}

// The decorrelate rule's case: a correlated EXISTS as a hash semi join,
// against the same condition kept per row (OR 0 stops the rule), which
// seeks t_a once per p row.
func BenchmarkStmt_Query_ExistsSemiJoin(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT count(*) FROM p WHERE EXISTS (SELECT 1 FROM t WHERE t.a = p.id AND t.b > 9000)", nil)
}

func BenchmarkStmt_Query_ExistsPerRow(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT count(*) FROM p WHERE EXISTS (SELECT 1 FROM t WHERE t.a = p.id AND t.b > 9000) OR 0", nil)
}

func BenchmarkStmt_Query_NotExistsAntiJoin(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT count(*) FROM p WHERE NOT EXISTS (SELECT 1 FROM t WHERE t.a = p.id)", nil)
}

func BenchmarkStmt_Query_NotExistsPerRow(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT count(*) FROM p WHERE NOT EXISTS (SELECT 1 FROM t WHERE t.a = p.id) OR 0", nil)
}

// The index-join rule's case: one p row joined with its ~200 t rows
// through t_a, against the hash join over all of t (a+0 is no bare column,
// so no index fits).
func BenchmarkStmt_Query_IndexJoin(b *testing.B) {
	arg := make([]Arg, 1)
	benchQuery(b, joinBenchDB(b), "SELECT count(*), sum(t.b) FROM p JOIN t ON t.a = p.id WHERE p.id = ?", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i % 100))}
		return arg
	})
}

func BenchmarkStmt_Query_IndexJoinAsHash(b *testing.B) {
	arg := make([]Arg, 1)
	benchQuery(b, joinBenchDB(b), "SELECT count(*), sum(t.b) FROM p JOIN t ON t.a + 0 = p.id WHERE p.id = ?", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i % 100))}
		return arg
	})
}

// The limit-into-scan rule's case: LIMIT 10 reads ten rows, against the
// same scan under a filter, which fills a whole batch first.
func BenchmarkStmt_Query_LimitScan(b *testing.B) {
	_, s := benchDB(b, 20_000)
	benchQuery(b, s, "SELECT id, a, b, c FROM t LIMIT 10", nil)
}

func BenchmarkStmt_Query_LimitOverFilter(b *testing.B) {
	_, s := benchDB(b, 20_000)
	benchQuery(b, s, "SELECT id, a, b, c FROM t WHERE c IS NOT NULL LIMIT 10", nil)
}

// The bench/ group_join shape on t (20k rows) joined with p (1k rows): the
// group-by-rowid rule groups by p.id alone; the second form keeps a text
// key (the concatenation is computed, so not carried along).
func BenchmarkStmt_Query_GroupJoin(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT p.id, p.name, count(*), sum(t.b) AS total FROM t JOIN p ON p.id = t.a GROUP BY p.id, p.name ORDER BY total DESC, p.id LIMIT 10", nil)
}

func BenchmarkStmt_Query_GroupJoinTextKey(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT p.id, p.name || '', count(*), sum(t.b) AS total FROM t JOIN p ON p.id = t.a GROUP BY p.id, p.name || '' ORDER BY total DESC, p.id LIMIT 10", nil)
}

// The decorrelate-scalar rule's case: a count per p row as a LEFT join
// with t grouped by a, against the subquery run per row (a LIMIT stops
// the rule), which seeks t_a per p row.
func BenchmarkStmt_Query_ScalarSubJoin(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT p.id, (SELECT count(*) FROM t WHERE t.a = p.id) FROM p", nil)
}

func BenchmarkStmt_Query_ScalarSubPerRow(b *testing.B) {
	benchQuery(b, joinBenchDB(b), "SELECT p.id, (SELECT count(*) FROM t WHERE t.a = p.id LIMIT 1) FROM p", nil)
}
