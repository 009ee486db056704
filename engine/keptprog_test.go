package engine

import (
	"context"
	"io"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/stretchr/testify/require"
)

// openQuery runs st and returns its rows and the program their result set
// runs on.
func openQuery(t *testing.T, st *Stmt) (*Rows, any) {
	t.Helper()
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	require.NotNil(t, rows.cur)
	require.NotNil(t, rows.cur.op)
	return rows, rows.cur.op
}

// preparedOn runs setup on a new session of a new database and prepares
// query there.
func preparedOn(t *testing.T, query string, setup ...string) (*DB, *Session, *Stmt) {
	t.Helper()
	db := openMem(t)
	s := db.NewSession()
	for _, q := range setup {
		mustExec(t, s, q)
	}
	st, err := s.Prepare(context.Background(), query)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return db, s, st
}

func TestSession_KeepQueryProg_NextRunTakesTheProgramBack(t *testing.T) {
	db, s, st := preparedOn(t, "SELECT b FROM t WHERE id = 1",
		"CREATE TABLE t(id INTEGER PRIMARY KEY, b TEXT)", "INSERT INTO t VALUES (1, 'x')")

	rows, first := openQuery(t, st)
	require.Nil(t, s.kept.op, "a running program is not kept")
	n0, _ := db.progs.usage()
	require.NoError(t, rows.Close())
	require.Equal(t, first, s.kept.op, "the closed program is kept by the session")
	n, _ := db.progs.usage()
	require.Equal(t, n0, n, "and not also in the database's cache")

	rows, second := openQuery(t, st)
	require.Equal(t, first, second)
	require.Nil(t, s.kept.op, "taken, not shared")
	dest := make([]types.Value, 1)
	require.NoError(t, rows.Next(dest))
	require.Equal(t, "x", dest[0].Str())
	require.NoError(t, rows.Close())

	require.NoError(t, s.Close())
	require.Nil(t, s.kept.op, "the program goes with the session")
}

func TestSession_KeepQueryProg_OverlappingRunsGetTheirOwnPrograms(t *testing.T) {
	db, s, st := preparedOn(t, "SELECT id FROM t ORDER BY id",
		"CREATE TABLE t(id INTEGER PRIMARY KEY)", "INSERT INTO t VALUES (1), (2), (3)")
	warm, _ := openQuery(t, st)
	require.NoError(t, warm.Close())

	a, opA := openQuery(t, st)
	b, opB := openQuery(t, st)
	n0, _ := db.progs.usage()
	require.NotSame(t, opA, opB)
	dest := make([]types.Value, 1)
	for want := int64(1); want <= 3; want++ {
		require.NoError(t, a.Next(dest))
		require.Equal(t, want, dest[0].Int())
		require.NoError(t, b.Next(dest))
		require.Equal(t, want, dest[0].Int())
	}
	require.ErrorIs(t, a.Next(dest), io.EOF)
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())
	require.NotNil(t, s.kept.op, "the session keeps one")
	n, _ := db.progs.usage()
	require.Equal(t, n0+1, n, "the other goes to the database's cache")
}

func TestSession_KeepQueryProg_RefusesLargeOrUnmeasuredProgram(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	require.False(t, s.keepQueryProg(sizedPlan(keptProgMaxBytes+1), nil))
	require.False(t, s.keepQueryProg(sizedPlan(0), nil))
	require.Nil(t, s.kept.bp)
}
