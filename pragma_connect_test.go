package ladybug

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The PRAGMAs ORMs send at connect time: one test per row of the
// README's table, each failing if the pragma is ignored.

func openFileDB(t *testing.T, opts string) *sql.DB {
	t.Helper()
	db, err := sql.Open("ladybug", filepath.Join(t.TempDir(), "p.db")+opts)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func pragmaInt64(t *testing.T, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, pragma string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, q.QueryRowContext(context.Background(), pragma).Scan(&n), pragma)
	return n
}

// blockedInsertFails holds the writer lock in one transaction and
// reports the error of an INSERT on conn; the lock is released when the
// INSERT returns or after a 10 s watchdog, whose firing means the INSERT
// waited on instead of honouring a zero busy_timeout.
func blockedInsertFails(t *testing.T, db *sql.DB, conn *sql.Conn) error {
	t.Helper()
	holder, err := db.BeginTx(context.Background(), nil) // immediate: holds the lock
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(context.Background(), "INSERT INTO t VALUES (1)")
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, holder.Rollback())
		return err
	case <-time.After(10 * time.Second):
		require.NoError(t, holder.Rollback())
		<-done
		t.Fatal("the INSERT waited for the lock: busy_timeout = 0 was ignored")
		return nil
	}
}

func TestPragma_BusyTimeout_PerConnection(t *testing.T) {
	db := openFileDB(t, "?busy_timeout=60000")
	_, err := db.Exec("CREATE TABLE t (a)")
	require.NoError(t, err)
	conn, err := db.Conn(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	assert.EqualValues(t, 60000, pragmaInt64(t, conn, "PRAGMA busy_timeout"))
	assert.EqualValues(t, 0, pragmaInt64(t, conn, "PRAGMA busy_timeout = 0"))
	err = blockedInsertFails(t, db, conn)
	assert.True(t, errors.Is(err, ErrBusy), "%v", err)

	other, err := db.Conn(context.Background())
	require.NoError(t, err)
	defer other.Close()
	assert.EqualValues(t, 60000, pragmaInt64(t, other, "PRAGMA busy_timeout"), "another connection keeps the DSN's")
}

func TestPragma_DSNPragmaRunsOnEveryConnection(t *testing.T) {
	db := openFileDB(t, "?busy_timeout=60000&_pragma=busy_timeout(0)&_pragma=foreign_keys(0)")
	_, err := db.Exec("CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE t (a REFERENCES p)")
	require.NoError(t, err)
	for range 2 {
		conn, err := db.Conn(context.Background())
		require.NoError(t, err)
		assert.EqualValues(t, 0, pragmaInt64(t, conn, "PRAGMA busy_timeout"))
		assert.EqualValues(t, 0, pragmaInt64(t, conn, "PRAGMA foreign_keys"))
		err = blockedInsertFails(t, db, conn)
		assert.True(t, errors.Is(err, ErrBusy), "%v", err)
		_, err = conn.ExecContext(context.Background(), "INSERT INTO t VALUES (42)")
		assert.NoError(t, err, "foreign_keys(0) from the DSN: an orphan is accepted")
		require.NoError(t, conn.Close())
	}
	_, err = sql.Open("ladybug", "x.db?_pragma=busy_timeout;DROP")
	require.Error(t, err)
	_, err = sql.Open("ladybug", filepath.Join(t.TempDir(), "q.db")+"?_pragma=nosuch_thing(1)")
	require.NoError(t, err, "an unknown pragma is ignored, as SQLite ignores it")
}

func TestPragma_Synchronous_ChangesFsyncs(t *testing.T) {
	db := openFileDB(t, "?sync=full")
	ctx := context.Background()
	_, err := db.Exec("CREATE TABLE t (a)")
	require.NoError(t, err)
	syncs := func() uint64 {
		st, err := DBStats(ctx, db)
		require.NoError(t, err)
		return st.Storage.Syncs
	}
	insert := func(n int) {
		for i := range n {
			_, err := db.Exec("INSERT INTO t VALUES (?)", i)
			require.NoError(t, err)
		}
	}
	assert.EqualValues(t, 2, pragmaInt64(t, db, "PRAGMA synchronous"))
	before := syncs()
	insert(5)
	assert.GreaterOrEqual(t, syncs()-before, uint64(5), "FULL: a sync per commit")

	for _, c := range []struct {
		set  string
		want int64
		why  string
	}{{"OFF", 0, "OFF: no sync"}, {"NORMAL", 1, "NORMAL: commits are not synced (checkpoints are)"}} {
		_, err = db.Exec("PRAGMA synchronous = " + c.set)
		require.NoError(t, err)
		assert.EqualValues(t, c.want, pragmaInt64(t, db, "PRAGMA synchronous"))
		before = syncs()
		insert(5)
		assert.EqualValues(t, 0, syncs()-before, c.why)
	}
}

func TestPragma_CacheSize_ResizesCache(t *testing.T) {
	db := openFileDB(t, "")
	capacity := func() int {
		st, err := DBStats(context.Background(), db)
		require.NoError(t, err)
		return st.Storage.Cache.Capacity
	}
	assert.EqualValues(t, -32768, pragmaInt64(t, db, "PRAGMA cache_size"))
	_, err := db.Exec("PRAGMA cache_size = -1024")
	require.NoError(t, err)
	assert.Equal(t, 256, capacity(), "1 MiB of 4 KiB pages")
	assert.EqualValues(t, -1024, pragmaInt64(t, db, "PRAGMA cache_size"))
	_, err = db.Exec("PRAGMA cache_size = 500")
	require.NoError(t, err)
	assert.Equal(t, 500, capacity(), "a positive size counts pages")
}

func TestPragma_ForeignKeys(t *testing.T) {
	db := openFileDB(t, "")
	conn, err := db.Conn(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	ctx := context.Background()
	_, err = conn.ExecContext(ctx, "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (pid REFERENCES p)")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "INSERT INTO c VALUES (1)")
	assert.ErrorIs(t, err, ErrConstraintForeignKey)
	_, err = conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "INSERT INTO c VALUES (1)")
	assert.NoError(t, err)
}

func TestPragma_WalCheckpoint_EmptiesLog(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("ladybug", filepath.Join(dir, "p.db"))
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
	require.NoError(t, err)
	frames := func() int {
		st, err := DBStats(context.Background(), db)
		require.NoError(t, err)
		return st.Storage.WALFrames
	}
	walSize := func() int64 {
		fi, err := os.Stat(filepath.Join(dir, "p.db-wal"))
		require.NoError(t, err)
		return fi.Size()
	}
	require.Greater(t, frames(), 0)
	var busy, log, done int
	// PASSIVE (the default) and RESTART copy the whole log when no reader
	// needs it and answer how many frames it had, all checkpointed.
	require.NoError(t, db.QueryRow("PRAGMA wal_checkpoint").Scan(&busy, &log, &done))
	assert.Equal(t, 0, busy)
	assert.Greater(t, log, 0)
	assert.Equal(t, log, done)
	assert.Equal(t, 0, frames(), "the log was copied into the main file")
	_, err = db.Exec("INSERT INTO t VALUES (3)")
	require.NoError(t, err)
	require.NoError(t, db.QueryRow("PRAGMA wal_checkpoint(RESTART)").Scan(&busy, &log, &done))
	assert.Equal(t, []int{0, log}, []int{busy, done})
	assert.Greater(t, log, 0)
	// TRUNCATE also empties the log file and answers 0|0|0, as SQLite.
	_, err = db.Exec("INSERT INTO t VALUES (4)")
	require.NoError(t, err)
	require.NoError(t, db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &log, &done))
	assert.Equal(t, []int{0, 0, 0}, []int{busy, log, done})
	assert.Equal(t, int64(0), walSize())
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM t").Scan(&n))
	assert.Equal(t, 4, n)
	_, err = db.Exec("INSERT INTO t VALUES (5)")
	require.NoError(t, err)
	require.NoError(t, db.Close())
	assert.Equal(t, int64(0), walSize(), "Close empties the log file")
	db, err = sql.Open("ladybug", filepath.Join(dir, "p.db"))
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.QueryRow("SELECT count(*) FROM t").Scan(&n))
	assert.Equal(t, 5, n)
}

// TestPragma_WalAutocheckpoint_JournalSizeLimit: both are the database's
// settings, answered as set; wal_autocheckpoint=N makes commits
// checkpoint once the log holds N frames (0: never), and the log file is
// cut to journal_size_limit bytes when it restarts.
func TestPragma_WalAutocheckpoint_JournalSizeLimit(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("ladybug", filepath.Join(dir, "p.db"))
	require.NoError(t, err)
	defer db.Close()
	assert.Equal(t, int64(4000), pragmaInt64(t, db, "PRAGMA wal_autocheckpoint"))
	assert.Equal(t, int64(32+4000*(24+4096)), pragmaInt64(t, db, "PRAGMA journal_size_limit"))
	assert.Equal(t, int64(0), pragmaInt64(t, db, "PRAGMA wal_autocheckpoint = 0"))
	_, err = db.Exec("CREATE TABLE t (a INTEGER PRIMARY KEY, b)")
	require.NoError(t, err)
	insert := func(n int) {
		for i := 0; i < n; i++ {
			_, err := db.Exec("INSERT INTO t (b) VALUES (randomblob(3000))")
			require.NoError(t, err)
		}
	}
	stats := func() Stats {
		st, err := DBStats(context.Background(), db)
		require.NoError(t, err)
		return st
	}
	insert(40)
	require.Zero(t, stats().Storage.Checkpoints, "wal_autocheckpoint=0 turns automatic checkpoints off")
	assert.Equal(t, int64(10), pragmaInt64(t, db, "PRAGMA wal_autocheckpoint = 10"))
	assert.Equal(t, int64(8192), pragmaInt64(t, db, "PRAGMA journal_size_limit = 8192"))
	insert(5)
	st := stats().Storage
	assert.Positive(t, st.Checkpoints)
	assert.Less(t, st.WALFrames, 10)
	fi, err := os.Stat(filepath.Join(dir, "p.db-wal"))
	require.NoError(t, err)
	assert.LessOrEqual(t, fi.Size(), int64(8192)+2*(24+4096)*3, "the log restarts and is cut to the limit")
	assert.Equal(t, int64(-1), pragmaInt64(t, db, "PRAGMA journal_size_limit = -5"))
}

// TestPragma_AcceptedNoOps pins the answers of the pragmas ladybug has
// nothing to change for: each answers with what is in force.
func TestPragma_AcceptedNoOps(t *testing.T) {
	db := openFileDB(t, "")
	conn, err := db.Conn(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	ctx := context.Background()
	text := func(q string) string {
		var s string
		require.NoError(t, conn.QueryRowContext(ctx, q).Scan(&s), q)
		return s
	}
	assert.Equal(t, "wal", text("PRAGMA journal_mode = DELETE"), "always WAL")
	assert.Equal(t, "wal", text("PRAGMA journal_mode"))
	want := "normal"
	if runtime.GOOS == "windows" {
		want = "exclusive"
	}
	assert.Equal(t, want, text("PRAGMA locking_mode = EXCLUSIVE"), "processes share the file (one at a time on Windows)")
	assert.EqualValues(t, 0, pragmaInt64(t, conn, "PRAGMA mmap_size = 268435456"), "nothing is mapped")
	assert.EqualValues(t, 0, pragmaInt64(t, conn, "PRAGMA auto_vacuum = FULL"), "no auto-vacuum; VACUUM shrinks")
	assert.EqualValues(t, 2, pragmaInt64(t, conn, "PRAGMA temp_store = MEMORY"))
	assert.EqualValues(t, 2, pragmaInt64(t, conn, "PRAGMA temp_store"), "kept per connection")
	_, err = conn.ExecContext(ctx, "PRAGMA incremental_vacuum(10)")
	assert.NoError(t, err)
}

func TestParseDSN_MattnModerncForms(t *testing.T) {
	cfg, err := ParseDSN("a.db?_busy_timeout=250&_journal_mode=WAL&_foreign_keys=0&_synchronous=NORMAL&_cache_size=-2000&_txlock=deferred")
	require.NoError(t, err)
	assert.Equal(t, 250*time.Millisecond, cfg.BusyTimeout)
	assert.False(t, cfg.ForeignKeys)
	assert.Equal(t, SyncNormal, cfg.Sync)
	assert.EqualValues(t, 2000*1024, cfg.CacheSize)
	assert.Equal(t, TxLockDeferred, cfg.TxLock)

	cfg, err = ParseDSN("file::memory:?cache=shared")
	require.NoError(t, err)
	assert.True(t, cfg.Memory)
	cfg, err = ParseDSN("a.db?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	require.NoError(t, err)
	assert.Equal(t, []string{"busy_timeout(5000)", "journal_mode(WAL)"}, cfg.Pragmas)

	for dsn, want := range map[string]string{
		"a.db?_journal_mode=DELETE": "ladybug always writes a write-ahead log",
		"a.db?cache=private":        "shares its :memory: database",
		"a.db?_cache_size=x":        "cache_size=bytes",
		"a.db?_locking_mode=NORMAL": "known: mode, cache_size",
	} {
		_, err := ParseDSN(dsn)
		assert.ErrorContains(t, err, want, dsn)
	}
}
