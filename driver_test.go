package ladybug_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

// dsnCase is one cell of the matrix every driver test runs across.
type dsnCase struct {
	name string
	dsn  func(t *testing.T) string
}

var matrix = []dsnCase{
	{"memory", func(t *testing.T) string { return ":memory:" }},
	{"file", func(t *testing.T) string { return filepath.Join(t.TempDir(), "test.db") }},
	{"tinycache", func(t *testing.T) string {
		return filepath.Join(t.TempDir(), "tiny.db") + "?cache_size=64KiB"
	}},
}

// forEachDSN runs fn once per matrix cell with a fresh database, and checks
// afterwards that the test left no connection or goroutine behind.
func forEachDSN(t *testing.T, fn func(t *testing.T, db *sql.DB, dsn string)) {
	for _, m := range matrix {
		t.Run(m.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			dsn := m.dsn(t)
			db, err := sql.Open("ladybug", dsn)
			require.NoError(t, err)
			fn(t, db, dsn)
			assert.Equal(t, 0, db.Stats().InUse, "connections still in use: a Rows or Tx leaked")
			st, err := ladybug.DBStats(context.Background(), db)
			require.NoError(t, err)
			assert.Zero(t, st.Storage.Cache.Pinned, "pinned pages leaked")
			assert.Equal(t, db.Stats().OpenConnections, st.OpenSessions, "engine sessions without a pooled connection leaked")
			require.NoError(t, db.Close())
			assertNoGoroutineLeak(t, before)
		})
	}
}

func assertNoGoroutineLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("goroutines: %d before, %d after\n%s", before, n, buf)
	}
}

func mustExec(t *testing.T, db interface {
	Exec(string, ...any) (sql.Result, error)
}, q string, args ...any) sql.Result {
	t.Helper()
	res, err := db.Exec(q, args...)
	require.NoError(t, err, q)
	return res
}

// queryer is a *sql.DB or a *sql.Conn.
type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func queryInts(t *testing.T, db queryer, q string, args ...any) []int64 {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q, args...)
	require.NoError(t, err, q)
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		require.NoError(t, rows.Scan(&v))
		out = append(out, v)
	}
	require.NoError(t, rows.Err())
	return out
}

func TestDriver_Slice_CreateInsertSelectUpdateDelete(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER)`)

		res := mustExec(t, db, `INSERT INTO users (name, age) VALUES (?, ?), (?, ?), (?, ?)`,
			"ann", 31, "bob", 25, "cy", 47)
		n, err := res.RowsAffected()
		require.NoError(t, err)
		assert.EqualValues(t, 3, n)
		id, err := res.LastInsertId()
		require.NoError(t, err)
		assert.EqualValues(t, 3, id)

		res = mustExec(t, db, `INSERT INTO users (name, age) VALUES ($1, $2)`, "dee", 19)
		id, _ = res.LastInsertId()
		assert.EqualValues(t, 4, id)

		var count int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM users`).Scan(&count))
		assert.Equal(t, 4, count)

		assert.Equal(t, []int64{4, 2, 1, 3}, queryInts(t, db, `SELECT id FROM users ORDER BY age`))
		assert.Equal(t, []int64{3, 1}, queryInts(t, db, `SELECT id FROM users WHERE age > ? ORDER BY age DESC`, 30))
		assert.Equal(t, []int64{2, 3}, queryInts(t, db, `SELECT id FROM users ORDER BY id LIMIT 2 OFFSET 1`))

		var name string
		require.NoError(t, db.QueryRow(`SELECT name FROM users WHERE id = $1`, 2).Scan(&name))
		assert.Equal(t, "bob", name)

		res = mustExec(t, db, `UPDATE users SET age = age + 1 WHERE age < 30`)
		n, _ = res.RowsAffected()
		assert.EqualValues(t, 2, n)
		assert.Equal(t, []int64{20, 26}, queryInts(t, db, `SELECT age FROM users WHERE id IN (2, 4) ORDER BY age`))

		res = mustExec(t, db, `DELETE FROM users WHERE name = ?`, "ann")
		n, _ = res.RowsAffected()
		assert.EqualValues(t, 1, n)
		assert.Equal(t, []int64{2, 3, 4}, queryInts(t, db, `SELECT id FROM users ORDER BY id`))

		mustExec(t, db, `DROP TABLE users`)
		_, err = db.Exec(`SELECT * FROM users`)
		require.Error(t, err)
	})
}

func TestDriver_Tx_CommitAndRollback(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		ctx := context.Background()
		mustExec(t, db, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`)

		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		mustExec(t, tx, `INSERT INTO t (v) VALUES ('a'), ('b')`)
		var inTx int
		require.NoError(t, tx.QueryRow(`SELECT count(*) FROM t`).Scan(&inTx))
		assert.Equal(t, 2, inTx, "a transaction sees its own writes")
		require.NoError(t, tx.Rollback())
		assert.Empty(t, queryInts(t, db, `SELECT id FROM t`), "rolled-back rows are gone")

		tx, err = db.BeginTx(ctx, nil)
		require.NoError(t, err)
		mustExec(t, tx, `INSERT INTO t (v) VALUES ('c')`)
		mustExec(t, tx, `DELETE FROM t WHERE v = 'c'`)
		mustExec(t, tx, `INSERT INTO t (v) VALUES ('d')`)
		require.NoError(t, tx.Commit())
		assert.Equal(t, []int64{1}, queryInts(t, db, `SELECT id FROM t`), "rowids restart at max(rowid)+1 as in SQLite")
		assert.Error(t, tx.Commit(), "a second commit is an error")

		_, err = db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelLinearizable})
		assert.Error(t, err, "linearizable is refused, not weakened")
	})
}

func TestDriver_File_DataSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "persist.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE kv (k TEXT, v INTEGER)`)
	tx, err := db.Begin()
	require.NoError(t, err)
	for i := 0; i < 500; i++ {
		mustExec(t, tx, `INSERT INTO kv VALUES (?, ?)`, fmt.Sprintf("key%03d", i), i)
	}
	require.NoError(t, tx.Commit())
	mustExec(t, db, `DELETE FROM kv WHERE v >= 400`)
	mustExec(t, db, `UPDATE kv SET v = v * 2 WHERE v < 10`)
	require.NoError(t, db.Close())

	db, err = sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	var n, sum int64
	require.NoError(t, db.QueryRow(`SELECT count(*), sum(v) FROM kv`).Scan(&n, &sum))
	assert.EqualValues(t, 400, n)
	assert.EqualValues(t, 399*400/2+45, sum)
}

func TestDriver_Memory_SharedByPool(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(4)
	ctx := context.Background()

	first, err := db.Conn(ctx)
	require.NoError(t, err)
	_, err = first.ExecContext(ctx, `CREATE TABLE shared (x INTEGER)`)
	require.NoError(t, err)
	_, err = first.ExecContext(ctx, `INSERT INTO shared VALUES (1), (2), (3)`)
	require.NoError(t, err)

	conns := []*sql.Conn{first}
	for i := 0; i < 3; i++ {
		c, err := db.Conn(ctx)
		require.NoError(t, err)
		conns = append(conns, c)
	}
	var wg sync.WaitGroup
	counts := make([]int, len(conns))
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *sql.Conn) {
			defer wg.Done()
			errs[i] = c.QueryRowContext(ctx, `SELECT count(*) FROM shared`).Scan(&counts[i])
		}(i, c)
	}
	wg.Wait()
	assert.Equal(t, 4, db.Stats().InUse, "four distinct connections were used at once")
	for i := range conns {
		require.NoError(t, errs[i])
		assert.Equal(t, 3, counts[i], "connection %d sees the shared database", i)
		require.NoError(t, conns[i].Close())
	}

	other, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer other.Close()
	_, err = other.Exec(`SELECT * FROM shared`)
	assert.Error(t, err, "another *sql.DB's :memory: is a different database")
}

func TestDriver_NamedMemory_SharedByName(t *testing.T) {
	a, err := sql.Open("ladybug", "file:named_mem_test?mode=memory")
	require.NoError(t, err)
	mustExec(t, a, `CREATE TABLE n (x INTEGER)`)
	mustExec(t, a, `INSERT INTO n VALUES (7)`)

	b, err := sql.Open("ladybug", "file:named_mem_test?mode=memory")
	require.NoError(t, err)
	var x int
	require.NoError(t, b.QueryRow(`SELECT x FROM n`).Scan(&x))
	assert.Equal(t, 7, x)
	require.NoError(t, a.Close())
	require.NoError(t, b.QueryRow(`SELECT x FROM n`).Scan(&x), "alive while any *sql.DB uses it")
	require.NoError(t, b.Close())

	c, err := sql.Open("ladybug", "file:named_mem_test?mode=memory")
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Exec(`SELECT x FROM n`)
	assert.Error(t, err, "gone once the last *sql.DB closed")
}

func TestDriver_BadInput_ClearErrorsAndUsableAfter(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE t (a INTEGER, b TEXT)`)
		cases := []struct {
			name, sql string
			args      []any
			want      string
		}{
			{"empty", ``, nil, ""},
			{"blank", `   `, nil, ""},
			{"garbage", `SELEKT * FORM t`, nil, "syntax error"},
			{"typo", `SELECT * FORM t`, nil, `near "FORM"`},
			{"too few args", `INSERT INTO t VALUES (?, ?)`, []any{1}, "argument"},
			{"too many args", `INSERT INTO t (a) VALUES (?)`, []any{1, 2}, "argument"},
			{"unknown table", `SELECT * FROM nope`, nil, "nope"},
			{"huge uint", `INSERT INTO t VALUES (?, 'x')`, []any{uint64(1) << 63}, "uint64"},
		}
		for _, c := range cases {
			_, err := db.Exec(c.sql, c.args...)
			require.Error(t, err, c.name)
			assert.Contains(t, err.Error(), c.want, c.name)
			var n int
			require.NoError(t, db.QueryRow(`SELECT count(*) FROM t`).Scan(&n), "usable after %s", c.name)
			assert.Equal(t, 0, n, "nothing written by %s", c.name)
		}
		var se *ladybug.Error
		_, err := db.Exec(`SELECT * FORM t`)
		require.True(t, errors.As(err, &se))
		assert.True(t, errors.Is(err, ladybug.ErrSyntax))
	})
}

func TestDriver_ClosedDB_Errors(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE t (a INTEGER)`)
	require.NoError(t, db.Close())
	_, err = db.Exec(`INSERT INTO t VALUES (1)`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "closed")
	_, err = db.Query(`SELECT 1`)
	require.Error(t, err)
	require.NoError(t, db.Close(), "closing twice is harmless")
}

func TestDriver_DSN_BadOptionsFailAtOpen(t *testing.T) {
	for _, dsn := range []string{
		"x.db?cachesize=10",
		"x.db?cache_size=lots",
		"x.db?sync=sometimes",
		"x.db?mode=rwx",
		"x.db?busy_timeout=-5",
		"x.db?page_size=1000",
		"x.db?foreign_keys=maybe",
		"",
		"file:?mode=memory",
		":memory:?mode=ro",
	} {
		_, err := sql.Open("ladybug", dsn)
		require.Error(t, err, dsn)
		assert.True(t, strings.HasPrefix(err.Error(), "ladybug: "), err.Error())
	}
	for _, dsn := range []string{
		":memory:",
		"file:abc?mode=memory&cache_size=1MiB",
		"app.db?cache_size=64MiB&sync=normal&busy_timeout=250&foreign_keys=off&mode=rwc&page_size=8192&loc=UTC",
		"file:app.db?busy_timeout=2s",
	} {
		_, err := ladybug.ParseDSN(dsn)
		require.NoError(t, err, dsn)
	}
	cfg, err := ladybug.ParseDSN("app.db?cache_size=2MiB&busy_timeout=250&foreign_keys=off")
	require.NoError(t, err)
	assert.EqualValues(t, 2<<20, cfg.CacheSize)
	assert.Equal(t, 250*time.Millisecond, cfg.BusyTimeout)
	assert.False(t, cfg.ForeignKeys)
	assert.Equal(t, "app.db", cfg.Path)
}

// TestDriver_DSN_PageSizeBounds: every page size the DSN accepts makes a
// database that writes and reads back (the bounds are the store's), and one
// past the largest is refused by Open with the range in the message, not by
// the first statement.
func TestDriver_DSN_PageSizeBounds(t *testing.T) {
	for _, ps := range []int{512, 32768} {
		path := filepath.Join(t.TempDir(), "ps.db")
		db, err := sql.Open("ladybug", fmt.Sprintf("%s?page_size=%d", path, ps))
		require.NoError(t, err, ps)
		_, err = db.Exec(`CREATE TABLE t(x TEXT)`)
		require.NoError(t, err, ps)
		_, err = db.Exec(`INSERT INTO t VALUES (?)`, strings.Repeat("x", 3*ps))
		require.NoError(t, err, ps)
		var n, got int
		require.NoError(t, db.QueryRow(`SELECT length(x) FROM t`).Scan(&n))
		require.NoError(t, db.QueryRow(`PRAGMA page_size`).Scan(&got))
		assert.Equal(t, 3*ps, n)
		assert.Equal(t, ps, got)
		require.NoError(t, db.Close())
	}
	for _, dsn := range []string{"x.db?page_size=65536", "x.db?page_size=256", "x.db?page_size=131072"} {
		_, err := sql.Open("ladybug", dsn)
		require.Error(t, err, dsn)
		assert.Contains(t, err.Error(), "want a power of two from 512 to 32768", dsn)
	}
}

func TestDriver_Connector_OpenDB(t *testing.T) {
	cfg, err := ladybug.ParseDSN(":memory:")
	require.NoError(t, err)
	c, err := ladybug.NewConnector(cfg)
	require.NoError(t, err)
	db := sql.OpenDB(c)
	mustExec(t, db, `CREATE TABLE t (a INTEGER)`)
	mustExec(t, db, `INSERT INTO t VALUES (41)`)
	var a int
	require.NoError(t, db.QueryRow(`SELECT a + 1 FROM t`).Scan(&a))
	assert.Equal(t, 42, a)
	require.NoError(t, db.Close())
	require.NoError(t, c.Close(), "connector close runs once and is idempotent")
}
