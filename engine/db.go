package engine

import (
	"sync"
	"time"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// Options configure Open. The zero value of each field means its default.
type Options struct {
	Path        string        // file path (ignored when Memory)
	Memory      bool          // in-memory database
	PageSize    int           // at creation; 0 = 4096
	CacheSize   int64         // bytes; 0 = 32 MiB
	BusyTimeout time.Duration // 0 = 5 s
	ReadOnly    bool          // mode=ro
	Create      bool          // mode=rwc (true) vs rw (false)
	ForeignKeys bool          // default true
	MemoryLimit int64         // per-query bytes; 0 = unlimited
}

// DB is one open database shared by many Sessions.
type DB struct {
	opts   Options
	mu     sync.Mutex
	closed bool
}

// Stats are the engine's counters.
type Stats struct {
	Parses        int64 // SQL texts parsed (plan-cache misses that reached the parser)
	PlanCacheHits int64
	PlanCacheMiss int64
	SchemaVersion uint64
	OpenSessions  int64
}

// Open opens or creates the database described by opts.
func Open(opts Options) (*DB, error) {
	return nil, errs.New(errs.CodeNotSupported, "not supported: engine.Open")
}

// Close closes the database; later calls on it fail with ErrClosed.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.closed = true
	return nil
}

// NewSession returns a new session (one per driver connection).
func (db *DB) NewSession() *Session { return &Session{db: db} }

// Stats returns a snapshot of the engine's counters.
func (db *DB) Stats() Stats { return Stats{} }
