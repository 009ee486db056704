package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// chainJoinDB makes n tables c1..cn of ten rows (k, v) each, where ci.v
// matches c(i+1).k on one row in two, and returns the chain join of all
// of them written as a comma join with its conditions in WHERE.
func chainJoinDB(t testing.TB, s *Session, n int) string {
	var from, where []string
	for i := 1; i <= n; i++ {
		runSQL(t, s, fmt.Sprintf("CREATE TABLE c%d(k INTEGER, v INTEGER)", i))
		var vals []string
		for r := 0; r < 10; r++ {
			vals = append(vals, fmt.Sprintf("(%d, %d)", r, r%5))
		}
		runSQL(t, s, fmt.Sprintf("INSERT INTO c%d VALUES %s", i, strings.Join(vals, ", ")))
		from = append(from, fmt.Sprintf("c%d", i))
		if i > 1 {
			where = append(where, fmt.Sprintf("c%d.v = c%d.k", i-1, i))
		}
	}
	return fmt.Sprintf("SELECT count(*) FROM %s WHERE %s", strings.Join(from, ", "), strings.Join(where, " AND "))
}

func runSQL(t testing.TB, s *Session, sql string) {
	t.Helper()
	st, err := s.Prepare(context.Background(), sql)
	require.NoError(t, err, sql)
	defer st.Close()
	_, err = st.Exec(context.Background(), nil)
	require.NoError(t, err, sql)
}

// A chain of 40 joins is reordered like a short one: every join has a
// hash key (none is a nested-loop cross product of ten-row tables), and
// the count is right: each ck.v value 0..4 matches one row of c(k+1),
// whose v is again 0..4, so every c1 row extends to exactly one chain.
func TestJoinOrder_Chain40_HashJoinsOnly(t *testing.T) {
	s := openMem(t).NewSession()
	q := chainJoinDB(t, s, 40)
	require.Equal(t, []int64{10}, queryInts(t, s, q))
	plan := strings.Join(explainLines(t, s, q), "\n")
	require.Equal(t, 39, strings.Count(plan, "HASH INNER JOIN"), plan)
	require.NotContains(t, plan, "NESTED LOOP", plan)
}

// SQLite's limit: a SELECT joins at most 64 FROM items.
func TestBind_Join65Tables_Error(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE t(a INTEGER)")
	items := strings.TrimSuffix(strings.Repeat("t, ", 64), ", ")
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM "+items))
	for _, sql := range []string{
		"SELECT count(*) FROM t, " + items,
		"SELECT count(*) FROM t JOIN (" + items + ")",
		"UPDATE t SET a = 1 FROM " + items,
	} {
		st, err := s.Prepare(context.Background(), sql)
		if err == nil {
			_, err = st.Exec(context.Background(), nil)
			st.Close()
		}
		require.ErrorContains(t, err, "at most 64 tables in a join", sql)
	}
}

// A condition that reads no column stops the join before it reads a row
// of either side (a constant-false WHERE is evaluated once, not per
// joined row), and a true one passes every row; placeholders count as
// constants for the execution.
func TestFilter_ConstantOverJoin(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE t(a INTEGER)")
	runSQL(t, s, "INSERT INTO t VALUES (1), (2), (3)")
	require.Equal(t, []int64{0}, queryInts(t, s, "SELECT count(*) FROM t, t AS c WHERE 1 = 0"))
	require.Equal(t, []int64{9}, queryInts(t, s, "SELECT count(*) FROM t, t AS c WHERE 1 = 1"))
	require.Equal(t, []int64{3}, queryInts(t, s, "SELECT count(*) FROM t, t AS c WHERE t.a = c.a AND 2 > 1"))
	q := "SELECT count(*) FROM t, t AS c, t AS d WHERE ? = 1 AND t.a IN (1, 2)"
	for _, c := range []struct{ arg, want int64 }{{1, 18}, {0, 0}, {1, 18}} {
		require.Equal(t, []int64{c.want}, queryInts(t, s, q, types.NewInt(c.arg)), "arg %d", c.arg)
	}
}

// explainLines is the detail column of EXPLAIN QUERY PLAN q.
func explainLines(t *testing.T, s *Session, q string) []string {
	var out []string
	eachRow(t, s, "EXPLAIN QUERY PLAN "+q, func(row []types.Value) {
		out = append(out, row[len(row)-1].String())
	})
	return out
}
