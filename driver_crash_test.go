package ladybug_test

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crashChildEnv makes the test binary act as the child of the crash test:
// it commits a batch delete, reports it on stdout, then waits to be killed.
const crashChildEnv = "LADYBUG_CRASH_CHILD_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	if path := os.Getenv(backupChildEnv); path != "" {
		os.Exit(backupCrashChild(path))
	}
	if spec := os.Getenv(mpChildEnv); spec != "" {
		os.Exit(mpChild(spec))
	}
	os.Exit(m.Run())
}

func crashChild(path string) int {
	db, err := sql.Open("ladybug", path)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	steps := []string{
		`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`,
		`CREATE INDEX t_v ON t (v)`,
		`INSERT INTO t (v) SELECT 'v' || value FROM generate_series(1, 5000)`,
	}
	for _, s := range steps {
		if _, err := db.Exec(s); err != nil {
			fmt.Println("error:", err)
			return 1
		}
	}
	tx, err := db.Begin()
	if err == nil {
		_, err = tx.Exec(`DELETE FROM t WHERE id % 3 = 0`)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("committed")
	tx, _ = db.Begin()
	tx.Exec(`DELETE FROM t`) // uncommitted when the kill comes
	fmt.Println("pending")
	time.Sleep(time.Minute)
	return 0
}

func TestDriver_Crash_CommittedBatchDeleteSurvivesSIGKILL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	lines := killChildAt(t, crashChildEnv+"="+path, "pending")
	require.Equal(t, []string{"committed", "pending"}, lines)

	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	var n, byIndex int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 5000-5000/3, n, "the committed delete is durable; the pending one vanished")
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t WHERE v = 'v3'`).Scan(&byIndex))
	assert.Equal(t, 0, byIndex, "index entries of deleted rows are gone")
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t WHERE v = 'v4'`).Scan(&byIndex))
	assert.Equal(t, 1, byIndex)
	var ok string
	require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
	assert.Equal(t, "ok", ok)
}

func TestDriver_Savepoints_NestedAsGormUsesThem(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE s (x INTEGER)`)
		tx, err := db.Begin()
		require.NoError(t, err)
		mustExec(t, tx, `INSERT INTO s VALUES (1)`)
		mustExec(t, tx, `SAVEPOINT sp1`)
		mustExec(t, tx, `INSERT INTO s VALUES (2)`)
		mustExec(t, tx, `SAVEPOINT sp2`)
		mustExec(t, tx, `INSERT INTO s VALUES (3)`)
		mustExec(t, tx, `ROLLBACK TO SAVEPOINT sp2`)
		mustExec(t, tx, `INSERT INTO s VALUES (4)`)
		mustExec(t, tx, `RELEASE SAVEPOINT sp2`)
		mustExec(t, tx, `SAVEPOINT sp3`)
		mustExec(t, tx, `DELETE FROM s`)
		mustExec(t, tx, `ROLLBACK TO sp3`)
		mustExec(t, tx, `RELEASE sp1`)
		_, err = tx.Exec(`INSERT INTO s VALUES ('x', 'y')`)
		require.Error(t, err, "a failing statement undoes only itself")
		require.NoError(t, tx.Commit())
		assert.Equal(t, []int64{1, 2, 4}, queryInts(t, db, `SELECT x FROM s ORDER BY x`))

		mustExec(t, db, `BEGIN; CREATE TABLE gone (y INTEGER); INSERT INTO gone VALUES (1); ROLLBACK`)
		_, err = db.Exec(`SELECT * FROM gone`)
		assert.Error(t, err, "DDL inside a rolled-back transaction is undone")
	})
}

// killChildAt runs this test binary as a child with env set, reads the
// lines it prints until stop (or a line starting "error"), then kills it
// with SIGKILL (no Close, no checkpoint, no flush) and returns the lines.
func killChildAt(t *testing.T, env, stop string) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == stop || strings.HasPrefix(sc.Text(), "error") {
			break
		}
	}
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	return lines
}
