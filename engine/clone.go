package engine

import (
	"context"
	"sync/atomic"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
)

// Clone returns a new in-memory database holding db's newest commit.
//
// For an in-memory db it takes constant time whatever the database's size:
// the clone shares every page with db, and either side copies a page only
// when it writes it (storage.Store.Clone over a vfs.CowFS). It waits only
// for a running write transaction to end (BusyTimeout), so writers of db
// keep going around it; their later commits are invisible to the clone,
// and the clone's writes to db. Closing either frees only what it alone
// holds.
//
// A file database is cloned in constant time too, without waiting for its
// writer: the clone reads the pages it never wrote from the file, as of
// the clone's start, through a read snapshot it holds while it (or a clone
// of it) lives, and copies a page into memory only when it writes it. The
// snapshot holds db's checkpoints back like an open read transaction.
// Closing db first copies each lent snapshot into memory once, shared by
// its clones, which keep working (storage.Store.Clone).
//
// opts configures the clone (cache size, busy timeout, foreign keys, memory
// limit); its Path, Memory, FS and ReadOnly are ignored.
func (db *DB) Clone(ctx context.Context, opts Options) (*DB, error) {
	if db.isClosed() {
		return nil, errs.New(errs.CodeMisuse, "clone of a closed database")
	}
	fsys := vfs.NewCowFS()
	opts.Memory, opts.Path, opts.FS, opts.ReadOnly, opts.Create = true, "", fsys, false, true
	st, err := db.store.Clone(ctx, fsys, memPath, storeOptions(opts))
	if err != nil {
		return nil, storageErr("clone", err)
	}
	c := newDB(opts, st, fsys)
	if cat := db.cat.Load(); cat != nil {
		// A catalog is immutable and names pages by number, which the
		// clone shares: the clone starts with db's, and a session whose
		// snapshot has another schema cookie loads its own (catalogFor).
		c.cat.Store(cat)
	} else if err := c.loadInitialCatalog(); err != nil {
		st.Close()
		return nil, err
	}
	// The clone shares db's parsed statements, bound plans, idle compiled
	// programs and block pool: plans are bound to a catalog snapshot by
	// pointer, which the clone shares until its own DDL, and programs and
	// blocks take their transaction and database from the statement's
	// context, like those of another session. So a test's clone runs the
	// statements earlier tests ran without parsing, binding or building
	// them again, and a thousand clones hold one set of programs.
	f := db.joinFamily()
	f.refs.Add(1)
	c.family.Store(f)
	c.cache, c.progs, c.pool = db.cache, db.progs, db.pool
	return c, nil
}

// AfterClose makes f run when db closes, after its store: a clone's
// owner keeps the database it was cloned from open until then. Call it
// before db is shared.
func (db *DB) AfterClose(f func() error) { db.afterClose = f }

// family is a database and its clones, which share their caches.
type family struct{ refs atomic.Int64 }

// joinFamily returns db's family, making db the first member when it has
// none.
func (db *DB) joinFamily() *family {
	for {
		if f := db.family.Load(); f != nil {
			return f
		}
		f := &family{}
		f.refs.Store(1)
		if db.family.CompareAndSwap(nil, f) {
			return f
		}
	}
}

// storeOptions are the storage options of an in-memory database.
func storeOptions(opts Options) storage.Options {
	return storage.Options{FS: opts.FS, PageSize: opts.PageSize, CacheSize: opts.CacheSize,
		Sync: opts.Sync, BusyTimeout: opts.BusyTimeout, CheckpointFrames: memCheckpointFrames, Memory: opts.Memory}
}
