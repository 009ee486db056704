package ladybug_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

// These tests drive the driver's interfaces directly, the way database/sql
// does, so each optional interface is checked on its own.

func openRawConn(t *testing.T) driver.Conn {
	t.Helper()
	d := &ladybug.Driver{}
	c, err := d.OpenConnector(":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { c.(io.Closer).Close() })
	cn, err := c.Connect(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { cn.Close() })
	return cn
}

func namedArgs(vals ...any) []driver.NamedValue {
	out := make([]driver.NamedValue, len(vals))
	for i, v := range vals {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

func TestDriverIface_ExecerQueryerContext(t *testing.T) {
	cn := openRawConn(t)
	ex := cn.(driver.ExecerContext)
	q := cn.(driver.QueryerContext)
	ctx := context.Background()
	_, err := ex.ExecContext(ctx, `CREATE TABLE t (a INTEGER, b TEXT)`, nil)
	require.NoError(t, err)
	res, err := ex.ExecContext(ctx, `INSERT INTO t VALUES (?, ?), (?, ?)`, namedArgs(int64(1), "x", int64(2), "y"))
	require.NoError(t, err)
	n, _ := res.RowsAffected()
	assert.EqualValues(t, 2, n)

	rows, err := q.QueryContext(ctx, `SELECT a, b FROM t ORDER BY a`, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, rows.Columns())
	dest := make([]driver.Value, 2)
	require.NoError(t, rows.Next(dest))
	assert.Equal(t, []driver.Value{int64(1), "x"}, dest)
	require.NoError(t, rows.Next(dest))
	assert.Equal(t, io.EOF, rows.Next(dest))
	require.NoError(t, rows.Close())
}

func TestDriverIface_PrepareNumInputAndLegacyDelegation(t *testing.T) {
	cn := openRawConn(t)
	st, err := cn.Prepare(`SELECT ? + ?`)
	require.NoError(t, err)
	assert.Equal(t, 2, st.NumInput())
	rows, err := st.Query([]driver.Value{int64(40), int64(2)}) //nolint:staticcheck // the legacy path must delegate
	require.NoError(t, err)
	dest := make([]driver.Value, 1)
	require.NoError(t, rows.Next(dest))
	assert.Equal(t, int64(42), dest[0])
	require.NoError(t, rows.Close())
	require.NoError(t, st.Close())

	for q, want := range map[string]int{
		`SELECT 1`:                0,
		`SELECT $1, $2, $1`:       2,
		`SELECT ?3`:               3,
		`SELECT :a, :b, :a`:       2,
		`SELECT @x`:               1,
		`SELECT ?, ?; SELECT ?`:   3,
		`SELECT '?' || ?`:         1,
		`SELECT 1 -- ? comment ?`: 0,
	} {
		st, err := cn.(driver.ConnPrepareContext).PrepareContext(context.Background(), q)
		require.NoError(t, err, q)
		assert.Equal(t, want, st.NumInput(), q)
		st.Close()
	}
}

func TestDriverIface_BeginTxOptions(t *testing.T) {
	cn := openRawConn(t)
	ctx := context.Background()
	ex := cn.(driver.ExecerContext)
	_, err := ex.ExecContext(ctx, `CREATE TABLE t (a INTEGER)`, nil)
	require.NoError(t, err)

	bt := cn.(driver.ConnBeginTx)
	for _, lvl := range []sql.IsolationLevel{sql.LevelDefault, sql.LevelReadUncommitted, sql.LevelReadCommitted, sql.LevelRepeatableRead, sql.LevelSnapshot, sql.LevelSerializable} {
		tx, err := bt.BeginTx(ctx, driver.TxOptions{Isolation: driver.IsolationLevel(lvl)})
		require.NoError(t, err, lvl.String())
		require.NoError(t, tx.Rollback())
	}
	for _, lvl := range []sql.IsolationLevel{sql.LevelWriteCommitted, sql.LevelLinearizable} {
		_, err := bt.BeginTx(ctx, driver.TxOptions{Isolation: driver.IsolationLevel(lvl)})
		require.Error(t, err, lvl.String())
	}
	tx, err := bt.BeginTx(ctx, driver.TxOptions{ReadOnly: true})
	require.NoError(t, err)
	_, err = ex.ExecContext(ctx, `INSERT INTO t VALUES (1)`, nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ladybug.ErrReadOnly), "%v", err)
	require.NoError(t, tx.Rollback())
	assert.Error(t, tx.Commit(), "a finished transaction refuses a second end")
}

func TestDriverIface_SessionResetterRollsBackLeftoverTx(t *testing.T) {
	cn := openRawConn(t)
	ctx := context.Background()
	ex := cn.(driver.ExecerContext)
	_, err := ex.ExecContext(ctx, `CREATE TABLE t (a INTEGER)`, nil)
	require.NoError(t, err)
	_, err = cn.(driver.ConnBeginTx).BeginTx(ctx, driver.TxOptions{})
	require.NoError(t, err)
	_, err = ex.ExecContext(ctx, `INSERT INTO t VALUES (1)`, nil)
	require.NoError(t, err)

	require.NoError(t, cn.(driver.SessionResetter).ResetSession(ctx))
	assert.True(t, cn.(driver.Validator).IsValid())
	require.NoError(t, cn.(driver.Pinger).Ping(ctx))

	rows, err := cn.(driver.QueryerContext).QueryContext(ctx, `SELECT count(*) FROM t`, nil)
	require.NoError(t, err)
	dest := make([]driver.Value, 1)
	require.NoError(t, rows.Next(dest))
	assert.Equal(t, int64(0), dest[0], "the abandoned transaction was rolled back")
	rows.Close()

	require.NoError(t, cn.Close())
	assert.False(t, cn.(driver.Validator).IsValid())
	assert.Equal(t, driver.ErrBadConn, cn.(driver.Pinger).Ping(ctx))
	assert.Equal(t, driver.ErrBadConn, cn.(driver.SessionResetter).ResetSession(ctx))
}

func TestDriverIface_NamedValueChecker(t *testing.T) {
	cn := openRawConn(t)
	nvc := cn.(driver.NamedValueChecker)
	nv := driver.NamedValue{Ordinal: 1, Value: uint16(7)}
	require.NoError(t, nvc.CheckNamedValue(&nv))
	assert.Equal(t, int64(7), nv.Value)
	nv = driver.NamedValue{Ordinal: 1, Value: int(-7)}
	require.NoError(t, nvc.CheckNamedValue(&nv))
	assert.Equal(t, int(-7), nv.Value, "an int stays as boxed (no second allocation)")
	nv = driver.NamedValue{Ordinal: 1, Value: uint64(1) << 63}
	assert.Error(t, nvc.CheckNamedValue(&nv))
	nv = driver.NamedValue{Ordinal: 1, Value: &struct{}{}}
	assert.Equal(t, driver.ErrSkip, nvc.CheckNamedValue(&nv))
}

func TestDriverIface_NamedParameters(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	var a, b, c int
	require.NoError(t, db.QueryRow(`SELECT :a + @b`, sql.Named("a", 1), sql.Named("b", 2)).Scan(&a))
	assert.Equal(t, 3, a)
	require.NoError(t, db.QueryRow(`SELECT ?2, ?1, ?2`, 5, 6).Scan(&a, &b, &c))
	assert.Equal(t, [3]int{6, 5, 6}, [3]int{a, b, c})
	require.NoError(t, db.QueryRow(`SELECT $2 - $1`, 5, 7).Scan(&a))
	assert.Equal(t, 2, a)
	_, err = db.Exec(`SELECT :a`, sql.Named("zzz", 1))
	assert.Error(t, err, "a named argument that matches no parameter is an error")
}

func TestDriverIface_RowsColumnTypeInterfaces(t *testing.T) {
	cn := openRawConn(t)
	ctx := context.Background()
	_, err := cn.(driver.ExecerContext).ExecContext(ctx, `CREATE TABLE t (n NUMERIC(8,3), v VARCHAR(9) NOT NULL)`, nil)
	require.NoError(t, err)
	rows, err := cn.(driver.QueryerContext).QueryContext(ctx, `SELECT n, v FROM t`, nil)
	require.NoError(t, err)
	defer rows.Close()
	assert.Equal(t, "NUMERIC", rows.(driver.RowsColumnTypeDatabaseTypeName).ColumnTypeDatabaseTypeName(0))
	p, s, ok := rows.(driver.RowsColumnTypePrecisionScale).ColumnTypePrecisionScale(0)
	assert.True(t, ok)
	assert.Equal(t, [2]int64{8, 3}, [2]int64{p, s})
	l, ok := rows.(driver.RowsColumnTypeLength).ColumnTypeLength(1)
	assert.True(t, ok)
	assert.EqualValues(t, 9, l)
	nullable, ok := rows.(driver.RowsColumnTypeNullable).ColumnTypeNullable(1)
	assert.True(t, ok)
	assert.False(t, nullable)
	assert.Equal(t, "string", rows.(driver.RowsColumnTypeScanType).ColumnTypeScanType(1).String())
}
