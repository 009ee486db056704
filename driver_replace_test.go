package ladybug_test

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowsText renders every row of q as "a|b|c" lines, NULL as "NULL".
func rowsText(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	return queryRows(t, db, q)
}

// checkReplaceState asserts the table's rows, each index read on its own
// (INDEXED BY, keys from the index), and integrity_check.
func checkReplaceState(t *testing.T, db *sql.DB, rows string, indexed map[string]string) {
	t.Helper()
	assert.Equal(t, rows, strings.Join(rowsText(t, db, `SELECT * FROM u ORDER BY rowid`), ";"))
	for q, want := range indexed {
		assert.Equal(t, want, strings.Join(rowsText(t, db, q), ";"), q)
	}
	assert.Equal(t, []string{"ok"}, rowsText(t, db, `PRAGMA integrity_check`))
}

// TestDriver_UpdateOrReplace_IndexesFollowRows: UPDATE OR REPLACE deletes
// the rows its new keys collide with; a row the statement selected but a
// REPLACE already deleted (or moved another row onto) is re-read, as
// SQLite does, so no index keeps an entry of a deleted row.
func TestDriver_UpdateOrReplace_IndexesFollowRows(t *testing.T) {
	cases := []struct {
		name    string
		setup   []string
		update  string
		rows    string
		indexed map[string]string
	}{{
		name: "rowid alias moves onto the next row",
		setup: []string{
			`CREATE TABLE u(pk INTEGER PRIMARY KEY, v TEXT, w)`,
			`CREATE INDEX u_w ON u(w)`,
			`INSERT INTO u VALUES (18,'x',102.5),(19,'y',76.75)`,
		},
		update: `UPDATE OR REPLACE u SET pk = pk + 1`,
		rows:   "20|x|102.5",
		indexed: map[string]string{
			`SELECT w, rowid FROM u INDEXED BY u_w WHERE w > 0 ORDER BY w`: "102.5|20",
		},
	}, {
		name: "unique column takes a value another selected row holds",
		setup: []string{
			`CREATE TABLE u(pk INTEGER PRIMARY KEY, c2 INTEGER UNIQUE, v)`,
			`INSERT INTO u VALUES (1, 9223372036854775807, 'a'), (2, 1, 'b')`,
		},
		update: `UPDATE OR REPLACE u SET c2 = 1`,
		rows:   "1|1|a",
		indexed: map[string]string{
			`SELECT c2, rowid FROM u WHERE c2 >= 0 ORDER BY c2`: "1|1",
			`SELECT pk FROM u WHERE c2 = 1`:                     "1",
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.db")
			db, err := sql.Open("ladybug", path)
			require.NoError(t, err)
			for _, s := range c.setup {
				mustExec(t, db, s)
			}
			mustExec(t, db, c.update)
			checkReplaceState(t, db, c.rows, c.indexed)
			require.NoError(t, db.Close())
			db, err = sql.Open("ladybug", path)
			require.NoError(t, err)
			defer db.Close()
			checkReplaceState(t, db, c.rows, c.indexed)
			// Later statements still work on the reopened file.
			mustExec(t, db, `DELETE FROM u`)
			checkReplaceState(t, db, "", nil)
		})
	}
}

// TestDriver_ConflictResolution_AsSQLite pins conflict handling the model
// test in conformance/ found different from SQLite (each expectation is
// SQLite's answer): rows updated in rowid order when the update changes
// the index its scan reads, NOT NULL's own ON CONFLICT clause, a
// constraint's own FAIL keeping earlier rows, and the next automatic rowid
// after an upsert moved a row above it.
func TestDriver_ConflictResolution_AsSQLite(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	steps := []struct {
		sql, err string // err: "" = success, else a substring of the error
		q, want  string
	}{
		{`CREATE TABLE t(pk INTEGER PRIMARY KEY, a, b UNIQUE, c NOT NULL ON CONFLICT REPLACE DEFAULT 7, d NOT NULL ON CONFLICT IGNORE)`, "", "", ""},
		{`INSERT INTO t VALUES (1, 1, 4, 0, 0), (2, 2, 3, 0, 0)`, "", "", ""},
		// Row 1 first (rowid order), not row 2 first (b's order): 1 → b=3
		// collides with row 2.
		{`UPDATE t SET b = pk + 2 WHERE b > 1`, "UNIQUE constraint failed: t.b", `SELECT b FROM t ORDER BY pk`, "4;3"},
		{`INSERT INTO t VALUES (3, 3, 9, NULL, 0)`, "", `SELECT c FROM t WHERE pk = 3`, "7"},
		{`INSERT INTO t VALUES (4, 4, 8, 0, NULL)`, "", `SELECT count(*) FROM t`, "3"},
		{`UPDATE t SET c = NULL WHERE pk = 1`, "", `SELECT c FROM t WHERE pk = 1`, "7"},
		{`CREATE TABLE f(x INT, y, PRIMARY KEY(x) ON CONFLICT FAIL)`, "", "", ""},
		{`INSERT INTO f VALUES (1, 'a')`, "", "", ""},
		{`INSERT INTO f VALUES (2, 'b'), (1, 'c'), (3, 'd')`, "UNIQUE constraint failed: f.x", `SELECT x || y FROM f ORDER BY x`, "1a;2b"},
		{`CREATE TABLE g(k INTEGER PRIMARY KEY, u UNIQUE, v)`, "", "", ""},
		{`INSERT INTO g VALUES (1, 10, 0), (2, 20, 0)`, "", "", ""},
		{`INSERT INTO g VALUES (NULL, 20, 1), (NULL, 30, 2) ON CONFLICT(u) DO UPDATE SET k = 5`, "", `SELECT k || ':' || u FROM g ORDER BY k`, "1:10;5:20;6:30"},
		// A row ignored with an explicit rowid does not move the next
		// automatic one past it.
		{`CREATE TABLE h(k INTEGER PRIMARY KEY, u UNIQUE ON CONFLICT IGNORE)`, "", "", ""},
		{`INSERT INTO h VALUES (1, 1), (NULL, 4), (9, 4), (NULL, 5)`, "", `SELECT k FROM h ORDER BY k`, "1;2;3"},
		// A BEFORE UPDATE trigger's change to a column the UPDATE does not
		// set survives, as SQLite re-reads the row after it.
		{`CREATE TABLE b(k INTEGER PRIMARY KEY, x, y)`, "", "", ""},
		{`CREATE TRIGGER b_bu BEFORE UPDATE OF y ON b WHEN new.y = 4 BEGIN UPDATE b SET x = x + 10 WHERE k = old.k; END`, "", "", ""},
		{`INSERT INTO b VALUES (1, 1, 0), (3, 3, 0)`, "", "", ""},
		{`UPDATE b SET y = 4 WHERE k = 1`, "", `SELECT x || ':' || y FROM b ORDER BY k`, "11:4;3:0"},
	}
	for _, s := range steps {
		_, err := db.Exec(s.sql)
		if s.err == "" {
			require.NoError(t, err, s.sql)
		} else {
			require.ErrorContains(t, err, s.err, s.sql)
		}
		if s.q != "" {
			assert.Equal(t, s.want, strings.Join(rowsText(t, db, s.q), ";"), s.sql)
		}
	}
	assert.Equal(t, []string{"ok"}, rowsText(t, db, `PRAGMA integrity_check`))
}
