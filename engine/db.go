package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/factorized"
	"github.com/ladybugsql/ladybug/vfs"
)

// MinPageSize and MaxPageSize bound Options.PageSize (a power of two
// between them), as the store accepts it.
const (
	MinPageSize = storage.MinPageSize
	MaxPageSize = storage.MaxPageSize
)

// SyncMode says when commits reach stable storage; it is the store's
// (engine/storage), named here so callers of the engine need not import
// storage.
type SyncMode = storage.SyncMode

// Sync modes (see storage.SyncFull and its siblings).
const (
	SyncFull   = storage.SyncFull
	SyncNormal = storage.SyncNormal
	SyncOff    = storage.SyncOff
)

// Options configure Open. The zero value of each field means its default.
type Options struct {
	Path        string        // file path (ignored when Memory)
	Memory      bool          // in-memory database (same code over a vfs.CowFS)
	FS          vfs.FS        // optional override (tests: fault-injecting / crash FS)
	PageSize    int           // at creation; 0 = 4096
	CacheSize   int64         // bytes; 0 = 32 MiB
	BusyTimeout time.Duration // 0 = 5 s
	Sync        SyncMode
	ReadOnly    bool  // mode=ro
	Create      bool  // mode=rwc (true) vs rw (false)
	ForeignKeys bool  // default true
	MemoryLimit int64 // per-query bytes; 0 = unlimited
	// Limits lower SQLite's run-time limits (sqlite3_limit).
	Limits Limits
}

// DB is one open database shared by many Sessions.
type DB struct {
	opts  Options
	store *storage.Store
	// unsized leaves every table ANALYZE has not measured at the planner's
	// default size, as SQLite plans it, instead of sizing it from its tree
	// (see tableSizer); set only by tests that pin plans for that size.
	unsized bool
	txm     *txn.Manager
	pool    *factorized.Pool
	mem     *vfs.CowFS // an in-memory database's files; nil for a file
	// family is set once the database is cloned or is a clone: it and its
	// clones share cache, progs and pool (see Clone), which the last of
	// them to close closes.
	family atomic.Pointer[family]
	cache  *planCache
	progs  *progCache

	// cat is the newest committed catalog known; sessions compare its
	// Version with their transaction's schema cookie.
	cat atomic.Pointer[catalog.Catalog]

	mu       sync.Mutex
	closed   bool
	shut     atomic.Bool // closed, readable without mu (every statement checks it)
	sessions map[*Session]struct{}

	parses atomic.Int64
	// tempDBs counts the sessions' open temp databases.
	tempDBs atomic.Int64
	// afterClose runs once the store is closed (set by AfterClose).
	afterClose func() error
}

// Stats are the engine's counters.
type Stats struct {
	Parses        int64 // SQL texts parsed (plan-cache misses)
	PlanCacheHits int64
	PlanCacheMiss int64
	Binds         int64 // statements bound (first use or after a schema change)
	SchemaVersion uint64
	OpenSessions  int
	// TempDatabases counts the open sessions' temp databases (one per
	// session that made a temp object; closed with the session).
	TempDatabases int
	Storage       storage.Stats
	Txn           txn.ManagerStats
	// ZeroedBytes counts bytes the factorized block pool has zeroed, and
	// BlockBytes the bytes of blocks it has allocated (mechanism 3).
	ZeroedBytes int64
	BlockBytes  int64
	// Memory is an in-memory database's copy-on-write file system: the
	// chunks (pages) its files reference, shared with clones or not, and
	// how many it copied because it wrote into a shared one (see Clone).
	Memory vfs.CowStats
}

// SetEagerZero switches the factorized block pool to zero whole blocks up
// front, the behaviour lazy zeroing replaces; benchmarks use it for A/B.
func (db *DB) SetEagerZero(on bool) { db.pool.SetEagerZero(on) }

// memPath is the file name of an in-memory database inside its MemFS.
const memPath = "memory.db"

// memCheckpointFrames is an in-memory database's log length before a
// checkpoint (storage.Options.CheckpointFrames).
const memCheckpointFrames = 256

// Open opens or creates the database described by opts.
func Open(opts Options) (*DB, error) {
	so := storage.Options{FS: opts.FS, PageSize: opts.PageSize, CacheSize: opts.CacheSize,
		Sync: opts.Sync, ReadOnly: opts.ReadOnly, Create: opts.Create, BusyTimeout: opts.BusyTimeout}
	path := opts.Path
	if opts.Memory {
		if so.FS == nil {
			so.FS = vfs.NewCowFS()
		}
		path, so.Create = memPath, true
		so.CheckpointFrames = memCheckpointFrames
		so.Memory = true
	}
	if path == "" {
		return nil, errs.New(errs.CodeCantOpen, "no database path given")
	}
	st, err := storage.Open(path, so)
	if err != nil {
		return nil, wrapOpen(err, path)
	}
	db := newDB(opts, st, so.FS)
	if err := db.loadInitialCatalog(); err != nil {
		st.Close()
		return nil, err
	}
	db.progs.sweepAtGC()
	return db, nil
}

// newDB wraps a store opened over fsys.
func newDB(opts Options, st *storage.Store, fsys vfs.FS) *DB {
	db := &DB{opts: opts, store: st, txm: txn.NewManager(st),
		pool: factorized.NewPool(factorized.PoolOptions{}), cache: newPlanCache(planCacheSize), progs: newProgCache(progCacheBytes, progCacheEntries),
		sessions: map[*Session]struct{}{}}
	db.mem, _ = fsys.(*vfs.CowFS)
	return db
}

// wrapOpen is the error of a failed open. It keeps the storage error's
// class where a caller branches on it (a file locked by another process is
// busy, a damaged one corrupt, another program's file not a database), and
// is CANTOPEN otherwise.
func wrapOpen(err error, path string) error {
	if e, ok := err.(*errs.Error); ok {
		return e
	}
	switch c := txn.StorageCode(err); c {
	case errs.CodeNotADB:
		return errs.Of(c, "file is not a database: "+path, err)
	case errs.CodeBusy:
		return errs.Of(c, "database is locked: "+path+" is open in another process ("+err.Error()+")", err)
	case errs.CodeCorrupt:
		return errs.Of(c, "database disk image is malformed: "+err.Error(), err)
	case errs.CodeReadOnly, errs.CodeFull:
		return errs.Of(c, "unable to open database file "+path+": "+err.Error(), err)
	}
	return errs.Of(errs.CodeCantOpen, "unable to open database file "+path+": "+err.Error(), err)
}

func (db *DB) loadInitialCatalog() error {
	tx, err := db.txm.Begin(context.Background(), txn.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.StartStatement(context.Background()); err != nil {
		return err
	}
	cat, err := loadCatalog(tx)
	if err != nil {
		return err
	}
	db.cat.Store(cat)
	return tx.EndStatement(nil)
}

// publish makes cat the newest committed catalog if it is newer.
func (db *DB) publish(cat *catalog.Catalog) {
	for {
		cur := db.cat.Load()
		if cur != nil && cur.Version >= cat.Version {
			return
		}
		if db.cat.CompareAndSwap(cur, cat) {
			return
		}
	}
}

// Close closes the database: open sessions are closed (rolling back their
// transactions) and the store is checkpointed and closed.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	db.shut.Store(true)
	sess := make([]*Session, 0, len(db.sessions))
	for s := range db.sessions {
		sess = append(sess, s)
	}
	db.mu.Unlock()
	for _, s := range sess {
		s.Close()
	}
	if f := db.family.Load(); f == nil || f.refs.Add(-1) == 0 {
		db.progs.close()
	}
	closeStore := db.store.Close
	if db.mem != nil {
		closeStore = db.store.Discard // the memory goes with the database
	}
	err := closeStore()
	if db.afterClose != nil {
		if aerr := db.afterClose(); err == nil && aerr != nil {
			return aerr
		}
	}
	if err != nil {
		return errs.Wrap(errs.CodeIO, err)
	}
	return nil
}

func (db *DB) isClosed() bool { return db.shut.Load() }

// NewSession returns a new session (one per driver connection).
func (db *DB) NewSession() *Session {
	s := &Session{db: db, foreignKeys: db.opts.ForeignKeys}
	db.mu.Lock()
	db.sessions[s] = struct{}{}
	db.mu.Unlock()
	return s
}

func (db *DB) forget(s *Session) {
	db.mu.Lock()
	delete(db.sessions, s)
	db.mu.Unlock()
}

// Stats returns a snapshot of the engine's counters.
func (db *DB) Stats() Stats {
	hits, miss, binds := db.cache.counters()
	db.mu.Lock()
	n := len(db.sessions)
	db.mu.Unlock()
	st := Stats{Parses: db.parses.Load(), PlanCacheHits: hits, PlanCacheMiss: miss, Binds: binds,
		OpenSessions: n, TempDatabases: int(db.tempDBs.Load()), Storage: db.store.Stats(), Txn: db.txm.Stats(),
		ZeroedBytes: db.pool.ZeroedBytes(), BlockBytes: db.pool.Allocated()}
	if c := db.cat.Load(); c != nil {
		st.SchemaVersion = c.Version
	}
	if db.mem != nil {
		st.Memory = db.mem.Stats()
	}
	return st
}
