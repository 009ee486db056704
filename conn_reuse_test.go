package ladybug

import (
	"context"
	"database/sql"
	"testing"

	"github.com/ladybugsql/ladybug/engine"
	"github.com/stretchr/testify/require"
)

// spareStmtOf returns the connection's spare engine statement.
func spareStmtOf(t *testing.T, c *sql.Conn) *engine.Stmt {
	t.Helper()
	var st *engine.Stmt
	require.NoError(t, c.Raw(func(dc any) error {
		st = dc.(*conn).spareStmt
		return nil
	}))
	return st
}

// TestConn_UnpreparedQuery_ReusesEngineStmt: an unprepared Query or Exec
// runs in the statement the previous one closed, with the right results,
// and a statement still held by open rows is never handed out twice.
func TestConn_UnpreparedQuery_ReusesEngineStmt(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	require.NoError(t, err)
	defer c.Close()
	_, err = c.ExecContext(ctx, "CREATE TABLE u (a INTEGER, b TEXT)")
	require.NoError(t, err)
	first := spareStmtOf(t, c)
	require.NotNil(t, first)
	_, err = c.ExecContext(ctx, "INSERT INTO u VALUES (?, ?), (?, ?)", 1, "x", 2, "y")
	require.NoError(t, err)
	require.Same(t, first, spareStmtOf(t, c))

	var b string
	require.NoError(t, c.QueryRowContext(ctx, "SELECT b FROM u WHERE a = ?", 2).Scan(&b))
	require.Equal(t, "y", b)
	require.Same(t, first, spareStmtOf(t, c))

	r1, err := c.QueryContext(ctx, "SELECT a FROM u ORDER BY a")
	require.NoError(t, err)
	require.Nil(t, spareStmtOf(t, c), "r1 holds the spare statement")
	r2, err := c.QueryContext(ctx, "SELECT b FROM u ORDER BY a DESC")
	require.NoError(t, err)
	var a int
	require.True(t, r1.Next())
	require.NoError(t, r1.Scan(&a))
	require.True(t, r2.Next())
	require.NoError(t, r2.Scan(&b))
	require.Equal(t, 1, a)
	require.Equal(t, "y", b)
	require.NoError(t, r1.Close())
	require.NoError(t, r2.Close())

	_, err = c.QueryContext(ctx, "SELECT nope FROM u")
	require.Error(t, err)
	require.NoError(t, c.QueryRowContext(ctx, "SELECT count(*) FROM u").Scan(&a))
	require.Equal(t, 2, a)
}
