package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/plan"
)

// fillSQL inserts n rows (k = 1..n, v = k % 7) into table.
func fillSQL(table string, n int) string {
	return fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) INSERT INTO %s SELECT i, i %% 7 FROM n", n, table)
}

// hashBuild returns the table a plan's first hash join builds its hash
// table from (its right input's scan), "" when it has none.
func hashBuild(n plan.Node) string {
	var build string
	plan.Walk(n, func(x plan.Node) bool {
		j, ok := x.(*plan.Join)
		if !ok || build != "" || len(j.LeftKeys) == 0 || j.Method != plan.JoinHash {
			return true
		}
		plan.Walk(j.Right, func(y plan.Node) bool {
			if s, ok := y.(*plan.Scan); ok && build == "" {
				build = s.Table.Name
			}
			return true
		})
		return false
	})
	return build
}

// cachedRoot returns the newest cached plan of sql's first statement.
func cachedRoot(t *testing.T, db *DB, sql string) plan.Node {
	t.Helper()
	sc, ok := db.cache.lru.Get(sql)
	require.True(t, ok, sql)
	bp := sc.plans[0][0]
	require.NotNil(t, bp, sql)
	return bp.plan.(*plan.Query).Root
}

// Without ANALYZE, a table's size, read from its tree when the statement
// is bound, decides which side of an equi-join the hash table is built
// from: the small table's, whichever side of the join it is written on.
// With every table at the default size (before), the join kept its
// written order and built the big table's hash table in the first query.
func TestTableSize_SmallTableIsBuildSide(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	runSQL(t, s, "CREATE TABLE big(k INTEGER, v INTEGER)")
	runSQL(t, s, "CREATE TABLE small(k INTEGER, v INTEGER)")
	runSQL(t, s, fillSQL("big", 20000))
	runSQL(t, s, fillSQL("small", 10))
	for _, q := range []string{
		"SELECT count(*) FROM small JOIN big ON small.k = big.k",
		"SELECT count(*) FROM big JOIN small ON small.k = big.k",
	} {
		require.Equal(t, []int64{10}, queryInts(t, s, q), q)
		require.Equal(t, "small", hashBuild(cachedRoot(t, db, q)), q)
	}
	// The scans carry the classes of 20,000 and 10 rows.
	root := boundRoot(t, s, "SELECT * FROM big, small WHERE big.k = small.k")
	sizes := map[string]plan.SizeClass{}
	plan.Walk(root, func(x plan.Node) bool {
		if sc, ok := x.(*plan.Scan); ok {
			sizes[sc.Table.Name] = sc.Size
		}
		return true
	})
	require.Equal(t, map[string]plan.SizeClass{"big": plan.ClassOf(20000), "small": plan.ClassOf(10)}, sizes)

	// ANALYZE's counts win over the tree's.
	runSQL(t, s, "ANALYZE")
	root = boundRoot(t, s, "SELECT * FROM big, small WHERE big.k = small.k")
	plan.Walk(root, func(x plan.Node) bool {
		if sc, ok := x.(*plan.Scan); ok {
			require.Zero(t, sc.Size, sc.Table.Name)
		}
		return true
	})
}

// A cached plan is bound again when one of its tables leaves the size
// class it was bound with, and only then: a plan made while both tables
// were empty builds its hash table from whichever table grew least once
// one holds 20,000 rows, in autocommit mode and inside a transaction that
// wrote the rows itself; runs in between, and rows that leave a table in
// its class, reuse the plan.
func TestTableSize_CachedPlanRebindsWhenTableGrows(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	runSQL(t, s, "CREATE TABLE a(k INTEGER, v INTEGER)")
	runSQL(t, s, "CREATE TABLE b(k INTEGER, v INTEGER)")
	const q = "SELECT count(*) FROM b JOIN a ON a.k = b.k"
	// run runs q and returns its count and how many binds it took.
	run := func() (int64, int64) {
		_, _, before := db.cache.counters()
		got := queryInts(t, s, q)
		_, _, after := db.cache.counters()
		return got[0], after - before
	}
	requireRun := func(count, binds int64, msg string) {
		t.Helper()
		c, b := run()
		require.Equal(t, count, c, msg)
		require.Equal(t, binds, b, msg)
	}

	requireRun(0, 1, "the first run binds")
	require.Equal(t, "a", hashBuild(cachedRoot(t, db, q)), "equal sizes: the written order")
	requireRun(0, 0, "same commit: the plan is reused")

	runSQL(t, s, "INSERT INTO a VALUES (1, 1)") // 0 and 1 row: one class
	requireRun(0, 0, "a table still in its class keeps the plan")

	runSQL(t, s, fillSQL("a", 20000))
	requireRun(0, 1, "a grew past its class: bound again")
	require.Equal(t, "b", hashBuild(cachedRoot(t, db, q)))
	requireRun(0, 0, "and reused")

	// Inside a transaction, the rows it wrote itself count.
	runSQL(t, s, "BEGIN")
	runSQL(t, s, fillSQL("b", 200000))
	requireRun(20001, 1, "b grew in this transaction: bound again")
	require.Equal(t, "a", hashBuild(cachedRoot(t, db, q)))
	requireRun(20001, 0, "and reused")
	runSQL(t, s, "ROLLBACK")
	requireRun(0, 1, "the rollback emptied b again")
	require.Equal(t, "b", hashBuild(cachedRoot(t, db, q)))
}

// Temp tables are sized from the session's temp store, views and CTEs
// through the tables they read, and a table of another session's
// uncommitted transaction is not seen: the other session's plan is sized
// from the committed tree.
func TestTableSize_TempViewsAndOtherSessions(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	runSQL(t, s, "CREATE TABLE m(k INTEGER, v INTEGER)")
	runSQL(t, s, fillSQL("m", 3000))
	runSQL(t, s, "CREATE TEMP TABLE tt(k INTEGER, v INTEGER)")
	runSQL(t, s, fillSQL("tt", 30))
	runSQL(t, s, "CREATE VIEW mv AS SELECT k, v FROM m WHERE v < 5")
	const q = "WITH c AS (SELECT k FROM mv) SELECT count(*) FROM c JOIN tt ON c.k = tt.k"
	require.Equal(t, []int64{22}, queryInts(t, s, q))
	sizes := map[string]plan.SizeClass{}
	plan.Walk(cachedRoot(t, db, q), func(x plan.Node) bool {
		if sc, ok := x.(*plan.Scan); ok {
			sizes[sc.Table.Name] = sc.Size
		}
		return true
	})
	require.Equal(t, map[string]plan.SizeClass{"m": plan.ClassOf(3000), "tt": plan.ClassOf(30)}, sizes)
	require.Equal(t, "tt", hashBuild(cachedRoot(t, db, q)))

	other := db.NewSession()
	runSQL(t, s, "BEGIN")
	runSQL(t, s, fillSQL("m", 100000))
	const q2 = "SELECT count(*) FROM m AS x JOIN m AS y ON x.k = y.k"
	require.Equal(t, []int64{3000}, queryInts(t, other, q2))
	plan.Walk(cachedRoot(t, db, q2), func(x plan.Node) bool {
		if sc, ok := x.(*plan.Scan); ok {
			require.Equal(t, plan.ClassOf(3000), sc.Size, "the other session's rows are not committed")
		}
		return true
	})
	runSQL(t, s, "COMMIT")
	require.Equal(t, []int64{109000}, queryInts(t, other, q2))
	plan.Walk(cachedRoot(t, db, q2), func(x plan.Node) bool {
		if sc, ok := x.(*plan.Scan); ok {
			require.Equal(t, plan.ClassOf(103000), sc.Size, "committed: bound again")
		}
		return true
	})
}

// A statement of one table and no join keeps no sizes (its plan's choices
// do not read its class), so its runs never read the tree to check them;
// a join keeps both tables', a self-join its one table's.
func TestTableSize_OnlyJoinsKeepSizes(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	runSQL(t, s, "CREATE TABLE a(k INTEGER, v INTEGER)")
	runSQL(t, s, "CREATE TABLE b(k INTEGER, v INTEGER)")
	runSQL(t, s, fillSQL("a", 100))
	for q, want := range map[string]int{
		"SELECT v FROM a WHERE rowid = 1":                     0,
		"UPDATE a SET v = 1 WHERE rowid = 2":                  0,
		"SELECT count(*) FROM a JOIN b ON a.k = b.k":          2,
		"SELECT count(*) FROM a AS x, a AS y":                 1,
		"SELECT count(*) FROM a WHERE k IN (SELECT k FROM b)": 2,
	} {
		runSQL(t, s, q)
		sc, ok := db.cache.lru.Get(q)
		require.True(t, ok, q)
		require.Len(t, sc.plans[0][0].sizes, want, q)
	}
}
