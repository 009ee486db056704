package ladybug_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDriver_Vacuum_ShrinksFileAndKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vac.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	mustExec(t, db, `CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT)`)
	mustExec(t, db, `CREATE INDEX t_pad ON t (pad)`)
	mustExec(t, db, `INSERT INTO t SELECT value, printf('%0200d', value) FROM generate_series(1, 20000)`)
	mustExec(t, db, `PRAGMA wal_checkpoint`)
	mustExec(t, db, `DELETE FROM t WHERE id > 1000`)

	var pagesBefore, freeBefore int
	require.NoError(t, db.QueryRow(`PRAGMA page_count`).Scan(&pagesBefore))
	require.NoError(t, db.QueryRow(`PRAGMA freelist_count`).Scan(&freeBefore))
	require.Positive(t, freeBefore, "the delete freed pages")

	tx, err := db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`VACUUM`)
	assert.ErrorContains(t, err, "within a transaction")
	require.NoError(t, tx.Rollback())

	mustExec(t, db, `VACUUM`)
	var pagesAfter, freeAfter int
	require.NoError(t, db.QueryRow(`PRAGMA page_count`).Scan(&pagesAfter))
	require.NoError(t, db.QueryRow(`PRAGMA freelist_count`).Scan(&freeAfter))
	assert.Less(t, pagesAfter, pagesBefore/2, "VACUUM compacted the file")
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.LessOrEqual(t, st.Size(), int64(pagesAfter)*4096, "the file was truncated")

	var n, sum int64
	require.NoError(t, db.QueryRow(`SELECT count(*), sum(id) FROM t`).Scan(&n, &sum))
	assert.EqualValues(t, 1000, n)
	assert.EqualValues(t, 1000*1001/2, sum)
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM t WHERE pad = printf('%0200d', 77)`).Scan(&n))
	assert.EqualValues(t, 1, n, "the index still answers")
	var ok string
	require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
	assert.Equal(t, "ok", ok)
}
