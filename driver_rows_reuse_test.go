package ladybug_test

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDriver_Rows_ReusedAfterClose runs queries of different shapes one
// after another on one connection (each reusing the last closed rows) and
// checks that column names a caller kept from an earlier query are not
// overwritten, and that rows open at the same time stay independent.
func TestDriver_Rows_ReusedAfterClose(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		db.SetMaxOpenConns(1)
		mustExec(t, db, `CREATE TABLE r (a INTEGER, b TEXT); INSERT INTO r VALUES (1, 'x'), (2, 'y')`)
		rows, err := db.Query(`SELECT a AS first, b AS second FROM r ORDER BY a`)
		require.NoError(t, err)
		kept, err := rows.Columns()
		require.NoError(t, err)
		require.NoError(t, rows.Close())

		st, err := db.Prepare(`SELECT b AS third FROM r WHERE a = ?`)
		require.NoError(t, err)
		defer st.Close()
		for i, want := range []string{"x", "y", "x"} {
			var got string
			require.NoError(t, st.QueryRow(i%2+1).Scan(&got))
			assert.Equal(t, want, got)
		}
		var n int
		require.NoError(t, db.QueryRow(`SELECT count(*) AS fourth FROM r`).Scan(&n))
		assert.Equal(t, 2, n)
		assert.Equal(t, []string{"first", "second"}, kept)

		tx, err := db.Begin()
		require.NoError(t, err)
		defer tx.Rollback()
		r1, err := tx.Query(`SELECT a FROM r ORDER BY a`)
		require.NoError(t, err)
		require.True(t, r1.Next())
		r2, err := tx.Query(`SELECT b FROM r ORDER BY a DESC`)
		require.NoError(t, err)
		require.True(t, r2.Next())
		var a int
		var b string
		require.NoError(t, r1.Scan(&a))
		require.NoError(t, r2.Scan(&b))
		assert.Equal(t, 1, a)
		assert.Equal(t, "y", b)
		require.NoError(t, r1.Close())
		require.True(t, r2.Next())
		require.NoError(t, r2.Scan(&b))
		assert.Equal(t, "x", b)
		require.NoError(t, r2.Close())
		cols, err := r1.Columns()
		assert.Error(t, err, "closed rows")
		assert.Nil(t, cols)
	})
}

// TestDriver_IntArgument_StoredAsInteger passes Go ints (left unconverted
// by CheckNamedValue) through Exec and Query.
func TestDriver_IntArgument_StoredAsInteger(t *testing.T) {
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		mustExec(t, db, `CREATE TABLE n (v)`)
		for _, v := range []int{0, -1, 1 << 40, -(1 << 62)} {
			_, err := db.Exec(`INSERT INTO n VALUES (?)`, v)
			require.NoError(t, err)
			var typ string
			var got int
			require.NoError(t, db.QueryRow(`SELECT typeof(v), v FROM n WHERE v = ?`, v).Scan(&typ, &got))
			assert.Equal(t, "integer", typ)
			assert.Equal(t, v, got)
		}
	})
}
