package migrate

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/ladybugsql/ladybug"
)

func openLadybug(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("ladybug", filepath.Join(t.TempDir(), "app.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = ?", name).Scan(&n))
	return n > 0
}

// TestGoose_ProviderUpDownTo drives goose's Provider (dialect sqlite3)
// through up, down and to-version on a ladybug file.
func TestGoose_ProviderUpDownTo(t *testing.T) {
	ctx := context.Background()
	db := openLadybug(t)
	p, err := goose.NewProvider(goose.DialectSQLite3, db, os.DirFS("goose_migrations"))
	require.NoError(t, err)

	res, err := p.Up(ctx)
	require.NoError(t, err)
	require.Len(t, res, 3)
	v, err := p.GetDBVersion(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 3, v)

	_, err = db.Exec("INSERT INTO authors (name) VALUES ('Ada'); INSERT INTO books (author_id, title) VALUES (1, 'Notes'), (1, 'Sketch')")
	require.NoError(t, err)
	var count int
	require.NoError(t, db.QueryRow("SELECT book_count FROM authors").Scan(&count))
	assert.Equal(t, 2, count, "migration 3's trigger (a StatementBegin block) runs")

	_, err = p.DownTo(ctx, 1)
	require.NoError(t, err)
	assert.False(t, tableExists(t, db, "books"))
	assert.True(t, tableExists(t, db, "authors"))
	v, err = p.GetDBVersion(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 1, v)

	_, err = p.UpTo(ctx, 2)
	require.NoError(t, err)
	statuses, err := p.Status(ctx)
	require.NoError(t, err)
	var applied []int64
	for _, s := range statuses {
		if s.State == goose.StateApplied {
			applied = append(applied, s.Source.Version)
		}
	}
	assert.Equal(t, []int64{1, 2}, applied)

	_, err = p.DownTo(ctx, 0)
	require.NoError(t, err)
	assert.False(t, tableExists(t, db, "authors"))
	v, err = p.GetDBVersion(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 0, v)
}

// TestGoose_ClassicAPI uses goose's package-level functions, as the goose
// command does with -dialect sqlite3.
func TestGoose_ClassicAPI(t *testing.T) {
	db := openLadybug(t)
	require.NoError(t, goose.SetDialect("sqlite3"))
	goose.SetLogger(goose.NopLogger())
	require.NoError(t, goose.Up(db, "goose_migrations"))
	v, err := goose.GetDBVersion(db)
	require.NoError(t, err)
	assert.EqualValues(t, 3, v)
	require.NoError(t, goose.Down(db, "goose_migrations"))
	v, err = goose.GetDBVersion(db)
	require.NoError(t, err)
	assert.EqualValues(t, 2, v)
	require.NoError(t, goose.UpTo(db, "goose_migrations", 3))
	require.NoError(t, goose.Reset(db, "goose_migrations"))
	assert.False(t, tableExists(t, db, "authors"))
}
