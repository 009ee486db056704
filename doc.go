// Package ladybug is an embedded SQL database in pure Go, used through
// database/sql:
//
//	import _ "github.com/ladybugsql/ladybug"
//
//	db, err := sql.Open("ladybug", "app.db")
//
// The driver registers as "ladybug". A DSN is a file path, ":memory:" (one
// in-memory database shared by every pooled connection of that *sql.DB), or
// "file:NAME?mode=memory" (one in-memory database per NAME in the process),
// followed by "?key=value&..." options:
//
//	mode          ro | rw | rwc (default rwc: create if missing)
//	cache_size    page cache size: bytes or 64MiB-style (default 32MiB)
//	page_size     page size of a new database file (default 4096)
//	busy_timeout  how long a writer waits for the writer lock: ms or 5s-style (default 5s)
//	sync          full (default) | normal | off
//	foreign_keys  on (default) | off
//	memory_limit  per-query memory limit (default none)
//	limit_NAME    lower one of SQLite's limits (limit_length, limit_expr_depth…: docs/LIMITS.md)
//	loc           zone of returned times: UTC (default) | Local | an IANA name
//
// txlock, values, clone and the mattn/modernc spellings (_busy_timeout,
// _pragma, …) are in README's "DSN reference". An unknown option or a bad
// value is an error from sql.Open.
//
// The root package is thin: it maps database/sql's Conn, Stmt, Tx and Rows
// onto an engine session (package engine) and converts values both ways.
// Columns declared BOOLEAN come back as bool, DATE/DATETIME/TIMESTAMP as
// time.Time; time.Time arguments are stored as SQLite-style UTC text.
package ladybug
