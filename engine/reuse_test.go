package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// TestStmt_Exec_ReusedWritesKeepRowsApart runs one prepared INSERT, UPDATE
// and DELETE many times with changing argument counts of rows, so the
// buffers they reuse across executions must not leak one run into the next.
func TestStmt_Exec_ReusedWritesKeepRowsApart(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, c TEXT)")
	mustExec(t, s, "CREATE TABLE log(id INTEGER, old TEXT, new TEXT)")
	mustExec(t, s, "CREATE TRIGGER tu AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (NEW.id, OLD.c, NEW.c); END")
	ins, err := s.Prepare(ctx, "INSERT INTO t(a, c) VALUES (?, ?), (?, 'second')")
	require.NoError(t, err)
	for i := 0; i < 50; i++ {
		res, err := ins.Exec(ctx, positional([]types.Value{types.NewInt(int64(i % 5)), types.NewText("first"), types.NewInt(int64(i % 5))}))
		require.NoError(t, err)
		require.EqualValues(t, 2, res.RowsAffected)
		require.EqualValues(t, 2*i+2, res.LastInsertID)
	}
	up, err := s.Prepare(ctx, "UPDATE t SET c = c || ? WHERE a = ?")
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		res, err := up.Exec(ctx, positional([]types.Value{types.NewText("!"), types.NewInt(int64(i))}))
		require.NoError(t, err)
		require.EqualValues(t, 20, res.RowsAffected)
	}
	require.Equal(t, []int64{100}, queryInts(t, s, "SELECT count(*) FROM t WHERE c IN ('first!', 'second!')"))
	require.Equal(t, []int64{100}, queryInts(t, s, "SELECT count(*) FROM log WHERE new = old || '!'"))
	del, err := s.Prepare(ctx, "DELETE FROM t WHERE a = ? RETURNING id")
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		res, err := del.Exec(ctx, positional([]types.Value{types.NewInt(int64(i))}))
		require.NoError(t, err)
		require.EqualValues(t, 20, res.RowsAffected)
	}
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM t"))
}

// TestStmt_Exec_ReusedDeleteSeesNewForeignKey checks a prepared DELETE run
// before and after a child table appears applies the child's ON DELETE.
func TestStmt_Exec_ReusedDeleteSeesNewForeignKey(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE p(id INTEGER PRIMARY KEY)")
	mustExec(t, s, "INSERT INTO p VALUES (1), (2), (3)")
	del, err := s.Prepare(ctx, "DELETE FROM p WHERE id = ?")
	require.NoError(t, err)
	_, err = del.Exec(ctx, positional([]types.Value{types.NewInt(1)}))
	require.NoError(t, err)
	mustExec(t, s, "CREATE TABLE c(pid INTEGER REFERENCES p(id) ON DELETE CASCADE)")
	mustExec(t, s, "INSERT INTO c VALUES (2), (3)")
	_, err = del.Exec(ctx, positional([]types.Value{types.NewInt(2)}))
	require.NoError(t, err)
	require.Equal(t, []int64{3}, queryInts(t, s, "SELECT pid FROM c"))
}

// TestRows_Release_NextQueryReusesRows releases rows part-read and checks
// the session's next query gets the same Rows back, starting clean.
func TestRows_Release_NextQueryReusesRows(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, c TEXT)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	st, err := s.Prepare(ctx, "SELECT c FROM t WHERE id >= ? ORDER BY id")
	require.NoError(t, err)
	var prev *Rows
	dest := make([]types.Value, 1)
	for i := range 4 {
		r, err := st.Query(ctx, positional([]types.Value{types.NewInt(int64(i%3 + 1))}))
		require.NoError(t, err)
		if prev != nil {
			require.Same(t, prev, r)
		}
		require.NoError(t, r.Next(dest))
		require.Equal(t, string(rune('a'+i%3)), dest[0].Str())
		require.NoError(t, r.Release())
		prev = r
	}
	require.Equal(t, []int64{3}, queryInts(t, s, "SELECT count(*) FROM t"))
}
