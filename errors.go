package ladybug

import (
	"runtime/debug"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// Error is the error every ladybug call returns: a stable Code callers
// branch on, SQLite's extended result code in ExtendedCode, and a message
// that starts with "ladybug: " and names the table, column or position.
type Error = errs.Error

// Code is an error class.
type Code = errs.Code

// Error codes.
const (
	CodeGeneric      = errs.CodeGeneric
	CodeSyntax       = errs.CodeSyntax
	CodeBusy         = errs.CodeBusy
	CodeReadOnly     = errs.CodeReadOnly
	CodeCorrupt      = errs.CodeCorrupt
	CodeFull         = errs.CodeFull
	CodeIO           = errs.CodeIO
	CodeConstraint   = errs.CodeConstraint
	CodeMismatch     = errs.CodeMismatch
	CodeMisuse       = errs.CodeMisuse
	CodeRange        = errs.CodeRange
	CodeTooBig       = errs.CodeTooBig
	CodeInterrupt    = errs.CodeInterrupt
	CodeNotSupported = errs.CodeNotSupported
)

// Sentinels for errors.Is. A constraint error matches both ErrConstraint and
// the sentinel of its kind.
var (
	// ErrBusy: the writer lock was not free within busy_timeout, or a
	// deferred transaction's snapshot went stale before its first write.
	ErrBusy = errs.ErrBusy
	// ErrReadOnly: a write on a mode=ro database or a read-only transaction.
	ErrReadOnly = errs.ErrReadOnly
	// ErrCorrupt: the file or its WAL failed a checksum or structure check.
	ErrCorrupt = errs.ErrCorrupt
	// ErrSyntax: the SQL does not parse; errors.As finds the position.
	ErrSyntax = errs.ErrSyntax
	// ErrConstraint and its kinds: a write broke a declared constraint.
	ErrConstraint           = errs.ErrConstraint
	ErrConstraintUnique     = errs.ErrConstraintUnique
	ErrConstraintPrimaryKey = errs.ErrConstraintPrimaryKey
	ErrConstraintForeignKey = errs.ErrConstraintForeignKey
	ErrConstraintNotNull    = errs.ErrConstraintNotNull
	ErrConstraintCheck      = errs.ErrConstraintCheck
	// ErrNotSupported: valid SQL that ladybug does not run (ATTACH, ...).
	ErrNotSupported = errs.ErrNotSupported
	// ErrInterrupt: the context was cancelled or its deadline passed.
	ErrInterrupt = errs.ErrInterrupt
)

var (
	errClosed     = errs.New(errs.CodeMisuse, "database is closed")
	errEmptyQuery = errs.New(errs.CodeMisuse, "empty query: no SQL statement to run")
	errTxDone     = errs.New(errs.CodeMisuse, "transaction has already been committed or rolled back")
)

// recoverErr turns a panic below the driver into an error, so no panic
// reaches the caller; the stack goes into the message for the bug report.
func recoverErr(err *error) {
	if r := recover(); r != nil {
		*err = errs.New(errs.CodeGeneric, "internal error: %v\n%s", r, debug.Stack())
	}
}
