package compat

import (
	"database/sql"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSQLite3Dump_LoadsIntoLadybug: the way the shell's message for an
// SQLite file suggests, `sqlite3 app.db .dump | ladybug new.db`, gives a
// ladybug database with SQLite's answers. Needs the sqlite3 command.
func TestSQLite3Dump_LoadsIntoLadybug(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("the sqlite3 command is not installed (Debian package sqlite3)")
	}
	dir := t.TempDir()
	lite := filepath.Join(dir, "app.sqlite")
	cmd := exec.Command(sqlite3, lite)
	cmd.Stdin = strings.NewReader(readFixture(t))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	dump, err := exec.Command(sqlite3, lite, ".dump").Output()
	require.NoError(t, err)

	dst := filepath.Join(dir, "new.db")
	require.NoError(t, loadFixture(t, dst, string(dump)).Close())

	a, err := sql.Open("sqlite", lite)
	require.NoError(t, err)
	defer a.Close()
	b, err := sql.Open("ladybug", dst+"?values=stored")
	require.NoError(t, err)
	defer b.Close()
	for _, q := range append(fixtureQueries, `SELECT name, seq FROM sqlite_sequence`) {
		want, err := queryAll(a, q)
		require.NoError(t, err, q)
		got, err := queryAll(b, q)
		require.NoError(t, err, q)
		assert.Empty(t, diffRows(want, got), q)
	}
}
