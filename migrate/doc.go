// Package ladybug is a golang-migrate (github.com/golang-migrate/migrate/v4)
// database driver for ladybug, registered for URLs of the scheme
// "ladybug":
//
//	import (
//		"github.com/golang-migrate/migrate/v4"
//		_ "github.com/golang-migrate/migrate/v4/source/file"
//		_ "github.com/ladybugsql/ladybug/migrate"
//	)
//
//	m, err := migrate.New("file://migrations", "ladybug://app.db?busy_timeout=10000")
//	err = m.Up()
//
// After "ladybug://" comes a ladybug DSN (a path, ":memory:" or
// "file:NAME?mode=memory", with ladybug's options). The x- options are the
// driver's: x-migrations-table (default schema_migrations) and
// x-no-tx-wrap=true to run a migration file outside a transaction
// (otherwise each file runs in one transaction, DDL included, and a failing
// statement leaves nothing behind).
//
// Locking: Lock takes a row in the table <migrations table>_lock, so two
// drivers on the same database — through two *sql.DBs, or two Migrate
// instances — exclude each other, and so do processes: the row names the
// holder's process ID, a lock held by a process that still runs is
// ErrLocked, and a row left by a process that is gone (one that died
// holding it) is stale and is taken over. A lock held in this process is
// ErrLocked until its holder calls Unlock.
package ladybug
