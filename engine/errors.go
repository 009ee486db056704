package engine

import "github.com/ladybugsql/ladybug/engine/errs"

// Sentinel errors of the engine API. Each is an *errs.Error so callers can
// match it with errors.Is against the errs sentinels too.
var (
	// ErrClosed is returned by any call on a closed DB, Session, Stmt or Rows.
	ErrClosed = errs.New(errs.CodeMisuse, "database is closed")
	// ErrNoTx is returned by Commit or Rollback when no transaction is open.
	ErrNoTx = errs.New(errs.CodeGeneric, "cannot commit - no transaction is active")
	// ErrTxOpen is returned by Begin when a transaction is already open.
	ErrTxOpen = errs.New(errs.CodeGeneric, "cannot start a transaction within a transaction")
)
