package ladybug

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	dt "github.com/golang-migrate/migrate/v4/database/testing"
	_ "github.com/golang-migrate/migrate/v4/source/file"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDriver_GolangMigrateSuite runs golang-migrate's own driver tests.
// TestMain doubles as the other process of TestDriver_LockOfALiveProcessIsHeld:
// with LADYBUG_MIGRATE_SLEEP set it only waits to be killed.
func TestMain(m *testing.M) {
	if os.Getenv("LADYBUG_MIGRATE_SLEEP") != "" {
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestDriver_GolangMigrateSuite(t *testing.T) {
	d, err := (&Driver{}).Open("ladybug://" + filepath.Join(t.TempDir(), "m.db"))
	require.NoError(t, err)
	defer d.Close()
	dt.Test(t, d, []byte("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)"))
}

func TestDriver_MigrateUpDownTo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	m, err := migrate.New("file://testdata/migrations", "ladybug://"+path+"?busy_timeout=2000&x-migrations-table=versions")
	require.NoError(t, err)
	defer m.Close()
	dt.TestMigrate(t, m) // golang-migrate's up-then-drop helper

	m2, err := migrate.New("file://testdata/migrations", "ladybug://"+path+"?x-migrations-table=versions")
	require.NoError(t, err)
	defer m2.Close()
	require.NoError(t, m2.Migrate(3))
	v, dirty, err := m2.Version()
	require.NoError(t, err)
	assert.Equal(t, uint(3), v)
	assert.False(t, dirty)

	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	var bio string
	require.NoError(t, db.QueryRow("SELECT bio FROM authors WHERE name = 'Ada'").Scan(&bio))

	require.NoError(t, m2.Steps(-1))
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM pragma_table_info('authors') WHERE name = 'bio'").Scan(&n))
	assert.Equal(t, 0, n, "down 3 dropped bio")
	require.NoError(t, m2.Down())
	require.NoError(t, db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name IN ('authors', 'books')").Scan(&n))
	assert.Equal(t, 0, n)
	_, _, err = m2.Version()
	assert.ErrorIs(t, err, migrate.ErrNilVersion)
}

// TestDriver_FailedMigrationRollsBack: a failing file leaves nothing of
// itself and marks the version dirty; Force clears it.
func TestDriver_FailedMigrationRollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	m, err := migrate.New("file://testdata/broken", "ladybug://"+path)
	require.NoError(t, err)
	defer m.Close()
	require.Error(t, m.Up())
	v, dirty, err := m.Version()
	require.NoError(t, err)
	assert.Equal(t, uint(2), v)
	assert.True(t, dirty)
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	var names []string
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE name IN ('ok', 'half') ORDER BY name")
	require.NoError(t, err)
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		names = append(names, n)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"ok"}, names, "2's CREATE TABLE half was rolled back with it")
	require.NoError(t, m.Force(1))
	require.NoError(t, m.Down())
}

// TestDriver_LockAcrossSQLDBs: two drivers on two *sql.DBs of one file
// exclude each other.
func TestDriver_LockAcrossSQLDBs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	a, err := (&Driver{}).Open("ladybug://" + path)
	require.NoError(t, err)
	defer a.Close()
	b, err := (&Driver{}).Open("ladybug://" + path)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Lock())
	assert.ErrorIs(t, b.Lock(), database.ErrLocked)
	assert.ErrorIs(t, b.Unlock(), database.ErrNotLocked, "b never held it")
	require.NoError(t, a.Unlock())
	require.NoError(t, b.Lock())
	assert.ErrorIs(t, a.Lock(), database.ErrLocked)
	require.NoError(t, b.Unlock())
}

// TestDriver_StaleLockOfAGoneProcess: a lock row another process left
// (it cannot still have the file open) is taken over.
func TestDriver_StaleLockOfAGoneProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	d, err := WithInstance(db, nil)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO "schema_migrations_lock" (id, holder) VALUES (1, 'deadbeef/1')`)
	require.NoError(t, err)
	require.NoError(t, d.Lock())
	var holder string
	require.NoError(t, db.QueryRow(`SELECT holder FROM "schema_migrations_lock"`).Scan(&holder))
	assert.NotEqual(t, "deadbeef/1", holder)
	require.NoError(t, d.Unlock())
}

// TestDriver_LockOfALiveProcessIsHeld: processes share a database file, so
// a lock row of another process that still runs is ErrLocked, and is taken
// over once that process is gone.
func TestDriver_LockOfALiveProcessIsHeld(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("on Windows a database is used by one process at a time")
	}
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	d, err := WithInstance(db, nil)
	require.NoError(t, err)
	other := exec.Command(os.Args[0], "-test.run=^$")
	other.Env = append(os.Environ(), "LADYBUG_MIGRATE_SLEEP=1")
	require.NoError(t, other.Start())
	holder := fmt.Sprintf("%d-cafe/1", other.Process.Pid)
	_, err = db.Exec(`INSERT INTO "schema_migrations_lock" (id, holder) VALUES (1, ?)`, holder)
	require.NoError(t, err)
	assert.ErrorIs(t, d.Lock(), database.ErrLocked, "held by a running process")
	require.NoError(t, other.Process.Kill())
	_ = other.Wait()
	require.NoError(t, d.Lock(), "its process is gone")
	require.NoError(t, d.Unlock())
}

func TestDriver_OpenErrors(t *testing.T) {
	_, err := (&Driver{}).Open("sqlite3://x.db")
	assert.Error(t, err)
	_, err = (&Driver{}).Open("ladybug://" + filepath.Join(t.TempDir(), "m.db") + "?x-no-tx-wrap=maybe")
	assert.Error(t, err)
	_, err = (&Driver{}).Open("ladybug://" + filepath.Join(t.TempDir(), "m.db") + "?nosuch=1")
	assert.Error(t, err, "ladybug's DSN errors come through")
	_, err = WithInstance(nil, nil)
	assert.True(t, err != nil && !errors.Is(err, database.ErrLocked))
}

// TestDriver_LockRaceOneWinner: drivers on separate *sql.DBs racing for
// the lock: exactly one gets it, the others get ErrLocked.
func TestDriver_LockRaceOneWinner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	const n = 6
	drivers := make([]database.Driver, n)
	for i := range drivers {
		d, err := (&Driver{}).Open("ladybug://" + path)
		require.NoError(t, err)
		defer d.Close()
		drivers[i] = d
	}
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for _, d := range drivers {
		wg.Go(func() { errs <- d.Lock() })
	}
	wg.Wait()
	close(errs)
	won := 0
	for err := range errs {
		if err == nil {
			won++
			continue
		}
		assert.ErrorIs(t, err, database.ErrLocked)
	}
	assert.Equal(t, 1, won)
}
