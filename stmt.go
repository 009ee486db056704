package ladybug

import (
	"context"
	"database/sql/driver"

	"github.com/ladybugsql/ladybug/engine"
)

// stmt is a prepared statement: the engine's bound plan, re-prepared by the
// engine after a schema change.
type stmt struct {
	c      *conn
	st     *engine.Stmt
	closed bool
}

var (
	_ driver.Stmt              = (*stmt)(nil)
	_ driver.StmtExecContext   = (*stmt)(nil)
	_ driver.StmtQueryContext  = (*stmt)(nil)
	_ driver.NamedValueChecker = (*stmt)(nil)
)

// Close releases the statement.
func (s *stmt) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.st.Close()
}

// NumInput is the true number of placeholders, so database/sql checks the
// argument count before the call; -1 only where one name is written with
// two prefixes (:a and @a), which one named argument binds.
func (s *stmt) NumInput() int { return s.st.NumInput() }

// Exec delegates to ExecContext.
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), valuesToNamed(args))
}

// Query delegates to QueryContext.
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), valuesToNamed(args))
}

// ExecContext runs the statement.
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (res driver.Result, err error) {
	if s.closed || s.c.closed {
		return nil, driver.ErrBadConn
	}
	defer recoverErr(&err)
	return s.c.execStmt(ctx, s.st, args)
}

// QueryContext runs the statement and returns its rows.
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (rows driver.Rows, err error) {
	if s.closed || s.c.closed {
		return nil, driver.ErrBadConn
	}
	defer recoverErr(&err)
	r, err := queryStmt(ctx, s.st, args, s.c)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// CheckNamedValue converts arguments like the connection does.
func (s *stmt) CheckNamedValue(nv *driver.NamedValue) error { return s.c.CheckNamedValue(nv) }

// execStmt runs st. Its result is the connection's previous one when both
// numbers are equal (results are immutable, so sharing one is safe): a
// run of UPDATEs or DELETEs of one row each allocates no result.
func (c *conn) execStmt(ctx context.Context, st *engine.Stmt, args []driver.NamedValue) (driver.Result, error) {
	var buf [4]engine.Arg // Exec is complete when it returns: the engine keeps no argument
	eargs, err := engineArgsInto(buf[:0], args, true)
	if err != nil {
		return nil, err
	}
	r, err := st.Exec(ctx, eargs)
	if err != nil {
		return nil, err
	}
	if c.lastResult == nil || c.lastResult.r != r {
		c.lastResult = &result{r}
	}
	return c.lastResult, nil
}

func queryStmt(ctx context.Context, st *engine.Stmt, args []driver.NamedValue, c *conn) (*rows, error) {
	var buf [4]engine.Arg
	eargs, err := engineArgsInto(buf[:0], args, false)
	if err != nil {
		return nil, err
	}
	r, err := st.Query(ctx, eargs)
	if err != nil {
		return nil, err
	}
	return newRows(r, c), nil
}

func valuesToNamed(args []driver.Value) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return nv
}

// result is a driver.Result with both numbers known at Exec time.
type result struct{ r engine.Result }

// LastInsertId is the rowid of the last row inserted by the statement (or
// the connection's previous one when this statement inserted none).
func (r result) LastInsertId() (int64, error) { return r.r.LastInsertID, nil }

// RowsAffected is the number of rows the statement inserted, updated or deleted.
func (r result) RowsAffected() (int64, error) { return r.r.RowsAffected, nil }
