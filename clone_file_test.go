package ladybug_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileTemplate makes a database file of about 700 pages (2,000 rows of
// 1 KiB) at path and returns its contents.
func fileTemplate(t *testing.T, path string) map[int64]string {
	t.Helper()
	db := openNamed(t, path+"?_synchronous=off")
	mustExec(t, db, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT)`)
	mustExec(t, db, `INSERT INTO kv SELECT value, printf('%.1000c', 'a' + value % 26) FROM generate_series(1, 2000)`)
	return kvContents(t, db)
}

// ledger is a writer committing balanced transactions on a database until
// stopped (see startLedger).
type ledger struct {
	stop    chan struct{}
	done    chan struct{}
	commits atomic.Int64
}

// startLedger commits transactions on db until end is called: each runs
// insert rows times (one ? for the amount, +i and -i in turn, so every
// whole transaction sums to zero), then each(tx, i) when set, and commits;
// after(i), when set, runs after the commit.
func startLedger(t *testing.T, db *sql.DB, rows int, insert string, each func(tx *sql.Tx, i int), after func(i int)) *ledger {
	l := &ledger{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for i := 1; ; i++ {
			select {
			case <-l.stop:
				return
			default:
			}
			tx, err := db.Begin()
			if !assert.NoError(t, err) {
				return
			}
			for j := range rows {
				amt := i
				if j%2 == 1 {
					amt = -i
				}
				_, err := tx.Exec(insert, amt)
				assert.NoError(t, err)
			}
			if each != nil {
				each(tx, i)
			}
			if !assert.NoError(t, tx.Commit()) {
				return
			}
			l.commits.Add(1)
			if after != nil {
				after(i)
			}
		}
	}()
	return l
}

// end stops the writer, waits for it and returns its commits.
func (l *ledger) end() int64 {
	close(l.stop)
	<-l.done
	return l.commits.Load()
}

func memStats(t *testing.T, db *sql.DB) ladybug.Stats {
	t.Helper()
	st, err := ladybug.DBStats(context.Background(), db)
	require.NoError(t, err)
	return st
}

// TestCloneFile_SharesPagesUntilWritten: a clone of a database file holds
// no copy of it: reading all of it copies nothing into the clone's memory,
// and the clone copies into its main file only pages its own commits
// wrote.
func TestCloneFile_SharesPagesUntilWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "src.db")
	want := fileTemplate(t, path)
	src := openNamed(t, path)
	pages := memStats(t, src).Storage.PageCount
	require.Greater(t, pages, uint32(600))

	c, err := ladybug.Clone(context.Background(), src)
	require.NoError(t, err)
	defer c.Close()
	st := memStats(t, c)
	assert.LessOrEqual(t, st.Memory.Chunks, 2, "the clone holds its header page and its log's, not the database")
	assert.Equal(t, want, kvContents(t, c))
	integrityOK(t, c)
	st = memStats(t, c)
	assert.Zero(t, st.Memory.CopiedChunks, "reads copied pages into the clone's memory")
	assert.LessOrEqual(t, st.Memory.Chunks, 2, "reads copied pages into the clone's memory")

	mustExec(t, c, `UPDATE kv SET v = 'x' WHERE k IN (7, 1500)`)
	mustExec(t, c, `PRAGMA wal_checkpoint`)
	st = memStats(t, c)
	t.Logf("%+v commit pages %d checkpoint pages %d", st.Memory, st.Storage.CommitPages, st.Storage.CheckpointPages)
	assert.Positive(t, st.Storage.CheckpointPages, "the checkpoint wrote no page into the clone's main file")
	// The main file holds the header and the checkpointed pages; the log
	// what the commits wrote.
	assert.LessOrEqual(t, uint64(st.Memory.Chunks), 1+st.Storage.CheckpointPages+2*st.Storage.CommitPages+1,
		"the clone copied pages its commits did not write")
	want[7], want[1500] = "x", "x"
	assert.Equal(t, want, kvContents(t, c))
	integrityOK(t, c)
}

// TestCloneFile_SourceCommitsAndCheckpoints: clones of a database file
// taken while a writer keeps committing balanced transactions (and
// checkpointing) hold whole transactions only and keep reading exactly
// their snapshot while the file's pages move from the log to the main
// file; once they close, the log can restart again.
func TestCloneFile_SourceCommitsAndCheckpoints(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ledger.db")
	src := openNamed(t, path+"?_synchronous=off")
	mustExec(t, src, `PRAGMA wal_autocheckpoint = 8`)
	mustExec(t, src, `CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INT, note TEXT)`)
	w := startLedger(t, src, 6, `INSERT INTO ledger (amount, note) VALUES (?, printf('%.300c', 'n'))`,
		func(tx *sql.Tx, i int) {
			if i%5 == 0 {
				_, err := tx.Exec(`DELETE FROM ledger WHERE id % 7 = 0`)
				assert.NoError(t, err)
			}
		},
		func(i int) {
			if i%10 == 0 {
				_, err := src.Exec(`PRAGMA wal_checkpoint`)
				assert.NoError(t, err)
			}
		})
	type snap struct {
		db       *sql.DB
		n, sum   int64
		checksum string
	}
	read := func(db *sql.DB) (n, sum int64, checksum string) {
		require.NoError(t, db.QueryRow(`SELECT count(*), coalesce(sum(amount), 0), coalesce(group_concat(id, ','), '') FROM ledger`).Scan(&n, &sum, &checksum))
		return
	}
	var clones []snap
	for i := range 20 {
		if i%4 == 0 {
			for seen, _, _ := read(src); ; {
				if n, _, _ := read(src); n != seen {
					break
				}
				runtime.Gosched()
			}
		}
		c, err := ladybug.Clone(ctx, src)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		n, sum, ids := read(c)
		clones = append(clones, snap{c, n, sum, ids})
		// Every clone so far still reads exactly its snapshot.
		for _, s := range clones {
			n, sum, ids := read(s.db)
			require.Equal(t, []any{s.n, s.sum, s.checksum}, []any{n, sum, ids}, "a clone's snapshot changed under it")
		}
	}
	w.end()
	st := memStats(t, src)
	require.Positive(t, st.Storage.Checkpoints, "the source never checkpointed while the clones read")
	var last int64
	for _, s := range clones {
		require.GreaterOrEqual(t, s.n, last)
		last = s.n
		integrityOK(t, s.db)
		require.NoError(t, s.db.Close())
	}
	n, _, _ := read(src)
	require.Greater(t, n, clones[0].n)
	// With the clones gone, nothing holds the log: it restarts.
	var busy, log, done2 int
	require.NoError(t, src.QueryRow(`PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &log, &done2))
	assert.Equal(t, []int{0, 0, 0}, []int{busy, log, done2}, "a closed clone still holds a snapshot of the source")
	integrityOK(t, src)
}

// TestCloneFile_SourceClosedFirst: closing the source while clones (and a
// clone of a clone) live copies their snapshot into memory once; they keep
// working, isolated, and the file is unchanged by them.
func TestCloneFile_SourceClosedFirst(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "src.db")
	want := fileTemplate(t, path)
	src, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	c1, err := ladybug.Clone(ctx, src)
	require.NoError(t, err)
	defer c1.Close()
	mustExec(t, c1, `DELETE FROM kv WHERE k > 1000`)
	c2, err := ladybug.Clone(ctx, c1)
	require.NoError(t, err)
	defer c2.Close()
	c3, err := ladybug.Clone(ctx, src)
	require.NoError(t, err)
	defer c3.Close()
	mustExec(t, src, `DELETE FROM kv WHERE k <= 10`)
	require.NoError(t, src.Close())

	model1 := map[int64]string{}
	for k, v := range want {
		if k <= 1000 {
			model1[k] = v
		}
	}
	assert.Equal(t, model1, kvContents(t, c1))
	assert.Equal(t, model1, kvContents(t, c2))
	assert.Equal(t, want, kvContents(t, c3))
	mustExec(t, c2, `INSERT INTO kv VALUES (5000, 'c2')`)
	mustExec(t, c3, `UPDATE kv SET v = 'c3' WHERE k = 1`)
	model2 := map[int64]string{5000: "c2"}
	for k, v := range model1 {
		model2[k] = v
	}
	assert.Equal(t, model1, kvContents(t, c1))
	assert.Equal(t, model2, kvContents(t, c2))
	for _, db := range []*sql.DB{c1, c2, c3} {
		integrityOK(t, db)
	}

	// The file holds the source's last commit, none of the clones'.
	again := openNamed(t, path)
	fileWant := map[int64]string{}
	for k, v := range want {
		if k > 10 {
			fileWant[k] = v
		}
	}
	assert.Equal(t, fileWant, kvContents(t, again))
	integrityOK(t, again)
}

// TestCloneFile_DSNKeepsTemplateOpen: a clone= DSN naming a file keeps the
// file open (shared) while the clone lives, so the clone reads it without
// copying it even when no one else has it open.
func TestCloneFile_DSNKeepsTemplateOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tmpl.db")
	want := fileTemplate(t, path)
	c := openNamed(t, ":memory:?clone="+path)
	assert.Equal(t, want, kvContents(t, c))
	st := memStats(t, c)
	assert.LessOrEqual(t, st.Memory.Chunks, 2, "the clone copied the file into memory")
	mustExec(t, c, `DELETE FROM kv`)
	assert.Empty(t, kvContents(t, c))
	require.NoError(t, c.Close())
	again := openNamed(t, path)
	assert.Equal(t, want, kvContents(t, again))
}
