package main

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun_UpStatusDownTo(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "app.db")
	var stderr bytes.Buffer
	dir := []string{"-dir", "../../goose_migrations", path}
	require.NoError(t, run(ctx, append(dir, "up"), &stderr))
	require.NoError(t, run(ctx, append(dir, "status"), &stderr))
	require.NoError(t, run(ctx, append(dir, "down-to", "1"), &stderr))

	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	var v int
	require.NoError(t, db.QueryRow("SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&v))
	assert.Equal(t, 1, v)
	assert.Error(t, run(ctx, append(dir, "nosuch"), &stderr))
	assert.Error(t, run(ctx, []string{path}, &stderr), "no command")
}
