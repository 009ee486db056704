package ladybug_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ladybugsql/ladybug"
	"github.com/stretchr/testify/require"
)

// TestDB_DeleteBatch_RandomOrderGoesThroughCommitHooks deletes rows in
// random order, the bench harness's delete_batch shape (a prepared DELETE
// by primary key, then by an indexed text column, in one transaction each):
// every row and index entry must reach storage through the trees' commit
// hooks (the Txn counters), none straight, and reads inside the
// transaction see the deletes.
func TestDB_DeleteBatch_RandomOrderGoesThroughCommitHooks(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		const rows, batch = 2000, 200
		mustExec(t, db, "CREATE TABLE d (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, k TEXT NOT NULL)")
		mustExec(t, db, "CREATE INDEX d_k ON d (k)")
		tx, err := db.Begin()
		require.NoError(t, err)
		for i := 1; i <= rows; i++ {
			_, err := tx.Exec("INSERT INTO d VALUES (?, ?, ?)", i, i*7, fmt.Sprintf("name-%08d", i))
			require.NoError(t, err)
		}
		require.NoError(t, tx.Commit())
		perm := rand.New(rand.NewPCG(1, 2)).Perm(rows)
		for round, where := range []string{"id = ?", "k = ?"} {
			ids := perm[round*batch : (round+1)*batch]
			before, err := ladybug.DBStats(context.Background(), db)
			require.NoError(t, err)
			tx, err := db.Begin()
			require.NoError(t, err)
			st, err := tx.Prepare("DELETE FROM d WHERE " + where)
			require.NoError(t, err)
			for _, i := range ids {
				arg := any(i + 1)
				if round == 1 {
					arg = fmt.Sprintf("name-%08d", i+1)
				}
				res, err := st.Exec(arg)
				require.NoError(t, err)
				n, err := res.RowsAffected()
				require.NoError(t, err)
				require.Equal(t, int64(1), n, "row %d", i+1)
			}
			var left int64
			require.NoError(t, tx.QueryRow("SELECT count(*) FROM d WHERE k >= ''").Scan(&left))
			require.Equal(t, int64(rows-(round+1)*batch), left, "the index sees the transaction's deletes")
			require.NoError(t, tx.QueryRow("SELECT count(*) FROM d").Scan(&left))
			require.Equal(t, int64(rows-(round+1)*batch), left)
			require.NoError(t, st.Close())
			require.NoError(t, tx.Commit())
			after, err := ladybug.DBStats(context.Background(), db)
			require.NoError(t, err)
			require.Equal(t, int64(2*batch), after.Txn.TombstonesApplied-before.Txn.TombstonesApplied,
				"every row and index entry deleted by the commit hooks")
			require.Equal(t, int64(2), after.Txn.ApplyRuns-before.Txn.ApplyRuns, "one hook run per tree")
			require.Equal(t, []int64{int64(rows - (round+1)*batch)}, queryInts(t, db, "SELECT count(*) FROM d"))
		}
	})
}
