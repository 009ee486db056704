package engine

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDB_Open_SchemaObjectsSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(Options{Path: path, Create: true, ForeignKeys: true})
	require.NoError(t, err)
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE p(id INTEGER PRIMARY KEY AUTOINCREMENT, v INTEGER)")
	mustExec(t, s, "CREATE INDEX p_v ON p(v)")
	mustExec(t, s, "CREATE VIEW pv AS SELECT v FROM p WHERE v > 1")
	mustExec(t, s, "CREATE TABLE log(n INTEGER)")
	mustExec(t, s, "CREATE TRIGGER p_ins AFTER INSERT ON p BEGIN INSERT INTO log VALUES (NEW.v); END")
	mustExec(t, s, "INSERT INTO p(v) VALUES (1), (2), (3)")
	mustExec(t, s, "ALTER TABLE p ADD COLUMN w TEXT DEFAULT 'x'")
	require.NoError(t, db.Close())

	db, err = Open(Options{Path: path, ForeignKeys: true})
	require.NoError(t, err)
	defer db.Close()
	s = db.NewSession()
	require.Equal(t, []int64{2}, queryInts(t, s, "SELECT count(*) FROM pv"))
	require.Equal(t, []int64{3}, queryInts(t, s, "SELECT id FROM p WHERE v = 3"))
	mustExec(t, s, "INSERT INTO p(v) VALUES (4)")
	require.Equal(t, []int64{4}, queryInts(t, s, "SELECT count(*) FROM log"))
	require.Equal(t, []int64{4}, queryInts(t, s, "SELECT seq FROM sqlite_sequence WHERE name = 'p'"))
	require.Equal(t, []int64{4}, queryInts(t, s, "SELECT count(*) FROM p WHERE w = 'x'"))
	got, err := querySQL(s, "PRAGMA integrity_check", "T")
	require.NoError(t, err)
	require.Equal(t, []string{"ok"}, got)
}
