package ladybug

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"

	"github.com/ladybugsql/ladybug/engine"
)

func init() {
	sql.Register("ladybug", &Driver{})
}

// Driver is ladybug's database/sql driver, registered as "ladybug".
type Driver struct{}

var (
	_ driver.Driver        = (*Driver)(nil)
	_ driver.DriverContext = (*Driver)(nil)
)

// Open opens a connection; database/sql prefers OpenConnector, so this is
// only reached by callers that use the driver directly.
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.(*Connector).connectOwned(context.Background())
}

// OpenConnector parses the DSN once; sql.Open returns its error.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(cfg)
}

// Connector opens connections to one database. All connections of one
// Connector (and so of one *sql.DB) share one engine: a ":memory:" database
// is one database for the whole pool.
type Connector struct {
	cfg Config
	drv *Driver

	mu     sync.Mutex
	db     *engine.DB // opened at the first Connect; guarded by mu
	ref    *sharedDB  // registry entry, nil for a private :memory: database
	closed bool
}

var (
	_ driver.Connector = (*Connector)(nil)
)

// NewConnector returns a Connector for cfg, for use with sql.OpenDB.
func NewConnector(cfg Config) (*Connector, error) {
	return &Connector{cfg: cfg, drv: &Driver{}}, nil
}

// Connect returns a new connection (an engine session).
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db, err := c.engine()
	if err != nil {
		return nil, err
	}
	cn := newConn(db, &c.cfg)
	for _, p := range c.cfg.Pragmas {
		if _, err := cn.ExecContext(ctx, "PRAGMA "+p, nil); err != nil {
			cn.Close()
			return nil, fmt.Errorf("ladybug: DSN _pragma=%s: %w", p, err)
		}
	}
	return cn, nil
}

// connectOwned is Connect for Driver.Open: the connection closes the
// connector with itself.
func (c *Connector) connectOwned(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connect(ctx)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	cn := dc.(*conn)
	cn.owner = c
	return cn, nil
}

// Driver returns the driver.
func (c *Connector) Driver() driver.Driver { return c.drv }

// Close releases the database; it runs once, and the engine closes when the
// last Connector that shares it closes.
func (c *Connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	db := c.db
	c.db = nil
	if db == nil {
		return nil
	}
	if c.ref != nil {
		return release(c.ref)
	}
	return db.Close()
}

// engine opens (or finds, for a shared file or named memory database) the
// engine behind this connector.
func (c *Connector) engine() (*engine.DB, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errClosed
	}
	if c.db != nil {
		return c.db, nil
	}
	if c.cfg.Clone != "" {
		return c.cloneEngine()
	}
	if c.cfg.Memory && c.cfg.Name == "" {
		db, err := engine.Open(c.cfg.engineOptions())
		if err != nil {
			return nil, err
		}
		c.db = db
		return db, nil
	}
	ref, err := acquire(&c.cfg)
	if err != nil {
		return nil, err
	}
	c.db, c.ref = ref.db, ref
	return c.db, nil
}

// engineOptions maps the DSN config onto the engine's options.
func (c *Config) engineOptions() engine.Options {
	return engine.Options{
		Path:        c.Path,
		Memory:      c.Memory,
		PageSize:    c.PageSize,
		CacheSize:   c.CacheSize,
		BusyTimeout: c.BusyTimeout,
		Sync:        engine.SyncMode(c.Sync),
		ReadOnly:    c.Mode == ModeReadOnly,
		Create:      c.Mode == ModeReadWriteCreate,
		ForeignKeys: c.ForeignKeys,
		MemoryLimit: c.MemoryLimit,
		Limits:      c.Limits,
	}
}
