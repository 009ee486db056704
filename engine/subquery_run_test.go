package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A subquery reads only what SQLite's would: a WHERE term that reads no
// column of the subquery's own FROM (only the outer row) is tested once,
// before any row is read, and EXISTS or a scalar subquery stops at its
// first row. Row 2's abs() overflows, so reading or evaluating more than
// that is an error, as it was when a whole batch was evaluated; SQLite
// answers each of these (checked with the sqlite3 shell).
func TestSubquery_ReadsOnlyWhatItNeeds(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, m INTEGER)")
	runSQL(t, s, "INSERT INTO t VALUES (1, 5), (2, -9223372036854775808)")
	runSQL(t, s, "CREATE TABLE u(k INTEGER)")
	runSQL(t, s, "INSERT INTO u VALUES (0), (0)")
	for _, c := range []struct {
		sql  string
		want []int64
	}{
		// The outer-only term u.k < 0 is false: t is not read.
		{"SELECT (SELECT count(*) FROM t WHERE abs(t.m) > 0 AND u.k < 0) FROM u", []int64{0, 0}},
		{"SELECT (SELECT count(*) FROM t WHERE abs(t.m) > 0 AND u.k + 1 = 2 AND t.id > 0) FROM u", []int64{0, 0}},
		// First rows only.
		{"SELECT (SELECT abs(m) FROM t WHERE t.id > u.k) FROM u", []int64{5, 5}},
		{"SELECT EXISTS (SELECT abs(m) FROM t WHERE t.id > u.k) FROM u", []int64{1, 1}},
		{"SELECT (SELECT abs(m) FROM t) FROM u", []int64{5, 5}},
		{"SELECT EXISTS (SELECT 1 FROM t WHERE abs(t.m) > u.k) FROM u", []int64{1, 1}},
		{"SELECT (SELECT abs(m) FROM t WHERE t.id > u.k LIMIT 5) FROM u", []int64{5, 5}},
		// A true outer-only term keeps every row, and a subquery that
		// needs all rows still reads them.
		{"SELECT (SELECT count(*) FROM t WHERE u.k = 0) FROM u", []int64{2, 2}},
		{"SELECT (SELECT sum(id) FROM t WHERE t.id > u.k AND u.k >= 0) FROM u", []int64{3, 3}},
	} {
		require.Equal(t, c.want, queryInts(t, s, c.sql), c.sql)
	}
	// The IN set still holds every row.
	require.Equal(t, []int64{2}, queryInts(t, s, "SELECT count(*) FROM u WHERE u.k + 2 IN (SELECT id FROM t WHERE u.k = 0)"))
}
