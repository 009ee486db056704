package ladybug_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

func TestDriver_ReadOnlyMode_NeverModifiesFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE t (a INTEGER)`)
	mustExec(t, db, `INSERT INTO t VALUES (1), (2)`)
	require.NoError(t, db.Close())

	snap := snapshotFiles(t, path)
	ro, err := sql.Open("ladybug", path+"?mode=ro")
	require.NoError(t, err)
	var n int
	require.NoError(t, ro.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 2, n)
	for _, q := range []string{`INSERT INTO t VALUES (3)`, `DELETE FROM t`, `UPDATE t SET a = 0`, `CREATE TABLE u (b INTEGER)`, `DROP TABLE t`} {
		_, err := ro.Exec(q)
		require.Error(t, err, q)
		assert.True(t, errors.Is(err, ladybug.ErrReadOnly), "%s: %v", q, err)
	}
	require.NoError(t, ro.Close())
	assert.Equal(t, snap, snapshotFiles(t, path), "a read-only open changed the files")
}

// snapshotFiles records the bytes and modification times of a database's
// files.
func snapshotFiles(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err)
		st, err := os.Stat(p)
		require.NoError(t, err)
		out[p] = st.ModTime().String() + "|" + string(b)
	}
	return out
}

func TestDriver_ModeRW_RefusesMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	db, err := sql.Open("ladybug", path+"?mode=rw")
	require.NoError(t, err)
	defer db.Close()
	require.Error(t, db.Ping())
	_, err = os.Stat(path)
	assert.True(t, errors.Is(err, os.ErrNotExist), "mode=rw created the file")
}

func TestDriver_Types_RoundTrip(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE v (i INTEGER, r REAL, s TEXT, b BLOB, ok BOOLEAN, at DATETIME, d DECIMAL(10,2), name VARCHAR(40) NOT NULL)`)
		at := time.Date(2026, 12, 1, 10, 11, 12, 130000000, time.UTC)
		mustExec(t, db, `INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, int64(-7), 2.5, "héllo", []byte{0, 1, 2}, true, at, 12.34, "n")
		mustExec(t, db, `INSERT INTO v VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'm')`)

		var (
			i     int64
			r     float64
			s     string
			b     []byte
			ok    bool
			got   time.Time
			d     float64
			name  string
			nt    sql.NullTime
			nb    sql.NullBool
			ni    sql.NullInt64
			ns    sql.NullString
			nfl   sql.NullFloat64
			nblob []byte
		)
		require.NoError(t, db.QueryRow(`SELECT i, r, s, b, ok, at, d, name FROM v WHERE name = 'n'`).Scan(&i, &r, &s, &b, &ok, &got, &d, &name))
		assert.Equal(t, int64(-7), i)
		assert.Equal(t, 2.5, r)
		assert.Equal(t, "héllo", s)
		assert.Equal(t, []byte{0, 1, 2}, b)
		assert.True(t, ok)
		assert.True(t, at.Equal(got), "%v != %v", at, got)
		assert.Equal(t, 12.34, d)

		require.NoError(t, db.QueryRow(`SELECT at, ok, i, s, r, b FROM v WHERE name = 'm'`).Scan(&nt, &nb, &ni, &ns, &nfl, &nblob))
		assert.False(t, nt.Valid)
		assert.False(t, nb.Valid)
		assert.False(t, ni.Valid)
		assert.False(t, ns.Valid)
		assert.False(t, nfl.Valid)
		assert.Nil(t, nblob)

		rows, err := db.Query(`SELECT i, s, ok, at, d, name, i + 1 AS expr FROM v`)
		require.NoError(t, err)
		cts, err := rows.ColumnTypes()
		require.NoError(t, err)
		require.NoError(t, rows.Close())
		names := []string{"INTEGER", "TEXT", "BOOLEAN", "DATETIME", "DECIMAL", "VARCHAR", ""}
		for k, ct := range cts {
			assert.Equal(t, names[k], ct.DatabaseTypeName(), ct.Name())
		}
		assert.Equal(t, "bool", cts[2].ScanType().String())
		assert.Equal(t, "time.Time", cts[3].ScanType().String())
		p, sc, okp := cts[4].DecimalSize()
		assert.True(t, okp)
		assert.Equal(t, [2]int64{10, 2}, [2]int64{p, sc})
		l, okl := cts[5].Length()
		assert.True(t, okl)
		assert.EqualValues(t, 40, l)
		nullable, okn := cts[5].Nullable()
		assert.True(t, okn)
		assert.False(t, nullable, "NOT NULL column")
	})
}

func TestDriver_Exec_ScriptRunsEveryStatement(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1); INSERT INTO a VALUES (2);
			-- a comment
			UPDATE a SET x = x * 10 /* inline */ ;`)
		assert.Equal(t, []int64{10, 20}, queryInts(t, db, `SELECT x FROM a ORDER BY x`))

		_, err := db.Exec(`INSERT INTO a VALUES (3); INSERT INTO nope VALUES (4); INSERT INTO a VALUES (5)`)
		require.Error(t, err)
		assert.NotContains(t, queryInts(t, db, `SELECT x FROM a`), int64(5), "the script stops at the first error")
	})
}

func TestDriver_Rows_NextResultSet(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		rows, err := db.Query(`SELECT 1; SELECT 'two', 3`)
		require.NoError(t, err)
		defer rows.Close()
		require.True(t, rows.Next())
		var one int
		require.NoError(t, rows.Scan(&one))
		assert.Equal(t, 1, one)
		require.False(t, rows.Next())
		require.True(t, rows.NextResultSet())
		cols, _ := rows.Columns()
		assert.Len(t, cols, 2)
		require.True(t, rows.Next())
		var two string
		var three int
		require.NoError(t, rows.Scan(&two, &three))
		assert.Equal(t, "two", two)
		assert.Equal(t, 3, three)
		assert.False(t, rows.NextResultSet())
	})
}

func TestDriver_Prepare_FailsEarlyAndCountsInputs(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE p (a INTEGER, b TEXT)`)
		_, err := db.Prepare(`SELECT * FROM missing_table`)
		require.Error(t, err, "unknown table fails at Prepare")
		_, err = db.Prepare(`SELEC 1`)
		require.Error(t, err, "syntax error fails at Prepare")

		st, err := db.Prepare(`INSERT INTO p VALUES (?, ?)`)
		require.NoError(t, err)
		_, err = st.Exec(1)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "expected 2 arguments", "database/sql checks NumInput")
		_, err = st.Exec(1, "x")
		require.NoError(t, err)
		require.NoError(t, st.Close())

		sel, err := db.Prepare(`SELECT count(*) FROM p WHERE a = ?`)
		require.NoError(t, err)
		defer sel.Close()
		var n int
		require.NoError(t, sel.QueryRow(1).Scan(&n))
		assert.Equal(t, 1, n)
		mustExec(t, db, `CREATE TABLE other (z INTEGER)`)
		require.NoError(t, sel.QueryRow(1).Scan(&n), "a prepared statement survives a schema change")
		assert.Equal(t, 1, n)
	})
}

func TestDriver_QueryContext_CancelStopsLongQuery(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE big (x INTEGER)`)
		tx, err := db.Begin()
		require.NoError(t, err)
		for i := 0; i < 2000; i++ {
			mustExec(t, tx, `INSERT INTO big VALUES (?)`, i)
		}
		require.NoError(t, tx.Commit())

		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		var n int64
		err = db.QueryRowContext(ctx, `SELECT count(*) FROM big a, big b, big c`).Scan(&n)
		elapsed := time.Since(start)
		require.Error(t, err)
		assert.True(t, errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ladybug.ErrInterrupt), "%v", err)
		assert.Less(t, elapsed, 2*time.Second, "cancellation stopped the query")
		var m int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM big`).Scan(&m), "connection usable after cancel")
		assert.Equal(t, 2000, m)
	})
}

func TestDriver_Tx_RolledBackDeleteLeavesNoTraceAfterReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rb.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	mustExec(t, db, `CREATE TABLE t (id INTEGER PRIMARY KEY, email TEXT)`)
	mustExec(t, db, `CREATE INDEX t_email ON t (email)`)
	tx, err := db.Begin()
	require.NoError(t, err)
	for i := 0; i < 3000; i++ {
		mustExec(t, tx, `INSERT INTO t (email) VALUES (?)`, "u"+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676)))
	}
	require.NoError(t, tx.Commit())

	tx, err = db.Begin()
	require.NoError(t, err)
	mustExec(t, tx, `DELETE FROM t WHERE id <= 2500`)
	require.NoError(t, tx.Rollback())
	require.NoError(t, db.Close())

	db, err = sql.Open("ladybug", path)
	require.NoError(t, err)
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 3000, n, "count(*)")
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t WHERE id = 17`).Scan(&n))
	assert.Equal(t, 1, n, "primary key")
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t WHERE email = 'uaaa'`).Scan(&n))
	assert.Equal(t, 1, n, "secondary index")

	tx, err = db.Begin()
	require.NoError(t, err)
	mustExec(t, tx, `DELETE FROM t WHERE id <= 2500`)
	require.NoError(t, tx.Commit())
	require.NoError(t, db.Close())
	db, err = sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 500, n)
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t WHERE email = 'uaaa'`).Scan(&n))
	assert.Equal(t, 0, n, "index entries of committed deletes are gone")
}

func TestDriver_Busy_WriterWaitsThenErrBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	db, err := sql.Open("ladybug", path+"?busy_timeout=100")
	require.NoError(t, err)
	defer db.Close()
	mustExec(t, db, `CREATE TABLE t (a INTEGER)`)
	tx1, err := db.Begin()
	require.NoError(t, err)
	mustExec(t, tx1, `INSERT INTO t VALUES (1)`)

	start := time.Now()
	_, err = db.Exec(`INSERT INTO t VALUES (2)`)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ladybug.ErrBusy), "%v", err)
	assert.GreaterOrEqual(t, time.Since(start), 90*time.Millisecond, "the writer waited busy_timeout")
	require.NoError(t, tx1.Commit())

	// The second writer waits on a handle with a long busy_timeout, so a
	// slow commit on a loaded machine cannot turn the wait into ErrBusy.
	// (The file's engine is shared with db and keeps db's busy_timeout as
	// its default: the pragma sets the patient connections' own.)
	patient, err := sql.Open("ladybug", path+"?_pragma=busy_timeout(30000)")
	require.NoError(t, err)
	defer patient.Close()
	done := make(chan error, 1)
	tx1, err = db.Begin()
	require.NoError(t, err)
	mustExec(t, tx1, `INSERT INTO t VALUES (3)`)
	go func() { _, err := patient.Exec(`INSERT INTO t VALUES (4)`); done <- err }()
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, tx1.Commit())
	require.NoError(t, <-done, "a writer that waits less than busy_timeout succeeds")
	assert.Equal(t, []int64{1, 3, 4}, queryInts(t, db, `SELECT a FROM t ORDER BY a`))
}

func TestDriver_Concurrency_BankTransfersKeepTotal(t *testing.T) {
	for _, m := range matrix[:2] {
		t.Run(m.name, func(t *testing.T) {
			db, err := sql.Open("ladybug", m.dsn(t))
			require.NoError(t, err)
			defer db.Close()
			const accounts, start = 20, 1000
			mustExec(t, db, `CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)`)
			for i := 0; i < accounts; i++ {
				mustExec(t, db, `INSERT INTO acct (bal) VALUES (?)`, start)
			}
			dur := 500 * time.Millisecond
			if os.Getenv("LADYBUG_STRESS") != "" {
				dur = 5 * time.Second
			}
			stop := time.Now().Add(dur)
			var wg sync.WaitGroup
			var transfers, reads atomic.Int64
			errCh := make(chan error, 16)
			for w := 0; w < 2; w++ {
				wg.Add(1)
				go func(seed int64) {
					defer wg.Done()
					rng := rand.New(rand.NewSource(seed))
					for time.Now().Before(stop) {
						from, to, amt := rng.Intn(accounts)+1, rng.Intn(accounts)+1, rng.Intn(50)
						tx, err := db.Begin()
						if err != nil {
							errCh <- err
							return
						}
						_, err = tx.Exec(`UPDATE acct SET bal = bal - ? WHERE id = ?`, amt, from)
						if err == nil {
							_, err = tx.Exec(`UPDATE acct SET bal = bal + ? WHERE id = ?`, amt, to)
						}
						if err != nil {
							tx.Rollback()
							if errors.Is(err, ladybug.ErrBusy) {
								continue
							}
							errCh <- err
							return
						}
						if err := tx.Commit(); err != nil {
							errCh <- err
							return
						}
						transfers.Add(1)
					}
				}(int64(w))
			}
			for r := 0; r < 8; r++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for time.Now().Before(stop) {
						var total int64
						if err := db.QueryRow(`SELECT sum(bal) FROM acct`).Scan(&total); err != nil {
							errCh <- err
							return
						}
						if total != accounts*start {
							errCh <- errors.New("reader saw a partial transfer")
							return
						}
						reads.Add(1)
					}
				}()
			}
			wg.Wait()
			close(errCh)
			for err := range errCh {
				t.Error(err)
			}
			var total int64
			require.NoError(t, db.QueryRow(`SELECT sum(bal) FROM acct`).Scan(&total))
			assert.EqualValues(t, accounts*start, total)
			assert.Positive(t, transfers.Load())
			assert.Positive(t, reads.Load())
			t.Logf("%d transfers, %d reads", transfers.Load(), reads.Load())
		})
	}
}

func TestDriver_ReadOnlyBesideReadWrite_SameProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	rw, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer rw.Close()
	mustExec(t, rw, `CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)`)

	ro, err := sql.Open("ladybug", path+"?mode=ro")
	require.NoError(t, err)
	defer ro.Close()
	var n int
	require.NoError(t, ro.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 1, n)
	_, err = ro.Exec(`INSERT INTO t VALUES (2)`)
	assert.True(t, errors.Is(err, ladybug.ErrReadOnly), "%v", err)
	tx, err := ro.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`DELETE FROM t`)
	assert.True(t, errors.Is(err, ladybug.ErrReadOnly), "%v", err)
	require.NoError(t, tx.Rollback())

	mustExec(t, rw, `INSERT INTO t VALUES (3)`)
	require.NoError(t, ro.QueryRow(`SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 2, n, "the read-only handle sees the writer's commits")
}

func TestDriver_CloseDB_WithOpenRowsAndTx(t *testing.T) {
	for _, m := range matrix {
		t.Run(m.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			dsn := m.dsn(t)
			db, err := sql.Open("ladybug", dsn)
			require.NoError(t, err)
			mustExec(t, db, `CREATE TABLE t (a INTEGER); INSERT INTO t SELECT value FROM generate_series(1, 3000)`)
			rows, err := db.Query(`SELECT a FROM t`)
			require.NoError(t, err)
			require.True(t, rows.Next())
			tx, err := db.Begin()
			require.NoError(t, err)
			mustExec(t, tx, `INSERT INTO t VALUES (-1)`)
			require.NoError(t, db.Close(), "Close with a Rows and a Tx still open")
			_ = rows.Close() // database/sql closes the connections as they are released
			_ = tx.Rollback()
			_, err = db.Exec(`SELECT 1`)
			require.Error(t, err)
			assertNoGoroutineLeak(t, before)
			assert.Zero(t, ladybug.OpenEngines(), "the engine closed once its last connection was released")

			if m.name == "memory" {
				return
			}
			db, err = sql.Open("ladybug", dsn)
			require.NoError(t, err)
			defer db.Close()
			var n int
			require.NoError(t, db.QueryRow(`SELECT count(*) FROM t`).Scan(&n), "the file reopens: the engine released its lock")
			assert.Equal(t, 3000, n)
		})
	}
}

func TestDriver_Exec_ScriptConsumesArgumentsInOrder(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE a (x INTEGER, y TEXT)`)
		mustExec(t, db, `INSERT INTO a VALUES (?, ?); INSERT INTO a VALUES (?, ?); UPDATE a SET y = y || $5`, 1, "one", 2, "two", "!")
		rows, err := db.Query(`SELECT x, y FROM a ORDER BY x`)
		require.NoError(t, err)
		defer rows.Close()
		var got []string
		for rows.Next() {
			var x int
			var y string
			require.NoError(t, rows.Scan(&x, &y))
			got = append(got, fmt.Sprintf("%d %s", x, y))
		}
		assert.Equal(t, []string{"1 one!", "2 two!"}, got)
	})
}

func TestDriver_BeginTx_CancelledContextRollsBack(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE c (x INTEGER)`)
		ctx, cancel := context.WithCancel(context.Background())
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, `INSERT INTO c VALUES (1)`)
		require.NoError(t, err)
		cancel()
		assert.Eventually(t, func() bool {
			return errors.Is(tx.Commit(), sql.ErrTxDone)
		}, time.Second, 5*time.Millisecond, "database/sql rolls back a transaction whose context is cancelled")
		assert.Empty(t, queryInts(t, db, `SELECT x FROM c`))
		mustExec(t, db, `INSERT INTO c VALUES (2)`)
		assert.Equal(t, []int64{2}, queryInts(t, db, `SELECT x FROM c`), "the writer lock was released")
	})
}
