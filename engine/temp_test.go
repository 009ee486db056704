package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

func execErr(s *Session, sql string) error {
	st, err := s.Prepare(context.Background(), sql)
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = st.Exec(context.Background(), nil)
	return err
}

// twoSessions opens a memory database whose writer waits 50 ms and two
// sessions on it, closed with the test.
func twoSessions(t *testing.T) (a, b *Session) {
	t.Helper()
	db, err := Open(Options{Memory: true, ForeignKeys: true, BusyTimeout: 50 * time.Millisecond})
	require.NoError(t, err)
	a, b = db.NewSession(), db.NewSession()
	t.Cleanup(func() {
		a.Close()
		b.Close()
		db.Close()
	})
	return a, b
}

func TestSession_Temp_VisibleOnlyToItsSession(t *testing.T) {
	db := openMem(t)
	a, b := db.NewSession(), db.NewSession()
	defer a.Close()
	defer b.Close()
	mustExec(t, a, "CREATE TABLE m(x)")
	mustExec(t, a, "INSERT INTO m VALUES (1)")
	mustExec(t, a, "CREATE TEMP TABLE tt(x)")
	mustExec(t, a, "INSERT INTO tt VALUES (10), (20)")
	require.ErrorContains(t, execErr(b, "SELECT * FROM tt"), "no such table: tt")
	require.Equal(t, []int64{0}, queryInts(t, b, "SELECT count(*) FROM sqlite_temp_master"))
	// b's own temp table of the same name is another table.
	mustExec(t, b, "CREATE TEMP TABLE tt(x)")
	mustExec(t, b, "INSERT INTO tt VALUES (5)")
	require.Equal(t, []int64{10, 20}, queryInts(t, a, "SELECT x FROM tt ORDER BY x"))
	require.Equal(t, []int64{5}, queryInts(t, b, "SELECT x FROM tt ORDER BY x"))
	require.Equal(t, 2, db.Stats().TempDatabases)
	require.Equal(t, []int64{1}, queryInts(t, b, "SELECT count(*) FROM m"))
}

func TestSession_Temp_PlanCacheKeepsSessionsApart(t *testing.T) {
	db := openMem(t)
	a, b := db.NewSession(), db.NewSession()
	defer a.Close()
	defer b.Close()
	mustExec(t, a, "CREATE TABLE t(x)")
	mustExec(t, a, "INSERT INTO t VALUES (1)")
	const q = "SELECT count(*) FROM t"
	require.Equal(t, []int64{1}, queryInts(t, a, q))
	require.Equal(t, []int64{1}, queryInts(t, b, q))
	// A temp t in a shadows main's t for a only, through the same SQL text.
	mustExec(t, a, "CREATE TEMP TABLE t(x)")
	for i := 0; i < 3; i++ {
		require.Equal(t, []int64{0}, queryInts(t, a, q))
		require.Equal(t, []int64{1}, queryInts(t, b, q))
	}
	// Each keeps its plan: alternating sessions bind nothing more.
	binds := db.Stats().Binds
	for i := 0; i < 3; i++ {
		queryInts(t, a, q)
		queryInts(t, b, q)
	}
	require.Equal(t, binds, db.Stats().Binds)
	// A statement prepared before a temp DDL is rebound after it.
	st, err := b.Prepare(context.Background(), q)
	require.NoError(t, err)
	defer st.Close()
	mustExec(t, b, "CREATE TEMP TABLE t(x)")
	mustExec(t, b, "INSERT INTO t VALUES (7), (8)")
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	dest := make([]types.Value, 1)
	require.NoError(t, rows.Next(dest))
	require.NoError(t, rows.Close())
	require.Equal(t, int64(2), dest[0].AsInt())
	mustExec(t, b, "DROP TABLE t")
	require.Equal(t, []int64{1}, queryInts(t, b, q))
	require.Equal(t, []int64{0}, queryInts(t, a, q))
}

func TestSession_Temp_WriteDoesNotWaitForOtherWriter(t *testing.T) {
	a, b := twoSessions(t)
	mustExec(t, a, "CREATE TABLE m(x)")
	mustExec(t, a, "CREATE TEMP TABLE tt(x UNIQUE)")
	require.NoError(t, b.Begin(context.Background(), TxOptions{Immediate: true}))
	mustExec(t, b, "INSERT INTO m VALUES (1)")
	// b holds the writer lock: a's temp writes and temp DDL go on.
	mustExec(t, a, "INSERT INTO tt VALUES (1)")
	mustExec(t, a, "UPDATE tt SET x = 2")
	mustExec(t, a, "CREATE TEMP TABLE t2 AS SELECT * FROM tt")
	mustExec(t, a, "CREATE INDEX t2x ON t2(x)")
	require.Error(t, execErr(a, "INSERT INTO m VALUES (2)"), "a write to main still waits for the writer")
	require.NoError(t, b.Commit())
	require.Equal(t, []int64{2}, queryInts(t, a, "SELECT x FROM t2"))
}

func TestSession_Temp_ReadOnlySessionMayWriteTemp(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE m(x)")
	s.SetReadOnly(true)
	mustExec(t, s, "CREATE TEMP TABLE tt(x)")
	mustExec(t, s, "INSERT INTO tt SELECT 1")
	require.Equal(t, []int64{1}, queryInts(t, s, "SELECT x FROM tt"))
	require.ErrorContains(t, execErr(s, "INSERT INTO m VALUES (1)"), "readonly")
}

func TestSession_Temp_DroppedAtCloseAndNeverOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := Open(Options{Path: path, Create: true, ForeignKeys: true})
	require.NoError(t, err)
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE m(x)")
	mustExec(t, s, "CREATE TEMP TABLE tt(x)")
	mustExec(t, s, "INSERT INTO tt VALUES (1)")
	require.Equal(t, 1, db.Stats().TempDatabases)
	require.NoError(t, s.Close())
	require.Equal(t, 0, db.Stats().TempDatabases)
	s2 := db.NewSession()
	require.Equal(t, []int64{0}, queryInts(t, s2, "SELECT count(*) FROM sqlite_temp_master"))
	// A session left open when the database closes loses its temp objects.
	mustExec(t, s2, "CREATE TEMP TABLE tt(x)")
	require.NoError(t, db.Close())
	require.Equal(t, 0, db.Stats().TempDatabases)

	db, err = Open(Options{Path: path, ForeignKeys: true})
	require.NoError(t, err)
	defer db.Close()
	s3 := db.NewSession()
	defer s3.Close()
	require.Equal(t, []int64{1}, queryInts(t, s3, "SELECT count(*) FROM sqlite_master"))
	require.ErrorContains(t, execErr(s3, "SELECT * FROM tt"), "no such table")
	require.Equal(t, []int64{0}, queryInts(t, s3, "SELECT count(*) FROM sqlite_temp_master"))
}

func TestSession_Temp_FirstTempTableInsideSavepoint(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE m(x)")
	mustExec(t, s, "SAVEPOINT a")
	mustExec(t, s, "INSERT INTO m VALUES (1)")
	mustExec(t, s, "CREATE TEMP TABLE tt(x)")
	mustExec(t, s, "INSERT INTO tt VALUES (1)")
	mustExec(t, s, "ROLLBACK TO a")
	require.ErrorContains(t, execErr(s, "SELECT * FROM tt"), "no such table")
	mustExec(t, s, "CREATE TEMP TABLE tt(x)")
	mustExec(t, s, "RELEASE a")
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM tt"))
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM m"))
}

func TestSession_Temp_StreamingQueryKeepsBothSnapshots(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE m(x)")
	mustExec(t, s, "CREATE TEMP TABLE tt(x)")
	mustExec(t, s, "INSERT INTO tt SELECT value FROM generate_series(1, 3000)")
	mustExec(t, s, "INSERT INTO m SELECT x FROM tt")
	st, err := s.Prepare(context.Background(), "SELECT m.x FROM m JOIN tt ON tt.x = m.x")
	require.NoError(t, err)
	defer st.Close()
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	dest := make([]types.Value, 1)
	n := 0
	for rows.Next(dest) == nil {
		n++
	}
	require.NoError(t, rows.Close())
	require.Equal(t, 3000, n)
}

func TestSession_Temp_ExplicitTxWritingTempTakesNoWriterLock(t *testing.T) {
	a, b := twoSessions(t)
	mustExec(t, a, "CREATE TABLE m(x)")
	mustExec(t, a, "CREATE TEMP TABLE tt(x)")
	require.NoError(t, b.Begin(context.Background(), TxOptions{Immediate: true}))
	require.NoError(t, a.Begin(context.Background(), TxOptions{}))
	mustExec(t, a, "INSERT INTO tt SELECT count(*) FROM m")
	mustExec(t, a, "CREATE TEMP TABLE t2(y)")
	require.NoError(t, a.Commit())
	require.NoError(t, b.Rollback())
	require.Equal(t, []int64{0}, queryInts(t, a, "SELECT x FROM tt"))
	require.Equal(t, []int64{0}, queryInts(t, a, "SELECT count(*) FROM t2"))
}

func TestSession_Temp_WriteWhileStreamingItsTable(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TEMP TABLE tt(x)")
	mustExec(t, s, "INSERT INTO tt SELECT value FROM generate_series(1, 5000)")
	st, err := s.Prepare(context.Background(), "SELECT x FROM tt")
	require.NoError(t, err)
	defer st.Close()
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	dest := make([]types.Value, 1)
	require.NoError(t, rows.Next(dest))
	// The open query reads its snapshot; the write commits beside it.
	mustExec(t, s, "INSERT INTO tt VALUES (0)")
	n := 1
	for rows.Next(dest) == nil {
		n++
	}
	require.NoError(t, rows.Close())
	require.Equal(t, 5000, n)
	require.Equal(t, []int64{5001}, queryInts(t, s, "SELECT count(*) FROM tt"))
}

func TestSession_Temp_ConcurrentSessionsShareTextNotPlans(t *testing.T) {
	db := openMem(t)
	s0 := db.NewSession()
	mustExec(t, s0, "CREATE TABLE t(x)")
	mustExec(t, s0, "INSERT INTO t VALUES (-1)")
	require.NoError(t, s0.Close())
	const n = 6
	errc := make(chan error, n)
	for g := 0; g < n; g++ {
		go func(g int) {
			s := db.NewSession()
			err := tempRounds(s, g)
			if cerr := s.Close(); err == nil {
				err = cerr
			}
			errc <- err
		}(g)
	}
	for g := 0; g < n; g++ {
		require.NoError(t, <-errc)
	}
	require.Equal(t, 0, db.Stats().TempDatabases)
}

// tempRounds makes the session's own temp t (odd g) or keeps main's (even
// g) and checks that the shared SQL text reads the right one.
func tempRounds(s *Session, g int) error {
	ctx := context.Background()
	want := int64(-1)
	if g%2 == 1 {
		want = int64(g)
		for _, q := range []string{"CREATE TEMP TABLE t(x)", "INSERT INTO t VALUES (" + types.NewInt(want).Text() + ")"} {
			if err := execErr(s, q); err != nil {
				return err
			}
		}
	}
	for i := 0; i < 50; i++ {
		st, err := s.Prepare(ctx, "SELECT x FROM t")
		if err != nil {
			return err
		}
		rows, err := st.Query(ctx, nil)
		if err != nil {
			return err
		}
		dest := make([]types.Value, 1)
		err = rows.Next(dest)
		rows.Close()
		st.Close()
		if err != nil {
			return err
		}
		if got := dest[0].AsInt(); got != want {
			return fmt.Errorf("session %d read %d, want %d", g, got, want)
		}
	}
	return nil
}

func TestSession_Temp_DropTakesNoWriterLock(t *testing.T) {
	a, b := twoSessions(t)
	mustExec(t, a, "CREATE TABLE m(x)")
	mustExec(t, a, "CREATE TEMP TABLE m(x)")
	mustExec(t, a, "CREATE TEMP VIEW v AS SELECT 1")
	require.NoError(t, b.Begin(context.Background(), TxOptions{Immediate: true}))
	mustExec(t, a, "DROP VIEW v")
	mustExec(t, a, "DROP TABLE m") // the temp one, found first
	require.Error(t, execErr(a, "DROP TABLE m"), "main's m needs the writer lock")
	require.NoError(t, b.Rollback())
	mustExec(t, a, "DROP TABLE m")
}

func TestSession_Temp_AlterColumnOnTempTable(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TEMP TABLE tt(a)")
	mustExec(t, s, "INSERT INTO tt VALUES (1)")
	mustExec(t, s, "ALTER TABLE tt ALTER COLUMN a SET NOT NULL")
	require.ErrorContains(t, execErr(s, "INSERT INTO tt VALUES (NULL)"), "NOT NULL constraint failed: tt.a")
	mustExec(t, s, "ALTER TABLE temp.tt ALTER COLUMN a SET DEFAULT 5")
	mustExec(t, s, "INSERT INTO tt DEFAULT VALUES")
	require.Equal(t, []int64{1, 5}, queryInts(t, s, "SELECT a FROM tt ORDER BY a"))
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM sqlite_master"))
}
