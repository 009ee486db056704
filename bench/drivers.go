package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// busyTimeoutMS is the busy timeout every driver gets, in milliseconds.
const busyTimeoutMS = 5000

// dbFile is the database's file name inside a cell's directory.
const dbFile = "bench.db"

// driverNames lists the drivers in table order.
var driverNames = []string{"ladybug", "modernc", "mattn", "ncruces"}

// openOpts is how a case wants its database opened.
type openOpts struct {
	mode       string // "file" or "memory"
	sync       string // "full", "normal" or "off"
	cacheBytes int64  // page cache bound; 0 keeps the engine's default
}

// driverSpec knows how to open one driver with its recommended settings.
type driverSpec struct {
	name    string // harness name: ladybug, modernc, mattn, ncruces
	sqlName string // database/sql driver name
	flavor  string // binary flavor that links it; "" for every flavor
	dsn     func(path, memName string, o openOpts) string
}

var specs = map[string]driverSpec{
	"ladybug": {name: "ladybug", sqlName: "ladybug", flavor: "ladybug", dsn: ladybugDSN},
	"modernc": {name: "modernc", sqlName: "sqlite", dsn: moderncDSN},
	"mattn":   {name: "mattn", sqlName: "sqlite3", flavor: "mattn", dsn: mattnDSN},
	"ncruces": {name: "ncruces", sqlName: "sqlite3", flavor: "default", dsn: ncrucesDSN},
}

// linkedHere reports whether this binary can run the driver itself.
func (s driverSpec) linkedHere() bool {
	return s.flavor == "" || s.flavor == flavor
}

// registered reports whether database/sql knows the driver's name.
func (s driverSpec) registered() bool {
	return s.linkedHere() && slices.Contains(sql.Drivers(), s.sqlName)
}

// sqliteSync maps the harness's sync level to PRAGMA synchronous.
func sqliteSync(sync string) string {
	return strings.ToUpper(sync)
}

// kib is a cache size in KiB, as SQLite's negative cache_size wants it.
func kib(b int64) int64 { return (b + 1023) / 1024 }

func ladybugDSN(path, _ string, o openOpts) string {
	base := path
	q := []string{fmt.Sprintf("busy_timeout=%d", busyTimeoutMS)}
	if o.mode == "memory" {
		base = ":memory:"
	} else {
		q = append(q, "sync="+o.sync)
	}
	if o.cacheBytes > 0 {
		q = append(q, fmt.Sprintf("cache_size=%dKiB", kib(o.cacheBytes)))
	}
	return base + "?" + strings.Join(q, "&")
}

// sqlitePragmas are the per-connection settings shared by modernc and
// ncruces, which both take _pragma=name(value) DSN parameters.
func sqlitePragmas(o openOpts) []string {
	q := []string{fmt.Sprintf("_pragma=busy_timeout(%d)", busyTimeoutMS), "_txlock=immediate"}
	if o.mode == "file" {
		q = append(q, "_pragma=journal_mode(WAL)", "_pragma=synchronous("+sqliteSync(o.sync)+")")
	}
	if o.cacheBytes > 0 {
		q = append(q, fmt.Sprintf("_pragma=cache_size(-%d)", kib(o.cacheBytes)))
	}
	return q
}

// sqliteBase is the URI of the database: a WAL file, or a named memdb
// database that every connection of the pool shares.
func sqliteBase(path, memName string, o openOpts) string {
	if o.mode == "memory" {
		return "file:/" + memName + "?vfs=memdb&"
	}
	return "file:" + path + "?"
}

func moderncDSN(path, memName string, o openOpts) string {
	return sqliteBase(path, memName, o) + strings.Join(sqlitePragmas(o), "&")
}

func ncrucesDSN(path, memName string, o openOpts) string {
	return sqliteBase(path, memName, o) + strings.Join(sqlitePragmas(o), "&")
}

func mattnDSN(path, memName string, o openOpts) string {
	q := []string{fmt.Sprintf("_busy_timeout=%d", busyTimeoutMS), "_txlock=immediate"}
	if o.mode == "file" {
		q = append(q, "_journal_mode=WAL", "_synchronous="+sqliteSync(o.sync))
	}
	if o.cacheBytes > 0 {
		q = append(q, fmt.Sprintf("_cache_size=-%d", kib(o.cacheBytes)))
	}
	return sqliteBase(path, memName, o) + strings.Join(q, "&")
}

var memSeq atomic.Int64

// handle is an open database plus what keeps it alive.
type handle struct {
	db     *sql.DB
	keeper *sql.Conn // holds a shared in-memory database open
	dsn    string
}

// Close closes the keeper and the pool.
func (h *handle) Close() error {
	if h.keeper != nil {
		_ = h.keeper.Close()
	}
	return h.db.Close()
}

// openDB opens the driver's database in dir (file mode) or a fresh shared
// in-memory database, with the driver's recommended settings, and pings it.
func openDB(s driverSpec, dir string, o openOpts) (*handle, error) {
	if !s.registered() {
		return nil, fmt.Errorf("driver %q not registered in this binary", s.sqlName)
	}
	memName := fmt.Sprintf("bench-%d-%d", pidTag, memSeq.Add(1))
	dsn := s.dsn(filepath.Join(dir, dbFile), memName, o)
	// Errors leave the DSN out (the table's header shows each driver's
	// DSN), so the same failure in many cells reads the same.
	db, err := sql.Open(s.sqlName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	h := &handle{db: db, dsn: dsn}
	if o.mode == "memory" {
		h.keeper, err = db.Conn(context.Background())
	} else {
		err = db.Ping()
	}
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open: %w", err)
	}
	return h, nil
}

// exampleDSNs shows what each driver is opened with, for the table header.
func exampleDSNs(drivers []string, sync string, cacheBytes int64) []string {
	var out []string
	for _, d := range drivers {
		s := specs[d]
		for _, mode := range []string{"file", "memory"} {
			o := openOpts{mode: mode, sync: sync, cacheBytes: cacheBytes}
			out = append(out, fmt.Sprintf("%s %s: %s", d, mode, s.dsn("$DIR/"+dbFile, "bench-N", o)))
		}
	}
	return out
}

// parseSize reads a byte count with an optional KiB, MiB or GiB suffix.
func parseSize(v string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			v, mult = n, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q: want a positive byte count, optionally with KiB, MiB or GiB", v)
	}
	return n * mult, nil
}
