//go:build unix

package ladybug_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

// TestDriver_Open_LockedFileIsBusy: processes share a database through its
// -shm index, each holding a shared lock on the file
// (multiproc_test.go); a process that holds an exclusive lock on it, as
// ladybug before multi-process support did (taken here through a handle
// of our own), keeps them out: opening fails with ErrBusy, Code 5, rather
// than sharing the file with a process that does not follow the protocol.
func TestDriver_Open_LockedFileIsBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE t(x)`)
	require.NoError(t, db.Close())
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	for _, mode := range []string{"rwc", "ro"} {
		err := openAndPing(path + "?mode=" + mode)
		assert.ErrorIs(t, err, ladybug.ErrBusy, mode)
		var le *ladybug.Error
		require.True(t, errors.As(err, &le), "%s: %v", mode, err)
		assert.Equal(t, ladybug.CodeBusy, le.Code, mode)
		assert.Equal(t, 5, int(le.Code), mode)
	}
}
