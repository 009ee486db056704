package conformance

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	_ "github.com/ladybugsql/ladybug" // driver "ladybug"
	_ "modernc.org/sqlite"            // driver "sqlite", the oracle
)

// DefaultTimeout bounds one statement on ladybug, OracleTimeout on SQLite
// (which is slow under -race on a loaded machine, and must never be cut
// short). A statement that does not return in time marks its Target broken:
// the engine is left alone and later statements on it fail at once.
const (
	DefaultTimeout = 30 * time.Second
	OracleTimeout  = 2 * time.Minute
)

// maxRows stops a runaway result before it exhausts memory.
const maxRows = 1 << 20

var errTooManyRows = errors.New("conformance: result has more than 1048576 rows")

// Rows is a fully read query result.
type Rows struct {
	Columns []string
	Values  [][]any // one slice per row; int64, float64, string, []byte, bool, time.Time or nil
}

// Target is one engine behind database/sql, used through a single
// connection so session state (temp tables, changes(), last_insert_rowid())
// carries from one statement to the next as it does in a script. Every call
// runs under a timeout and a recover, so a hang or a panic in an engine
// becomes an error of the statement that caused it.
type Target struct {
	Name    string // EngineLadybug or EngineSQLite
	Timeout time.Duration

	db     *sql.DB
	conn   *sql.Conn
	broken error // set after an open failure, panic or timeout
}

// driverName maps an engine name to its database/sql driver and DSN. The
// single connection never competes for ladybug's writer lock, so a short
// busy_timeout only turns a leaked lock into a prompt error instead of a
// five-second wait per statement; the memory limit turns a runaway query
// into an error of its own instead of a crash of the whole run.
func driverName(engine string) (string, string) {
	if engine == EngineSQLite {
		return "sqlite", ":memory:"
	}
	return "ladybug", ":memory:?busy_timeout=200&memory_limit=1073741824"
}

// OpenTarget opens a fresh in-memory database of engine. It never fails:
// an open error makes every later call return that error, so a broken
// engine shows up as failing records rather than an aborted run.
func OpenTarget(engine string) *Target {
	t := &Target{Name: engine, Timeout: DefaultTimeout}
	if engine == EngineSQLite {
		t.Timeout = OracleTimeout
	}
	err := t.guard(func(ctx context.Context) error {
		db, err := sql.Open(driverName(engine))
		if err != nil {
			return err
		}
		conn, err := db.Conn(ctx)
		if err != nil {
			_ = db.Close()
			return err
		}
		t.db, t.conn = db, conn
		return nil
	})
	if err != nil {
		t.broken = fmt.Errorf("open %s: %w", engine, err)
	}
	return t
}

// Broken returns the error that made the target unusable, or nil.
func (t *Target) Broken() error { return t.broken }

// Close releases the connection and database unless the target is broken
// (a hung call may still hold them).
func (t *Target) Close() {
	if t.broken != nil || t.db == nil {
		return
	}
	_ = t.guard(func(context.Context) error {
		_ = t.conn.Close()
		return t.db.Close()
	})
}

// Exec runs a statement that returns no rows, with args bound to its
// placeholders, and reports RowsAffected
// (-1 when the driver does not know).
func (t *Target) Exec(query string, args ...any) (int64, error) {
	var n int64 = -1
	err := t.guard(func(ctx context.Context) error {
		res, err := t.conn.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		if a, err := res.RowsAffected(); err == nil {
			n = a
		}
		return nil
	})
	return n, err
}

// Query runs a statement with args bound to its placeholders and reads
// all its rows.
func (t *Target) Query(query string, args ...any) (*Rows, error) {
	var out *Rows
	err := t.guard(func(ctx context.Context) error {
		r, err := readRows(ctx, t.conn, query, args...)
		out = r
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func readRows(ctx context.Context, conn *sql.Conn, query string, args ...any) (*Rows, error) {
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := &Rows{Columns: cols}
	for rows.Next() {
		if len(out.Values) >= maxRows {
			return nil, errTooManyRows
		}
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out.Values = append(out.Values, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, rows.Close()
}

// guard runs fn with a deadline on its own goroutine. A panic becomes an
// error and, like a timeout, breaks the target.
func (t *Target) guard(fn func(ctx context.Context) error) error {
	if t.broken != nil {
		return t.broken
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.Timeout)
	defer cancel()
	done := make(chan error, 1)
	panicked := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				panicked <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- fn(ctx)
	}()
	timer := time.NewTimer(t.Timeout + time.Second)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case err := <-panicked:
		t.broken = fmt.Errorf("%s is unusable after an earlier %w", t.Name, err)
		return err
	case <-timer.C:
		dumpStacks(t.Name)
		t.broken = fmt.Errorf("%s is unusable after an earlier statement timed out", t.Name)
		return fmt.Errorf("timeout: no answer after %v", t.Timeout)
	}
}

// dumpStacks appends every goroutine's stack to the file named by
// LADYBUG_DIFF_HANGDUMP, if set, so a statement that timed out can be told
// apart as a hang (a goroutine blocked in the engine) or a slow machine.
func dumpStacks(engine string) {
	path := os.Getenv("LADYBUG_DIFF_HANGDUMP")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	buf := make([]byte, 1<<22)
	n := runtime.Stack(buf, true)
	fmt.Fprintf(f, "=== %s timed out at %s\n%s\n", engine, time.Now().Format(time.RFC3339), buf[:n])
}

// isQuery reports whether a statement record's SQL returns rows, so it must
// be run with Query and drained to see errors raised while stepping.
func isQuery(sqlText string) bool {
	s := strings.TrimSpace(stripComments(sqlText))
	kw, _, _ := strings.Cut(s, " ")
	kw, _, _ = strings.Cut(kw, "\n")
	kw, _, _ = strings.Cut(kw, "(")
	switch strings.ToUpper(kw) {
	case "SELECT", "VALUES", "WITH", "PRAGMA", "EXPLAIN":
		return true
	}
	return strings.Contains(strings.ToUpper(s), "RETURNING")
}

// stripComments drops leading "--" comment lines.
func stripComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, "--") {
			return s
		}
		_, rest, ok := strings.Cut(s, "\n")
		if !ok {
			return ""
		}
		s = rest
	}
}
