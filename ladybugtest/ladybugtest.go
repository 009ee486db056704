// Package ladybugtest gives every test its own ladybug database in
// microseconds: an empty one (Open), or a copy of a database migrated and
// seeded once per test binary (Template.Open), which is a copy-on-write
// clone: it shares every page with the template and copies only the pages
// the test writes, so a 100 MB template costs a test what a 1 MB one does.
//
//	var schema = ladybugtest.NewTemplate("app", ladybugtest.MigrationsDir("migrations"))
//
//	func TestSignup(t *testing.T) {
//		t.Parallel()
//		db := schema.Open(t) // migrated and seeded; closed and leak-checked at cleanup
//		...
//	}
//
// Every database is private to the test that opened it, so tests may run
// with t.Parallel and go test -count=N. At cleanup each database is checked
// for leaks (a Rows or Tx left open, an engine session without a pooled
// connection, a page left pinned) and closed.
//
// A clone is a *sql.DB, so anything built on database/sql takes it: sqlx
// (sqlx.NewDb(tmpl.Open(t), "ladybug"); see examples/sqlx) or gorm through
// the ladybug dialector's Conn (see the gorm module's Example_ladybugtest),
// whose AutoMigrate can be the template's setup.
//
// Helpers: LoadSQL and LoadCSV load fixtures; DumpTable and DumpQuery render
// rows as text for golden files, which Golden compares (and rewrites when
// LADYBUGTEST_UPDATE=1); CheckLeaks is the cleanup's leak check, for
// databases opened elsewhere.
package ladybugtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ladybugsql/ladybug"
)

// Template is a database built once per test binary, by its setup function
// at the first Open, that every test then receives a private clone of.
// A Template is safe for concurrent use.
type Template struct {
	name  string
	setup func(*sql.DB) error

	once sync.Once
	db   *sql.DB // the built template; nil after a failed setup
	err  error   // the setup's error, reported to every Open

	mu     sync.Mutex
	closed bool // guarded by mu
}

// NewTemplate declares a template named name (for error messages) built by
// setup, which receives a new empty in-memory database to migrate and seed.
// Nothing runs until the first Open. A nil setup makes an empty template.
func NewTemplate(name string, setup func(*sql.DB) error) *Template {
	return &Template{name: name, setup: setup}
}

// empty is the template Open clones: an empty database, built once.
var empty = NewTemplate("empty", nil)

// Open returns a new, empty, private in-memory database, closed (after a
// leak check) when the test ends.
func Open(t testing.TB) *sql.DB {
	t.Helper()
	return empty.Open(t)
}

// Open returns the test's own clone of the template, building the
// template first if no test has yet. Writes to the clone never reach the
// template or other tests' clones. The clone is leak-checked and closed
// when the test ends. When the setup failed, every test that opens the
// template fails with its error (the setup runs once).
func (tp *Template) Open(t testing.TB) *sql.DB {
	t.Helper()
	db, err := tp.clone(context.Background())
	if err != nil {
		t.Fatalf("ladybugtest: %v", err)
	}
	t.Cleanup(func() { closeChecked(t, db) })
	return db
}

// clone builds the template if needed and clones it.
func (tp *Template) clone(ctx context.Context) (*sql.DB, error) {
	src, err := tp.build()
	if err != nil {
		return nil, err
	}
	tp.mu.Lock()
	closed := tp.closed
	tp.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("template %q is closed", tp.name)
	}
	db, err := ladybug.Clone(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("template %q: clone: %w", tp.name, err)
	}
	return db, nil
}

// build runs the setup once and returns the built template.
func (tp *Template) build() (*sql.DB, error) {
	tp.once.Do(func() {
		db, err := sql.Open("ladybug", ":memory:")
		if err == nil && tp.setup != nil {
			err = tp.setup(db)
		}
		if err == nil {
			err = CheckLeaks(db)
		}
		if err != nil {
			if db != nil {
				db.Close()
			}
			tp.err = fmt.Errorf("template %q: setup failed: %w", tp.name, err)
			return
		}
		tp.db = db
	})
	return tp.db, tp.err
}

// Close closes the template's database; a later Open fails. Clones
// already open are not affected.
func (tp *Template) Close() error {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.closed {
		return nil
	}
	tp.closed = true
	if tp.db == nil {
		return nil
	}
	return tp.db.Close()
}

// MigrationsDir returns a setup function that runs the .sql files of the
// directory dir (on disk), in name order, each as one script in its own
// transaction. See Migrations.
func MigrationsDir(dir string) func(*sql.DB) error {
	return Migrations(os.DirFS(dir), ".")
}

// Migrations returns a setup function that runs the .sql files of dir in
// fsys (an embed.FS, say), in name order (0001_users.sql before
// 0002_orders.sql), each as one script in its own transaction. A failing
// file stops the run with an error naming it; no .sql file is an error.
func Migrations(fsys fs.FS, dir string) func(*sql.DB) error {
	return func(db *sql.DB) error {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return fmt.Errorf("migrations: %w", err)
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return fmt.Errorf("migrations: no .sql file in %s", dir)
		}
		slices.Sort(names)
		for _, name := range names {
			text, err := fs.ReadFile(fsys, path.Join(dir, name))
			if err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
			if err := execScript(db, string(text)); err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
		}
		return nil
	}
}

// execScript runs a script of statements in one transaction.
func execScript(db *sql.DB, script string) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(script); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// CheckLeaks reports what db's users left behind: connections in use (a
// Rows not closed, a Tx neither committed nor rolled back, a Conn not
// closed), engine sessions without a pooled connection, and pinned pages.
// It returns nil when there is nothing.
func CheckLeaks(db *sql.DB) error {
	var errs []error
	pool := db.Stats()
	if n := pool.InUse; n > 0 {
		errs = append(errs, fmt.Errorf("%d connection(s) still in use: a Rows, Tx or Conn was not closed", n))
		if pool.MaxOpenConnections > 0 && n >= pool.MaxOpenConnections {
			return errors.Join(errs...) // no connection left to ask the engine with
		}
	}
	st, err := ladybug.DBStats(context.Background(), db)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	if open := db.Stats().OpenConnections; st.OpenSessions != open {
		errs = append(errs, fmt.Errorf("%d engine session(s) for %d pooled connection(s)", st.OpenSessions, open))
	}
	if p := st.Storage.Cache.Pinned; p > 0 {
		errs = append(errs, fmt.Errorf("%d page(s) still pinned", p))
	}
	return errors.Join(errs...)
}

// closeChecked is the cleanup of every database this package opens.
func closeChecked(t testing.TB, db *sql.DB) {
	t.Helper()
	if err := CheckLeaks(db); err != nil {
		t.Errorf("ladybugtest: leak at cleanup: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("ladybugtest: close: %v", err)
	}
}
