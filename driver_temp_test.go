package ladybug_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

func connExec(t *testing.T, c *sql.Conn, q string) {
	t.Helper()
	_, err := c.ExecContext(context.Background(), q)
	require.NoError(t, err, q)
}

func tempDatabases(t *testing.T, db *sql.DB) int {
	t.Helper()
	st, err := ladybug.DBStats(context.Background(), db)
	require.NoError(t, err)
	return st.TempDatabases
}

// TEMP objects belong to one pooled connection: another connection of the
// same *sql.DB neither sees nor shares them, and closing the connection
// drops them.
func TestDriver_Temp_IsolatedPerConnAndDroppedOnClose(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, dsn string) {
		ctx := context.Background()
		// No idle connections: Conn.Close closes the driver connection.
		db.SetMaxIdleConns(0)
		// The matrix's leak check compares pooled connections and sessions.
		defer db.SetMaxIdleConns(2)
		mustExec(t, db, "CREATE TABLE m(x)")
		mustExec(t, db, "INSERT INTO m VALUES (1)")
		c1, err := db.Conn(ctx)
		require.NoError(t, err)
		c2, err := db.Conn(ctx)
		require.NoError(t, err)

		connExec(t, c1, "CREATE TEMP TABLE tt(x INTEGER PRIMARY KEY)")
		connExec(t, c1, "INSERT INTO tt VALUES (10), (20)")
		_, err = c2.QueryContext(ctx, "SELECT * FROM tt")
		require.ErrorContains(t, err, "no such table: tt")
		connExec(t, c2, "CREATE TEMP TABLE tt(x)")
		connExec(t, c2, "INSERT INTO tt VALUES (5)")
		// The same SQL text on each connection reads its own table.
		for i := 0; i < 2; i++ {
			assert.Equal(t, []int64{10, 20}, queryInts(t, c1, "SELECT x FROM tt ORDER BY x"))
			assert.Equal(t, []int64{5}, queryInts(t, c2, "SELECT x FROM tt ORDER BY x"))
		}
		// A temp table shadows main's table of the same name for c2 only.
		connExec(t, c2, "CREATE TEMP TABLE m(x)")
		assert.Equal(t, []int64{0}, queryInts(t, c2, "SELECT count(*) FROM m"))
		assert.Equal(t, []int64{1}, queryInts(t, c2, "SELECT count(*) FROM main.m"))
		assert.Equal(t, []int64{1}, queryInts(t, c1, "SELECT count(*) FROM m"))
		// Temp work commits and rolls back with the connection's transaction.
		tx, err := c1.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.Exec("INSERT INTO tt VALUES (30)")
		require.NoError(t, err)
		_, err = tx.Exec("INSERT INTO m VALUES (2)")
		require.NoError(t, err)
		require.NoError(t, tx.Rollback())
		assert.Equal(t, []int64{2}, queryInts(t, c1, "SELECT count(*) FROM tt"))
		assert.Equal(t, []int64{1}, queryInts(t, c1, "SELECT count(*) FROM main.m"))
		assert.Equal(t, 2, tempDatabases(t, db))

		require.NoError(t, c1.Close())
		require.NoError(t, c2.Close())
		assert.Equal(t, 0, tempDatabases(t, db), "closing a connection drops its temp database")
		c3, err := db.Conn(ctx)
		require.NoError(t, err)
		defer c3.Close()
		assert.Equal(t, []int64{0}, queryInts(t, c3, "SELECT count(*) FROM sqlite_temp_master"))
		assert.Equal(t, []int64{1}, queryInts(t, c3, "SELECT count(*) FROM m"))
	})
}

// A read-only connection may still make and write TEMP tables, as in
// SQLite: they are not in the file, which stays unchanged.
func TestDriver_Temp_ReadOnlyModeWritesTempNotFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE t (a INTEGER)`)
	mustExec(t, db, `INSERT INTO t VALUES (1), (2)`)
	require.NoError(t, db.Close())

	snap := snapshotFiles(t, path)
	ro, err := sql.Open("ladybug", path+"?mode=ro")
	require.NoError(t, err)
	ro.SetMaxOpenConns(1)
	mustExec(t, ro, `CREATE TEMP TABLE tt AS SELECT a * 10 AS a FROM t`)
	mustExec(t, ro, `INSERT INTO tt VALUES (30)`)
	mustExec(t, ro, `CREATE INDEX tta ON tt(a)`)
	assert.Equal(t, []int64{10, 20, 30}, queryInts(t, ro, `SELECT a FROM tt ORDER BY a`))
	_, err = ro.Exec(`INSERT INTO t VALUES (3)`)
	assert.True(t, errors.Is(err, ladybug.ErrReadOnly), "%v", err)
	require.NoError(t, ro.Close())
	assert.Equal(t, snap, snapshotFiles(t, path), "temp objects changed the file")
}
