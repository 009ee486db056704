package conformance

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/require"
)

// TestOpen_RealSQLiteFile_RefusedUntouched: ladybug refuses a database
// file SQLite wrote (with a table and rows, its journal mode left at
// delete) with ErrNotADB in every mode, and leaves every byte of it as
// SQLite left it, so SQLite still reads its rows.
func TestOpen_RealSQLiteFile_RefusedUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "real.sqlite")
	sdb, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	for _, s := range []string{`CREATE TABLE t(x INTEGER PRIMARY KEY, y TEXT)`, `INSERT INTO t VALUES (1, 'one'), (2, 'two')`} {
		_, err := sdb.Exec(s)
		require.NoError(t, err)
	}
	require.NoError(t, sdb.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, mode := range []string{"rwc", "rw", "ro"} {
		db, err := sql.Open("ladybug", path+"?mode="+mode)
		require.NoError(t, err)
		_, err = db.Exec(`SELECT count(*) FROM sqlite_master`)
		require.ErrorIs(t, err, ladybug.ErrNotADB, mode)
		require.NoError(t, db.Close())
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		require.True(t, bytes.Equal(before, after), "%s: ladybug changed SQLite's file", mode)
	}
	sdb, err = sql.Open("sqlite", path)
	require.NoError(t, err)
	defer sdb.Close()
	var n int
	require.NoError(t, sdb.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	require.Equal(t, 2, n)
}
