package engine

import (
	"context"
	"sync"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// scanAggTable is the bench/ scan_agg table, 1M rows of (id INTEGER
// PRIMARY KEY, grp, val INTEGER, f REAL), built once per test binary: the
// insert costs seconds, every benchmark round would otherwise repeat it.
var scanAggTable struct {
	once sync.Once
	db   *DB
	err  error
}

func scanAggSession(b *testing.B) *Session {
	b.Helper()
	t := &scanAggTable
	t.once.Do(func() {
		if t.db, t.err = Open(Options{Memory: true}); t.err != nil {
			return
		}
		s := t.db.NewSession()
		ctx := context.Background()
		for _, sql := range []string{"CREATE TABLE s (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL, f REAL NOT NULL)", "BEGIN"} {
			if t.err = scanAggExec(s, sql); t.err != nil {
				return
			}
		}
		st, err := s.Prepare(ctx, "INSERT INTO s VALUES (?, ?, ?, ?)")
		if t.err = err; err != nil {
			return
		}
		for i := 1; i <= 1_000_000; i++ {
			val := int64(i) * 2654435761 % 1000003 // bench/case.go valOf
			row := []types.Value{types.NewInt(int64(i)), types.NewInt(int64(i % 100)), types.NewInt(val), types.NewReal(float64(val) / 4)}
			if _, t.err = st.Exec(ctx, positional(row)); t.err != nil {
				return
			}
		}
		t.err = scanAggExec(s, "COMMIT")
	})
	if t.err != nil {
		b.Fatal(t.err)
	}
	return t.db.NewSession()
}

func scanAggExec(s *Session, sql string) error {
	st, err := s.Prepare(context.Background(), sql)
	if err != nil {
		return err
	}
	_, err = st.Exec(context.Background(), nil)
	return err
}

// BenchmarkStmt_Query_ScanAggBench is the bench/ scan_agg query on its
// table: count(*), sum of an INTEGER column, avg of a REAL one.
func BenchmarkStmt_Query_ScanAggBench(b *testing.B) {
	benchQuery(b, scanAggSession(b), "SELECT count(*), sum(val), avg(f) FROM s", nil)
}

// BenchmarkStmt_Query_ScanSumWhere sums under a filter: the plain scan
// feeding a Filter, no fused aggregate.
func BenchmarkStmt_Query_ScanSumWhere(b *testing.B) {
	benchQuery(b, scanAggSession(b), "SELECT sum(val) FROM s WHERE grp = 7", nil)
}
