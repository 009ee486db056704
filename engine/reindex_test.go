package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/storage"
)

// dropIndexEntries empties index name's tree behind the engine's back.
func dropIndexEntries(t *testing.T, db *DB, name string) {
	t.Helper()
	ix := db.cat.Load().Index(name)
	require.NotNil(t, ix)
	tamper(t, db, func(tx *storage.Tx) { require.NoError(t, tx.ClearTree(ix.Root)) })
}

// indexEntries counts the entries in index name's tree.
func indexEntries(t *testing.T, db *DB, name string) int {
	t.Helper()
	ix := db.cat.Load().Index(name)
	require.NotNil(t, ix)
	tx, err := db.store.BeginRead()
	require.NoError(t, err)
	defer tx.Rollback()
	c := tx.Tree(ix.Root).Cursor()
	defer c.Close()
	n := 0
	for ok := c.First(); ok; ok = c.Next() {
		n++
	}
	return n
}

func TestReindex_Forms_RebuildTheChosenIndexes(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT COLLATE NOCASE, b TEXT UNIQUE)`)
	mustExec(t, s, `CREATE INDEX t_a ON t (a)`)
	mustExec(t, s, `CREATE INDEX t_b ON t (b COLLATE RTRIM) WHERE b > 'b'`)
	mustExec(t, s, `CREATE TABLE u (x INTEGER, y)`)
	mustExec(t, s, `CREATE INDEX u_xy ON u (x, y + 1)`)
	mustExec(t, s, `INSERT INTO t (a, b) VALUES ('x', 'a'), ('Y', 'b'), ('z', 'c'), ('w', 'd')`)
	mustExec(t, s, `INSERT INTO u VALUES (1, 2), (3, 4), (5, NULL)`)
	require.Equal(t, []string{"ok"}, integrityRows(t, s))
	all := []string{"t_a", "t_b", "sqlite_autoindex_t_1", "u_xy"}
	cases := []struct {
		sql     string
		rebuilt []string
	}{
		{"REINDEX", all},
		{"REINDEX nocase", []string{"t_a"}},
		{"REINDEX rtrim", []string{"t_b"}},
		{"REINDEX binary", []string{"sqlite_autoindex_t_1", "u_xy"}},
		{"REINDEX t", []string{"t_a", "t_b", "sqlite_autoindex_t_1"}},
		{"REINDEX main.u", []string{"u_xy"}},
		{"REINDEX t_b", []string{"t_b"}},
		{"REINDEX main.sqlite_autoindex_t_1", []string{"sqlite_autoindex_t_1"}},
	}
	entries := map[string]int{"t_a": 4, "t_b": 2, "sqlite_autoindex_t_1": 4, "u_xy": 3}
	for _, tc := range cases {
		for _, name := range all {
			dropIndexEntries(t, db, name)
		}
		mustExec(t, s, tc.sql)
		for _, name := range all {
			want := 0
			for _, r := range tc.rebuilt {
				if r == name {
					want = entries[name]
				}
			}
			assert.Equal(t, want, indexEntries(t, db, name), "%s: index %s", tc.sql, name)
		}
	}
	mustExec(t, s, "REINDEX")
	require.Equal(t, []string{"ok"}, integrityRows(t, s))
}

func TestReindex_InTransaction_CommitsAndRollsBackWithIt(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE t (a INTEGER, b TEXT)`)
	mustExec(t, s, `CREATE INDEX t_a ON t (a)`)
	mustExec(t, s, `INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')`)
	dropIndexEntries(t, db, "t_a")
	mustExec(t, s, `BEGIN`)
	mustExec(t, s, `REINDEX t_a`)
	mustExec(t, s, `ROLLBACK`)
	require.Equal(t, 0, indexEntries(t, db, "t_a"), "ROLLBACK undoes the rebuild")
	mustExec(t, s, `BEGIN`)
	mustExec(t, s, `REINDEX t_a`)
	mustExec(t, s, `COMMIT`)
	require.Equal(t, 3, indexEntries(t, db, "t_a"))
	require.Equal(t, []string{"ok"}, integrityRows(t, s))
}
