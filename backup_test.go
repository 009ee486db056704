package ladybug_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func integrityOK(t *testing.T, db *sql.DB) {
	t.Helper()
	var res string
	require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&res))
	require.Equal(t, "ok", res)
}

// TestBackup_ConsistentWhileWriting: a writer keeps committing balanced
// transactions (ten rows whose amounts sum to zero) during the backup;
// the copy opens, passes the integrity check and holds whole
// transactions only.
func TestBackup_ConsistentWhileWriting(t *testing.T) {
	for _, src := range []string{"file", "memory"} {
		t.Run(src, func(t *testing.T) {
			dir := t.TempDir()
			dsn := filepath.Join(dir, "src.db")
			if src == "memory" {
				dsn = ":memory:"
			}
			db := openNamed(t, dsn)
			db.SetMaxOpenConns(4)
			mustExec(t, db, `CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INT, pad TEXT)`)
			mustExec(t, db, `INSERT INTO ledger (amount, pad) SELECT 0, printf('%0300d', value) FROM generate_series(1, 30000)`)
			ctx := context.Background()
			w := startLedger(t, db, 10, `INSERT INTO ledger (amount, pad) VALUES (?, 'w')`, nil, nil)
			var calls, last atomic.Int64
			dst := filepath.Join(dir, "copy.db")
			err := ladybug.Backup(ctx, db, dst, &ladybug.BackupOptions{Progress: func(done, total int) {
				calls.Add(1)
				assert.GreaterOrEqual(t, int64(done), last.Load(), "progress went backwards")
				assert.LessOrEqual(t, done, total)
				last.Store(int64(done))
			}})
			commits := w.end()
			require.NoError(t, err)
			assert.Greater(t, calls.Load(), int64(2), "progress was reported along the way")
			assert.Positive(t, commits)

			cp := openNamed(t, dst)
			integrityOK(t, cp)
			var n, sum int64
			require.NoError(t, cp.QueryRow(`SELECT count(*), sum(amount) FROM ledger`).Scan(&n, &sum))
			assert.Zero(t, sum, "the copy holds a half transaction")
			assert.Zero(t, (n-30000)%10, "the copy holds a half transaction")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				assert.NotContains(t, e.Name(), ".backup-", "a temporary file was left behind")
			}
		})
	}
}

func TestBackup_BadInput(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openNamed(t, ":memory:")
	mustExec(t, db, `CREATE TABLE t (x)`)
	mustExec(t, db, `INSERT INTO t VALUES (1)`)

	existing := filepath.Join(dir, "exists.db")
	require.NoError(t, os.WriteFile(existing, []byte("keep me"), 0o644))
	err := ladybug.Backup(ctx, db, existing, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already exists")
	b, _ := os.ReadFile(existing)
	assert.Equal(t, "keep me", string(b), "an existing file was touched")

	_, err = db.Exec(`VACUUM INTO ?`, existing)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already exists")

	missingDir := filepath.Join(dir, "no", "such", "dir", "x.db")
	err = ladybug.Backup(ctx, db, missingDir, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot write")
	_, err = db.Exec(`VACUUM INTO ?`, missingDir)
	assert.Error(t, err)

	_, err = db.Exec(`VACUUM INTO 42`)
	assert.ErrorContains(t, err, "file name")

	tx, err := db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`VACUUM INTO ?`, filepath.Join(dir, "in-tx.db"))
	assert.ErrorContains(t, err, "within a transaction")
	require.NoError(t, tx.Rollback())

	// An interrupted backup (as a crash would) leaves nothing at the
	// destination and no temporary file.
	cctx, cancel := context.WithCancel(ctx)
	big := openNamed(t, ":memory:")
	mustExec(t, big, `CREATE TABLE t (x)`)
	mustExec(t, big, `INSERT INTO t SELECT printf('%0500d', value) FROM generate_series(1, 20000)`)
	dst := filepath.Join(dir, "cut.db")
	err = ladybug.Backup(cctx, big, dst, &ladybug.BackupOptions{Progress: func(done, total int) {
		if done > total/3 {
			cancel()
		}
	}})
	require.Error(t, err)
	_, statErr := os.Stat(dst)
	assert.True(t, os.IsNotExist(statErr), "a cut backup left a file at the destination")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".backup-", "a temporary file was left behind")
	}
}

// TestVacuumInto_CompactCopy: VACUUM INTO writes a copy without the free
// pages, smaller than the source, with the same rows; the source is
// unchanged and keeps working.
func TestVacuumInto_CompactCopy(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db := openNamed(t, src)
	mustExec(t, db, `CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT)`)
	mustExec(t, db, `CREATE INDEX t_pad ON t (pad)`)
	mustExec(t, db, `INSERT INTO t SELECT value, printf('%0200d', value) FROM generate_series(1, 20000)`)
	mustExec(t, db, `DELETE FROM t WHERE id > 2000`)
	var pages, free int
	require.NoError(t, db.QueryRow(`PRAGMA page_count`).Scan(&pages))
	require.NoError(t, db.QueryRow(`PRAGMA freelist_count`).Scan(&free))
	require.Positive(t, free)

	dst := filepath.Join(dir, "copy.db")
	mustExec(t, db, `VACUUM INTO ?`, dst)
	_, err := os.Stat(dst + "-wal")
	assert.True(t, os.IsNotExist(err), "the copy came with a log")
	cp := openNamed(t, dst)
	integrityOK(t, cp)
	var cpPages, cpFree, n int
	require.NoError(t, cp.QueryRow(`PRAGMA page_count`).Scan(&cpPages))
	require.NoError(t, cp.QueryRow(`PRAGMA freelist_count`).Scan(&cpFree))
	require.NoError(t, cp.QueryRow(`SELECT count(*) FROM t WHERE pad > '0'`).Scan(&n))
	assert.Equal(t, 2000, n)
	assert.Zero(t, cpFree)
	assert.LessOrEqual(t, cpPages, pages-free)
	st, err := os.Stat(dst)
	require.NoError(t, err)
	assert.Equal(t, int64(cpPages)*4096, st.Size())

	var srcFree int
	require.NoError(t, db.QueryRow(`PRAGMA freelist_count`).Scan(&srcFree))
	assert.Equal(t, free, srcFree, "VACUUM INTO changed the source")
	mustExec(t, db, `INSERT INTO t VALUES (1000000, 'after')`)

	// A literal file name and a memory source work too.
	mem := openNamed(t, ":memory:")
	mustExec(t, mem, `CREATE TABLE m (x)`)
	mustExec(t, mem, `INSERT INTO m VALUES ('hello')`)
	lit := filepath.Join(dir, "lit.db")
	mustExec(t, mem, `VACUUM INTO '`+lit+`'`)
	var s string
	require.NoError(t, openNamed(t, lit).QueryRow(`SELECT x FROM m`).Scan(&s))
	assert.Equal(t, "hello", s)
}
