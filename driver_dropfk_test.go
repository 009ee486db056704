package ladybug

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// With foreign keys on, DROP TABLE deletes the table's rows first, as
// SQLite does: children's ON DELETE actions run, and a parent still
// referenced through an immediate RESTRICT or NO ACTION key is not dropped
// (on disk either); a deferred violation fails the COMMIT instead.
func TestDriver_DropTable_ForeignKeysDeleteFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fk.db")
	open := func() *sql.DB {
		db, err := sql.Open("ladybug", path)
		require.NoError(t, err)
		db.SetMaxOpenConns(1)
		return db
	}
	db := open()
	for _, s := range []string{
		`CREATE TABLE p(id INTEGER PRIMARY KEY)`,
		`CREATE TABLE cas(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES p(id) ON DELETE CASCADE)`,
		`CREATE TABLE q(id INTEGER PRIMARY KEY)`,
		`CREATE TABLE res(id INTEGER PRIMARY KEY, qid INTEGER REFERENCES q(id))`,
		`CREATE TABLE dp(id INTEGER PRIMARY KEY)`,
		`CREATE TABLE dc(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES dp(id) DEFERRABLE INITIALLY DEFERRED)`,
		`INSERT INTO p VALUES (1), (2)`,
		`INSERT INTO cas VALUES (1, 1), (2, 2), (3, NULL)`,
		`INSERT INTO q VALUES (1), (2)`,
		`INSERT INTO res VALUES (1, 2)`,
		`INSERT INTO dp VALUES (1)`,
		`INSERT INTO dc VALUES (1, 1)`,
	} {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	count := func(db *sql.DB, table string) int {
		var n int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM `+table).Scan(&n))
		return n
	}

	_, err := db.Exec(`DROP TABLE p`)
	require.NoError(t, err)
	require.Equal(t, 1, count(db, "cas"), "CASCADE deletes the children with a parent")

	_, err = db.Exec(`DROP TABLE q`)
	require.ErrorIs(t, err, ErrConstraintForeignKey)
	require.Contains(t, err.Error(), "FOREIGN KEY constraint failed")

	tx, err := db.Begin()
	require.NoError(t, err)
	_, err = tx.Exec(`DROP TABLE dp`)
	require.NoError(t, err)
	require.ErrorIs(t, tx.Commit(), ErrConstraintForeignKey)

	require.NoError(t, db.Close())
	db = open()
	defer db.Close()
	require.Equal(t, 2, count(db, "q"), "the failed DROP keeps the table and its rows")
	require.Equal(t, 1, count(db, "dp"), "the failed COMMIT keeps the table and its rows")
	require.Equal(t, 1, count(db, "cas"))

	// A child, then its parent once nothing references it, drop.
	_, err = db.Exec(`DROP TABLE res`)
	require.NoError(t, err)
	_, err = db.Exec(`DROP TABLE q`)
	require.NoError(t, err)
}
