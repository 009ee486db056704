package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BenchmarkStmt_Query_IndexRange is the bench/ index_range shape: 5% of a
// 200k-row secondary index, counted and summed through the table.
func BenchmarkStmt_Query_IndexRange(b *testing.B) {
	_, s := benchDB(b, 200_000)
	ctx := context.Background()
	st, err := s.Prepare(ctx, "CREATE INDEX t_a ON t (a)")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Exec(ctx, nil); err != nil {
		b.Fatal(err)
	}
	arg := make([]Arg, 2)
	benchQuery(b, s, "SELECT count(*), sum(b) FROM t WHERE a >= ? AND a < ?", func(i int) []Arg {
		lo := int64(i % 95)
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(lo)}
		arg[1] = Arg{Ordinal: 2, Value: types.NewInt(lo + 5)}
		return arg
	})
}

// BenchmarkStmt_Query_IndexRangeRandom is the bench/ index_range shape at
// scale 0.1: keys in random rowid order, so the table rows of a range are
// spread over the table; 5% of a 20k-row index, counted and summed.
func BenchmarkStmt_Query_IndexRangeRandom(b *testing.B) {
	benchRandomRange(b, "SELECT count(*), sum(val) FROM r WHERE k >= ? AND k < ?")
}

// BenchmarkStmt_Query_IndexRangeCovering reads only index columns over the
// same range: a covering index scan.
func BenchmarkStmt_Query_IndexRangeCovering(b *testing.B) {
	benchRandomRange(b, "SELECT count(*), sum(k) FROM r WHERE k >= ? AND k < ?")
}

// BenchmarkStmt_Query_IndexRangeRandom200k is bench/ index_range at scale
// 1: 5% of a 200k-row index in random rowid order, ~10k table-row fetches.
func BenchmarkStmt_Query_IndexRangeRandom200k(b *testing.B) {
	benchRandomRangeRows(b, 200_000, "SELECT count(*), sum(val) FROM r WHERE k >= ? AND k < ?")
}

// BenchmarkStmt_Query_IndexRangeRandom200kFile is IndexRangeRandom200k on
// a database file (the harness's file mode).
func BenchmarkStmt_Query_IndexRangeRandom200kFile(b *testing.B) {
	db, err := Open(Options{Path: b.TempDir() + "/r.db", Create: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	benchRandomRangeIn(b, db.NewSession(), 200_000, "SELECT count(*), sum(val) FROM r WHERE k >= ? AND k < ?")
}

// benchRandomRange runs sql, with bounds lo and lo + 5% of the keys, over
// table r (id, k, val) of 20k rows with a random key per row and an index
// on k, as bench/ index_range does.
func benchRandomRange(b *testing.B, sql string) {
	benchRandomRangeRows(b, 20_000, sql)
}

// benchRandomRangeRows is benchRandomRange over a table of rows rows.
func benchRandomRangeRows(b *testing.B, rows int, sql string) {
	_, s := benchDB(b, 0)
	benchRandomRangeIn(b, s, rows, sql)
}

// benchRandomRangeIn is benchRandomRangeRows in session s.
func benchRandomRangeIn(b *testing.B, s *Session, rows int, sql string) {
	benchRun(b, s, "CREATE TABLE r (id INTEGER PRIMARY KEY, k INTEGER NOT NULL, val INTEGER NOT NULL)")
	benchRun(b, s, "BEGIN")
	r := rand.New(rand.NewPCG(3, 23))
	for i := 1; i <= rows; i++ {
		benchRun(b, s, "INSERT INTO r VALUES (?, ?, ?)", types.NewInt(int64(i)), types.NewInt(int64(r.IntN(rows))), types.NewInt(int64(i*37%1000)))
	}
	benchRun(b, s, "COMMIT")
	benchRun(b, s, "CREATE INDEX r_k ON r (k)")
	arg := make([]Arg, 2)
	benchQuery(b, s, sql, func(i int) []Arg {
		lo := int64(i*7919) % int64(rows-rows/20)
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(lo)}
		arg[1] = Arg{Ordinal: 2, Value: types.NewInt(lo + int64(rows/20))}
		return arg
	})
}

// BenchmarkStmt_Query_CountStar counts a 200k-row table with an index:
// the count comes from the smallest tree's cell counts.
func BenchmarkStmt_Query_CountStar(b *testing.B) {
	_, s := benchDB(b, 200_000)
	benchRun(b, s, "CREATE INDEX t_a ON t (a)")
	benchQuery(b, s, "SELECT count(*) FROM t", nil)
}

// BenchmarkStmt_Query_MaxIndexed is max() of an indexed column: one
// index entry.
func BenchmarkStmt_Query_MaxIndexed(b *testing.B) {
	_, s := benchDB(b, 200_000)
	benchRun(b, s, "CREATE INDEX t_a ON t (a)")
	benchQuery(b, s, "SELECT max(a) FROM t", nil)
}

// BenchmarkStmt_Query_OrderByDescLimit is a top-10 by an indexed column,
// descending, over 100k rows: a backward index read that stops after ten
// entries, where a Sort would read every row.
func BenchmarkStmt_Query_OrderByDescLimit(b *testing.B) {
	_, s := benchDB(b, 100_000)
	benchRun(b, s, "CREATE INDEX t_a ON t (a)")
	benchQuery(b, s, "SELECT id, a, c FROM t ORDER BY a DESC LIMIT 10", nil)
}

// BenchmarkStmt_Query_OrderByRowidDescLimit is the last ten rows by rowid
// of 100k: a backward table read of ten rows.
func BenchmarkStmt_Query_OrderByRowidDescLimit(b *testing.B) {
	_, s := benchDB(b, 100_000)
	benchQuery(b, s, "SELECT id, a, c FROM t ORDER BY id DESC LIMIT 10", nil)
}

// BenchmarkStmt_Query_OrderByDescRangeLimit is a top-10 descending under
// an upper bound on the indexed column: a backward range read from the
// bound, ten entries.
func BenchmarkStmt_Query_OrderByDescRangeLimit(b *testing.B) {
	_, s := benchDB(b, 100_000)
	benchRun(b, s, "CREATE INDEX t_a ON t (a)")
	benchQuery(b, s, "SELECT id, a, c FROM t WHERE a < 50 ORDER BY a DESC LIMIT 10", nil)
}
