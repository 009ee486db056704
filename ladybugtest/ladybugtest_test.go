package ladybugtest_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ladybugsql/ladybug/ladybugtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var app = ladybugtest.NewTemplate("app", ladybugtest.MigrationsDir("testdata/migrations"))

// fakeT records what a helper reports instead of failing the real test.
// Fatal ends the helper's goroutine as testing.T does.
type fakeT struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// runFake runs fn as a test body on a fakeT, then its cleanups, and
// returns what was reported.
func runFake(t *testing.T, fn func(tb testing.TB)) []string {
	f := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	return f.errs
}

func count(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow(q).Scan(&n))
	return n
}

func TestOpen_FreshAndIsolated(t *testing.T) {
	t.Parallel()
	a := ladybugtest.Open(t)
	b := ladybugtest.Open(t)
	_, err := a.Exec(`CREATE TABLE t (x)`)
	require.NoError(t, err)
	assert.Equal(t, 1, count(t, a, `SELECT count(*) FROM sqlite_master`))
	assert.Equal(t, 0, count(t, b, `SELECT count(*) FROM sqlite_master`), "a fresh database is not empty")
}

func TestTemplate_MigratedAndSeeded(t *testing.T) {
	t.Parallel()
	db := app.Open(t)
	assert.Equal(t, 2, count(t, db, `SELECT count(*) FROM users`))
	assert.Equal(t, 3, count(t, db, `SELECT count(*) FROM orders`))
	assert.Equal(t, 1, count(t, db, `SELECT count(*) FROM sqlite_master WHERE name = 'orders_user'`))
	_, err := db.Exec(`INSERT INTO orders (user_id, total) VALUES (99, 1)`)
	assert.Error(t, err, "foreign keys are enforced in a clone")
}

// TestTemplate_ParallelClones: 64 parallel tests each write their own
// clone of one template; none sees another's rows.
func TestTemplate_ParallelClones(t *testing.T) {
	for i := range 64 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			db := app.Open(t)
			tx, err := db.Begin()
			require.NoError(t, err)
			for j := range 20 {
				_, err := tx.Exec(`INSERT INTO users (email, name) VALUES (?, ?)`, fmt.Sprintf("u%d-%d@x", i, j), "t")
				require.NoError(t, err)
			}
			require.NoError(t, tx.Commit())
			_, err = db.Exec(`UPDATE orders SET total = ? WHERE user_id = 1`, i)
			require.NoError(t, err)
			assert.Equal(t, 22, count(t, db, `SELECT count(*) FROM users`))
			assert.Equal(t, 20, count(t, db, fmt.Sprintf(`SELECT count(*) FROM users WHERE email LIKE 'u%d-%%'`, i)))
			assert.Equal(t, 2, count(t, db, fmt.Sprintf(`SELECT count(*) FROM orders WHERE total = %d`, i)))
		})
	}
}

func TestTemplate_SetupRunsOnce(t *testing.T) {
	var runs atomic.Int64
	tp := ladybugtest.NewTemplate("once", func(db *sql.DB) error {
		runs.Add(1)
		_, err := db.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1)`)
		return err
	})
	t.Run("group", func(t *testing.T) {
		for i := range 8 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				db := tp.Open(t)
				assert.Equal(t, 1, count(t, db, `SELECT count(*) FROM t`))
			})
		}
	})
	assert.Equal(t, int64(1), runs.Load())
	require.NoError(t, tp.Close())
	msgs := runFake(t, func(tb testing.TB) { tp.Open(tb) })
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], `template "once" is closed`)
}

// TestTemplate_FailingMigration: every test that opens the template fails
// with the migration's error, naming the file; the migration runs once.
func TestTemplate_FailingMigration(t *testing.T) {
	var runs atomic.Int64
	migrate := ladybugtest.MigrationsDir("testdata/bad")
	tp := ladybugtest.NewTemplate("bad", func(db *sql.DB) error {
		runs.Add(1)
		return migrate(db)
	})
	for range 3 {
		msgs := runFake(t, func(tb testing.TB) {
			tp.Open(tb)
			tb.Errorf("reached past a failed Open")
		})
		require.Len(t, msgs, 1)
		assert.Contains(t, msgs[0], `template "bad": setup failed: migration 0002_broken.sql`)
		assert.Contains(t, msgs[0], "already exists")
	}
	assert.Equal(t, int64(1), runs.Load())

	empty := ladybugtest.NewTemplate("none", ladybugtest.MigrationsDir(t.TempDir()))
	msgs := runFake(t, func(tb testing.TB) { empty.Open(tb) })
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "no .sql file")
}

func TestCleanup_ReportsLeaks(t *testing.T) {
	msgs := runFake(t, func(tb testing.TB) {
		db := ladybugtest.Open(tb)
		_, err := db.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1), (2)`)
		require.NoError(t, err)
		rows, err := db.Query(`SELECT x FROM t`)
		require.NoError(t, err)
		rows.Next()         // left open
		_, err = db.Begin() // neither committed nor rolled back
		require.NoError(t, err)
	})
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "2 connection(s) still in use")

	clean := runFake(t, func(tb testing.TB) {
		db := ladybugtest.Open(tb)
		rows, err := db.Query(`SELECT 1`)
		require.NoError(t, err)
		require.NoError(t, rows.Close())
	})
	assert.Empty(t, clean)
}

func TestFixturesAndDump(t *testing.T) {
	t.Parallel()
	db := app.Open(t)
	ladybugtest.LoadCSV(t, db, "users", "testdata/users.csv")
	ladybugtest.LoadSQL(t, db, "testdata/extra.sql")
	got := ladybugtest.DumpTable(t, db, "users")
	assert.Equal(t, `id | email | name | created_at
1 | ada@example.com | Ada | NULL
2 | bob@example.com | Bob | NULL
10 | carol@example.com | Carol | NULL
11 | dan@example.com | NULL | NULL
`, got)
	q := ladybugtest.DumpQuery(t, db, `SELECT user_id, sum(total) AS s, x'00ff' AS b, 'a
b' AS txt FROM orders GROUP BY user_id ORDER BY user_id`)
	ladybugtest.Golden(t, filepath.Join("testdata", "orders_by_user.golden"), q)
	assert.True(t, strings.HasPrefix(q, "user_id | s | b | txt\n1 | 29.5 | x'00ff' | a\\nb\n"), q)

	msgs := runFake(t, func(tb testing.TB) {
		ladybugtest.LoadCSV(tb, db, "users", "testdata/users.csv") // duplicate ids
	})
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "csv line 2")
	assert.Equal(t, 4, count(t, db, `SELECT count(*) FROM users`), "a failed load left rows behind")
}
