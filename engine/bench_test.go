package engine

import (
	"context"
	"io"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

func benchDB(b *testing.B, rows int) (*DB, *Session) {
	b.Helper()
	db, err := Open(Options{Memory: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s := db.NewSession()
	ctx := context.Background()
	run := func(sql string, args ...types.Value) { benchRun(b, s, sql, args...) }
	run("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT)")
	run("BEGIN")
	st, _ := s.Prepare(ctx, "INSERT INTO t VALUES (?, ?, ?, ?)")
	for i := 0; i < rows; i++ {
		if _, err := st.Exec(ctx, positional([]types.Value{types.NewInt(int64(i + 1)), types.NewInt(int64(i % 100)),
			types.NewReal(float64(i) / 2), types.NewText("row")})); err != nil {
			b.Fatal(err)
		}
	}
	run("COMMIT")
	return db, s
}

// benchRun runs one statement with positional arguments.
func benchRun(b *testing.B, s *Session, sql string, args ...types.Value) {
	b.Helper()
	ctx := context.Background()
	st, err := s.Prepare(ctx, sql)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Exec(ctx, positional(args)); err != nil {
		b.Fatal(err)
	}
}

func benchQuery(b *testing.B, s *Session, sql string, args func(i int) []Arg) {
	ctx := context.Background()
	st, err := s.Prepare(ctx, sql)
	if err != nil {
		b.Fatal(err)
	}
	dest := make([]types.Value, 8)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
	for i := 0; i < b.N; i++ {
		var a []Arg
		if args != nil {
			a = args(i)
		}
		rows, err := st.Query(ctx, a)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := rows.Next(dest[:len(rows.Columns())]); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		rows.Close()
	}
}

func BenchmarkStmt_Query_Select1(b *testing.B) {
	_, s := benchDB(b, 0)
	benchQuery(b, s, "SELECT 1", nil)
}

func BenchmarkStmt_Query_PointLookup(b *testing.B) {
	_, s := benchDB(b, 100_000)
	arg := make([]Arg, 1)
	benchQuery(b, s, "SELECT a, b, c FROM t WHERE id = ?", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i%100_000 + 1))}
		return arg
	})
}

func BenchmarkStmt_Query_ScanAgg(b *testing.B) {
	_, s := benchDB(b, 1_000_000)
	benchQuery(b, s, "SELECT count(*), sum(a), avg(b) FROM t", nil)
}
