package engine

import (
	"errors"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/grammar"
)

// Sentinel errors of the engine API. Each is an *errs.Error so callers can
// match it with errors.Is against the errs sentinels too.
var (
	// ErrClosed is returned by any call on a closed DB, Session, Stmt or Rows.
	ErrClosed = errs.New(errs.CodeMisuse, "database is closed")
	// ErrNoTx is returned by Commit when no transaction is open.
	ErrNoTx = errs.New(errs.CodeGeneric, "cannot commit - no transaction is active")
	// ErrTxOpen is returned by Begin when a transaction is already open.
	ErrTxOpen = errs.New(errs.CodeGeneric, "cannot start a transaction within a transaction")
)

// syntaxError wraps a parse error so errors.As finds *grammar.SyntaxError.
func syntaxError(err error) error {
	var se *grammar.SyntaxError
	if errors.As(err, &se) {
		return errs.Of(errs.CodeSyntax, se.Error(), se)
	}
	return errs.Wrap(errs.CodeSyntax, err)
}
