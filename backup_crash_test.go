package ladybug_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// backupChildEnv makes the test binary act as the child of the backup
// crash test: it fills a database, starts a backup of it and, a third of
// the way through, reports "copying" and waits to be killed.
const backupChildEnv = "LADYBUG_BACKUP_CHILD_DB"

func backupCrashChild(path string) int {
	db, err := sql.Open("ladybug", path)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT);
		INSERT INTO t SELECT value, printf('%0300d', value) FROM generate_series(1, 20000)`); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("filled")
	err = ladybug.Backup(context.Background(), db, path+".copy", &ladybug.BackupOptions{Progress: func(done, total int) {
		if done > total/3 {
			fmt.Println("copying")
			time.Sleep(time.Minute)
		}
	}})
	fmt.Println("error: backup returned", err)
	return 1
}

// TestBackup_SIGKILLMidCopy: a process killed in the middle of a backup
// leaves its source intact and nothing at the destination; the partial
// temporary copy it leaves beside it does not open as a database.
func TestBackup_SIGKILLMidCopy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "src.db")
	lines := killChildAt(t, backupChildEnv+"="+path, "copying")
	require.Equal(t, []string{"filled", "copying"}, lines)

	_, err := os.Stat(path + ".copy")
	assert.True(t, os.IsNotExist(err), "a killed backup left a file at its destination")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var temps []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".backup-") && !strings.HasSuffix(e.Name(), "-wal") {
			temps = append(temps, filepath.Join(dir, e.Name()))
		}
	}
	require.Len(t, temps, 1, "the partial copy is a temporary file beside the destination")
	partial, err := sql.Open("ladybug", temps[0]+"?mode=ro")
	require.NoError(t, err)
	err = partial.Ping()
	if err == nil {
		_, err = partial.Exec(`SELECT count(*) FROM t`)
	}
	assert.Error(t, err, "a half-written copy opened as a database")
	partial.Close()

	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 20000, n)
	integrityOK(t, db)
}
