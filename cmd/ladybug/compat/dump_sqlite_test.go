package compat

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	_ "github.com/ladybugsql/ladybug"
)

func readFixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/fixture.sql")
	require.NoError(t, err)
	return string(b)
}

// TestDump_RoundTrip_IdenticalText: dump, load the dump into a fresh
// ladybug database, dump that: the two texts are the same.
func TestDump_RoundTrip_IdenticalText(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	require.NoError(t, loadFixture(t, src, readFixture(t)).Close())
	dump1, stderr := dot(t, src, ".dump")
	require.Empty(t, stderr)
	require.Contains(t, dump1, "INSERT INTO sqlite_sequence VALUES('customers',5);")

	dst := filepath.Join(dir, "dst.db")
	require.NoError(t, loadFixture(t, dst, dump1).Close())
	dump2, stderr := dot(t, dst, ".dump")
	require.Empty(t, stderr)
	assert.Equal(t, dump1, dump2)

	// And the copies answer alike.
	a, err := sql.Open("ladybug", src+"?values=stored")
	require.NoError(t, err)
	defer a.Close()
	b, err := sql.Open("ladybug", dst+"?values=stored")
	require.NoError(t, err)
	defer b.Close()
	for _, q := range fixtureQueries {
		ra, err := queryAll(a, q)
		require.NoError(t, err, q)
		rb, err := queryAll(b, q)
		require.NoError(t, err, q)
		assert.Empty(t, diffRows(ra, rb), q)
	}
}

// TestDump_LoadsIntoSQLite: the same dump builds the database in SQLite,
// which then gives ladybug's answers to the fixture queries, and keeps
// counting AUTOINCREMENT ids where ladybug left off.
func TestDump_LoadsIntoSQLite(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	require.NoError(t, loadFixture(t, src, readFixture(t)).Close())
	dump, _ := dot(t, src, ".dump")

	lite, err := sql.Open("sqlite", filepath.Join(dir, "lite.db"))
	require.NoError(t, err)
	defer lite.Close()
	_, err = lite.Exec(dump)
	require.NoError(t, err)

	lb, err := sql.Open("ladybug", src+"?values=stored")
	require.NoError(t, err)
	defer lb.Close()
	queries := append(fixtureQueries,
		`SELECT sql FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY name`,
		`SELECT name, seq FROM sqlite_sequence`,
		`INSERT INTO customers(name) VALUES ('next') RETURNING id`,
		`SELECT name FROM customers WHERE id = 6`,
	)
	for _, q := range queries {
		want, err := queryAll(lb, q)
		require.NoError(t, err, q)
		got, err := queryAll(lite, q)
		require.NoError(t, err, q)
		assert.Empty(t, diffRows(want, got), q)
	}
}
