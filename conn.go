package ladybug

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/ladybugsql/ladybug/engine"
	"github.com/ladybugsql/ladybug/engine/errs"
)

// conn is one database/sql connection: an engine session. database/sql uses
// a conn from one goroutine at a time.
type conn struct {
	db     *engine.DB
	sess   *engine.Session
	cfg    *Config
	owner  *Connector // closed with the conn when opened through Driver.Open
	tx     *tx        // the open driver.Tx, if any
	closed bool
	// spareRows is the last closed rows, reused by the next query.
	spareRows *rows
	// spareStmt is the engine statement of the last unprepared Query or
	// Exec, closed, which the next one is prepared in.
	spareStmt *engine.Stmt
	// lastResult is the last Exec's result, returned again while the
	// numbers repeat.
	lastResult *result
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

func newConn(db *engine.DB, cfg *Config) *conn {
	sess := db.NewSession()
	if cfg.Mode == ModeReadOnly {
		sess.SetReadOnly(true) // the engine may be shared with read-write connectors
	}
	return &conn{db: db, sess: sess, cfg: cfg}
}

// Prepare delegates to PrepareContext.
func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext parses and binds query, so invalid SQL or an unknown table
// fails here rather than at the first Exec.
func (c *conn) PrepareContext(ctx context.Context, query string) (ds driver.Stmt, err error) {
	defer recoverErr(&err)
	st, err := c.prepare(ctx, query, nil)
	if err != nil {
		return nil, err
	}
	return &stmt{c: c, st: st}, nil
}

// prepare checks the connection and the query text, then prepares it in
// the engine (through its plan cache), in old when it is a closed
// statement of this connection.
func (c *conn) prepare(ctx context.Context, query string, old *engine.Stmt) (*engine.Stmt, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if strings.TrimSpace(query) == "" {
		return nil, errEmptyQuery
	}
	return c.sess.PrepareReuse(ctx, query, old)
}

// prepareOnce prepares a query run once (unprepared Query or Exec), in the
// connection's spare statement when there is one.
func (c *conn) prepareOnce(ctx context.Context, query string) (*engine.Stmt, error) {
	old := c.spareStmt
	c.spareStmt = nil
	return c.prepare(ctx, query, old)
}

// closeOnce closes a statement prepareOnce made and keeps it for the next.
func (c *conn) closeOnce(st *engine.Stmt) error {
	err := st.Close()
	c.spareStmt = st
	return err
}

// Close ends the session, rolling back an open transaction.
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	err := c.sess.Close()
	if c.owner != nil {
		if cerr := c.owner.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Begin delegates to BeginTx.
func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a transaction. Every isolation level database/sql names up
// to Serializable is satisfied by snapshot isolation with one writer; the
// write-ordering levels are refused rather than silently weakened.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault, sql.LevelReadUncommitted, sql.LevelReadCommitted,
		sql.LevelRepeatableRead, sql.LevelSnapshot, sql.LevelSerializable:
	default:
		return nil, errs.New(errs.CodeNotSupported, "isolation level %s is not supported", sql.IsolationLevel(opts.Isolation))
	}
	immediate := !opts.ReadOnly && c.cfg.TxLock == TxLockImmediate && c.cfg.Mode != ModeReadOnly
	if err := c.sess.Begin(ctx, engine.TxOptions{ReadOnly: opts.ReadOnly, Immediate: immediate}); err != nil {
		return nil, err
	}
	c.tx = &tx{c: c}
	return c.tx, nil
}

// ExecContext runs query (a script of one or more statements) with args.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (res driver.Result, err error) {
	defer recoverErr(&err)
	st, err := c.prepareOnce(ctx, query)
	if err != nil {
		return nil, err
	}
	defer c.closeOnce(st)
	return c.execStmt(ctx, st, args)
}

// QueryContext runs query with args and returns its rows.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (rows driver.Rows, err error) {
	defer recoverErr(&err)
	st, err := c.prepareOnce(ctx, query)
	if err != nil {
		return nil, err
	}
	r, err := queryStmt(ctx, st, args, c)
	if err != nil {
		c.closeOnce(st)
		return nil, err
	}
	r.closeStmt = st
	return r, nil
}

// Ping reports whether the connection is usable.
func (c *conn) Ping(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return ctx.Err()
}

// ResetSession runs before a pooled connection is reused: a transaction a
// caller left open is rolled back so the next user starts clean.
func (c *conn) ResetSession(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	c.tx = nil
	return c.sess.ResetSession()
}

// IsValid reports whether the connection may go back to the pool.
func (c *conn) IsValid() bool { return !c.closed }

// CheckNamedValue converts an argument to a value the engine stores; see
// convertArg.
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if _, ok := nv.Value.(int); ok {
		return nil // kept as boxed by the caller (an int64 would box again); toValue reads it
	}
	v, err := convertArg(nv.Value)
	if err != nil {
		if err == driver.ErrSkip {
			return err
		}
		return fmt.Errorf("ladybug: argument %s: %w", argName(nv), err)
	}
	nv.Value = v
	return nil
}

func argName(nv *driver.NamedValue) string {
	if nv.Name != "" {
		return nv.Name
	}
	return fmt.Sprintf("$%d", nv.Ordinal)
}
