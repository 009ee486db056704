package engine

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
)

func openMem(t *testing.T) *DB {
	t.Helper()
	db, err := Open(Options{Memory: true, ForeignKeys: true})
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, s *Session, sql string, args ...types.Value) Result {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	require.NoError(t, err, sql)
	defer st.Close()
	res, err := st.Exec(context.Background(), positional(args))
	require.NoError(t, err, sql)
	return res
}

func positional(vals []types.Value) []Arg {
	out := make([]Arg, len(vals))
	for i, v := range vals {
		out[i] = Arg{Ordinal: i + 1, Value: v}
	}
	return out
}

func queryInts(t *testing.T, s *Session, sql string, args ...types.Value) []int64 {
	t.Helper()
	var out []int64
	eachRow(t, s, sql, func(row []types.Value) {
		for _, v := range row {
			out = append(out, v.AsInt())
		}
	}, args...)
	return out
}

// eachRow runs sql and calls fn with each result row (valid only during
// the call).
func eachRow(t *testing.T, s *Session, sql string, fn func([]types.Value), args ...types.Value) {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	require.NoError(t, err, sql)
	defer st.Close()
	rows, err := st.Query(context.Background(), positional(args))
	require.NoError(t, err, sql)
	defer rows.Close()
	dest := make([]types.Value, len(rows.Columns()))
	for {
		err := rows.Next(dest)
		if err == io.EOF {
			return
		}
		require.NoError(t, err, sql)
		fn(dest)
	}
}

func TestSession_Exec_LastInsertIDAndRowsAffected(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
	res := mustExec(t, s, "INSERT INTO t(v) VALUES ($1), ($1), (?1)", types.NewText("a"))
	require.Equal(t, Result{LastInsertID: 3, RowsAffected: 3}, res)
	res = mustExec(t, s, "INSERT INTO t VALUES (10, 'x')")
	require.Equal(t, int64(10), res.LastInsertID)
	res = mustExec(t, s, "UPDATE t SET v = 'y' WHERE id < 3")
	require.Equal(t, int64(2), res.RowsAffected)
	require.Equal(t, []int64{4}, queryInts(t, s, "SELECT count(*) FROM t"))
}

func TestSession_Prepare_Errors(t *testing.T) {
	s := openMem(t).NewSession()
	_, err := s.Prepare(context.Background(), "SELECT * FORM t")
	require.ErrorIs(t, err, errs.ErrSyntax)
	_, err = s.Prepare(context.Background(), "SELECT * FROM missing")
	require.ErrorContains(t, err, "no such table: missing")
	st, err := s.Prepare(context.Background(), "SELECT ?")
	require.NoError(t, err)
	_, err = st.Query(context.Background(), nil)
	require.Error(t, err)
	require.Equal(t, []int64{1}, queryInts(t, s, "SELECT 1"))
}

func TestSession_Transaction_CommitAndRollback(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE t(a)")
	require.NoError(t, s.Begin(context.Background(), TxOptions{}))
	mustExec(t, s, "INSERT INTO t VALUES (1)")
	require.True(t, s.InTx())
	other := db.NewSession()
	require.Equal(t, []int64{0}, queryInts(t, other, "SELECT count(*) FROM t"))
	require.NoError(t, s.Rollback())
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM t"))
	mustExec(t, s, "BEGIN")
	mustExec(t, s, "INSERT INTO t VALUES (2)")
	mustExec(t, s, "COMMIT")
	require.Equal(t, []int64{1}, queryInts(t, other, "SELECT count(*) FROM t"))
	require.ErrorIs(t, s.Commit(), ErrNoTx)
}

func TestSession_DDL_RollbackUndoesSchema(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	mustExec(t, s, "BEGIN; CREATE TABLE t(a); INSERT INTO t VALUES (1)")
	require.Equal(t, []int64{1}, queryInts(t, s, "SELECT count(*) FROM t"))
	require.NoError(t, s.Rollback())
	_, err := s.Prepare(context.Background(), "SELECT * FROM t")
	require.ErrorContains(t, err, "no such table")
}

func TestDB_Open_DurableAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := Open(Options{Path: path, Create: true})
	require.NoError(t, err)
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)")
	mustExec(t, s, "INSERT INTO t(v) VALUES ('a'), ('b')")
	require.NoError(t, db.Close())

	db, err = Open(Options{Path: path})
	require.NoError(t, err)
	defer db.Close()
	s = db.NewSession()
	require.Equal(t, []int64{2}, queryInts(t, s, "SELECT count(*) FROM t"))
	_, err = s.Prepare(context.Background(), "INSERT INTO t(v) VALUES ('a')")
	require.NoError(t, err)
	st, _ := s.Prepare(context.Background(), "INSERT INTO t(v) VALUES ('a')")
	_, err = st.Exec(context.Background(), nil)
	require.ErrorIs(t, err, errs.ErrConstraintUnique)
}

func TestDB_PlanCache_ParsesOnce(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	before := db.Stats().Parses
	for i := 0; i < 5; i++ {
		queryInts(t, s, "SELECT 1 + 1")
	}
	require.Equal(t, before+1, db.Stats().Parses)
}

func TestDB_Sessions_ConcurrentReadersAndWriter(t *testing.T) {
	db := openMem(t)
	setup := db.NewSession()
	mustExec(t, setup, "CREATE TABLE t(a INTEGER)")
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.NewSession()
			defer s.Close()
			for i := 0; i < 50; i++ {
				st, err := s.Prepare(context.Background(), "INSERT INTO t VALUES (?)")
				if err == nil {
					_, err = st.Exec(context.Background(), positional([]types.Value{types.NewInt(int64(i))}))
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := db.NewSession()
			defer s.Close()
			for i := 0; i < 50; i++ {
				st, err := s.Prepare(context.Background(), "SELECT count(*) FROM t")
				if err != nil {
					errc <- err
					return
				}
				rows, err := st.Query(context.Background(), nil)
				if err != nil {
					errc <- err
					return
				}
				dest := make([]types.Value, 1)
				if err := rows.Next(dest); err != nil {
					errc <- err
				}
				rows.Close()
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	require.Equal(t, []int64{100}, queryInts(t, setup, "SELECT count(*) FROM t"))
}

func TestStmt_Query_CancelStopsScan(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "CREATE TABLE t(a)")
	mustExec(t, s, "INSERT INTO t SELECT 1 FROM (VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) a, (VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) b")
	ctx, cancel := context.WithCancel(context.Background())
	st, err := s.Prepare(ctx, "SELECT count(*) FROM t a, t b, t c")
	require.NoError(t, err)
	rows, err := st.Query(ctx, nil)
	require.NoError(t, err)
	cancel()
	err = rows.Next(make([]types.Value, 1))
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	rows.Close()
}

func TestDB_MemoryLimit_StopsRunawayGroupBy(t *testing.T) {
	db, err := Open(Options{Memory: true, MemoryLimit: 64 << 10})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE t(a)")
	mustExec(t, s, "INSERT INTO t SELECT value FROM generate_series(1, 20000)")
	st, err := s.Prepare(context.Background(), "SELECT a, count(*) FROM t GROUP BY a")
	require.NoError(t, err)
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	defer rows.Close()
	err = rows.Next(make([]types.Value, 2))
	require.ErrorIs(t, err, errs.ErrNoMem)
}

// A correlated subquery runs once per outer row; the memory its sort or
// join held is given back when each run ends, so the limit bounds one
// run, not the sum over all rows.
func TestDB_MemoryLimit_CorrelatedSubqueryRunsDoNotAccumulate(t *testing.T) {
	db, err := Open(Options{Memory: true, MemoryLimit: 1 << 20})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE o(k)")
	mustExec(t, s, "INSERT INTO o SELECT value FROM generate_series(1, 400)")
	mustExec(t, s, "CREATE TABLE i(v, w)")
	mustExec(t, s, "INSERT INTO i SELECT value, printf('%0100d', value) FROM generate_series(1, 300)")
	for _, q := range []string{
		"SELECT count(*) FROM o WHERE (SELECT w FROM i WHERE v <> o.k ORDER BY w DESC, v) IS NOT NULL",
		"SELECT count(*) FROM o WHERE (SELECT count(*) FROM i AS a JOIN i AS b ON a.w = b.w WHERE a.v > o.k) >= 0",
		"SELECT count(*) FROM o WHERE (SELECT count(*) FROM (SELECT w FROM i WHERE v <> o.k UNION SELECT w || 'x' FROM i)) > 0",
		"SELECT count(*) FROM o WHERE (SELECT count(DISTINCT w) FROM i WHERE v <> o.k) > 0",
		"SELECT count(*) FROM o WHERE (SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY w) AS r FROM i WHERE v <> o.k)) > 0",
	} {
		st, err := s.Prepare(context.Background(), q)
		require.NoError(t, err)
		rows, err := st.Query(context.Background(), nil)
		require.NoError(t, err)
		row := make([]types.Value, 1)
		require.NoError(t, rows.Next(row), q)
		require.Equal(t, int64(400), row[0].Int(), q)
		rows.Close()
	}
}
