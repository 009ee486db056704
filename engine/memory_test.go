package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// liveHeap returns the heap bytes marked live by the most recent garbage
// collection. It is read without forcing one: memory that only a forced
// collection frees (a sync.Pool, say) shows up as it does in production.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestDB_LongWorkload_MemoryStaysBounded runs rounds of a mixed workload on
// one database — tables created, filled, indexed and dropped, temp tables of
// short-lived sessions, sorts and groupings over a large table, committed
// and rolled-back transactions, and hundreds of distinct SQL texts a round —
// and checks the live heap stays under a bound, does not grow from the
// first half of the rounds to the second, and that sessions, temp
// databases, goroutines and idle programs come back to their bounds. LADYBUG_STRESS=1
// runs ten times as many rounds.
func TestDB_LongWorkload_MemoryStaysBounded(t *testing.T) {
	rounds := 6
	switch {
	case os.Getenv("LADYBUG_STRESS") == "1":
		rounds = 60
	case raceEnabled:
		rounds = 2
	}
	// A small page cache fills in the first round, so what the later rounds
	// add is not the cache warming up.
	db, err := Open(Options{Memory: true, CacheSize: 4 << 20})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE big(id INTEGER PRIMARY KEY, k INTEGER, v TEXT, r REAL)`)
	mustExec(t, s, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
		INSERT INTO big SELECT i, i % 97, printf('v%08d', (i * 7919) % 20000), i / 3.0 FROM n`)
	mustExec(t, s, `CREATE INDEX big_k ON big(k)`)
	mustExec(t, s, `CREATE TABLE small AS SELECT * FROM big WHERE id <= 200`)
	goroutines := runtime.NumGoroutine()
	var early, late uint64
	for r := range rounds {
		longWorkloadRound(t, db, s, r)
		live := liveHeap()
		if r < rounds/2 {
			early = max(early, live)
		} else {
			late = max(late, live)
		}
		t.Logf("round %d: live heap %d KiB", r, live>>10)
	}
	// The first half holds the warm caches (plans, idle programs, pages);
	// a leak grows the second half past them. 48 MiB more leaves room for
	// the plan cache filling and for GC timing on a loaded machine; the
	// programs a sync.Pool per plan kept added over 100 MiB here.
	require.LessOrEqual(t, late, early+48<<20, "live heap grew from %d KiB to %d KiB", early>>10, late>>10)
	// And in absolute terms: the data (a few MiB), a 4 MiB page cache, the
	// log between checkpoints (under 32 MiB), 32 MiB of idle programs and
	// 512 cached plans fit well within 144 MiB; a sync.Pool per plan kept
	// 150 to 350 MiB of programs alive here.
	require.LessOrEqual(t, max(early, late), uint64(144<<20), "live heap reached %d KiB", max(early, late)>>10)
	n, bytes := db.progs.usage()
	require.LessOrEqual(t, n, progCacheEntries)
	require.LessOrEqual(t, bytes, int64(progCacheBytes))
	st := db.Stats()
	require.Equal(t, 1, st.OpenSessions)
	require.Zero(t, st.TempDatabases)
	require.LessOrEqual(t, runtime.NumGoroutine(), goroutines+2)
}

// longWorkloadRound runs one round of TestDB_LongWorkload_MemoryStaysBounded.
func longWorkloadRound(t *testing.T, db *DB, s *Session, r int) {
	t.Helper()
	tmp := db.NewSession()
	mustExec(t, tmp, fmt.Sprintf(`CREATE TEMP TABLE tt AS SELECT id, v FROM big WHERE k = %d`, r%97))
	mustExec(t, tmp, `CREATE INDEX tt_v ON tt(v)`)
	require.Len(t, queryInts(t, tmp, `SELECT count(*) FROM tt JOIN big USING (id)`), 1)
	require.NoError(t, tmp.Close())

	name := fmt.Sprintf("t%d", r)
	mustExec(t, s, fmt.Sprintf(`CREATE TABLE %s(a INTEGER PRIMARY KEY, b TEXT, c INTEGER)`, name))
	mustExec(t, s, fmt.Sprintf(`INSERT INTO %s SELECT id, v || 'x', k FROM big WHERE id %% 5 = %d`, name, r%5))
	mustExec(t, s, fmt.Sprintf(`CREATE INDEX %s_c ON %s(c, b)`, name, name))
	require.NoError(t, s.Begin(context.Background(), TxOptions{}))
	mustExec(t, s, fmt.Sprintf(`UPDATE %s SET b = upper(b) WHERE c < 50`, name))
	mustExec(t, s, fmt.Sprintf(`DELETE FROM %s WHERE a %% 3 = 0`, name))
	if r%2 == 0 {
		require.NoError(t, s.Commit())
	} else {
		require.NoError(t, s.Rollback())
	}
	require.Len(t, queryInts(t, s, fmt.Sprintf(`SELECT count(*) FROM %s JOIN big ON big.id = %s.a`, name, name)), 1)
	mustExec(t, s, `DROP TABLE `+name)

	readAll(t, s, `SELECT v, r FROM big ORDER BY v DESC, r`)
	readAll(t, s, `SELECT k, count(*), group_concat(v) FROM big GROUP BY k ORDER BY 3`)
	// Distinct texts over a small table: compiling dominates, as in an
	// application building SQL with literals in it.
	for i := range 150 {
		n := r*150 + i
		readAll(t, s, fmt.Sprintf(`SELECT k, count(*), sum(id * %d), max(v) FROM small WHERE id > %d GROUP BY k ORDER BY 2 DESC, 1 LIMIT 3`, n%13, n%200))
		readAll(t, s, fmt.Sprintf(`SELECT a.id, b.v, CASE WHEN a.k > %d THEN a.r ELSE -a.r END, a.id + b.id * 2 - %d, substr(b.v, 2, 3) || a.v,
			coalesce(nullif(a.k, %d), 0) * 3, abs(a.r - b.r), upper(a.v), length(b.v) + a.k FROM small a JOIN small b ON b.id = a.id + %d WHERE a.k <> %d`,
			n%50, n, n%97, n%7, n%97))
	}
}

// readAll runs a query and reads all its rows.
func readAll(t *testing.T, s *Session, sql string) {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	require.NoError(t, err, sql)
	defer st.Close()
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err, sql)
	defer rows.Close()
	vals := make([]types.Value, len(rows.Columns()))
	for {
		err := rows.Next(vals)
		if err == io.EOF {
			return
		}
		require.NoError(t, err, sql)
	}
}

// heapAfterGC returns the live heap after a full collection.
func heapAfterGC() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestDB_DeleteAndVacuum_InMemoryGivesMemoryBack fills an in-memory
// database with 40 MB of blobs, deletes them and vacuums: the DELETE's idle
// program must not keep the rows it collected, and VACUUM must shrink the
// file (nothing moves when every row is gone) and the log, whose memory a
// memory file gives back.
func TestDB_DeleteAndVacuum_InMemoryGivesMemoryBack(t *testing.T) {
	db, err := Open(Options{Memory: true, CacheSize: 1 << 20})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)`)
	mustExec(t, s, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
		INSERT INTO b SELECT i, randomblob(8000) FROM n`)
	full := heapAfterGC()
	mustExec(t, s, `DELETE FROM b`)
	deleted := heapAfterGC()
	require.Less(t, deleted, full+20<<20, "DELETE kept %d MiB", (deleted-full)>>20)
	mustExec(t, s, `VACUUM`)
	require.Equal(t, []int64{0}, queryInts(t, s, `PRAGMA freelist_count`))
	vacuumed := heapAfterGC()
	require.Less(t, vacuumed, full-30<<20, "VACUUM gave back only %d MiB of %d", (full-vacuumed)>>20, full>>20)
}
