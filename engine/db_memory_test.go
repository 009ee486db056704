package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpen_Memory_KeepsLogShort checks that an in-memory database keeps
// its log short instead of growing to the file default: with no reader
// open its commits skip the log (storage's direct commits), and the data
// reads back whole.
func TestOpen_Memory_KeepsLogShort(t *testing.T) {
	db, err := Open(Options{Memory: true})
	require.NoError(t, err)
	defer db.Close()
	s := db.NewSession()
	require.NoError(t, scanAggExec(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"))
	require.NoError(t, scanAggExec(s, "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i < 9999) "+
		"INSERT INTO t SELECT i, 'row ' || i FROM c"))
	for range 10 { // each rewrites every leaf
		require.NoError(t, scanAggExec(s, "UPDATE t SET v = v || 'x'"))
	}
	st := db.store.Stats()
	require.Positive(t, st.DirectCommits)
	require.Less(t, st.WALFrames, 2*memCheckpointFrames)
	require.Equal(t, []int64{10_000, 10_000 * 9_999 / 2, 10_000}, queryInts(t, s, "SELECT count(*), sum(id), count(*) FILTER (WHERE v LIKE '%xxxxxxxxxx') FROM t"))
}
