package engine

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAnalyze_Reopen_StatsReloadIntoCatalog checks that sqlite_stat1 is
// read back when a database opens: the planner's estimates use it.
func TestAnalyze_Reopen_StatsReloadIntoCatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(Options{Path: path, Create: true})
	require.NoError(t, err)
	s := db.NewSession()
	fillSkewedTable(t, s, "")
	mustExec(t, s, "ANALYZE")
	require.NoError(t, db.Close())

	db, err = Open(Options{Path: path})
	require.NoError(t, err)
	defer db.Close()
	cat := db.cat.Load()
	require.NotNil(t, cat.Table("t").Stat)
	require.Equal(t, int64(300), cat.Table("t").Stat.Rows)
	require.Equal(t, []int64{300, 100}, cat.Index("t_a").Stat)
	require.Equal(t, []int64{300, 1}, cat.Index("t_b").Stat)
	got, err := querySQL(db.NewSession(), "EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = 1 AND b = 5", "IIIT")
	require.NoError(t, err)
	require.Contains(t, got[len(got)-1], "USING INDEX t_b")
}

// TestAnalyze_TempTable_StatsReachPlanner checks that ANALYZE temp
// measures a TEMP table into the session's temp schema, where the
// planner's estimates read it.
func TestAnalyze_TempTable_StatsReachPlanner(t *testing.T) {
	db, err := Open(Options{Path: filepath.Join(t.TempDir(), "a.db"), Create: true})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	fillSkewedTable(t, s, "TEMP ")
	mustExec(t, s, "ANALYZE temp")
	cat := s.tempCatalog()
	require.NotNil(t, cat.Table("t").Stat)
	require.Equal(t, int64(300), cat.Table("t").Stat.Rows)
	require.Equal(t, []int64{300, 100}, cat.Index("t_a").Stat)
	require.Equal(t, []int64{300, 1}, cat.Index("t_b").Stat)
	require.Nil(t, db.cat.Load().Table("sqlite_stat1"), "main gets no sqlite_stat1")
	got, err := querySQL(s, "EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = 1 AND b = 5", "IIIT")
	require.NoError(t, err)
	require.Contains(t, got[len(got)-1], "USING INDEX t_b")
}

// fillSkewedTable creates table t (kind "" or "TEMP ") with 300 rows,
// indexed on a (3 values) and on b (unique): only statistics tell the
// planner that t_b is the better index.
func fillSkewedTable(t *testing.T, s *Session, kind string) {
	t.Helper()
	schema := ""
	if kind != "" {
		schema = "temp."
	}
	mustExec(t, s, "CREATE "+kind+"TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)")
	mustExec(t, s, "CREATE INDEX "+schema+"t_a ON t(a)")
	mustExec(t, s, "CREATE INDEX "+schema+"t_b ON t(b)")
	mustExec(t, s, "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 300) INSERT INTO t SELECT i, i % 3, i FROM s")
}
