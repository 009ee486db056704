package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

func TestSession_Exec_InsteadOfUpdateWithParams(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "CREATE TABLE t(id INTEGER PRIMARY KEY, n INT)")
	mustExec(t, s, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	mustExec(t, s, "CREATE VIEW v AS SELECT id, n FROM t")
	mustExec(t, s, "CREATE TRIGGER vu INSTEAD OF UPDATE ON v BEGIN UPDATE t SET n = NEW.n WHERE id = OLD.id; END")
	st, err := s.Prepare(context.Background(), "UPDATE v SET n = n + ?1 WHERE id >= ?2")
	require.NoError(t, err)
	defer st.Close()
	for _, from := range []int64{2, 3} {
		res, err := st.Exec(context.Background(), positional([]types.Value{types.NewInt(1), types.NewInt(from)}))
		require.NoError(t, err)
		// SQLite counts no change for the statement on the view itself.
		require.Equal(t, int64(0), res.RowsAffected)
	}
	require.Equal(t, []int64{10, 21, 32}, queryInts(t, s, "SELECT n FROM t ORDER BY id"))
}
