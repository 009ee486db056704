package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAutocommit_FailedStatementRollsBackWithoutUndo: an autocommit
// statement that fails after writing rows ends by rolling back its own
// transaction, which discards the rows at once; inside an explicit
// transaction the same failure undoes only the statement and keeps the
// earlier work. StatementsUndone tells the two paths apart.
func TestAutocommit_FailedStatementRollsBackWithoutUndo(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE t(x INTEGER PRIMARY KEY, y NOT NULL)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 'kept')")
	failing := "INSERT INTO t SELECT value + 1, CASE WHEN value < 5000 THEN value END FROM generate_series(1, 6000)"
	exec := func(sql string) error {
		st, err := s.Prepare(context.Background(), sql)
		require.NoError(t, err)
		defer st.Close()
		_, err = st.Exec(context.Background(), nil)
		return err
	}

	before := db.Stats().Txn
	require.Error(t, exec(failing), "row 5000 breaks NOT NULL")
	after := db.Stats().Txn
	require.Equal(t, before.StatementsUndone, after.StatementsUndone, "an autocommit failure undid rows one by one")
	require.Equal(t, before.RolledBack+1, after.RolledBack)
	require.Equal(t, []int64{1}, queryInts(t, s, "SELECT x FROM t"))

	mustExec(t, s, "BEGIN")
	mustExec(t, s, "INSERT INTO t VALUES (2, 'in tx')")
	require.Error(t, exec(failing))
	mustExec(t, s, "COMMIT")
	require.Equal(t, after.StatementsUndone+1, db.Stats().Txn.StatementsUndone)
	require.Equal(t, []int64{1, 2}, queryInts(t, s, "SELECT x FROM t ORDER BY x"))
}
