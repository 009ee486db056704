package migrate

import (
	"embed"
	"testing"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	lbmigrate "github.com/ladybugsql/ladybug/migrate"
)

//go:embed golang_migrations/*.sql
var golangMigrations embed.FS

// TestGolangMigrate_EmbeddedOnOpenDB runs golang-migrate with embedded
// migrations on a *sql.DB the program already has (WithInstance).
func TestGolangMigrate_EmbeddedOnOpenDB(t *testing.T) {
	sqlDB := openLadybug(t)
	src, err := iofs.New(golangMigrations, "golang_migrations")
	require.NoError(t, err)
	drv, err := lbmigrate.WithInstance(sqlDB, &lbmigrate.Config{})
	require.NoError(t, err)
	m, err := migrate.NewWithInstance("iofs", src, "ladybug", drv)
	require.NoError(t, err)

	require.NoError(t, m.Up())
	v, dirty, err := m.Version()
	require.NoError(t, err)
	assert.Equal(t, uint(2), v)
	assert.False(t, dirty)
	assert.True(t, tableExists(t, sqlDB, "notes_created"))

	require.NoError(t, m.Migrate(1))
	assert.False(t, tableExists(t, sqlDB, "notes_created"))
	assert.True(t, tableExists(t, sqlDB, "notes"))
	require.NoError(t, m.Down())
	assert.False(t, tableExists(t, sqlDB, "notes"))
	require.NoError(t, m.Up())
	assert.ErrorIs(t, m.Up(), migrate.ErrNoChange)
}
