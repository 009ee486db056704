package ladybug

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ladybugsql/ladybug/engine"
	"github.com/ladybugsql/ladybug/engine/errs"
)

// Clone returns a new private in-memory database holding db's newest
// commit (a *sql.DB of its own, like ":memory:", gone when closed).
//
// When db is an in-memory database the clone takes constant time whatever
// its size: it shares every page with db, and either side copies a page
// only when it writes it, so each stays isolated from the other's later
// writes, and closing one frees only the pages it alone holds. Clone waits
// only for a write transaction that is running on db to end; writers keep
// committing around it. DBStats(ctx, clone).Memory shows the sharing:
// Chunks the pages the clone references, CopiedChunks those it copied.
//
// When db is a file database, the clone takes constant time too and does
// not wait for writers: it reads the pages it never wrote from the file,
// as of the clone's start, through a read snapshot it holds while it lives
// (which holds db's checkpoints back, like an open read transaction), and
// copies a page into memory only when it writes it. If db closes first,
// each snapshot its clones read is copied into memory once, and the
// clones keep working.
//
// The DSN form is ":memory:?clone=TEMPLATE" or
// "file:NAME?mode=memory&clone=TEMPLATE", TEMPLATE being a named memory
// database open in this process or a database file's path; the template
// stays open (shared with other users of it in the process) until the
// clone closes.
func Clone(ctx context.Context, db *sql.DB) (*sql.DB, error) {
	cfg := defaultConfig()
	cfg.Memory = true
	var c *engine.DB
	err := withEngine(ctx, db, "Clone", func(src *engine.DB) error {
		var err error
		c, err = src.Clone(ctx, cfg.engineOptions())
		return err
	})
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(&Connector{cfg: cfg, drv: &Driver{}, db: c}), nil
}

// BackupOptions configure Backup.
type BackupOptions struct {
	// Progress, when set, is called as the copy proceeds (about every
	// megabyte) with the pages written so far and the total.
	Progress func(done, total int)
	// Compact leaves out free pages (what VACUUM INTO writes): the copy is
	// as small as the live data, at the cost of a second pass over it.
	Compact bool
}

// Backup writes a consistent copy of db's newest commit, as of the call,
// to a new database file at path. Other connections keep reading and
// writing meanwhile: the copy is read from one snapshot, which only holds
// the log's checkpoints back while it runs. The copy is written to a
// temporary file beside path, fsynced, and only then linked to path, so a
// crash or an error leaves either no file at path or the complete copy;
// the source is never written. path must not exist. Restoring is opening
// the copy (or copying it back while no one has the database open).
func Backup(ctx context.Context, db *sql.DB, path string, opts *BackupOptions) error {
	var o engine.BackupOptions
	if opts != nil {
		o.Compact = opts.Compact
		if p := opts.Progress; p != nil {
			o.Progress = func(done, total uint32) { p(int(done), int(total)) }
		}
	}
	return withEngine(ctx, db, "Backup", func(src *engine.DB) error {
		return src.BackupFile(ctx, path, o)
	})
}

// withEngine runs f on the engine behind db, borrowing one pooled
// connection for the call.
func withEngine(ctx context.Context, db *sql.DB, what string, f func(*engine.DB) error) error {
	c, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		cn, ok := dc.(*conn)
		if !ok {
			return fmt.Errorf("ladybug: %s: not a ladybug connection (%T)", what, dc)
		}
		return f(cn.db)
	})
}

// cloneEngine opens a clone= connector's database: the named memory
// database if it is already open (the first opener made it), else a new
// clone of the template.
func (c *Connector) cloneEngine() (*engine.DB, error) {
	if c.cfg.Name != "" {
		if ref := lookup(&c.cfg); ref != nil {
			c.db, c.ref = ref.db, ref
			return c.db, nil
		}
	}
	src, file, err := acquireTemplate(c.cfg.Clone)
	if err != nil {
		return nil, err
	}
	db, err := src.db.Clone(context.Background(), c.cfg.engineOptions())
	switch {
	case err == nil && file:
		// The clone reads the pages it never wrote from the file's
		// snapshot: the file stays open, shared, until the clone closes
		// (closed first, it would copy the snapshot into memory).
		db.AfterClose(func() error { return release(src) })
	default:
		// A memory clone shares the template's chunks, which need
		// nothing of the template open.
		if rerr := release(src); err == nil && rerr != nil {
			db.Close()
			err = rerr
		}
	}
	if err != nil {
		return nil, err
	}
	if c.cfg.Name == "" {
		c.db = db
		return db, nil
	}
	ref := register(&c.cfg, db)
	c.db, c.ref = ref.db, ref
	return c.db, nil
}

// acquireTemplate finds the database a clone= DSN names: a named memory
// database open in this process, or else a database file (opened, or
// shared when open; file is set).
func acquireTemplate(name string) (ref *sharedDB, file bool, err error) {
	mem := Config{Memory: true, Name: name}
	if ref := lookup(&mem); ref != nil {
		return ref, false, nil
	}
	if _, err := os.Stat(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, errs.New(errs.CodeCantOpen, "clone: no database %q: no memory database of that name is open in this process and no such file exists", name)
		}
		return nil, false, errs.New(errs.CodeCantOpen, "clone: %s: %v", name, err)
	}
	cfg := defaultConfig()
	cfg.Path, cfg.Mode = name, ModeReadWrite
	ref, err = acquire(&cfg)
	return ref, true, err
}
