package engine

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPropertyGraph_SurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.db")
	db, err := Open(Options{Path: path, Create: true})
	require.NoError(t, err)
	s := db.NewSession()
	mustExec(t, s, "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT)")
	mustExec(t, s, "CREATE TABLE knows(a INTEGER REFERENCES person, b INTEGER)")
	mustExec(t, s, "CREATE PROPERTY GRAPH g VERTEX TABLES (person) EDGE TABLES (knows SOURCE person DESTINATION KEY (b) REFERENCES person)")
	require.NoError(t, db.Close())

	db, err = Open(Options{Path: path})
	require.NoError(t, err)
	defer db.Close()
	s = db.NewSession()
	got, err := querySQL(s, "SELECT type, sql FROM sqlite_master WHERE name = 'g'", "TT")
	require.NoError(t, err)
	require.Equal(t, []string{"property graph",
		"CREATE PROPERTY GRAPH g VERTEX TABLES (person) EDGE TABLES (knows SOURCE person DESTINATION KEY (b) REFERENCES person)"}, got)
	g := db.cat.Load().Graph("g")
	require.NotNil(t, g)
	require.Equal(t, []string{"a"}, g.Edges[0].Source.Columns)
	require.Equal(t, []string{"id"}, g.Edges[0].Dest.Ref)
	_, err = querySQL(s, "DROP TABLE person", "")
	require.ErrorContains(t, err, "property graph g uses it")
	got, err = querySQL(s, "PRAGMA integrity_check", "T")
	require.NoError(t, err)
	require.Equal(t, []string{"ok"}, got)
}
