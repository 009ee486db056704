package engine

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// sizedPlan returns a bound plan whose programs measure size bytes, all
// grown buffers counted (settled).
func sizedPlan(size int64) *boundPlan {
	bp := &boundPlan{}
	bp.size.bytes.Store(size)
	bp.size.settled.Store(true)
	return bp
}

func TestProgCache_Get_ReturnsWhatWasPut(t *testing.T) {
	pc := newProgCache(1<<20, 8)
	a, b := sizedPlan(100), sizedPlan(100)
	require.Nil(t, pc.get(a))
	pc.put(a, "a1")
	pc.put(b, "b1")
	pc.put(a, "a2")
	require.Equal(t, "a2", pc.get(a))
	require.Equal(t, "a1", pc.get(a))
	require.Nil(t, pc.get(a))
	require.Equal(t, "b1", pc.get(b))
	n, bytes := pc.usage()
	require.Zero(t, n)
	require.Zero(t, bytes)
}

func TestProgCache_Put_EvictsLeastRecentBeyondBudget(t *testing.T) {
	pc := newProgCache(1000, 100)
	plans := make([]*boundPlan, 12)
	for i := range plans {
		plans[i] = sizedPlan(100)
		pc.put(plans[i], i)
	}
	n, bytes := pc.usage()
	require.Equal(t, 10, n)
	require.EqualValues(t, 1000, bytes)
	require.Nil(t, pc.get(plans[0]), "the oldest went first")
	require.Nil(t, pc.get(plans[1]))
	require.Empty(t, plans[0].idle)
	for i := 2; i < 12; i++ {
		require.Equal(t, i, pc.get(plans[i]))
	}
}

func TestProgCache_Put_EvictsBeyondEntryCount(t *testing.T) {
	pc := newProgCache(1<<30, 3)
	bp := sizedPlan(1)
	for i := range 5 {
		pc.put(bp, i)
	}
	n, _ := pc.usage()
	require.Equal(t, 3, n)
	require.Len(t, bp.idle, 3)
	require.Equal(t, 4, pc.get(bp))
}

func TestProgCache_Put_SkipsOversizedOrUnmeasuredProgram(t *testing.T) {
	pc := newProgCache(800, 10)
	pc.put(sizedPlan(101), "too big") // over 800 / progCacheMaxShare
	pc.put(sizedPlan(0), "unmeasured")
	n, _ := pc.usage()
	require.Zero(t, n)
}

func TestProgCache_Sweep_DropsProgramsIdleThroughTwoCollections(t *testing.T) {
	pc := newProgCache(1<<20, 8)
	old, reused, fresh := sizedPlan(1), sizedPlan(1), sizedPlan(1)
	pc.put(old, "old")
	pc.put(reused, "reused")
	require.True(t, pc.sweep())
	require.Equal(t, "reused", pc.get(reused))
	pc.put(reused, "reused")
	pc.put(fresh, "fresh")
	require.True(t, pc.sweep())
	require.Nil(t, pc.get(old), "idle through two sweeps")
	require.Equal(t, "reused", pc.get(reused))
	require.Equal(t, "fresh", pc.get(fresh))
	pc.put(fresh, "fresh")
	pc.close()
	require.False(t, pc.sweep())
	require.Nil(t, pc.get(fresh))
	pc.put(fresh, "after close")
	n, _ := pc.usage()
	require.Zero(t, n)
}

// TestDB_ProgCache_EmptiesWhenIdle checks an idle database's programs go
// with garbage collections, as they went with a sync.Pool.
func TestDB_ProgCache_EmptiesWhenIdle(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	for i := range 10 {
		require.Len(t, queryInts(t, s, fmt.Sprintf("SELECT %d + 1", i)), 1)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if n, _ := db.progs.usage(); n == 0 {
			return
		}
		require.True(t, time.Now().Before(deadline), "idle programs survived the collections")
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDB_ProgCache_ReusesWithinBudget runs many distinct statements and a
// repeated one on a database and checks the idle programs stay within
// the budget while the repeated statement still reuses its program.
func TestDB_ProgCache_ReusesWithinBudget(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'y')")
	for i := range 2 * progCacheEntries {
		require.Equal(t, []int64{2}, queryInts(t, s, fmt.Sprintf("SELECT count(*) FROM t WHERE a + %d > 0", i)))
	}
	n, bytes := db.progs.usage()
	require.LessOrEqual(t, n, progCacheEntries)
	require.LessOrEqual(t, bytes, int64(progCacheBytes))

	st, err := s.Prepare(context.Background(), "SELECT b FROM t WHERE id = 1")
	require.NoError(t, err)
	defer st.Close()
	bp := queryPlan(t, s, st)
	for range 3 {
		rows, err := st.Query(context.Background(), nil)
		require.NoError(t, err)
		require.NoError(t, rows.Close())
	}
	// Without reuse there would be four (a collection may have swept it).
	require.LessOrEqual(t, len(bp.idle), 1, "one execution at a time keeps one program")
}

// queryPlan returns the bound plan st's single query runs, after one run.
func queryPlan(t *testing.T, s *Session, st *Stmt) *boundPlan {
	t.Helper()
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	require.NoError(t, rows.Close())
	bp, ok := st.sc.cachedFor(0, s.db.cat.Load())
	require.True(t, ok)
	return bp
}

// A program's size counts the buffers its first execution grew: built
// small, a scan over many rows grows its batch and expression buffers,
// and the size the cache charges grows with them.
func TestProgSize_Settle_AddsBuffersGrownByFirstExecution(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "CREATE TABLE g(a INTEGER, b INTEGER)")
	mustExec(t, s, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO g SELECT i, i FROM n")
	q := "SELECT count(*) FROM g WHERE a + b > 10 AND b * 2 < 9000"
	require.Equal(t, []int64{4494}, queryInts(t, s, q))
	sc, err := s.db.parse(q)
	require.NoError(t, err)
	bp := sc.plans[0][0]
	require.NotNil(t, bp)
	require.True(t, bp.size.settled.Load())
	// Two columns of the scan batch and five expression buffers of 1024
	// values of 32 bytes at least.
	require.Greater(t, bp.size.bytes.Load(), int64(7*1024*32))
}
