package ladybug

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readThenIncrement runs workers×each transactions that read a counter
// and write it back plus one, and returns the final count and the errors.
func readThenIncrement(t *testing.T, dsn string, workers, each int) (int, []error) {
	t.Helper()
	db, err := sql.Open("ladybug", dsn)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO counter VALUES (1, 0)")
	require.NoError(t, err)
	var mu sync.Mutex
	var failures []error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				err := incrementOnce(db)
				if err != nil {
					mu.Lock()
					failures = append(failures, err)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	var n int
	require.NoError(t, db.QueryRow("SELECT n FROM counter").Scan(&n))
	return n, failures
}

func TestTxLock_ImmediateDefault_ReadThenIncrement(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "c.db")
	n, failures := readThenIncrement(t, dsn, 8, 100)
	assert.Empty(t, failures)
	assert.Equal(t, 800, n, "every increment counted")
}

func TestTxLock_Deferred_StaleSnapshotsFail(t *testing.T) {
	// The SQLite-style mode: under contention the same workload loses
	// transactions to busy-snapshot errors, never an update.
	dsn := filepath.Join(t.TempDir(), "c.db") + "?_txlock=deferred"
	n, failures := readThenIncrement(t, dsn, 8, 100)
	for _, err := range failures {
		assert.True(t, errors.Is(err, ErrBusy), "%v", err)
	}
	assert.Equal(t, 800-len(failures), n, "each committed increment counted once")
}

func TestTxLock_ReadOnlyStaysSnapshot(t *testing.T) {
	db, err := sql.Open("ladybug", "file:"+t.Name()+"?mode=memory")
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec("CREATE TABLE t (a)")
	require.NoError(t, err)
	// A read-write transaction holds the writer lock from BEGIN; a
	// read-only one still starts and reads beside it.
	w, err := db.BeginTx(context.Background(), nil)
	require.NoError(t, err)
	defer w.Rollback()
	r, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	require.NoError(t, err)
	var n int
	require.NoError(t, r.QueryRow("SELECT count(*) FROM t").Scan(&n))
	require.NoError(t, r.Commit())
}

func TestParseDSN_TxLock(t *testing.T) {
	for dsn, want := range map[string]TxLock{"a.db": TxLockImmediate, "a.db?txlock=deferred": TxLockDeferred,
		"a.db?_txlock=immediate": TxLockImmediate, "a.db?_txlock=exclusive": TxLockImmediate} {
		cfg, err := ParseDSN(dsn)
		require.NoError(t, err, dsn)
		assert.Equal(t, want, cfg.TxLock, dsn)
	}
	_, err := ParseDSN("a.db?txlock=sometimes")
	assert.ErrorContains(t, err, "immediate or deferred")
}

// BenchmarkTxLock_ReadThenIncrement: 8 goroutines each running b.N/8
// read-then-increment transactions on one counter, per txlock mode; it
// reports the share of transactions that failed (deferred: busy
// snapshots) and the time per committed transaction.
func BenchmarkTxLock_ReadThenIncrement(b *testing.B) {
	for _, mode := range []string{"immediate", "deferred"} {
		b.Run(mode, func(b *testing.B) {
			db, err := sql.Open("ladybug", filepath.Join(b.TempDir(), "c.db")+"?sync=normal&txlock="+mode)
			require.NoError(b, err)
			defer db.Close()
			_, err = db.Exec("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO counter VALUES (1, 0)")
			require.NoError(b, err)
			const workers = 8
			var failed atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			for w := range workers {
				n := b.N / workers
				if w < b.N%workers {
					n++
				}
				wg.Go(func() {
					for range n {
						if incrementOnce(db) != nil {
							failed.Add(1)
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(failed.Load())/float64(b.N), "failed/op")
			if commits := int64(b.N) - failed.Load(); commits > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(commits), "ns/commit")
			}
		})
	}
}

// incrementOnce is one read-then-increment transaction.
func incrementOnce(db *sql.DB) error {
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow("SELECT n FROM counter WHERE id = 1").Scan(&n); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE counter SET n = ? WHERE id = 1", n+1); err != nil {
		return err
	}
	return tx.Commit()
}
