package engine

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// TxOptions configure Session.Begin.
type TxOptions struct{ ReadOnly, Immediate bool }

// Session is one connection's state: its open transaction, if any. It is used
// by one goroutine at a time.
type Session struct {
	db *DB
}

// Close rolls back an open transaction and releases the session.
func (s *Session) Close() error { return nil }

// Prepare parses and binds sql, which may hold several statements.
func (s *Session) Prepare(ctx context.Context, sql string) (*Stmt, error) {
	return nil, errs.New(errs.CodeNotSupported, "not supported: prepare")
}

// Begin opens an explicit transaction.
func (s *Session) Begin(ctx context.Context, o TxOptions) error {
	return errs.New(errs.CodeNotSupported, "not supported: begin")
}

// Commit commits the open transaction.
func (s *Session) Commit() error { return ErrNoTx }

// Rollback rolls back the open transaction.
func (s *Session) Rollback() error { return ErrNoTx }

// InTx reports whether an explicit transaction is open.
func (s *Session) InTx() bool { return false }

// ResetSession is called between pool uses; it rolls back a leftover
// transaction.
func (s *Session) ResetSession() error { return nil }
