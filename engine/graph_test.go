package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
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

func TestGraphTable_PlaceholdersViewsAndRebinding(t *testing.T) {
	s := openMem(t).NewSession()
	mustExecScript(t, s, graphFixture)
	q := "SELECT * FROM GRAPH_TABLE (social MATCH (x IS human WHERE x.id = ?)-[IS knows]->{1,2}(y IS human WHERE y.age > ?2) COLUMNS (y.name AS n))"
	require.Equal(t, []string{"'bob'", "'bob'", "'cat'", "'cat'"}, sortedRows(t, s, q, types.NewInt(1), types.NewInt(20)))
	require.Equal(t, []string{"'bob'", "'bob'"}, sortedRows(t, s, q, types.NewInt(1), types.NewInt(30)))

	mustExec(t, s, "CREATE VIEW fof AS SELECT * FROM GRAPH_TABLE (social MATCH (x IS human)->(y IS human)->(z IS human) WHERE x.id <> z.id COLUMNS (x.id AS x, z.id AS z))")
	require.Equal(t, sortedRows(t, s, "SELECT k1.a, k2.b FROM knows k1 JOIN knows k2 ON k2.a = k1.b JOIN person p ON p.id = k2.b WHERE k1.a <> k2.b"),
		sortedRows(t, s, "SELECT x, z FROM fof"))

	// A prepared GRAPH_TABLE binds again after the graph changes.
	st, err := s.Prepare(context.Background(), "SELECT count(*) FROM GRAPH_TABLE (social MATCH (p IS person) COLUMNS (p.id AS id))")
	require.NoError(t, err)
	defer st.Close()
	count := func() int64 {
		rows, err := st.Query(context.Background(), nil)
		require.NoError(t, err)
		defer rows.Close()
		dest := make([]types.Value, 1)
		require.NoError(t, rows.Next(dest))
		return dest[0].AsInt()
	}
	require.Equal(t, int64(8), count()) // 6 persons and 2 teachers
	mustExec(t, s, "ALTER PROPERTY GRAPH social DROP EDGE TABLES (teaches) DROP VERTEX TABLES (teacher)")
	require.Equal(t, int64(6), count())
}
