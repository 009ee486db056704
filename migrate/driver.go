package ladybug

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/golang-migrate/migrate/v4/database"

	_ "github.com/ladybugsql/ladybug" // the "ladybug" database/sql driver
)

func init() {
	database.Register("ladybug", &Driver{})
}

// DefaultMigrationsTable is where the version is kept unless
// Config.MigrationsTable says otherwise.
const DefaultMigrationsTable = "schema_migrations"

// Config configures WithInstance.
type Config struct {
	MigrationsTable string // DefaultMigrationsTable when empty
	NoTxWrap        bool   // run each migration file outside a transaction
}

// Driver is the golang-migrate driver. The zero value is what Register
// holds; Open and WithInstance return working ones.
type Driver struct {
	db     *sql.DB
	owned  bool // Close closes db
	cfg    Config
	holder string // this instance's lock-row holder: process token + instance
	locked atomic.Bool
}

// process identifies this process in lock rows: "PID-random". A row
// whose holder does not start with it was written by another process; it
// is stale when that process is gone (other processes may have the file
// open at the same time).
var process = func() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
}()

// heldByLiveProcess reports whether a lock row's holder is a process that
// still runs. A holder without a PID (written by an older driver) counts as
// gone.
func heldByLiveProcess(holder string) bool {
	pid, _, ok := strings.Cut(holder, "-")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(pid)
	return err == nil && n > 0 && processAlive(n)
}

var instances atomic.Int64

// WithInstance returns a driver on db, an open ladybug *sql.DB (which
// Close does not close).
func WithInstance(db *sql.DB, cfg *Config) (database.Driver, error) {
	if db == nil {
		return nil, errors.New("ladybug migrate: nil *sql.DB")
	}
	c := Config{}
	if cfg != nil {
		c = *cfg
	}
	if c.MigrationsTable == "" {
		c.MigrationsTable = DefaultMigrationsTable
	}
	d := &Driver{db: db, cfg: c, holder: fmt.Sprintf("%s/%d", process, instances.Add(1))}
	if err := d.ensureTables(); err != nil {
		return nil, err
	}
	return d, nil
}

// Open opens "ladybug://DSN[&x-migrations-table=T][&x-no-tx-wrap=true]".
func (*Driver) Open(u string) (database.Driver, error) {
	dsn, ok := strings.CutPrefix(u, "ladybug://")
	if !ok {
		return nil, fmt.Errorf("ladybug migrate: URL %q does not start with ladybug://", u)
	}
	path, query, _ := strings.Cut(dsn, "?")
	vals, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("ladybug migrate: URL %q: %w", u, err)
	}
	cfg := Config{MigrationsTable: vals.Get("x-migrations-table")}
	switch v := vals.Get("x-no-tx-wrap"); v {
	case "", "false":
	case "true":
		cfg.NoTxWrap = true
	default:
		return nil, fmt.Errorf("ladybug migrate: x-no-tx-wrap=%q: want true or false", v)
	}
	for k := range vals {
		if strings.HasPrefix(k, "x-") {
			vals.Del(k)
		}
	}
	if rest := vals.Encode(); rest != "" {
		path += "?" + rest
	}
	db, err := sql.Open("ladybug", path)
	if err != nil {
		return nil, err
	}
	d, err := WithInstance(db, &cfg)
	if err != nil {
		db.Close()
		return nil, err
	}
	d.(*Driver).owned = true
	return d, nil
}

// Close closes the database when Open opened it.
func (d *Driver) Close() error {
	if d.owned {
		return d.db.Close()
	}
	return nil
}

func (d *Driver) quoted(suffix string) string {
	return `"` + strings.ReplaceAll(d.cfg.MigrationsTable+suffix, `"`, `""`) + `"`
}

func (d *Driver) ensureTables() error {
	_, err := d.db.Exec(fmt.Sprintf(
		"CREATE TABLE IF NOT EXISTS %s (version INTEGER NOT NULL, dirty BOOLEAN NOT NULL);"+
			"CREATE UNIQUE INDEX IF NOT EXISTS %s ON %s (version);"+
			"CREATE TABLE IF NOT EXISTS %s (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL)",
		d.quoted(""), d.quoted("_version_idx"), d.quoted(""), d.quoted("_lock")))
	if err != nil {
		return fmt.Errorf("ladybug migrate: create tables: %w", err)
	}
	return nil
}

// Lock takes the lock row, or answers database.ErrLocked when another
// driver in this process, or another running process, holds it.
func (d *Driver) Lock() error {
	if !d.locked.CompareAndSwap(false, true) {
		return database.ErrLocked
	}
	err := d.inTx(func(tx *sql.Tx) error {
		var holder string
		err := tx.QueryRow("SELECT holder FROM " + d.quoted("_lock") + " WHERE id = 1").Scan(&holder)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case strings.HasPrefix(holder, process+"/"), heldByLiveProcess(holder):
			return database.ErrLocked
		}
		// Free, or left by a process that is gone: take it.
		_, err = tx.Exec("INSERT INTO "+d.quoted("_lock")+" (id, holder) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET holder = excluded.holder", d.holder)
		return err
	})
	if err != nil {
		d.locked.Store(false)
		if errors.Is(err, database.ErrLocked) {
			return database.ErrLocked
		}
		return fmt.Errorf("ladybug migrate: lock: %w", err)
	}
	return nil
}

// Unlock releases the lock row this driver holds.
func (d *Driver) Unlock() error {
	if !d.locked.Load() {
		return database.ErrNotLocked
	}
	if _, err := d.db.Exec("DELETE FROM "+d.quoted("_lock")+" WHERE id = 1 AND holder = ?", d.holder); err != nil {
		return fmt.Errorf("ladybug migrate: unlock: %w", err)
	}
	d.locked.Store(false)
	return nil
}

// Run runs one migration file, a script of statements, in one
// transaction unless NoTxWrap is set.
func (d *Driver) Run(migration io.Reader) error {
	body, err := io.ReadAll(migration)
	if err != nil {
		return err
	}
	script := string(body)
	if strings.TrimSpace(script) == "" {
		return nil
	}
	if d.cfg.NoTxWrap {
		if _, err := d.db.Exec(script); err != nil {
			return &database.Error{OrigErr: err, Err: "migration failed", Query: body}
		}
		return nil
	}
	if err := d.inTx(func(tx *sql.Tx) error {
		_, err := tx.Exec(script)
		return err
	}); err != nil {
		return &database.Error{OrigErr: err, Err: "migration failed", Query: body}
	}
	return nil
}

// SetVersion records version and dirty (version -1 with dirty set is
// kept too, as golang-migrate asks).
func (d *Driver) SetVersion(version int, dirty bool) error {
	return d.inTx(func(tx *sql.Tx) error {
		if _, err := tx.Exec("DELETE FROM " + d.quoted("")); err != nil {
			return err
		}
		if version >= 0 || (version == database.NilVersion && dirty) {
			if _, err := tx.Exec("INSERT INTO "+d.quoted("")+" (version, dirty) VALUES (?, ?)", version, dirty); err != nil {
				return err
			}
		}
		return nil
	})
}

// Version reads the recorded version, or NilVersion.
func (d *Driver) Version() (int, bool, error) {
	var v int
	var dirty bool
	err := d.db.QueryRow("SELECT version, dirty FROM "+d.quoted("")+" LIMIT 1").Scan(&v, &dirty)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return database.NilVersion, false, nil
	case err != nil:
		return 0, false, &database.Error{OrigErr: err, Query: []byte("SELECT version, dirty FROM " + d.quoted(""))}
	}
	return v, dirty, nil
}

// Drop drops every table and view but the lock table (foreign keys off
// meanwhile, on one connection), then makes the version table again.
func (d *Driver) Drop() error {
	ctx := context.Background()
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer func() { _, _ = conn.ExecContext(ctx, "PRAGMA foreign_keys = ON") }()
	// The lock table stays: the caller holds the lock through the drop.
	rows, err := conn.QueryContext(ctx, "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ?", d.cfg.MigrationsTable+"_lock")
	if err != nil {
		return err
	}
	var drops []string
	for rows.Next() {
		var typ, name string
		if err := rows.Scan(&typ, &name); err != nil {
			rows.Close()
			return err
		}
		drops = append(drops, fmt.Sprintf("DROP %s IF EXISTS \"%s\"", strings.ToUpper(typ), strings.ReplaceAll(name, `"`, `""`)))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, q := range drops {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("ladybug migrate: drop: %s: %w", q, err)
		}
	}
	return d.ensureTables()
}

func (d *Driver) inTx(fn func(*sql.Tx) error) error {
	tx, err := d.db.Begin()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
