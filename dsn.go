package ladybug

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine"
)

// Mode is the access mode of a database: read-only, read-write, or
// read-write-create.
type Mode int

// Access modes, as the DSN's mode= option names them.
const (
	ModeReadWriteCreate Mode = iota // rwc: create the file if missing (default)
	ModeReadWrite                   // rw: the file must exist
	ModeReadOnly                    // ro: never modify the file or its WAL
)

// SyncMode says when a commit is made durable. Its values are the
// storage layer's (a test pins them equal).
type SyncMode int

// Sync modes, as the DSN's sync= option names them.
const (
	SyncFull   SyncMode = iota // fsync the WAL at every commit (default)
	SyncNormal                 // fsync at checkpoints: survives a process crash, not power loss
	SyncOff                    // never fsync
)

// TxLock is when a read-write transaction takes the writer lock.
type TxLock int

// Transaction lock modes, as the DSN's txlock= option names them.
const (
	// TxLockImmediate takes the writer lock at BEGIN (waiting up to
	// busy_timeout for it), so a transaction that reads and then writes
	// never fails on a stale snapshot. The default.
	TxLockImmediate TxLock = iota
	// TxLockDeferred takes it at the first write, as SQLite's BEGIN does:
	// more read concurrency, but a transaction whose snapshot went stale
	// before its first write fails with a busy error.
	TxLockDeferred
)

// Config is a parsed DSN: where the database lives and how to open it.
// NewConnector accepts one directly.
type Config struct {
	// Path is the database file. Empty for an in-memory database.
	Path string
	// Memory selects an in-memory database. With Name empty it is private
	// to one *sql.DB (":memory:"); with Name set it is shared by every
	// *sql.DB in the process that opens the same name, while any is open.
	Memory bool
	Name   string
	// Clone, for an in-memory database, makes it a copy-on-write clone of
	// the database named Clone (DSN clone=TEMPLATE): a named memory
	// database open in this process, or a database file. See Clone.
	Clone string

	Mode        Mode
	CacheSize   int64         // page cache bytes; 0 means 32 MiB
	PageSize    int           // at creation; 0 means 4096
	BusyTimeout time.Duration // writer-lock wait; 0 means 5 s
	Sync        SyncMode
	ForeignKeys bool  // enforced unless foreign_keys=off
	MemoryLimit int64 // per-query memory limit in bytes; 0 means none
	// Limits lower SQLite's run-time limits (DSN limit_length=…,
	// limit_expr_depth=… : docs/LIMITS.md); zero fields keep the defaults.
	Limits   Limits
	Location *time.Location // zone of returned time.Time values; nil means UTC
	// StoredValues returns every value as stored (int64, float64, string,
	// []byte, nil), without the BOOLEAN → bool and DATE/TIMESTAMP →
	// time.Time mapping: what a shell or a dump needs to write the data back.
	StoredValues bool
	// TxLock applies to BeginTx without ReadOnly; a read-only
	// transaction is always a lock-free snapshot.
	TxLock TxLock
	// Pragmas run on every new connection, in order: each "name(value)"
	// or "name=value", as the DSN's _pragma= gives them (modernc's form).
	Pragmas []string
}

// defaultConfig is what an empty DSN option list means.
func defaultConfig() Config {
	return Config{ForeignKeys: true, BusyTimeout: 5 * time.Second}
}

// ParseDSN parses a data source name: a path, ":memory:", or
// "file:NAME?mode=memory", followed by "?key=value&..." options. An unknown
// option or a bad value is an error.
func ParseDSN(dsn string) (Config, error) {
	cfg := defaultConfig()
	path, query, _ := strings.Cut(dsn, "?")
	isURI := strings.HasPrefix(path, "file:")
	if isURI {
		path = strings.TrimPrefix(path, "file:")
		p, err := url.PathUnescape(path)
		if err != nil {
			return cfg, fmt.Errorf("ladybug: bad DSN %q: %v", dsn, err)
		}
		path = p
	}
	opts, err := url.ParseQuery(query)
	if err != nil {
		return cfg, fmt.Errorf("ladybug: bad DSN options %q: %v", query, err)
	}
	memNamed := false
	for key, vals := range opts {
		if key == "_pragma" {
			for _, v := range vals {
				if err := cfg.addPragma(v); err != nil {
					return cfg, err
				}
			}
			continue
		}
		if len(vals) != 1 {
			return cfg, fmt.Errorf("ladybug: DSN option %q given %d times", key, len(vals))
		}
		if key == "mode" && vals[0] == "memory" {
			memNamed = true
			continue
		}
		if err := cfg.setOption(key, vals[0]); err != nil {
			return cfg, err
		}
	}
	switch {
	case path == ":memory:" && !memNamed:
		cfg.Memory = true
	case memNamed:
		if path == "" || path == ":memory:" {
			return cfg, fmt.Errorf("ladybug: DSN %q: mode=memory needs a name, as in file:NAME?mode=memory", dsn)
		}
		cfg.Memory, cfg.Name = true, path
	case path == "":
		return cfg, fmt.Errorf("ladybug: empty database path in DSN %q (use \":memory:\" for an in-memory database)", dsn)
	default:
		cfg.Path = path
	}
	if cfg.Clone != "" && !cfg.Memory {
		return cfg, fmt.Errorf("ladybug: DSN %q: clone= makes an in-memory database: use :memory:?clone=T or file:NAME?mode=memory&clone=T", dsn)
	}
	if cfg.Memory && cfg.Mode == ModeReadOnly {
		return cfg, fmt.Errorf("ladybug: DSN %q: an in-memory database cannot be opened read-only", dsn)
	}
	return cfg, nil
}

// setOption applies one DSN option.
func (c *Config) setOption(key, val string) error {
	bad := func(want string) error {
		return fmt.Errorf("ladybug: DSN option %s=%q: want %s", key, val, want)
	}
	switch key {
	case "mode":
		switch val {
		case "ro":
			c.Mode = ModeReadOnly
		case "rw":
			c.Mode = ModeReadWrite
		case "rwc":
			c.Mode = ModeReadWriteCreate
		default:
			return bad("ro, rw, rwc or memory")
		}
	case "cache_size":
		n, err := parseBytes(val)
		if err != nil || n < 64*1024 {
			return bad("a size of at least 64KiB (bytes, or with a KiB/MiB/GiB suffix)")
		}
		c.CacheSize = n
	case "page_size":
		n, err := strconv.Atoi(val)
		if err != nil || n < engine.MinPageSize || n > engine.MaxPageSize || n&(n-1) != 0 {
			return bad(fmt.Sprintf("a power of two from %d to %d", engine.MinPageSize, engine.MaxPageSize))
		}
		c.PageSize = n
	case "busy_timeout", "_busy_timeout":
		d, err := parseDuration(val)
		if err != nil {
			return bad("milliseconds or a Go duration such as 5s")
		}
		c.BusyTimeout = d
	case "sync", "synchronous", "_sync", "_synchronous":
		switch strings.ToLower(val) {
		case "full", "2":
			c.Sync = SyncFull
		case "normal", "1":
			c.Sync = SyncNormal
		case "off", "0":
			c.Sync = SyncOff
		default:
			return bad("full, normal or off")
		}
	case "foreign_keys", "_foreign_keys", "_fk":
		b, err := parseBool(val)
		if err != nil {
			return bad("on or off")
		}
		c.ForeignKeys = b
	case "memory_limit", "mem_limit":
		n, err := parseBytes(val)
		if err != nil || n < 0 {
			return bad("a size in bytes, or with a KiB/MiB/GiB suffix")
		}
		c.MemoryLimit = n
	case "limit_length", "limit_sql_length", "limit_column", "limit_expr_depth", "limit_compound_select",
		"limit_function_arg", "limit_like_pattern_length", "limit_variable_number", "limit_trigger_depth":
		n, err := parseBytes(val)
		if err != nil || n < 1 {
			return bad("a positive number (a limit can only be lowered: larger values keep SQLite's default)")
		}
		setLimit(&c.Limits, strings.TrimPrefix(key, "limit_"), n)
	case "clone":
		if val == "" {
			return bad("the name of a memory database or the path of a database file")
		}
		c.Clone = val
	case "_cache_size":
		// SQLite's number: N > 0 pages (of 4 KiB), N < 0 KiB.
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n == 0 {
			return bad("pages, or -KiB as in PRAGMA cache_size (ladybug's own option is cache_size=bytes)")
		}
		if n > 0 {
			n *= 4096
		} else {
			n *= -1024
		}
		c.CacheSize = max(n, 64*1024)
	case "_journal_mode", "_journal", "journal_mode":
		if !strings.EqualFold(val, "wal") {
			return bad("WAL: ladybug always writes a write-ahead log (drop the option)")
		}
	case "cache":
		switch val {
		case "shared":
			// ladybug's memory databases are already shared: ":memory:" by
			// the pool's connections, file:NAME?mode=memory by name.
		default:
			return bad("shared: every connection of a *sql.DB shares its :memory: database (no private cache)")
		}
	case "txlock", "_txlock":
		switch strings.ToLower(val) {
		case "immediate", "exclusive":
			c.TxLock = TxLockImmediate
		case "deferred":
			c.TxLock = TxLockDeferred
		default:
			return bad("immediate or deferred")
		}
	case "loc", "_loc":
		loc, err := parseLocation(val)
		if err != nil {
			return bad("UTC, Local or an IANA zone name")
		}
		c.Location = loc
	case "values":
		switch val {
		case "go":
			c.StoredValues = false
		case "stored":
			c.StoredValues = true
		default:
			return bad("go or stored")
		}
	default:
		return fmt.Errorf("ladybug: unknown DSN option %q (known: mode, cache_size, page_size, busy_timeout, sync, foreign_keys, memory_limit, limit_NAME (docs/LIMITS.md), loc, values, clone, txlock; mattn/modernc forms: _busy_timeout, _txlock, _foreign_keys, _fk, _sync, _synchronous, _cache_size, _journal_mode, _loc, _pragma, cache=shared)", key)
	}
	return nil
}

// Limits lower SQLite's run-time limits for a database (sqlite3_limit):
// see engine.Limits and docs/LIMITS.md.
type Limits = engine.Limits

// setLimit stores the DSN limit name (without "limit_") as n, capped to what
// its field holds.
func setLimit(l *Limits, name string, n int64) {
	if name == "length" {
		l.Length = n
		return
	}
	*map[string]*int{"sql_length": &l.SQLLength, "column": &l.Column, "expr_depth": &l.ExprDepth,
		"compound_select": &l.CompoundSelect, "function_arg": &l.FunctionArg, "like_pattern_length": &l.LikePatternLength,
		"variable_number": &l.VariableNumber, "trigger_depth": &l.TriggerDepth}[name] = int(min(n, 1<<31-1))
}

// registryKey names the engine a config opens, so every connector of the
// same file or named memory database in the process shares one engine,
// whatever its mode: a mode=ro connector on a file the process also has
// open read-write gets read-only sessions on the shared engine.
func (c *Config) registryKey() string {
	if c.Memory {
		return "memory:" + c.Name
	}
	p, err := filepath.Abs(c.Path)
	if err != nil {
		p = filepath.Clean(c.Path)
	}
	return "file:" + p
}

func parseBytes(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("size too large")
	}
	return n * mult, nil
}

func parseDuration(s string) (time.Duration, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("negative")
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		return 0, fmt.Errorf("negative")
	}
	return d, err
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "on", "true", "yes":
		return true, nil
	case "0", "off", "false", "no":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean")
}

func parseLocation(s string) (*time.Location, error) {
	switch s {
	case "UTC", "utc":
		return time.UTC, nil
	case "Local", "local", "auto":
		return time.Local, nil
	}
	return time.LoadLocation(s)
}

var pragmaSpec = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_.]*\s*(\(.*\)|=.*)?\s*$`)

// addPragma records a DSN _pragma, to run as "PRAGMA v" on every new
// connection.
func (c *Config) addPragma(v string) error {
	if !pragmaSpec.MatchString(v) {
		return fmt.Errorf("ladybug: DSN option _pragma=%q: want name(value) or name=value, as in _pragma=busy_timeout(5000)", v)
	}
	c.Pragmas = append(c.Pragmas, strings.TrimSpace(v))
	return nil
}
