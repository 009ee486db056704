package ladybug

import (
	"fmt"
	"sync"

	"github.com/ladybugsql/ladybug/engine"
)

// The registry keeps one engine per database file (and per named memory
// database) in the process, so two *sql.DB on the same file share one
// writer lock and one page cache, and a named memory database lives while
// any *sql.DB uses it.
var registry = struct {
	sync.Mutex
	dbs map[string]*sharedDB
}{dbs: map[string]*sharedDB{}}

// sharedDB is a registry entry; refs is guarded by registry.Mutex.
type sharedDB struct {
	key      string
	db       *engine.DB
	readOnly bool // the engine was opened with mode=ro
	refs     int
}

// acquire returns the engine for cfg, opening it on first use.
func acquire(cfg *Config) (*sharedDB, error) {
	key := cfg.registryKey()
	registry.Lock()
	defer registry.Unlock()
	if s, ok := registry.dbs[key]; ok {
		if s.readOnly && cfg.Mode != ModeReadOnly {
			return nil, fmt.Errorf("ladybug: %s is open read-only (mode=ro) in this process; open it read-write first, or close the read-only *sql.DB", cfg.Path)
		}
		s.refs++
		return s, nil
	}
	db, err := engine.Open(cfg.engineOptions())
	if err != nil {
		return nil, err
	}
	s := &sharedDB{key: key, db: db, readOnly: cfg.Mode == ModeReadOnly, refs: 1}
	registry.dbs[key] = s
	return s, nil
}

// release drops one reference and closes the engine with the last.
func release(s *sharedDB) error {
	registry.Lock()
	defer registry.Unlock()
	s.refs--
	if s.refs > 0 {
		return nil
	}
	delete(registry.dbs, s.key)
	return s.db.Close()
}

// lookup returns the open engine for cfg with a new reference, or nil.
func lookup(cfg *Config) *sharedDB {
	registry.Lock()
	defer registry.Unlock()
	s, ok := registry.dbs[cfg.registryKey()]
	if !ok {
		return nil
	}
	s.refs++
	return s
}

// register enters db, just opened for cfg, into the registry; when another
// connector registered the same name meanwhile, db is closed and theirs
// shared.
func register(cfg *Config, db *engine.DB) *sharedDB {
	key := cfg.registryKey()
	registry.Lock()
	if s, ok := registry.dbs[key]; ok {
		s.refs++
		registry.Unlock()
		_ = db.Close()
		return s
	}
	s := &sharedDB{key: key, db: db, refs: 1}
	registry.dbs[key] = s
	registry.Unlock()
	return s
}
