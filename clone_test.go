package ladybug_test

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openNamed opens a named memory database private to the test.
func openNamed(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("ladybug", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Ping())
	return db
}

func kvContents(t *testing.T, db *sql.DB) map[int64]string {
	t.Helper()
	rows, err := db.Query(`SELECT k, v FROM kv`)
	require.NoError(t, err)
	defer rows.Close()
	got := map[int64]string{}
	for rows.Next() {
		var k int64
		var v string
		require.NoError(t, rows.Scan(&k, &v))
		got[k] = v
	}
	require.NoError(t, rows.Err())
	return got
}

func TestClone_IsolatedBothWays(t *testing.T) {
	ctx := context.Background()
	src := openNamed(t, "file:clone_iso_src?mode=memory")
	mustExec(t, src, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT)`)
	mustExec(t, src, `INSERT INTO kv SELECT value, 'v' || value FROM generate_series(1, 2000)`)

	viaFunc, err := ladybug.Clone(ctx, src)
	require.NoError(t, err)
	defer viaFunc.Close()
	viaDSN := openNamed(t, "file:clone_iso_dst?mode=memory&clone=clone_iso_src")
	private := openNamed(t, ":memory:?clone=clone_iso_src")

	mustExec(t, src, `UPDATE kv SET v = 'src' WHERE k <= 10`)
	mustExec(t, viaFunc, `DELETE FROM kv WHERE k > 1000`)
	mustExec(t, viaDSN, `INSERT INTO kv VALUES (5000, 'dsn')`)
	mustExec(t, private, `CREATE TABLE extra (x)`)

	count := func(db *sql.DB, q string) int {
		var n int
		require.NoError(t, db.QueryRow(q).Scan(&n))
		return n
	}
	assert.Equal(t, 10, count(src, `SELECT count(*) FROM kv WHERE v = 'src'`))
	assert.Equal(t, 2000, count(src, `SELECT count(*) FROM kv`), "the clones' writes stay out of the source")
	assert.Equal(t, 0, count(viaFunc, `SELECT count(*) FROM kv WHERE v = 'src'`), "the source's later writes stay out of the clone")
	assert.Equal(t, 1000, count(viaFunc, `SELECT count(*) FROM kv`))
	assert.Equal(t, 2001, count(viaDSN, `SELECT count(*) FROM kv`))
	assert.Equal(t, 2000, count(private, `SELECT count(*) FROM kv`))
	assert.Equal(t, 0, count(src, `SELECT count(*) FROM sqlite_master WHERE name = 'extra'`))

	// A second opener of the clone's name shares it.
	again := openNamed(t, "file:clone_iso_dst?mode=memory&clone=clone_iso_src")
	assert.Equal(t, 2001, count(again, `SELECT count(*) FROM kv`))
}

// TestClone_SharesPagesUntilWritten: a clone references the template's
// pages without copying any; reading copies none; a write copies at most
// the pages the clone dirtied.
func TestClone_SharesPagesUntilWritten(t *testing.T) {
	ctx := context.Background()
	src := openNamed(t, "file:clone_share_src?mode=memory")
	mustExec(t, src, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT, w INT)`)
	mustExec(t, src, `CREATE INDEX kv_v ON kv (v)`)
	mustExec(t, src, `INSERT INTO kv SELECT value, printf('%0100d', value), 0 FROM generate_series(1, 20000)`)
	srcSt, err := ladybug.DBStats(ctx, src)
	require.NoError(t, err)

	c, err := ladybug.Clone(ctx, src)
	require.NoError(t, err)
	defer c.Close()
	st, err := ladybug.DBStats(ctx, c)
	require.NoError(t, err)
	require.GreaterOrEqual(t, st.Memory.Chunks, int(srcSt.Storage.PageCount), "the clone references every page of the template")
	require.Zero(t, st.Memory.CopiedChunks, "cloning copied pages")

	var n int
	require.NoError(t, c.QueryRow(`SELECT count(*) FROM kv WHERE v > '0'`).Scan(&n))
	require.Equal(t, 20000, n)
	st, err = ladybug.DBStats(ctx, c)
	require.NoError(t, err)
	require.Zero(t, st.Memory.CopiedChunks, "reading copied pages")

	// One-row commits into the shared main file (a memory database with
	// no reader open commits straight into it), all on the three table
	// leaves holding rows 1, 10000 and 19999.
	for i := range 400 {
		mustExec(t, c, `UPDATE kv SET w = ? WHERE k = ?`, i%7, []int{1, 10000, 19999}[i%3])
	}
	st, err = ladybug.DBStats(ctx, c)
	require.NoError(t, err)
	require.Positive(t, st.Storage.DirectCommits)
	require.Positive(t, st.Memory.CopiedChunks, "the commits wrote the changed pages")
	require.LessOrEqual(t, st.Memory.CopiedChunks, uint64(4),
		"the clone copied pages it did not write (three leaves and the header)")
	srcAfter, err := ladybug.DBStats(ctx, src)
	require.NoError(t, err)
	require.Zero(t, srcAfter.Memory.CopiedChunks, "the clone's writes made the source copy pages")
}

// TestClone_Model interleaves random writes on a source and its clones
// (and clones of clones), each checked against its own model. The source
// is a memory database, or a database file that checkpoints every few
// commits (and on demand), so the clones read their snapshot while the
// file's pages move from the log to the main file under them.
func TestClone_Model(t *testing.T) {
	t.Run("memory", func(t *testing.T) { cloneModel(t, ":memory:") })
	t.Run("file", func(t *testing.T) { cloneModel(t, filepath.Join(t.TempDir(), "src.db")+"?_synchronous=off") })
}

func cloneModel(t *testing.T, srcDSN string) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	type member struct {
		db    *sql.DB
		model map[int64]string
	}
	src := openNamed(t, srcDSN)
	mustExec(t, src, `PRAGMA wal_autocheckpoint = 16`)
	mustExec(t, src, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT)`)
	dbs := []*member{{db: src, model: map[int64]string{}}}
	steps := 600
	if testing.Short() {
		steps = 200
	}
	for step := range steps {
		m := dbs[rng.IntN(len(dbs))]
		switch op := rng.IntN(10); {
		case op < 5: // insert or replace a batch
			tx, err := m.db.Begin()
			require.NoError(t, err)
			for range 1 + rng.IntN(30) {
				k := rng.Int64N(3000)
				v := strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(600))
				_, err := tx.Exec(`INSERT OR REPLACE INTO kv VALUES (?, ?)`, k, v)
				require.NoError(t, err)
				m.model[k] = v
			}
			require.NoError(t, tx.Commit())
		case op < 7: // delete a range
			lo := rng.Int64N(3000)
			hi := lo + rng.Int64N(100)
			mustExec(t, m.db, `DELETE FROM kv WHERE k BETWEEN ? AND ?`, lo, hi)
			maps.DeleteFunc(m.model, func(k int64, _ string) bool { return k >= lo && k <= hi })
		case op < 8 && len(dbs) < 8: // clone
			c, err := ladybug.Clone(ctx, m.db)
			require.NoError(t, err)
			t.Cleanup(func() { c.Close() })
			dbs = append(dbs, &member{db: c, model: maps.Clone(m.model)})
		case op < 9 && rng.IntN(3) == 0: // checkpoint the source
			mustExec(t, src, `PRAGMA wal_checkpoint`)
		case op < 9: // a rolled-back write
			tx, err := m.db.Begin()
			require.NoError(t, err)
			_, err = tx.Exec(`DELETE FROM kv`)
			require.NoError(t, err)
			require.NoError(t, tx.Rollback())
		default:
			require.Equal(t, m.model, kvContents(t, m.db), "step %d", step)
		}
	}
	for i, m := range dbs {
		require.Equal(t, m.model, kvContents(t, m.db), "database %d", i)
		var res string
		require.NoError(t, m.db.QueryRow(`PRAGMA integrity_check`).Scan(&res))
		require.Equal(t, "ok", res, "database %d", i)
	}
}

func TestClone_BadInput(t *testing.T) {
	_, err := sql.Open("ladybug", "file:x?mode=memory&clone=")
	assert.ErrorContains(t, err, "clone")
	_, err = sql.Open("ladybug", filepath.Join(t.TempDir(), "f.db")+"?clone=t")
	assert.ErrorContains(t, err, "in-memory")

	db, err := sql.Open("ladybug", ":memory:?clone=no_such_template_anywhere")
	require.NoError(t, err)
	defer db.Close()
	err = db.Ping()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no database "no_such_template_anywhere"`)

	// A template closed before the clone is no longer there.
	tmpl, err := sql.Open("ladybug", "file:clone_closed_tmpl?mode=memory")
	require.NoError(t, err)
	mustExec(t, tmpl, `CREATE TABLE t (x)`)
	require.NoError(t, tmpl.Close())
	db2, err := sql.Open("ladybug", ":memory:?clone=clone_closed_tmpl")
	require.NoError(t, err)
	defer db2.Close()
	assert.ErrorContains(t, db2.Ping(), `no database "clone_closed_tmpl"`)

	// Clone of a closed *sql.DB.
	closed := openNamed(t, ":memory:")
	require.NoError(t, closed.Close())
	_, err = ladybug.Clone(context.Background(), closed)
	assert.Error(t, err)
}

// TestClone_FromFile: a file database is copied into memory from one
// snapshot; the file stays as it was.
func TestClone_FromFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "src.db")
	src := openNamed(t, path)
	mustExec(t, src, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT)`)
	mustExec(t, src, `INSERT INTO kv SELECT value, 'v' || value FROM generate_series(1, 5000)`)
	mustExec(t, src, `DELETE FROM kv WHERE k % 2 = 0`)

	c, err := ladybug.Clone(context.Background(), src)
	require.NoError(t, err)
	defer c.Close()
	mustExec(t, c, `INSERT INTO kv VALUES (0, 'clone')`)
	assert.Equal(t, kvContents(t, src)[1], "v1")
	got := kvContents(t, c)
	assert.Len(t, got, 2501)
	assert.NotContains(t, kvContents(t, src), int64(0))

	viaDSN := openNamed(t, ":memory:?clone="+path)
	assert.Len(t, kvContents(t, viaDSN), 2500)
	for _, db := range []*sql.DB{c, viaDSN} {
		var res string
		require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&res))
		require.Equal(t, "ok", res)
	}
	_ = fmt.Sprint()
}

// TestClone_WhileSourceCommits: clones taken while a writer keeps
// committing balanced transactions each hold whole transactions only, and
// later commits of the source never show up in them.
func TestClone_WhileSourceCommits(t *testing.T) {
	ctx := context.Background()
	src := openNamed(t, "file:clone_busy_src?mode=memory")
	mustExec(t, src, `CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INT)`)
	w := startLedger(t, src, 6, `INSERT INTO ledger (amount) VALUES (?)`, nil, nil)
	type snap struct {
		db *sql.DB
		n  int64
	}
	var clones []snap
	var last int64 // the source's newest count read
	srcCount := func() int64 {
		var n int64
		require.NoError(t, src.QueryRow(`SELECT count(*) FROM ledger`).Scan(&n))
		require.GreaterOrEqual(t, n, last, "a read of the source saw an older commit than the read before it")
		last = n
		return n
	}
	for i := range 40 {
		if i%10 == 0 { // let the writer commit between some of the clones
			for seen := srcCount(); srcCount() == seen; {
				select {
				case <-w.done:
					t.Fatal("the writer stopped")
				default:
				}
				runtime.Gosched()
			}
			// The source committed since every clone so far was taken.
			for _, c := range clones {
				require.Less(t, c.n, last, "a clone holds a commit the source made after it was taken")
			}
		}
		c, err := ladybug.Clone(ctx, src)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		var n, sum int64
		require.NoError(t, c.QueryRow(`SELECT count(*), coalesce(sum(amount), 0) FROM ledger`).Scan(&n, &sum))
		require.Zero(t, sum, "a clone holds half a transaction")
		require.Zero(t, n%6, "a clone holds half a transaction")
		clones = append(clones, snap{c, n})
	}
	w.end()
	var total int64
	require.NoError(t, src.QueryRow(`SELECT count(*) FROM ledger`).Scan(&total))
	for _, c := range clones {
		var n int64
		require.NoError(t, c.db.QueryRow(`SELECT count(*) FROM ledger`).Scan(&n))
		require.Equal(t, c.n, n, "the source's later commits reached a clone")
		require.LessOrEqual(t, n, total)
	}
	require.Less(t, clones[0].n, total, "the writer committed nothing while the clones were taken")
}
